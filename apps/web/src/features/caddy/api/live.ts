/**
 * The consumer screens' live connection (docs/consumer-area.md "Live updates"): Socket.IO namespace `/caddy`,
 * authenticated with the consumer session's token (`auth: {token}`), which puts the socket in its account's channel
 * `caddy.{accountId}` and nowhere else. Events (contracts `CADDY_LIVE_EVENTS`) arrive as `(event, payload, channel)`:
 * - `usage updated`: replaces the usage in the cache (first on connection, then after each count or plan change);
 * - `call updated`: refreshes the calls and texts, and is told to the calling state (api/calling.ts);
 * - `call ringing`: an inbound call rings the screens (api/calling.ts).
 * Open while the signed-in shell is on screen; Socket.IO reconnects after a drop; a refused handshake with a token the
 * server no longer knows ends the consumer session.
 */
import type { CADDY_LIVE_EVENTS, CaddyLiveEventName, Infer } from '@switchboard/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { io } from 'socket.io-client';
import { caddy, useCaddySession } from './client';
import { caddyKey } from './numbers';

/** A live event's payload. */
export type CaddyLivePayload<E extends CaddyLiveEventName> = Infer<(typeof CADDY_LIVE_EVENTS)[E]>;

/** The live connection's state: connecting, live (connected), or reconnecting after a drop. */
export type LiveState = 'connecting' | 'live' | 'reconnecting';

const bus = new EventTarget();
/** The events of the `caddy.{accountId}` channel the screens act on. */
const EVENTS: ReadonlySet<string> = new Set<CaddyLiveEventName>(['usage updated', 'call ringing', 'call updated']);

/** Runs `handler` for every `event` heard on the account's channel while the component is mounted. */
export function useCaddyLiveEvent<E extends CaddyLiveEventName>(event: E, handler: (payload: CaddyLivePayload<E>) => void): void {
  useEffect(() => {
    const listener = (e: Event) => handler((e as CustomEvent<CaddyLivePayload<E>>).detail);
    bus.addEventListener(event, listener);
    return () => bus.removeEventListener(event, listener);
  }, [event, handler]);
}

/** Opens the live connection for the signed-in account (once, in the shell); answers its state. */
export function useCaddyLive(): LiveState {
  const session = useCaddySession();
  const accountId = session?.accountId ?? null;
  const token = session?.token ?? null;
  const qc = useQueryClient();
  const [state, setState] = useState<LiveState>('connecting');
  useEffect(() => {
    if (accountId === null || token === null) return;
    setState('connecting');
    const socket = io('/caddy', { path: '/socket.io', transports: ['websocket'], auth: { token } });
    socket.on('connect', () => setState('live'));
    socket.on('disconnect', () => setState('reconnecting'));
    socket.on('connect_error', () => {
      setState('reconnecting');
      // The handshake refuses an ended session: a plain call tells (a 401 ends the consumer session, api/client.ts).
      void caddy.get('/profile').catch(() => undefined);
    });
    socket.onAny((event: string, payload: unknown, channel: unknown) => {
      if (channel !== `caddy.${accountId}` || !EVENTS.has(event) || typeof payload !== 'object' || payload === null) return;
      if (event === 'usage updated') qc.setQueryData(caddyKey(accountId, 'usage'), { data: payload });
      if (event === 'usage updated' || event === 'call updated') void qc.invalidateQueries({ queryKey: caddyKey(accountId, 'activity') });
      bus.dispatchEvent(new CustomEvent(event, { detail: payload }));
    });
    return () => {
      socket.disconnect();
    };
  }, [accountId, token, qc]);
  return state;
}
