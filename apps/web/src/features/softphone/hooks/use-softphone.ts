/**
 * The softphone's state (spec 002 §4 "In-app calling status toggles active and away, applied
 * optimistically and rolled back on error"; docs/telephony.md "In-app calling"):
 * - `status` active/away, toggled optimistically; on failure rolled back with a notice;
 * - listens to 'in-app calling' on `user.{userId}`: 'ringing' shows the incoming call and rings,
 *   'answered' (someone else) and 'ended' make it disappear, 'status' follows other tabs;
 * - `answer()` claims the call (409 → "answered by someone else"), then shows Connected with a
 *   timer; `decline()` rejects with the join token; `hangup()` ends the answered call.
 * With CARRIER=twilio the Voice SDK device is registered while active (see twilio-device.ts).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { InAppCallingEvent, InAppCallingStatus } from '@switchboard/contracts';
import { IN_APP_CALLING_EVENT } from '@switchboard/contracts';
import { HttpError } from '../../../lib/http';
import { errorText } from '../error-text';
import { notify } from '../../../lib/notify';
import { useRealtimeEvent } from '../../../lib/realtime';
import { getSession, updateUser, useSession } from '../../../lib/session';
import * as api from '../api/in-app-calling';
import { startRinging, stopRinging } from './ringer';
import { destroyTwilioDevice, registerTwilioDevice, twilioCall } from './twilio-device';
import * as outbound from '../api/outbound-calls';

type Ringing = Extract<InAppCallingEvent, { type: 'ringing' }>;
export type SoftphoneCall =
  | { phase: 'ringing'; call: Ringing; busy: boolean }
  | { phase: 'connected'; call: Ringing; since: number }
  | { phase: 'ended'; call: Ringing; message: string };

const NOTICE_MS = 10_000;

export function useSoftphone() {
  const { user } = useSession();
  const [status, setStatusState] = useState<InAppCallingStatus>(user?.in_app_calling_status === 'active' ? 'active' : 'away');
  const [pending, setPending] = useState(false);
  const [current, setCurrent] = useState<SoftphoneCall | null>(null);
  const currentRef = useRef(current);
  currentRef.current = current;
  const carrier = useRef<'sandbox' | 'twilio' | null>(null);

  useEffect(() => {
    setStatusState(user?.in_app_calling_status === 'active' ? 'active' : 'away');
  }, [user?.in_app_calling_status]);

  // While active: fetch a token; with Twilio, register the Voice SDK device.
  useEffect(() => {
    if (status !== 'active') {
      destroyTwilioDevice();
      return;
    }
    let cancelled = false;
    api
      .getToken()
      .then(async (t) => {
        carrier.current = t.carrier;
        if (!cancelled && t.carrier === 'twilio') await registerTwilioDevice(t.token);
      })
      .catch(() => {
        /* the status call already reported SIP problems */
      });
    return () => {
      cancelled = true;
    };
  }, [status]);

  useEffect(() => {
    if (current?.phase === 'ringing') startRinging();
    else stopRinging();
    return () => stopRinging();
  }, [current?.phase]);

  const rememberStatus = (s: InAppCallingStatus) => {
    const u = getSession().user;
    if (u) updateUser({ ...u, in_app_calling_status: s });
  };

  /** Optimistic toggle, rolled back with a notice when the server refuses. */
  const toggle = useCallback(
    async (next: InAppCallingStatus) => {
      const before = status;
      setStatusState(next);
      setPending(true);
      try {
        await api.setStatus(next);
        rememberStatus(next);
      } catch (e) {
        setStatusState(before);
        notify.danger(errorText(e, 'Your in-app calling status could not be changed.'), NOTICE_MS);
      } finally {
        setPending(false);
      }
    },
    [status],
  );

  useRealtimeEvent(user ? `user.${user.id}` : null, IN_APP_CALLING_EVENT, (e) => {
    const cur = currentRef.current;
    if (e.type === 'status') {
      setStatusState(e.status);
      rememberStatus(e.status);
      return;
    }
    if (e.type === 'ringing') {
      if (cur?.phase === 'connected') return; // busy on a call: the others can answer
      setCurrent({ phase: 'ringing', call: e, busy: false });
      return;
    }
    if (!cur || cur.call.callId !== e.callId) return;
    if (e.type === 'answered' && cur.phase === 'ringing') setCurrent(null);
    if (e.type === 'ended')
      setCurrent(
        cur.phase === 'connected' ? { phase: 'ended', call: cur.call, message: e.reason === 'transferred' ? 'Call transferred' : 'Call ended' } : null,
      );
  });

  // A ringing call stops by itself after its timeout (the carrier moves on to voicemail).
  useEffect(() => {
    if (current?.phase !== 'ringing') return;
    const t = setTimeout(
      () => setCurrent((c) => (c?.phase === 'ringing' && c.call.callId === current.call.callId ? null : c)),
      (current.call.timeoutS + 5) * 1000,
    );
    return () => clearTimeout(t);
  }, [current]);

  useEffect(() => {
    if (current?.phase !== 'ended') return;
    const t = setTimeout(() => setCurrent((c) => (c?.phase === 'ended' ? null : c)), 4000);
    return () => clearTimeout(t);
  }, [current]);

  const answer = useCallback(async () => {
    const cur = currentRef.current;
    if (cur?.phase !== 'ringing') return;
    setCurrent({ ...cur, busy: true });
    try {
      await api.answer(cur.call.companyId, cur.call.callId);
      if (carrier.current === 'twilio') twilioCall.accept();
      setCurrent({ phase: 'connected', call: cur.call, since: Date.now() });
    } catch (e) {
      setCurrent(null);
      notify.danger(
        e instanceof HttpError && e.status === 409 ? 'Someone else answered this call.' : errorText(e, 'The call could not be answered.'),
        NOTICE_MS,
      );
    }
  }, []);

  const decline = useCallback(async () => {
    const cur = currentRef.current;
    if (cur?.phase !== 'ringing') return;
    setCurrent(null);
    if (carrier.current === 'twilio') twilioCall.reject();
    await api.reject(cur.call.companyId, cur.call.callId, cur.call.joinToken).catch(() => undefined);
  }, []);

  const hangup = useCallback(async () => {
    const cur = currentRef.current;
    if (cur?.phase !== 'connected') return;
    if (carrier.current === 'twilio') twilioCall.hangup();
    setCurrent({ phase: 'ended', call: cur.call, message: 'Call ended' });
    await api.hangup(cur.call.companyId, cur.call.callId).catch(() => undefined);
  }, []);

  /** Mutes or unmutes this browser's microphone on the answered call (Twilio: the SDK; the sandbox has no audio) and notes it in the call's history. */
  const mute = useCallback(async (on: boolean) => {
    const cur = currentRef.current;
    if (cur?.phase !== 'connected') return;
    if (carrier.current === 'twilio') twilioCall.mute(on);
    await outbound.control.mute(cur.call.companyId, cur.call.callId, on).catch(() => undefined);
  }, []);

  return { status, pending, toggle, current, answer, decline, hangup, mute, signedIn: Boolean(user), userId: user?.id ?? null };
}
