/**
 * Outbound calls placed from the app's dialer and what a person does during them (docs/calling.md;
 * spec 000 "in-app calling", spec 002 §7 "In-app calling"). The call is stored like an inbound one
 * (direction outbound, the spec's statuses, history in `call_events`, announced with
 * `afterCallChange`, so Activity and the conversation show it live); browser-calls.ts connects it
 * (`voice.client`) and ends it (`voice.client.dial`).
 *
 * - `placeOutboundCall`: checks the caller ID (a company number the user may use: 404 another
 *   company's, 422 a `user`'s unassigned one), the destination (422), the account's service state
 *   and the SIP fields, stores the call, remembers the caller ID, answers the softphone's token.
 * - During the call (the placing user, or the user it was transferred to): `hangupOutboundCall`,
 *   `holdOutboundCall` (the other side hears hold music), `muteOutboundCall` (history only: the
 *   browser mutes its microphone), `sendOutboundDigits` (DTMF to the other side),
 *   `transferOutboundCall` (blind: to a user of the company, rung in the app, or to a number).
 *   Every control is a history event; a carrier that cannot do one answers 502 with its reason.
 */
import { parsePhone } from '@switchboard/domain';
import type { CallControlBody, PlaceOutboundCallBody, TransferInput } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { ConflictError, ForbiddenError, NotFoundError, fieldError } from '../../platform/http/errors.js';
import { assertCompanyAccess, rolesFor } from '../companies/companies.service.js';
import { assertSoftphoneReady } from '../in-app-calling/in-app-calling.service.js';
import {
  announceOutbound,
  assertCallerId,
  browserCallPlacer,
  endInboundBrowserLeg,
  inboundAnswerer,
  holdMusicUrl,
  ringTransferTarget,
  saveCallerIdChoice,
} from '../in-app-calling/outbound.service.js';
import { assertCompanyInService } from '../numbers/service-state.js';
import { endHeldBrowserCall, isCallOnHold, startBrowserCall } from './browser-calls.js';
import { callsRepository, type CallRow } from './calls.repository.js';

export const INVALID_NUMBER = 'The number is not a valid phone number.';
export const NOT_IN_PROGRESS = 'This call is not in progress.';
export const RESUME_BEFORE_TRANSFER = 'Take the call off hold before transferring it.';
/** How long a user a call is transferred to is rung (s). */
export const TRANSFER_RING_S = 30;

/**
 * POST /api/companies/{companyId}/outbound-calls {caller_id, to}: places a call from the browser.
 * @returns the softphone token with the call's params (Twilio: `Device.connect({params})`; sandbox:
 *   `POST /api/simulator/softphone/connect`), `call_id`, `company_id`, `from`, `to` (E.164).
 * @throws ForbiddenError 403 (not a member / role without calls.work), NotFoundError 404 (caller ID
 *   not a number of this company), ValidationError 422 (`caller_id` not allowed, `to` invalid or the
 *   caller ID itself, SIP fields missing), AppError 422 (account out of service).
 */
export async function placeOutboundCall(
  ctx: AppContext,
  userId: number,
  companyId: number,
  input: { caller_id: number; to: string },
): Promise<PlaceOutboundCallBody> {
  const number = await assertCallerId(ctx, userId, companyId, input.caller_id, 'caller_id');
  const to = parsePhone(input.to);
  if (!to) throw fieldError('to', INVALID_NUMBER);
  if (to === number.number) throw fieldError('to', 'A number cannot call itself.');
  await assertCompanyInService(ctx, companyId, 'call');
  await assertSoftphoneReady(ctx, userId);
  return startBrowserCall(ctx, userId, { id: number.id, company_id: companyId, number: number.number }, to, (tx) =>
    saveCallerIdChoice(ctx, tx, userId, companyId, number.id),
  );
}

/**
 * The company's outbound browser call `callId` for a control by `userId`: the user who placed it, or
 * the user it was transferred to and who answered.
 * @throws 403 (not a member / role, or not this user's call), 404 (not the company's browser call).
 */
async function controlledCall(ctx: AppContext, userId: number, companyId: number, callId: number, inbound = false): Promise<CallRow> {
  await assertCompanyAccess(ctx, userId, companyId, rolesFor('calls.work'));
  const call = await callsRepository.find(ctx.db, callId);
  if (!call || call.company_id !== companyId) throw new NotFoundError('Call');
  if (call.direction !== 'outbound') {
    // An inbound call answered in the app: its answerer transfers it or notes a mute (docs/calling.md).
    const answerer = inbound ? await inboundAnswerer(ctx.db, call.id) : null;
    if (answerer === null) throw new NotFoundError('Call');
    if (answerer !== userId) throw new ForbiddenError('This is not your call.');
    return call;
  }
  const placed = await browserCallPlacer(ctx.db, call.id);
  if (!placed) throw new NotFoundError('Call');
  if (placed.placedBy !== userId && placed.answeredBy !== userId) throw new ForbiddenError('This is not your call.');
  return call;
}

function stateOf(call: CallRow, extra: { on_hold?: boolean; muted?: boolean; transferred_to?: string | null }): CallControlBody['data'] {
  return { call_id: call.id, on_hold: extra.on_hold ?? false, muted: extra.muted ?? false, transferred_to: extra.transferred_to ?? null };
}

/** A history event of the call (status unchanged): `{control, by, ...detail}`. */
async function recordControl(ctx: AppContext, call: CallRow, userId: number, detail: Record<string, unknown>): Promise<void> {
  await callsRepository.insertEvent(ctx.db, call.id, call.status, { ...detail, by: userId });
}

/**
 * POST .../outbound-calls/{callId}/hangup: ends the call (ringing: canceled, the callee stops
 * ringing; talking: the other side hears the hang-up). The carrier's Dial result then stores the
 * outcome (12 Connected with its duration, or 5 No Answer). Idempotent. @throws 403, 404
 */
export async function hangupOutboundCall(ctx: AppContext, userId: number, companyId: number, callId: number): Promise<{ message: string }> {
  const call = await controlledCall(ctx, userId, companyId, callId);
  if (!call.ended_at) {
    // Twilio: a held call's browser leg waits outside any Dial, so no Dial result will end the call.
    const held = ctx.carrier.holdLeavesDial && (await isCallOnHold(ctx.db, call.id));
    await ctx.carrier.hangupCall(call.carrier_sid);
    if (held) await endHeldBrowserCall(ctx, call.id);
  }
  return { message: 'Call ended' };
}

/**
 * POST .../outbound-calls/{callId}/hold {hold}: the other side hears hold music while held (the
 * number's on-hold greeting, else the carrier's default: in-app-calling `holdMusicUrl`).
 * With Twilio (`carrier.holdLeavesDial`) the other side waits in a queue (browser-calls.ts
 * `handleHoldWebhook`); holding a held call or resuming one not held answers the same without acting.
 * @throws 403, 404, ConflictError 409 (not in conversation), CarrierError 502 (the carrier's refusal).
 */
export async function holdOutboundCall(ctx: AppContext, userId: number, companyId: number, callId: number, hold: boolean): Promise<CallControlBody> {
  const call = await controlledCall(ctx, userId, companyId, callId);
  if (call.ended_at) throw new ConflictError(NOT_IN_PROGRESS);
  const done = { message: hold ? 'Call on hold' : 'Call resumed', data: stateOf(call, { on_hold: hold }) };
  // Twilio moves the parties apart and back: holding twice (or resuming a call not held) changes nothing.
  if (ctx.carrier.holdLeavesDial && (await isCallOnHold(ctx.db, call.id)) === hold) return done;
  // Recorded before the carrier acts (the carrier's Dial result may arrive first and reads it), removed if it refuses.
  const eventId = await callsRepository.insertEventReturningId(ctx.db, call.id, call.status, { control: hold ? 'hold' : 'resume', by: userId });
  let moved = false;
  try {
    moved = await ctx.carrier.holdCall(call.carrier_sid, hold, hold ? await holdMusicUrl(ctx, call.number_id) : null);
  } finally {
    if (!moved) await callsRepository.deleteEvent(ctx.db, eventId);
  }
  if (!moved) throw new ConflictError(NOT_IN_PROGRESS);
  await announceOutbound(ctx, { callId: call.id, state: hold ? 'held' : 'resumed' });
  return done;
}

/** POST .../outbound-calls/{callId}/mute {muted}: the browser mutes its microphone; this keeps it in the history. @throws 403, 404, 409 */
export async function muteOutboundCall(ctx: AppContext, userId: number, companyId: number, callId: number, muted: boolean): Promise<CallControlBody> {
  const call = await controlledCall(ctx, userId, companyId, callId, true);
  if (call.ended_at) throw new ConflictError(NOT_IN_PROGRESS);
  await recordControl(ctx, call, userId, { control: muted ? 'mute' : 'unmute' });
  return { message: muted ? 'Microphone muted' : 'Microphone on', data: stateOf(call, { muted }) };
}

/** POST .../outbound-calls/{callId}/dtmf {digits}: keypad tones to the other side. @throws 403, 404, 409, CarrierError 502 */
export async function sendOutboundDigits(ctx: AppContext, userId: number, companyId: number, callId: number, digits: string): Promise<CallControlBody> {
  const call = await controlledCall(ctx, userId, companyId, callId);
  if (call.ended_at || !(await ctx.carrier.sendDigits(call.carrier_sid, digits))) throw new ConflictError(NOT_IN_PROGRESS);
  await recordControl(ctx, call, userId, { control: 'dtmf', digits });
  return { message: 'Tones sent', data: stateOf(call, {}) };
}

/**
 * POST .../outbound-calls/{callId}/transfer {user_id | number}: blind transfer of the other side.
 * To a number: it is dialed showing the call's caller ID. To a user: an active in-app member of the
 * company who works calls, rung in the app like an inbound call (first answer wins). The browser
 * leg of the transferring user ends.
 * @throws 403, 404, ValidationError 422 (`number` invalid; `user_id` unknown, away, or oneself), 409 (not in conversation;
 *   with Twilio also while on hold: "Take the call off hold before transferring it.").
 */
export async function transferOutboundCall(ctx: AppContext, userId: number, companyId: number, callId: number, input: TransferInput): Promise<CallControlBody> {
  const call = await controlledCall(ctx, userId, companyId, callId, true);
  if (call.ended_at) throw new ConflictError(NOT_IN_PROGRESS);
  if (call.direction !== 'outbound') return transferAnsweredInboundCall(ctx, userId, call, input);
  if (ctx.carrier.holdLeavesDial && (await isCallOnHold(ctx.db, call.id))) throw new ConflictError(RESUME_BEFORE_TRANSFER);
  const action = ctx.carrier.webhookUrl('voice.client.dial', { call: call.id });
  if (input.number !== undefined) {
    const to = parsePhone(input.number);
    if (!to) throw fieldError('number', INVALID_NUMBER);
    const moved = await ctx.carrier.transferCall(call.carrier_sid, [
      { kind: 'dial', numbers: [{ number: to }], timeoutS: TRANSFER_RING_S, action, callerId: call.from_number },
    ]);
    if (!moved) throw new ConflictError(NOT_IN_PROGRESS);
    await ctx.db.transaction().execute(async (tx) => {
      await callsRepository.update(tx, call.id, { forwarded_to: to });
      await callsRepository.insertEvent(tx, call.id, call.status, { control: 'transfer', to, by: userId });
    });
    await announceOutbound(ctx, { callId: call.id, state: 'ended', reason: 'transferred' });
    return { message: 'Call transferred', data: stateOf(call, { transferred_to: to }) };
  }
  const targetId = input.user_id!;
  if (targetId === userId) throw fieldError('user_id', 'You are already on this call.');
  const announce = await ctx.db.transaction().execute(async (tx) => {
    const ring = await ringTransferTarget(ctx, tx, call, targetId, TRANSFER_RING_S);
    await callsRepository.insertEvent(tx, call.id, call.status, { control: 'transfer', to: ring.identity, to_user: targetId, by: userId });
    return ring;
  });
  const moved = await ctx.carrier.transferCall(call.carrier_sid, [
    { kind: 'dial', numbers: [], clients: [announce.identity], timeoutS: TRANSFER_RING_S, action, callerId: call.to_number },
  ]);
  if (!moved) throw new ConflictError(NOT_IN_PROGRESS);
  announce.announce();
  await announceOutbound(ctx, { callId: call.id, state: 'ended', reason: 'transferred' });
  return { message: 'Call transferred', data: stateOf(call, { transferred_to: announce.identity }) };
}

/**
 * Blind transfer of an inbound call answered in the app (docs/calling.md "Transfer of an answered inbound call"):
 * the caller's leg leaves the browser (`CarrierPort.redirectCall`) and is dialed to the number (showing the caller's
 * number) or rung in the app for the user (first answer wins); the answerer's browser leg ends ('transferred'). The
 * transfer's Dial result ends the call (browser-calls.ts `finishOutboundCall`), which stays 12 Connected.
 * @throws ValidationError 422 (`number` invalid; `user_id` unknown, away, or oneself), ConflictError 409 (the call
 *   is no longer in progress), CarrierError 502.
 */
async function transferAnsweredInboundCall(ctx: AppContext, userId: number, call: CallRow, input: TransferInput): Promise<CallControlBody> {
  const action = ctx.carrier.webhookUrl('voice.client.dial', { call: call.id });
  if (input.number !== undefined) {
    const to = parsePhone(input.number);
    if (!to) throw fieldError('number', INVALID_NUMBER);
    // The redirect first: the sandbox's call engine looks for it when the browser leg ends.
    const moved = await ctx.carrier.redirectCall(call.carrier_sid, [
      { kind: 'dial', numbers: [{ number: to }], timeoutS: TRANSFER_RING_S, action, callerId: call.from_number },
    ]);
    if (!moved) throw new ConflictError(NOT_IN_PROGRESS);
    const ended = await ctx.db.transaction().execute(async (tx) => {
      await callsRepository.update(tx, call.id, { forwarded_to: to });
      await callsRepository.insertEvent(tx, call.id, call.status, { control: 'transfer', to, by: userId });
      return endInboundBrowserLeg(ctx, tx, call.id, 'transferred');
    });
    ended?.();
    return { message: 'Call transferred', data: stateOf(call, { transferred_to: to }) };
  }
  const targetId = input.user_id!;
  if (targetId === userId) throw fieldError('user_id', 'You are already on this call.');
  // The answerer's leg ends and the user is rung on the same in-app call (a fresh ring: first answer wins).
  const rung = await ctx.db.transaction().execute(async (tx) => {
    const ended = await endInboundBrowserLeg(ctx, tx, call.id, 'transferred');
    const ring = await ringTransferTarget(ctx, tx, call, targetId, TRANSFER_RING_S, 'inbound');
    await callsRepository.insertEvent(tx, call.id, call.status, { control: 'transfer', to: ring.identity, to_user: targetId, by: userId });
    return { ...ring, ended };
  });
  const moved = await ctx.carrier.redirectCall(call.carrier_sid, [
    { kind: 'dial', numbers: [], clients: [rung.identity], timeoutS: TRANSFER_RING_S, action, callerId: call.from_number },
  ]);
  if (!moved) {
    await endInboundBrowserLeg(ctx, ctx.db, call.id, 'transfer-failed');
    throw new ConflictError(NOT_IN_PROGRESS);
  }
  rung.ended?.();
  rung.announce();
  return { message: 'Call transferred', data: stateOf(call, { transferred_to: rung.identity }) };
}
