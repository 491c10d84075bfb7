/**
 * In-app calling's side of calls placed from the browser (docs/calling.md; spec 000 "in-app
 * calling", spec 002 §7 "In-app calling"): which company numbers a user may show as caller ID and
 * the one they chose last (`caller_id_preferences`), the placing user's live `outbound call`
 * events, the end of a browser call, ringing a user a call is transferred to, and the music the
 * other side hears while held (the number's on-hold greeting).
 *
 * The call itself (its row, status, history) is the calls module's (modules/calls/outbound-calls.ts),
 * which sits above and calls these functions.
 */
import { IN_APP_CALLING_EVENT, OUTBOUND_CALL_EVENT, type CallerIdOption, type OutboundCallEvent } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { NotFoundError, fieldError } from '../../platform/http/errors.js';
import { AGENT_ROLES, assertCompanyAccess, listActiveMembers, rolesFor } from '../companies/companies.service.js';
import { flowGreetingsCached } from '../greetings/greetings.service.js';
import { findRoutingById, getCompanyNumber, listCompanyNumbers } from '../numbers/numbers.service.js';
import { clientIdentity } from '../routing/routing.service.js';
import { getInAppCallingProfile } from '../users/users.service.js';
import { NOT_YOUR_NUMBER, numberScope, scopeIncludes } from '../users/members.service.js';
import { inAppCallingRepository } from './in-app-calling.repository.js';
import { hasSip, ringInAppUsers, waitForBrowserAnswer } from './in-app-calling.service.js';

/** 422 on the caller ID field for a number of the company the user may not call from. */
export const CALLER_ID_NOT_ALLOWED = NOT_YOUR_NUMBER;
export const TRANSFER_USER_UNKNOWN = 'Choose a user of this company who takes calls.';
export const TRANSFER_USER_AWAY = 'This user is not taking in-app calls right now.';

/**
 * GET /api/companies/{companyId}/outbound-calls/caller-ids: the company numbers `userId` may show
 * as caller ID (every active number for owners and administrators; a `user` only their assigned
 * numbers, users/members.service `numberScope`) and the selected one: the remembered choice while it
 * is still allowed, else the first. @throws ForbiddenError 403 (not a member, or a role without calls.work)
 */
export async function callerIdChoices(ctx: AppContext, userId: number, companyId: number): Promise<{ data: CallerIdOption[]; selected_id: number | null }> {
  await assertCompanyAccess(ctx, userId, companyId, rolesFor('calls.work'));
  const numbers = await listCompanyNumbers(ctx, userId, companyId);
  const data = numbers.map((n) => ({ id: n.id, number: n.number, label: n.label ?? '' }));
  const remembered = await inAppCallingRepository.callerIdPreference(ctx.db, userId, companyId);
  const selected = data.find((n) => n.id === remembered) ?? data[0];
  return { data, selected_id: selected?.id ?? null };
}

/**
 * The company number `numberId` when `userId` may show it as caller ID in `companyId`.
 * @throws ForbiddenError 403 (not a member / role), NotFoundError 404 (not a number of this
 *   company: another company's or released), ValidationError 422 on `field` (a number the user may
 *   not call from: a `user` role's unassigned number).
 */
export async function assertCallerId(
  ctx: AppContext,
  userId: number,
  companyId: number,
  numberId: number,
  field: string,
): Promise<{ id: number; number: string; label: string }> {
  await assertCompanyAccess(ctx, userId, companyId, rolesFor('calls.work'));
  const n = await getCompanyNumber(ctx, companyId, numberId);
  if (!scopeIncludes(await numberScope(ctx, userId, companyId), n.id)) throw fieldError(field, CALLER_ID_NOT_ALLOWED);
  return { id: n.id, number: n.number, label: n.label ?? '' };
}

/** PUT .../outbound-calls/caller-id {number_id}: remembers the caller ID. @throws as {@link assertCallerId} */
export async function rememberCallerId(
  ctx: AppContext,
  userId: number,
  companyId: number,
  numberId: number,
): Promise<{ message: string; selected_id: number }> {
  await assertCallerId(ctx, userId, companyId, numberId, 'number_id');
  await inAppCallingRepository.saveCallerIdPreference(ctx.db, userId, companyId, numberId);
  return { message: 'Caller ID saved', selected_id: numberId };
}

/** Remembers the caller ID of a call just placed (already checked by {@link assertCallerId}). */
export async function saveCallerIdChoice(ctx: AppContext, db: DbOrTx, userId: number, companyId: number, numberId: number): Promise<void> {
  await inAppCallingRepository.saveCallerIdPreference(db, userId, companyId, numberId);
}

/** Who placed browser call `callId` (null: not a call placed from the browser). */
export async function browserCallPlacer(db: DbOrTx, callId: number): Promise<{ placedBy: number; answeredBy: number | null; ended: boolean } | null> {
  const row = await inAppCallingRepository.find(db, callId);
  if (!row || row.direction !== 'outbound' || row.placed_by === null) return null;
  return { placedBy: row.placed_by, answeredBy: row.answered_by, ended: row.ended_at !== null };
}

/**
 * The user who answered inbound call `callId` in the app while that answer stands (null: not an inbound call
 * answered in the app, or its browser leg has ended). docs/calling.md "Transfer of an answered inbound call".
 */
export async function inboundAnswerer(db: DbOrTx, callId: number): Promise<number | null> {
  const row = await inAppCallingRepository.find(db, callId);
  if (!row || row.direction === 'outbound' || row.answered_by === null || row.ended_at !== null) return null;
  return row.answered_by;
}

/**
 * Ends the browser leg of inbound call `callId` (`reason`, e.g. 'transferred'), in `tx`; returns the after-commit
 * publisher of in-app `ended` to the user who had answered (their softphone card closes).
 */
export async function endInboundBrowserLeg(ctx: AppContext, tx: DbOrTx, callId: number, reason: string): Promise<(() => void) | undefined> {
  const row = await inAppCallingRepository.end(tx, callId, reason);
  if (!row || row.answered_by === null) return undefined;
  const userId = row.answered_by;
  return () => ctx.realtime.send(`user.${userId}`, IN_APP_CALLING_EVENT, { type: 'ended', callId, reason });
}

/** Publishes `outbound call` `event` to the user who placed browser call `event.callId` (none for other calls). */
export async function announceOutbound(ctx: AppContext, event: OutboundCallEvent): Promise<void> {
  const placed = await browserCallPlacer(ctx.db, event.callId);
  if (placed) ctx.realtime.send(`user.${placed.placedBy}`, OUTBOUND_CALL_EVENT, event);
}

/**
 * For the calls module, in the transaction that ended browser call `callId`: marks its in-app row
 * ended (once) and returns the after-commit publisher of `outbound call` {state:'ended', reason} to
 * the placing user and of in-app `ended` to a user it was transferred to.
 */
export async function endBrowserCall(ctx: AppContext, tx: DbOrTx, callId: number, reason: string): Promise<(() => void) | undefined> {
  const row = await inAppCallingRepository.end(tx, callId, reason);
  if (!row || row.direction !== 'outbound' || row.placed_by === null) return undefined;
  const placedBy = row.placed_by;
  return () => {
    ctx.realtime.send(`user.${placedBy}`, OUTBOUND_CALL_EVENT, { callId, state: 'ended', reason });
    for (const id of new Set(row.rung_user_ids)) ctx.realtime.send(`user.${id}`, IN_APP_CALLING_EVENT, { type: 'ended', callId, reason });
  };
}

/**
 * Blind transfer to a user: checks `targetUserId` is an active member of the call's company with a
 * role that works calls, in-app active and with SIP fields, then rings them (`ringInAppUsers`, the
 * inbound ring: the 'ringing' event, answer, first answer wins). Returns the after-commit publisher.
 * @throws ValidationError 422 `user_id` (not such a member / away).
 */
export async function ringTransferTarget(
  ctx: AppContext,
  tx: DbOrTx,
  call: { id: number; company_id: number; carrier_sid: string; from_number: string; to_number: string },
  targetUserId: number,
  timeoutS: number,
  direction: 'inbound' | 'outbound' = 'outbound',
): Promise<{ identity: string; announce: () => void }> {
  const member = (await listActiveMembers(ctx, call.company_id, tx)).find((m) => m.userId === targetUserId);
  if (!member || !AGENT_ROLES.includes(member.role)) throw fieldError('user_id', TRANSFER_USER_UNKNOWN);
  const profile = await getInAppCallingProfile(ctx, targetUserId, tx);
  if (!profile) throw new NotFoundError('User');
  if (profile.in_app_calling_status !== 'active' || !hasSip(profile)) throw fieldError('user_id', TRANSFER_USER_AWAY);
  const identity = clientIdentity(targetUserId);
  // The ringing card shows the outside number calling our number: for a call placed from the browser the handset
  // (the call's `to`) is that caller now; an inbound call's caller is its `from`.
  const ring = direction === 'outbound' ? { ...call, from_number: call.to_number, to_number: call.from_number } : call;
  const announce = await ringInAppUsers(ctx, tx, ring, [identity], timeoutS, true);
  return { identity, announce };
}

/**
 * For the sandbox (a transfer to a user): waits up to `timeoutMs` for a user to answer call
 * `callId` (first answer wins), or for the ring to end.
 */
export async function waitForBrowserAnswerOfCall(ctx: AppContext, callId: number, timeoutMs: number) {
  const row = await inAppCallingRepository.find(ctx.db, callId);
  if (!row) return { kind: 'ended' as const };
  return waitForBrowserAnswer(ctx, row.carrier_sid, timeoutMs);
}

/**
 * What the other side of a call from company number `numberId` hears while held (docs/calling.md
 * "Hold music"): the number's on-hold greeting, i.e. the `onhold_music_id` greeting of its first
 * route entry (lowest extension) that names one, as a URL signed for the carrier (`<Play>`, valid
 * CARRIER_URL_TTL_MS, greetings' `flowGreetingsCached`). Null: no such greeting (or it was
 * deleted), and the carrier plays its default music.
 */
export async function holdMusicUrl(ctx: AppContext, numberId: number): Promise<string | null> {
  const number = await findRoutingById(ctx, numberId);
  if (!number) return null;
  const entry = [...number.routes].sort((x, y) => x.extension - y.extension).find((e) => typeof e.onhold_music_id === 'number');
  if (!entry || entry.onhold_music_id === null) return null;
  const greetings = await flowGreetingsCached(ctx, { id: number.id, company_id: number.company_id }, [entry.onhold_music_id]);
  return greetings.byId[entry.onhold_music_id] ?? null;
}
