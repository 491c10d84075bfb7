/**
 * Calls placed and answered in the browser (spec 002 §7 "In-app calling"; docs/telephony.md
 * "In-app calling"): the calls module's side of them. It stores and moves the call; the in-app
 * calling module keeps its ring/answer state (`in_app_calls`), SIP checks and tokens.
 *
 * - `placeBrowserCall` (`POST /api/v1/calls/token`): records the outbound call (status 1) and
 *   answers the softphone's token, whose params lead the carrier to the `voice.client` webhook.
 * - `connectBrowserCall` (`voice.client`): binds the carrier's call to ours and dials the destination.
 * - `finishOutboundCall` (`voice.client.dial`): the Dial result, 12 Connected or 5 No Answer.
 * - `handleHoldWebhook` (`voice.client.hold`): hold on a carrier whose hold leaves the browser's
 *   Dial (`carrier.holdLeavesDial`, Twilio: the other side waits in a queue): the held party's
 *   music, the browser leg waiting quietly, the party leaving, the Dial that resumes.
 * - `markAnsweredInApp`: registered with in-app calling, which calls it when a user answers a ringing call.
 */
import crypto from 'node:crypto';
import { CALL_STATUS, parsePhone } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import type { VoiceEvent } from '../../carriers/carrier.events.js';
import type { CallFlowStep } from '../../carriers/carrier.port.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { NotFoundError, deniedAsNotFound, fieldError } from '../../platform/http/errors.js';
import { AGENT_ROLES, assertCompanyAccess } from '../companies/companies.service.js';
import { findContactByNumber } from '../contacts/contacts.service.js';
import { assertSoftphoneReady, authorizeBrowserCall, browserCallToken, recordBrowserCall } from '../in-app-calling/in-app-calling.service.js';
import { endBrowserCall, endInboundBrowserLeg, holdMusicUrl } from '../in-app-calling/outbound.service.js';
import { findRoutingById } from '../numbers/numbers.service.js';
import { assertCompanyInService } from '../numbers/service-state.js';
import { assertNumberInScope } from '../users/members.service.js';
import { afterCallChange, publishCallUpdated, recordCallChange, type CallChange, type VoiceOutcome } from './call-changes.js';
import { afterUnansweredTransfer, setCallStatus } from './call-flow.js';
import { callsRepository, type CallRow } from './calls.repository.js';
import { withRecording } from './recordings.js';

/**
 * Stores a call placed from the browser as an outbound call (status 1 Started) of the company's
 * number, matched to the company's contact with the destination. `carrierSid` is a placeholder
 * until the carrier reports its own (`connectBrowserCall`).
 */
async function recordOutboundCall(
  ctx: AppContext,
  tx: DbOrTx,
  input: { companyId: number; numberId: number; carrierSid: string; from: string; to: string; userId: number },
): Promise<CallRow> {
  const call = await callsRepository.insert(tx, {
    company_id: input.companyId,
    number_id: input.numberId,
    carrier_sid: input.carrierSid,
    from_number: input.from,
    to_number: input.to,
    from_state: null,
    direction: 'outbound',
    status: CALL_STATUS.STARTED,
    contact_id: (await findContactByNumber(ctx, input.companyId, input.to, tx))?.id ?? null,
  });
  await callsRepository.insertEvent(tx, call.id, call.status, { placed_by: input.userId, via: 'in-app', to: input.to });
  return call;
}

/**
 * POST /api/v1/calls/token {number_id, destination}: a token for a call placed from the browser
 * from the company number `number_id` to `destination` (E.164 after parsing); records the outbound
 * call (status 1) and its in-app calling row. The token's outgoing params carry `call_id`,
 * `number_id` and `To` (Twilio: for the TwiML app).
 * A `user` places calls only from the numbers assigned to them (403 otherwise); a parked or
 * deactivated account places none (422, numbers/service-state.ts).
 * @throws NotFoundError 404 (number not visible), ForbiddenError 403 (not the caller's number),
 *   AppError 422 (account out of service), ValidationError 422 (destination, SIP fields).
 */
export async function placeBrowserCall(ctx: AppContext, userId: number, input: { number_id: number; destination: string }) {
  const number = await findRoutingById(ctx, input.number_id);
  if (!number) throw new NotFoundError('Number');
  await deniedAsNotFound(assertCompanyAccess(ctx, userId, number.company_id, AGENT_ROLES), 'Number');
  await assertNumberInScope(ctx, userId, number.company_id, number.id);
  await assertCompanyInService(ctx, number.company_id, 'call');
  const to = parsePhone(input.destination);
  if (!to) throw fieldError('destination', 'The number is not a valid phone number.');
  await assertSoftphoneReady(ctx, userId);
  const placed = await startBrowserCall(ctx, userId, { id: number.id, company_id: number.company_id, number: number.number }, to);
  return {
    token: placed.token,
    identity: placed.identity,
    carrier: placed.carrier,
    ttl: placed.ttl,
    call_id: placed.call_id,
    from: placed.from,
    to: placed.to,
  };
}

/**
 * Stores browser call from company number `number` to E.164 `to` placed by `userId` (checks done
 * by the caller: access, caller ID, service state, SIP fields) with its in-app row, announces it,
 * and answers the token whose params (`call_id`, `number_id`, `To`) travel with the call;
 * `db` lets the caller add its own writes to the transaction (outbound-calls.ts: the caller-ID choice).
 */
export async function startBrowserCall(
  ctx: AppContext,
  userId: number,
  number: { id: number; company_id: number; number: string },
  to: string,
  alsoInTransaction?: (tx: DbOrTx) => Promise<void>,
) {
  const sid = `CA${crypto.randomBytes(16).toString('hex')}`;
  const call = await ctx.db.transaction().execute(async (tx) => {
    const c = await recordOutboundCall(ctx, tx, { companyId: number.company_id, numberId: number.id, carrierSid: sid, from: number.number, to, userId });
    await recordBrowserCall(ctx, tx, { callId: c.id, companyId: number.company_id, carrierSid: sid, userId });
    await alsoInTransaction?.(tx);
    return c;
  });
  publishCallUpdated(ctx, { companyId: call.company_id, id: call.id, status: call.status });
  const params = { call_id: String(call.id), number_id: String(number.id), To: to };
  const t = browserCallToken(ctx, userId, params);
  return { ...t, call_id: call.id, company_id: call.company_id, from: number.number, to, params };
}

const CANNOT_PLACE: VoiceOutcome = { steps: [{ kind: 'say', text: 'This call cannot be placed.' }, { kind: 'hangup' }] };

/**
 * The carrier's `voice.client` webhook: a call placed from the browser reaches the carrier. Only
 * the user the token was issued to, and only once (in-app calling decides), binds the carrier's
 * call SID to our call row; the answer dials the destination from the company number
 * (`callerId`), recorded in two channels when the number records (`record`), whose result comes
 * back to `voice.client.dial`. Anything else is refused with a
 * spoken message.
 */
export async function connectBrowserCall(ctx: AppContext, tx: DbOrTx, p: VoiceEvent): Promise<VoiceOutcome> {
  const callId = Number(p.clientParams.call_id);
  const placed = await authorizeBrowserCall(ctx, tx, { callId, identity: p.fromClient });
  if (!placed || !p.callSid) return CANNOT_PLACE;
  const call = await callsRepository.find(tx, callId);
  if (!call || call.direction !== 'outbound' || call.status !== CALL_STATUS.STARTED || call.carrier_sid !== placed.tokenSid) return CANNOT_PLACE;
  await callsRepository.update(tx, call.id, { carrier_sid: p.callSid });
  await callsRepository.insertEvent(tx, call.id, CALL_STATUS.STARTED, { carrier_sid: p.callSid, placed_by: placed.userId });
  const action = ctx.carrier.webhookUrl('voice.client.dial', { call: call.id });
  const number = await findRoutingById(ctx, call.number_id, tx);
  return {
    steps: withRecording(ctx, number?.record, [{ kind: 'dial', numbers: [{ number: call.to_number }], timeoutS: 30, action, callerId: call.from_number }]),
    changed: { companyId: call.company_id, id: call.id, status: call.status },
  };
}

/**
 * The carrier's `voice.client.dial` webhook: the Dial result of a browser-placed call. completed
 * (or answered) → 12 Connected (answered, with its duration), anything else → 5 No Answer; then
 * the call ends. `legSid` is the leg reporting it (the browser's while it dials); `firstDial`: the
 * result of the Dial `connectBrowserCall` answered (not of one a resume started).
 *
 * Hold on a carrier whose hold leaves the Dial (`holdLeavesDial`, Twilio): the browser's Dial ends
 * when the other side is moved into its hold queue; that result (from our call's own leg while the
 * call is on hold) does not end the call: answered_at is kept and the browser leg waits quietly
 * ({@link heldBrowserSteps}). The first Dial's result never ends a call that has been held (a
 * resume recorded before that result came: Twilio ignores the answer of a Dial action once a REST
 * request has moved the leg). Such a call, once answered, ends 12 Connected with the time since
 * the answer (talk and hold), whatever the last Dial reports.
 */
export async function finishOutboundCall(
  ctx: AppContext,
  tx: DbOrTx,
  input: { callId: number; dialStatus: string; durationS: number; legSid?: string; firstDial?: boolean },
): Promise<VoiceOutcome> {
  const call = await callsRepository.find(tx, input.callId);
  if (!call) return { steps: [{ kind: 'hangup' }] };
  // A call already ended (Twilio: the leg a blind transfer redirected reports its own Dial) keeps its outcome.
  if (call.ended_at) return { steps: [{ kind: 'hangup' }] };
  if (call.direction !== 'outbound') return finishTransferredInboundCall(ctx, tx, call, input);
  const now = new Date();
  const control = ctx.carrier.holdLeavesDial && input.legSid === call.carrier_sid ? await callsRepository.holdControl(tx, call.id) : null;
  if (control === 'hold' || (control === 'resume' && input.firstDial)) {
    if (!call.answered_at) await callsRepository.update(tx, call.id, { answered_at: new Date(now.getTime() - input.durationS * 1000) });
    if (control === 'hold') await watchHeldBrowserLeg(ctx, tx, call.id);
    return { steps: heldBrowserSteps(ctx, call.carrier_sid, now.getTime()) };
  }
  const ended = await endBrowserCall(ctx, tx, call.id, input.dialStatus);
  const heldBefore = Boolean(ctx.carrier.holdLeavesDial && call.answered_at);
  const answered = heldBefore || input.dialStatus === 'completed' || input.dialStatus === 'answered';
  const status = answered ? CALL_STATUS.CONNECTED : CALL_STATUS.NO_ANSWER;
  const durationS = heldBefore ? Math.max(input.durationS, Math.round((now.getTime() - call.answered_at!.getTime()) / 1000)) : input.durationS;
  const changed = await setCallStatus(
    tx,
    call,
    status,
    { dial_status: input.dialStatus },
    {
      duration_s: durationS,
      ended_at: now,
      ...(answered ? { answered_at: call.answered_at ?? new Date(now.getTime() - durationS * 1000), forwarded_to: call.forwarded_to ?? call.to_number } : {}),
    },
  );
  return { steps: [{ kind: 'hangup' }], changed, after: ended };
}

/**
 * The transfer's `<Dial>` result of an inbound call answered in the app and then transferred (docs/calling.md
 * "Transfer of an answered inbound call"); the browser leg of a user it was transferred to ends. The call was
 * answered, so it stays 12 Connected. Taken: the call ends, its duration from the first answer. Not taken (no-answer,
 * busy, failed): the caller goes on to the extension's voicemail, or hears a goodbye (`afterUnansweredTransfer`);
 * the carrier's status callback ends the call.
 */
async function finishTransferredInboundCall(
  ctx: AppContext,
  tx: DbOrTx,
  call: CallRow,
  input: { dialStatus: string; durationS: number },
): Promise<VoiceOutcome> {
  const now = new Date();
  const ended = await endInboundBrowserLeg(ctx, tx, call.id, input.dialStatus);
  if (input.dialStatus !== 'completed' && input.dialStatus !== 'answered') {
    const next = await afterUnansweredTransfer(ctx, tx, call);
    if (next) {
      const detail = { dial_status: input.dialStatus, after: 'transfer', ...(next.voicemail ? { voicemail: 'prompted' } : {}) };
      const changed = await setCallStatus(tx, call, CALL_STATUS.CONNECTED, detail, { answered_at: call.answered_at ?? now });
      return { steps: next.steps, changed, after: ended };
    }
  }
  const answeredAt = call.answered_at ?? new Date(now.getTime() - input.durationS * 1000);
  const changed = await setCallStatus(
    tx,
    call,
    CALL_STATUS.CONNECTED,
    { dial_status: input.dialStatus, after: 'transfer' },
    { duration_s: Math.max(input.durationS, Math.round((now.getTime() - answeredAt.getTime()) / 1000)), ended_at: now, answered_at: answeredAt },
  );
  return { steps: [{ kind: 'hangup' }], changed, after: ended };
}

/** How long the held browser leg waits between two looks at the call (s). */
const HELD_PAUSE_S = 30;
/** A held browser leg not seen for this long (ms; two and a half loops) has gone: the browser closed without hanging up. */
const HELD_LEG_GONE_MS = 75_000;
/** The job that checks a held browser leg is still looping ({@link checkHeldBrowserLeg}). */
export const HELD_LEG_CHECK_JOB = 'calls.held-leg-check';

/**
 * Notes that call `callId`'s held browser leg is there (now) and, in `tx`, schedules a check
 * {@link HELD_LEG_GONE_MS} later: a browser that closes while held makes no more loops, and the
 * held party would otherwise wait in its queue for ever.
 */
async function watchHeldBrowserLeg(ctx: AppContext, tx: DbOrTx, callId: number): Promise<void> {
  await callsRepository.touchHold(tx, callId);
  await ctx.queue.enqueue(HELD_LEG_CHECK_JOB, { callId }, { startAfter: new Date(Date.now() + HELD_LEG_GONE_MS) }, tx);
}

/**
 * Job `calls.held-leg-check` {callId}: when call `callId` is still on hold and its browser leg has
 * not looped for {@link HELD_LEG_GONE_MS} (the browser went away while held), the call ends
 * 12 Connected and the carrier ends both legs (the held party and its queue). Otherwise nothing.
 */
export async function checkHeldBrowserLeg(ctx: AppContext, callId: number, now = new Date()): Promise<void> {
  let sid: string | undefined;
  const out = await ctx.db.transaction().execute(async (tx) => {
    const call = await callsRepository.find(tx, callId);
    if (!call || call.ended_at) return undefined;
    const seen = await callsRepository.holdLastSeen(tx, call.id);
    if (!seen || now.getTime() - seen.getTime() < HELD_LEG_GONE_MS - 5_000) return undefined;
    sid = call.carrier_sid;
    return recordCallChange(tx, await finishOutboundCall(ctx, tx, { callId, dialStatus: 'completed', durationS: 0 }));
  });
  if (!out || !sid) return;
  await afterCallChange(ctx, out);
  await ctx.carrier.hangupCall(sid);
}

/** The held browser leg's TwiML: silence, then back to `voice.client.hold?step=loop` (loop `n`). */
function heldBrowserSteps(ctx: AppContext, sid: string, n: number): CallFlowStep[] {
  return [
    { kind: 'pause', seconds: HELD_PAUSE_S },
    { kind: 'redirect', url: ctx.carrier.webhookUrl('voice.client.hold', { sid, step: 'loop', n }) },
  ];
}

/** The steps of `voice.client.hold` (see {@link handleHoldWebhook}). */
export const HOLD_STEPS = ['wait', 'loop', 'left', 'dial'] as const;
export type HoldStep = (typeof HOLD_STEPS)[number];

/**
 * The carrier's `voice.client.hold?sid=SID&step=S[&n=N]` webhook, for carriers whose hold leaves
 * the browser's Dial (Twilio; docs/calling.md "Twilio"). `sid` is our call's carrier SID (the
 * browser leg). By step:
 * - `wait` (the held party's queue music, requested again as it loops): {@link holdWaitSteps}
 *   (the route answers it before any transaction).
 * - `loop` (the browser leg while held): another pause and redirect (`n` + 1) while the call is on
 *   hold; a hang-up once it has ended or was resumed; with no hold left (refused after the Dial
 *   had ended) the call ends.
 * - `left` (the held party left its queue; Twilio posts it at once when the party hangs up, and
 *   after the bridge when a resume dequeued it): a party no longer in progress while the call is on
 *   hold has hung up: the call ends (12 Connected, the time since the answer) and the browser leg
 *   is completed after commit. Otherwise (bridged, moved into the queue again) nothing changes.
 * - `dial` (the Dial that resumed the call ended): as {@link finishOutboundCall}.
 * `n` (a number per hold and per loop) keeps the deliveries apart.
 */
export async function handleHoldWebhook(ctx: AppContext, tx: DbOrTx, p: VoiceEvent, q: { sid: string; step: HoldStep; n?: number }): Promise<VoiceOutcome> {
  const call = await callsRepository.findBySid(tx, q.sid);
  if (!call || call.direction !== 'outbound') return { steps: [{ kind: 'hangup' }] };
  if (q.step === 'dial')
    return finishOutboundCall(ctx, tx, { callId: call.id, dialStatus: p.dialStatus ?? 'failed', durationS: p.dialDurationS, legSid: p.callSid });
  if (call.ended_at) return { steps: [{ kind: 'hangup' }] };
  if (q.step === 'wait') return { steps: await holdWaitSteps(ctx, q.sid, q.n) };
  const control = await callsRepository.holdControl(tx, call.id);
  const held = control === 'hold';
  if (q.step === 'loop') {
    if (held) {
      await watchHeldBrowserLeg(ctx, tx, call.id);
      return { steps: heldBrowserSteps(ctx, q.sid, (q.n ?? 0) + 1) };
    }
    // Resumed: the browser leg follows the resume (this request crossed it). No hold at all: the hold
    // was refused after its Dial had ended (the party was gone), so the call ends here.
    if (control === 'resume') return { steps: [{ kind: 'hangup' }] };
    return finishOutboundCall(ctx, tx, { callId: call.id, dialStatus: 'completed', durationS: 0 });
  }
  if (!held || p.callStatus === 'in-progress') return { steps: [{ kind: 'hangup' }] };
  const out = await finishOutboundCall(ctx, tx, { callId: call.id, dialStatus: 'completed', durationS: 0 });
  return {
    ...out,
    after: () => {
      out.after?.();
      hangUpLater(ctx, call.carrier_sid);
    },
  };
}

/**
 * `voice.client.hold?step=wait` (the held party's queue music; read-only, answered outside any
 * transaction as the greeting's URL is signed through the pool): the number's on-hold greeting
 * (`holdMusicUrl`, signed afresh on every loop), else a quiet pause, then again (`n` + 1); a
 * hang-up once call `sid` has ended or is unknown.
 */
export async function holdWaitSteps(ctx: AppContext, sid: string, n: number | undefined): Promise<CallFlowStep[]> {
  const call = await callsRepository.findBySid(ctx.db, sid);
  if (!call || call.direction !== 'outbound' || call.ended_at) return [{ kind: 'hangup' }];
  const music = await holdMusicUrl(ctx, call.number_id);
  return [
    music ? { kind: 'play', url: music } : { kind: 'pause', seconds: 10 },
    { kind: 'redirect', url: ctx.carrier.webhookUrl('voice.client.hold', { sid, step: 'wait', n: (n ?? 0) + 1 }) },
  ];
}

/** Completes the carrier leg `sid` after commit (a failure is logged: the leg's own loop hangs up on its next look). */
function hangUpLater(ctx: AppContext, sid: string): void {
  ctx.carrier.hangupCall(sid).catch((e: unknown) => ctx.log.warn({ err: e, sid }, 'hanging up a held browser leg failed'));
}

/**
 * Ends held browser call `callId` after its hang-up by the user (`hangupOutboundCall`) on a carrier
 * whose hold leaves the Dial: the browser leg waits outside any Dial, so no Dial result will come.
 * 12 Connected with the time since the answer; announced after commit. A call already ended is left alone.
 */
export async function endHeldBrowserCall(ctx: AppContext, callId: number): Promise<void> {
  const out = await ctx.db
    .transaction()
    .execute(async (tx) => recordCallChange(tx, await finishOutboundCall(ctx, tx, { callId, dialStatus: 'completed', durationS: 0 })));
  await afterCallChange(ctx, out);
}

/** True when call `callId` is on hold (its latest hold control is a hold). */
export async function isCallOnHold(db: DbOrTx, callId: number): Promise<boolean> {
  return callsRepository.isOnHold(db, callId);
}

/**
 * In-app calling's answer handler (registered in the calls module's setup): `userId` answered the
 * ringing call `callId` in the browser (in-app calling has already claimed the answer atomically,
 * in `tx`): status 12 Connected, answered_at, forwarded_to = `identity` (`user_{id}`), and an event
 * `{answered_by, confirmed_by: identity}` so the Dial's later `completed` result keeps that forward.
 * @returns the after-commit announcement of the change (undefined for an unknown call).
 */
export async function markAnsweredInApp(
  ctx: AppContext,
  tx: DbOrTx,
  answer: { callId: number; userId: number; identity: string },
): Promise<(() => Promise<void>) | undefined> {
  const call = await callsRepository.find(tx, answer.callId);
  if (!call) return undefined;
  const changed: CallChange = await setCallStatus(
    tx,
    call,
    CALL_STATUS.CONNECTED,
    { answered_by: answer.userId, confirmed_by: answer.identity, via: 'in-app' },
    // A transferred call keeps its first answer: its talk time runs from there.
    { answered_at: call.answered_at ?? new Date(), forwarded_to: answer.identity },
  );
  const out = await recordCallChange(tx, { changed });
  return () => afterCallChange(ctx, out);
}
