/**
 * In-app calling (spec 002 §3 User.in_app_calling_status, §4 "status toggles active and away",
 * §7 "In-app calling"; foundation §3 SIP fields; docs/telephony.md "In-app calling").
 *
 * - A user is *active* or *away*. Going active provisions the user's SIP credentials when they
 *   are missing and the carrier can issue them (`carrier.capabilities.voiceSdk`: sandbox always;
 *   Twilio when TWILIO_API_KEY and TWILIO_API_SECRET are set), because a user may place and answer in-app calls only when
 *   `sip_address`, `sip_user` and `sip_password` are all present (foundation §3).
 * - When an inbound call reaches an in-app-calling route entry, the call flow (calls module) rings
 *   `<Client>user_{id}</Client>` for every active user who may take the number (`activeInAppUserIds`) and calls
 *   `ringInAppUsers`, which stores an `in_app_calls` row with a join token and, after commit,
 *   publishes the 'in-app calling' event `{type:'ringing', ...}` on `user.{id}`.
 * - `answerCall`: the first answer wins (`UPDATE ... WHERE answered_by IS NULL`), the call becomes
 *   12 Connected (calls module), the other rung users get `{type:'answered', callId, byUserId}`;
 *   later answers get 409.
 * - The sandbox simulator's `<Client>` legs wait for a browser answer with `waitForBrowserAnswer`
 *   (in-process signal + database polling, so an answer on another node is seen too).
 * - Calls placed from the browser are the calls module's use case (it stores the call); this module
 *   keeps their `in_app_calls` row (`recordBrowserCall`), checks who may connect them
 *   (`authorizeBrowserCall`) and issues the token (`browserCallToken`).
 *
 * In-app calling sits below calls (docs/architecture.md "Module map"): it never imports calls. What
 * it needs from calls inside its own transaction (marking an answered call Connected) the calls
 * module provides in its setup (the `inAppAnswer` hook, `ctx.hooks`). The users' in-app calling fields
 * belong to the users module and memberships to companies; read and written through their services.
 */
import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import { IN_APP_CALLING_EVENT, type CanAnswerBody, type InAppCallingEvent, type InAppCallingStatus, type InAppUser } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import type { HookFn, InAppRing } from '../../platform/hooks/registry.js';
import { ConflictError, ForbiddenError, NotFoundError, fieldError, deniedAsNotFound } from '../../platform/http/errors.js';
import { AGENT_ROLES, activeMemberIds, assertCompanyAccess, listActiveMembers, rolesFor, type Role } from '../companies/companies.service.js';
import { findContactByNumber } from '../contacts/contacts.service.js';
import { findNumberByE164 } from '../numbers/numbers.service.js';
import { clientIdentity } from '../routing/routing.service.js';
import {
  filterInAppCallingActive,
  getInAppCallingProfile,
  getInAppCallingProfiles,
  setInAppCallingStatus,
  setSipCredentials,
  type InAppCallingProfile,
} from '../users/users.service.js';
import { numberAssignees } from '../users/members.service.js';
import { inAppCallingRepository, type InAppCallRow } from './in-app-calling.repository.js';

export const MISSING_SIP = 'In-app calling needs your SIP address, SIP user and SIP password.';
export const ALREADY_ANSWERED = 'This call was already answered.';
export const CALL_ENDED = 'This call has ended.';

const signals = new EventEmitter();
signals.setMaxListeners(0);

/** The user id of an in-app identity `user_{id}`, or null. */
export function userIdOfIdentity(identity: string): number | null {
  const m = /^user_(\d+)$/.exec(identity);
  return m ? Number(m[1]) : null;
}

/** Whether all three SIP fields are present (foundation §3). */
export function hasSip(u: Pick<InAppCallingProfile, 'sip_address' | 'sip_user' | 'sip_password'>): boolean {
  return Boolean(u.sip_address?.trim() && u.sip_user?.trim() && u.sip_password?.trim());
}

function publish(ctx: AppContext, userIds: Iterable<number>, event: InAppCallingEvent): void {
  for (const id of new Set(userIds)) ctx.realtime.send(`user.${id}`, IN_APP_CALLING_EVENT, event);
}

function userDto(u: InAppCallingProfile & { role: string }): InAppUser {
  const status = u.in_app_calling_status === 'active' ? 'active' : 'away';
  const sip = hasSip(u);
  return {
    id: u.id,
    first_name: u.first_name,
    last_name: u.last_name,
    email: u.email,
    role: u.role,
    in_app_calling_status: status,
    has_sip: sip,
    can_take_calls: status === 'active' && sip,
  };
}

/** Roles that answer calls in the app (the matrix's `calls.work`: owner, administrator, user). */
const CALL_WORKER_ROLES: readonly Role[] = rolesFor('calls.work');

/**
 * Who may take an in-app call to `numberId` (docs/calling.md "Who rings for an in-app line"), before the in-app
 * status filter: every active member whose role works calls (`calls.work`) and who may work the number
 * (docs/permissions.md "Numbers a user sees"): owners and administrators (all numbers) always, `user`s when the
 * number is assigned to them (users module's `numberAssignees`, the spec's user `numbers`). Assigning the number
 * to someone adds them to the ring; it never takes the ring away from the owners and administrators, so a caller
 * is not sent to voicemail while anyone who may answer is active. Ascending ids; `db`: the call flow's transaction
 * (reads run one after another on its connection).
 */
export async function inAppRingCandidates(ctx: AppContext, companyId: number, numberId: number, db: DbOrTx = ctx.db): Promise<number[]> {
  const members = await listActiveMembers(ctx, companyId, db);
  const assigned = new Set(await numberAssignees(ctx, companyId, numberId, db));
  return members
    .filter((m) => CALL_WORKER_ROLES.includes(m.role) && (m.role !== 'user' || assigned.has(m.userId)))
    .map((m) => m.userId)
    .sort((x, y) => x - y);
}

/**
 * For the call flow (calls module): ids of the members to ring whose in-app status is active, in id
 * order; they are rung as `<Client>user_{id}</Client>`. With `numberId` (the called number), those of
 * {@link inAppRingCandidates} (owners and administrators, and the `user`s the number is assigned to). Without
 * it, every active member (kept for callers that ring the whole company).
 */
export async function activeInAppUserIds(ctx: AppContext, companyId: number, db: DbOrTx = ctx.db, numberId?: number): Promise<number[]> {
  const candidates = numberId === undefined ? await activeMemberIds(ctx, companyId, db) : await inAppRingCandidates(ctx, companyId, numberId, db);
  return filterInAppCallingActive(ctx, candidates, db);
}

/**
 * GET /api/companies/{companyId}/in-app-calling/users: the company's users with their status,
 * `has_sip` and `can_take_calls`. @throws ForbiddenError 403 for non-members.
 */
export async function listInAppUsers(ctx: AppContext, userId: number, companyId: number): Promise<{ data: InAppUser[] }> {
  await assertCompanyAccess(ctx, userId, companyId);
  const members = await listActiveMembers(ctx, companyId);
  const roles = new Map(members.map((m) => [m.userId, m.role]));
  // The profiles come ordered by first name, last name, id.
  const profiles = await getInAppCallingProfiles(
    ctx,
    members.map((m) => m.userId),
  );
  return { data: profiles.map((u) => userDto({ ...u, role: roles.get(u.id)! })) };
}

/** Whether this deployment's carrier can issue softphone credentials itself. */
function canProvisionSip(ctx: AppContext): boolean {
  return ctx.carrier.capabilities.voiceSdk;
}

/**
 * POST /api/companies/{companyId}/in-app-calling/status {status}: sets the user's status (it is
 * the user's, shown in every company). Going active without SIP fields provisions them when the
 * carrier can (`sip:user_{id}@sandbox.switchboard.local` / `user_{id}` / a random password in
 * the sandbox), else 422. Publishes `{type:'status'}` on `user.{id}` so the user's other tabs follow.
 * @throws ForbiddenError 403, ValidationError 422 (status active without SIP fields).
 */
export async function setInAppStatus(
  ctx: AppContext,
  userId: number,
  companyId: number,
  status: InAppCallingStatus,
): Promise<{ message: string; data: InAppUser }> {
  const role = await assertCompanyAccess(ctx, userId, companyId);
  await ctx.db.transaction().execute(async (tx) => {
    const u = await getInAppCallingProfile(ctx, userId, tx);
    if (!u) throw new NotFoundError('User');
    if (status === 'active' && !hasSip(u)) {
      if (!canProvisionSip(ctx)) throw fieldError('status', MISSING_SIP);
      const domain = ctx.carrier.sipDomain;
      await setSipCredentials(
        ctx,
        userId,
        {
          sip_address: u.sip_address?.trim() || `sip:${clientIdentity(userId)}@${domain}`,
          sip_user: u.sip_user?.trim() || clientIdentity(userId),
          sip_password: u.sip_password?.trim() || crypto.randomBytes(18).toString('base64url'),
        },
        tx,
      );
    }
    await setInAppCallingStatus(ctx, userId, status, tx);
  });
  publish(ctx, [userId], { type: 'status', status });
  const u = (await getInAppCallingProfile(ctx, userId))!;
  return { message: status === 'active' ? 'You are now active for in-app calls.' : 'You are now away.', data: userDto({ ...u, role }) };
}

async function sipUser(ctx: AppContext, userId: number): Promise<InAppCallingProfile> {
  const u = await getInAppCallingProfile(ctx, userId);
  if (!u) throw new NotFoundError('User');
  return u;
}

/**
 * POST /api/companies/{companyId}/in-app-calling/token: the softphone's access token for identity
 * `user_{id}` (Twilio: Voice grant JWT; sandbox: signed token).
 * @throws ForbiddenError 403 (not a member), ValidationError 422 `sip_address` (SIP fields missing),
 *   CarrierError when Twilio lacks the API key.
 */
export async function createInAppToken(ctx: AppContext, userId: number, companyId: number) {
  await assertCompanyAccess(ctx, userId, companyId);
  if (!hasSip(await sipUser(ctx, userId))) throw fieldError('sip_address', MISSING_SIP);
  const t = ctx.carrier.createClientToken(clientIdentity(userId), { outgoing: ctx.carrier.capabilities.voiceSdkOutgoing });
  return { token: t.token, identity: t.identity, carrier: ctx.carrier.name, ttl: t.ttlS };
}

/**
 * For a call placed from the browser (calls module, `POST /api/v1/calls/token`): the user must have
 * the three SIP fields. @throws ValidationError 422 `sip_address`, NotFoundError 404 (no such user).
 */
export async function assertSoftphoneReady(ctx: AppContext, userId: number): Promise<void> {
  if (!hasSip(await sipUser(ctx, userId))) throw fieldError('sip_address', MISSING_SIP);
}

/**
 * For the calls module, inside the transaction that stored the outbound call `callId`: keeps the
 * browser call's `in_app_calls` row (placed by `userId`; `carrierSid` is the placeholder SID the
 * token's call carries until the carrier connects it).
 */
export async function recordBrowserCall(
  ctx: AppContext,
  tx: DbOrTx,
  call: { callId: number; companyId: number; carrierSid: string; userId: number },
): Promise<void> {
  await inAppCallingRepository.insertOutbound(tx, {
    call_id: call.callId,
    company_id: call.companyId,
    carrier_sid: call.carrierSid,
    direction: 'outbound',
    join_token: crypto.randomBytes(16).toString('base64url'),
    placed_by: call.userId,
    rung_user_ids: [],
  });
}

/**
 * The softphone token of a call placed from the browser: identity `user_{id}`, outgoing allowed,
 * and `params` (e.g. `call_id`, `number_id`, `To`) travelling with the call to the carrier's
 * `voice.client` webhook. @throws CarrierError when the carrier is not configured for browser calling.
 */
export function browserCallToken(ctx: AppContext, userId: number, params: Record<string, string>) {
  const t = ctx.carrier.createClientToken(clientIdentity(userId), { outgoing: true, params });
  return { token: t.token, identity: t.identity, carrier: ctx.carrier.name, ttl: t.ttlS };
}

/**
 * The carrier's `voice.client` webhook asks who may connect browser call `callId`: only the user
 * the token was issued to (`identity` `user_{id}`), and only once (the call row still carries the
 * token's SID). @returns the placing user and the token's SID, or null (refuse the call).
 */
export async function authorizeBrowserCall(
  ctx: AppContext,
  tx: DbOrTx,
  input: { callId: number; identity: string | undefined },
): Promise<{ userId: number; tokenSid: string } | null> {
  const userId = input.identity ? userIdOfIdentity(input.identity) : null;
  if (userId === null || !Number.isInteger(input.callId) || input.callId <= 0) return null;
  const placed = await inAppCallingRepository.find(tx, input.callId);
  if (!placed || placed.direction !== 'outbound' || placed.placed_by !== userId) return null;
  return { userId, tokenSid: placed.carrier_sid };
}

/**
 * For the call flow (calls module), inside the webhook transaction: the call now rings the
 * in-app `identities` for up to `timeoutS` s. Stores/extends the `in_app_calls` row and returns
 * the after-commit publisher of `{type:'ringing', callId, companyId, from, to, numberLabel,
 * joinToken, timeoutS}` on `user.{id}` of each rung user. `transfer`: only these users ring now (the ones rung
 * before no longer can answer, and the ring ends when these all decline).
 */
export async function ringInAppUsers(
  ctx: AppContext,
  tx: DbOrTx,
  call: { id: number; company_id: number; carrier_sid: string; from_number: string; to_number: string },
  identities: readonly string[],
  timeoutS: number,
  transfer = false,
): Promise<() => void> {
  const userIds = identities.map(userIdOfIdentity).filter((x): x is number => x !== null);
  const row = await inAppCallingRepository.upsertCall(
    tx,
    {
      call_id: call.id,
      company_id: call.company_id,
      carrier_sid: call.carrier_sid,
      join_token: crypto.randomBytes(16).toString('base64url'),
      rung_user_ids: userIds,
    },
    transfer,
  );
  const label = (await findNumberByE164(ctx, call.to_number, tx))?.label ?? '';
  // The ringing card names a known caller (contacts module's lookup, inside this transaction).
  const contactName = (await findContactByNumber(ctx, call.company_id, call.from_number, tx))?.name ?? null;
  return () => {
    publish(ctx, userIds, {
      type: 'ringing',
      callId: call.id,
      companyId: call.company_id,
      from: call.from_number,
      to: call.to_number,
      numberLabel: label,
      joinToken: row.join_token,
      timeoutS,
      contactName,
    });
    const ring: InAppRing = {
      callId: call.id,
      companyId: call.company_id,
      from: call.from_number,
      to: call.to_number,
      numberLabel: label,
      contactName,
      userIds,
      timeoutS,
      joinToken: row.join_token,
    };
    for (const listener of ctx.hooks.all('inAppRing')) {
      void Promise.resolve()
        .then(() => listener(ctx, ring))
        .catch((e: unknown) => ctx.log.error({ err: e, callId: call.id }, 'in-app ring listener failed'));
    }
  };
}

/** An in-app ring, told to the ring listeners after commit: the call, its parties and the rung user ids. */
export type { InAppRing };
/**
 * Told after commit of every in-app ring (a repeated ring of one call too); must not block the call flow. The
 * `inAppRing` hook (platform/hooks/registry.ts): the push module provides it (browser and VoIP pushes, docs/push.md).
 */
export type InAppRingListener = HookFn<'inAppRing'>;

/**
 * For the call flow: the in-app ring of `callId` is over (`reason`: 'dial-no-answer',
 * 'dial-completed', 'call-ended', ...). Marks the row ended (once) and returns the after-commit
 * publisher of `{type:'ended'}` to the rung users; a no-op when the call never rang in-app.
 */
export async function endInAppRinging(ctx: AppContext, tx: DbOrTx, callId: number, reason: string): Promise<(() => void) | undefined> {
  const row = await inAppCallingRepository.end(tx, callId, reason);
  if (!row) return undefined;
  return () => {
    publish(ctx, row.rung_user_ids, { type: 'ended', callId, reason });
    signals.emit(`call:${callId}`);
  };
}

/**
 * What happens to the call when a user answers it in the browser, inside the transaction that
 * claimed the answer: `{callId, userId, identity}` (`user_{id}`). Returns what to run after commit
 * (its live events), if anything. Registered by the calls module (it owns the call's status).
 */
export type InAppAnswerHandler = HookFn<'inAppAnswer'>;

/** The company's in-app call row `callId` for a member. @throws 403 (not a member), 404 */
async function callFor(ctx: AppContext, userId: number, companyId: number, callId: number): Promise<InAppCallRow> {
  await assertCompanyAccess(ctx, userId, companyId, AGENT_ROLES);
  const row = await inAppCallingRepository.find(ctx.db, callId);
  if (!row || row.company_id !== companyId) throw new NotFoundError('Call');
  return row;
}

function stateOf(row: InAppCallRow) {
  return {
    call_id: row.call_id,
    state: row.answered_by !== null ? ('answered' as const) : row.ended_at ? ('ended' as const) : ('ringing' as const),
    answered_by: row.answered_by,
    answered_at: row.answered_at ? row.answered_at.toISOString() : null,
  };
}

/**
 * GET .../in-app-calling/calls/{callId}/can-answer-call: `{canAnswer}` while the call rings this
 * user and nobody answered; else `{canAnswer:false, reason}` with reason 'answered', 'ended',
 * 'rejected', 'not_rung' or 'missing_sip'. @throws 403, 404
 */
export async function canAnswerCall(ctx: AppContext, userId: number, companyId: number, callId: number): Promise<CanAnswerBody> {
  const row = await callFor(ctx, userId, companyId, callId);
  if (row.answered_by !== null) return { canAnswer: false, reason: 'answered' };
  if (row.ended_at) return { canAnswer: false, reason: 'ended' };
  if (!row.rung_user_ids.includes(userId)) return { canAnswer: false, reason: 'not_rung' };
  if (row.rejected_by.includes(userId)) return { canAnswer: false, reason: 'rejected' };
  if (!hasSip(await sipUser(ctx, userId))) return { canAnswer: false, reason: 'missing_sip' };
  return { canAnswer: true };
}

/**
 * POST .../in-app-calling/calls/{callId}/answer: claims the call for this user (first answer
 * wins), sets it 12 Connected with forwarded_to `user_{id}`, tells the rung users (the answerer's other tabs too)
 * `{type:'answered', callId, byUserId}` and wakes the sandbox leg waiting for a browser answer.
 * @throws 403 (not a member / not rung / SIP missing), 404, ConflictError 409 (already answered or ended).
 */
export async function answerCall(ctx: AppContext, userId: number, companyId: number, callId: number) {
  const row = await callFor(ctx, userId, companyId, callId);
  if (!row.rung_user_ids.includes(userId)) throw new ForbiddenError('This call is not ringing for you.');
  if (!hasSip(await sipUser(ctx, userId))) throw new ForbiddenError(MISSING_SIP);
  const onAnswer = ctx.hooks.get('inAppAnswer');
  if (!onAnswer) throw new Error("in-app calling: nothing provides the 'inAppAnswer' hook (the calls module's setup)");
  const result = await ctx.db.transaction().execute(async (tx) => {
    const claimed = await inAppCallingRepository.claimAnswer(tx, callId, userId);
    if (!claimed) return { claimed: null, announce: undefined };
    return { claimed, announce: await onAnswer(ctx, tx, { callId, userId, identity: clientIdentity(userId) }) };
  });
  if (!result.claimed) {
    const now = await inAppCallingRepository.find(ctx.db, callId);
    throw new ConflictError(now?.answered_by !== null && now?.answered_by !== undefined ? ALREADY_ANSWERED : CALL_ENDED);
  }
  await result.announce?.();
  // Every rung user, the answerer included: their other tabs stop ringing too.
  publish(ctx, result.claimed.rung_user_ids, { type: 'answered', callId, byUserId: userId });
  signals.emit(`call:${callId}`);
  return { message: 'Call answered', data: stateOf(result.claimed) };
}

/**
 * POST .../in-app-calling/calls/{callId}/reject {joinToken}: this user declines. When every rung
 * user declined, the ring ends (the carrier's Dial then takes the entry's no-answer path).
 * @throws 403 (wrong join token), 404, 409 (already answered).
 */
export async function rejectCall(ctx: AppContext, userId: number, companyId: number, callId: number, joinToken: string) {
  const row = await callFor(ctx, userId, companyId, callId);
  const a = Buffer.from(row.join_token);
  const b = Buffer.from(joinToken);
  if (a.length !== b.length || !crypto.timingSafeEqual(a, b) || !row.rung_user_ids.includes(userId)) throw new ForbiddenError();
  if (row.answered_by !== null) throw new ConflictError(ALREADY_ANSWERED);
  const updated = (await inAppCallingRepository.addRejection(ctx.db, callId, userId))!;
  const everyone = updated.rung_user_ids.every((id) => updated.rejected_by.includes(id));
  const ended = everyone ? await inAppCallingRepository.end(ctx.db, callId, 'rejected') : undefined;
  publish(ctx, ended ? updated.rung_user_ids : [userId], { type: 'ended', callId, reason: 'rejected' });
  signals.emit(`call:${callId}`);
  return { message: 'Call rejected' };
}

/**
 * POST .../in-app-calling/calls/{callId}/hangup: the user who answered ends the browser leg.
 * The sandbox caller hears the hang-up; with Twilio the Voice SDK disconnects the leg itself and
 * this only records it. @throws 403 (not the answerer), 404
 */
export async function hangupCall(ctx: AppContext, userId: number, companyId: number, callId: number) {
  const row = await callFor(ctx, userId, companyId, callId);
  if (row.answered_by !== userId && row.placed_by !== userId) throw new ForbiddenError();
  const ended = await inAppCallingRepository.end(ctx.db, callId, 'agent-hangup');
  if (ended) publish(ctx, [userId], { type: 'ended', callId, reason: 'agent-hangup' });
  signals.emit(`call:${callId}`);
  return { message: 'Call ended' };
}

type BrowserAnswer = { kind: 'answered'; userId: number; callId: number; name?: string } | { kind: 'rejected' } | { kind: 'ended' } | { kind: 'timeout' };

/** Waits until `check` answers non-null, re-checking on the call's signal and every `pollMs`. */
async function waitFor<T>(callIdOf: () => number | undefined, check: () => Promise<T | null>, timeoutMs: number, pollMs = 300): Promise<T | null> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== null) return v;
    const left = end - Date.now();
    if (left <= 0) return null;
    const id = callIdOf();
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(t);
        if (id !== undefined) signals.off(`call:${id}`, done);
        resolve();
      };
      const t = setTimeout(done, Math.min(pollMs, left));
      if (id !== undefined) signals.once(`call:${id}`, done);
    });
  }
}

/**
 * For the Phone simulator (modules/simulator; the sandbox's `<Client>` legs): waits up to
 * `timeoutMs` for a browser user to answer the call with carrier SID `sid` (or for every rung user
 * to decline / the ring to end). An answer carries the answering person's `name` (for the simulator's call log).
 */
export async function waitForBrowserAnswer(ctx: AppContext, sid: string, timeoutMs: number): Promise<BrowserAnswer> {
  let callId: number | undefined;
  const r = await waitFor<BrowserAnswer>(
    () => callId,
    async () => {
      const row = await inAppCallingRepository.findBySid(ctx.db, sid);
      if (!row) return null;
      callId = row.call_id;
      if (row.answered_by !== null) return { kind: 'answered', userId: row.answered_by, callId: row.call_id };
      if (row.end_reason === 'rejected') return { kind: 'rejected' };
      if (row.ended_at) return { kind: 'ended' };
      return null;
    },
    timeoutMs,
  );
  if (r?.kind === 'answered') {
    // The simulator's call log names the person who answered, as the call detail does.
    const who = await getInAppCallingProfile(ctx, r.userId);
    const name = who ? `${who.first_name} ${who.last_name}`.trim() : '';
    return name ? { ...r, name } : r;
  }
  return r ?? { kind: 'timeout' };
}

/**
 * For the sandbox simulator: after a browser answer, waits up to `maxMs` for the user to hang up.
 * @returns true when the user hung up, false when the time ran out.
 */
export async function waitForBrowserHangup(ctx: AppContext, callId: number, maxMs: number): Promise<boolean> {
  const r = await waitFor<boolean>(
    () => callId,
    async () => ((await inAppCallingRepository.find(ctx.db, callId))?.ended_at ? true : null),
    maxMs,
  );
  return r === true;
}
export { inAppHandlersOf } from './in-app-calling.reporting.js';
