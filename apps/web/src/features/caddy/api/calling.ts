/**
 * Calls in the browser from the person's numbers (docs/consumer-area.md "Calls in the browser"): the business
 * product's in-app calling through the consumer routes.
 * - Ready (`GET /caddy/calling`, once in the shell): the account's softphone identity; the server routes its numbers
 *   to ring these screens. With Twilio the Voice SDK device registers with the token (loaded lazily: the sandbox never
 *   loads it).
 * - Place (`POST /caddy/numbers/{id}/calls {to}`): the answer's token is connected by the sandbox softphone
 *   (`POST /caddy/calls/connect`) or by the Voice SDK (`Device.connect({params})`).
 * - Receive: `call ringing` on the live channel rings the screens; Answer (`/calls/{id}/answer`), Decline
 *   (`/calls/{id}/reject` with the ring's join token), Hang up (`/calls/{id}/hangup`).
 * - `call updated` (live) ends the current call when the server says it ended (the other side hung up, no answer,
 *   voicemail).
 * One call at a time per browser; the state is shared by the shell's call bar and the number page's dialer.
 */
import type { CaddyCallAnswer, CaddyCallingAnswer, Infer } from '@switchboard/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { caddy, errorText, useCaddySession } from './client';
import type { CaddyLivePayload } from './live';
import { caddyKey } from './numbers';

export type CallRinging = CaddyLivePayload<'call ringing'>;
type Placed = Infer<typeof CaddyCallAnswer>['data'];

/** Where the one call of this browser stands. */
export type CallState =
  | { phase: 'idle' }
  | { phase: 'placing'; numberId: number; to: string }
  | { phase: 'outgoing'; callId: number; numberId: number; other: string; since: number }
  | { phase: 'ringing'; ring: CallRinging; busy: boolean }
  | { phase: 'connected'; callId: number; other: string; since: number }
  | { phase: 'ended'; callId: number; other: string; message: string };

let state: CallState = { phase: 'idle' };
const listeners = new Set<() => void>();
let endedTimer: ReturnType<typeof setTimeout> | null = null;

function set(next: CallState): void {
  state = next;
  if (endedTimer) clearTimeout(endedTimer);
  endedTimer = next.phase === 'ended' ? setTimeout(() => set({ phase: 'idle' }), 5000) : null;
  for (const l of listeners) l();
}

/** The current call state (re-renders on change). */
export function useCallState(): CallState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
}

type TwilioCall = { accept(): void; reject(): void; disconnect(): void; on(event: string, fn: () => void): void };
type TwilioDevice = {
  register(): Promise<void>;
  destroy(): void;
  connect(o: { params: Record<string, string> }): Promise<TwilioCall>;
  on(e: string, fn: (c: never) => void): void;
};
let device: TwilioDevice | null = null;
let twilioCall: TwilioCall | null = null;

async function twilioDevice(token: string, register: boolean): Promise<TwilioDevice> {
  const { Device } = await import('@twilio/voice-sdk');
  device?.destroy();
  const d = new Device(token, { closeProtection: true }) as unknown as TwilioDevice;
  d.on('incoming', ((call: TwilioCall) => {
    twilioCall = call;
  }) as (c: never) => void);
  if (register) await d.register();
  device = d;
  return d;
}

/** Readies calls in the browser for the signed-in account (the shell): its numbers ring here; Twilio registers its device. */
export function useCallingReady() {
  const accountId = useCaddySession()?.accountId ?? null;
  const ready = useQuery({
    queryKey: caddyKey(accountId, 'calling'),
    queryFn: () => caddy.get<Infer<typeof CaddyCallingAnswer>>('/calling'),
    enabled: accountId !== null,
    staleTime: 30 * 60_000,
    retry: 1,
    select: (r) => r.data,
  });
  const token = ready.data?.carrier === 'twilio' ? ready.data.token : null;
  useEffect(() => {
    if (!token) return;
    void twilioDevice(token, true).catch(() => undefined);
    return () => {
      device?.destroy();
      device = null;
    };
  }, [token]);
  return ready;
}

/** Connects a placed call: the sandbox softphone, or the Voice SDK with the call's params. */
async function connect(placed: Placed): Promise<void> {
  if (placed.carrier === 'sandbox') {
    await caddy.post('/calls/connect', { token: placed.token });
    return;
  }
  const d = device ?? (await twilioDevice(placed.token, false));
  twilioCall = await d.connect({ params: placed.params });
}

/**
 * Places a call from number `numberId` to `to`. @throws CaddyError (the server's message: an inactive number, the
 * plan's minutes used up, an invalid number) after putting the state back.
 */
export async function placeCall(numberId: number, to: string): Promise<void> {
  if (state.phase !== 'idle' && state.phase !== 'ended') return;
  set({ phase: 'placing', numberId, to });
  try {
    const placed = (await caddy.post<Infer<typeof CaddyCallAnswer>>(`/numbers/${numberId}/calls`, { to })).data;
    set({ phase: 'outgoing', callId: placed.callId, numberId, other: placed.to, since: Date.now() });
    await connect(placed);
  } catch (error) {
    set({ phase: 'idle' });
    throw error;
  }
}

/** Answers the ringing call (409: answered elsewhere or ended). */
export async function answerCall(): Promise<string | null> {
  if (state.phase !== 'ringing') return null;
  const ring = state.ring;
  set({ phase: 'ringing', ring, busy: true });
  try {
    await caddy.post(`/calls/${ring.callId}/answer`, {});
    twilioCall?.accept();
    set({ phase: 'connected', callId: ring.callId, other: ring.from, since: Date.now() });
    return null;
  } catch (error) {
    set({ phase: 'idle' });
    return errorText(error);
  }
}

/** Declines the ringing call: the caller goes on to voicemail. */
export async function declineCall(): Promise<void> {
  if (state.phase !== 'ringing') return;
  const ring = state.ring;
  set({ phase: 'idle' });
  twilioCall?.reject();
  twilioCall = null;
  await caddy.post(`/calls/${ring.callId}/reject`, { joinToken: ring.joinToken }).catch(() => undefined);
}

/** Hangs up the current call (placed or answered). */
export async function hangUp(): Promise<void> {
  if (state.phase !== 'outgoing' && state.phase !== 'connected') return;
  const { callId, other } = state;
  set({ phase: 'ended', callId, other, message: 'Call ended' });
  twilioCall?.disconnect();
  twilioCall = null;
  await caddy.post(`/calls/${callId}/hangup`, {}).catch(() => undefined);
}

/** `call ringing` (live): shows the incoming call unless this browser is on a call. */
export function onRinging(ring: CallRinging): void {
  if (state.phase === 'outgoing' || state.phase === 'connected' || state.phase === 'placing') return;
  set({ phase: 'ringing', ring, busy: false });
}

function minutes(seconds: number | null): string {
  const s = Math.max(0, Math.round(seconds ?? 0));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** `call updated` (live): the current call ended on the server (hung up, not answered, voicemail). */
export function onCallUpdated(c: CaddyLivePayload<'call updated'>): void {
  if (!c.endedAt && !c.voicemail) return;
  if (state.phase === 'ringing' && state.ring.callId === c.callId) set({ phase: 'idle' });
  if ((state.phase === 'outgoing' || state.phase === 'connected') && state.callId === c.callId) {
    const message = c.answered ? `Call ended · ${minutes(c.durationS)}` : c.voicemail ? 'Sent to voicemail' : 'No answer';
    set({ phase: 'ended', callId: c.callId, other: state.other, message });
    twilioCall = null;
  }
}

/** A ring no longer shown after its time (the carrier moved on to voicemail; the server's `call updated` may be late). */
export function dismissRinging(callId: number): void {
  if (state.phase === 'ringing' && state.ring.callId === callId) set({ phase: 'idle' });
}
