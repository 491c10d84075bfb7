/**
 * Calling from consumer numbers in the browser (issue 25: "Calling and texting from a consumer number use the same
 * telephony as the business product (inbox, voicemail, in-app calling in the browser)"; docs/consumer-area.md
 * "Calls in the browser").
 *
 * The consumer area places and answers calls through the business product's in-app calling, unchanged:
 * - **Identity.** In-app calling is per user (`<Client>user_{id}</Client>`, a token for identity `user_{id}`). Each
 *   account gets its own calling user, `caddy-account-{accountId}@switchboard.invalid` (an unusable password: it never
 *   signs in), an administrator of the account's hidden company, made active for in-app calls (its SIP fields
 *   provisioned by in-app calling's `setInAppStatus`). Created on first use ({@link callingUserOf}).
 * - **Placing** (`POST /caddy/numbers/{id}/calls {to}`): the calls module's `placeOutboundCall` with the number as
 *   caller ID (refused when the number is inactive or the plan's minutes are used up); the answer is the softphone
 *   token. In the sandbox the screen connects it with `POST /caddy/calls/connect {token}` (what the Phone simulator's
 *   `POST /api/simulator/softphone/connect` does for business users, for the account's own calling user only); with
 *   Twilio the Voice SDK connects it. Hang-up: the calls module's `hangupOutboundCall`.
 * - **Receiving**: the account's numbers route to one in-app-calling entry with voicemail when nobody answers
 *   ({@link ensureInAppRouting}, through the numbers service's `applyRoutingToNumbers`), so an inbound call rings the
 *   calling user. The ring reaches the screens on the account's live channel: caddy provides in-app calling's
 *   `inAppRing` hook and sends `call ringing` to `caddy.{accountId}`; answer, decline and hang-up are in-app calling's
 *   `answerCall`, `rejectCall` and `hangupCall`.
 * - **State**: the `caddy.live` outbox consumer of `call.changed` sends `call updated` (status, ended, duration) of the
 *   account's calls to its screens, as the business product's `call updated` is a consumer of the same event.
 */
import { CALL_STATUS, newRouteEntry } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import { verifySandboxClientToken } from '../../carriers/sandbox/sandbox.token.js';
import { connectSoftphoneCall } from '../../carriers/sandbox/sandbox.handset-calls.js';
import { randomToken } from '../../platform/auth/tokens.js';
import type { DomainEvents, EventMeta } from '../../platform/events/index.js';
import type { InAppRing } from '../../platform/hooks/registry.js';
import { fieldError, NotFoundError } from '../../platform/http/errors.js';
import { hangupOutboundCall, placeOutboundCall } from '../calls/calls.service.js';
import { addCompanyMember, companyTimeZone } from '../companies/companies.service.js';
import { synthesize } from '../greetings/speech.js';
import {
  answerCall,
  createInAppToken,
  hangupCall,
  rejectCall,
  setInAppStatus,
  userIdOfIdentity,
  waitForBrowserAnswer,
  waitForBrowserHangup,
} from '../in-app-calling/in-app-calling.service.js';
import { waitForBrowserAnswerOfCall } from '../in-app-calling/outbound.service.js';
import { applyRoutingToNumbers, findRoutingById } from '../numbers/numbers.service.js';
import { createUser, findUserByEmail, getInAppCallingProfile } from '../users/users.service.js';
import { caddyRepository, type CaddyAccountRow } from './caddy.repository.js';
import { minutesLimitMessage, sendToAccount, usageOf } from './caddy.usage.js';

/** How long an inbound call rings the screens before voicemail (s). */
export const RING_TIMEOUT_S = 25;

/** The e-mail of an account's calling user (never a mailbox: `.invalid`). */
export function callingUserEmail(accountId: number): string {
  return `caddy-account-${accountId}@switchboard.invalid`;
}

/**
 * The account's calling user id: created on first use as an administrator of the account's hidden company, made active
 * for in-app calls (SIP fields provisioned when the carrier can issue them). Idempotent; concurrent first uses meet on
 * the unique e-mail.
 */
export async function callingUserOf(ctx: AppContext, account: CaddyAccountRow): Promise<number> {
  const email = callingUserEmail(account.id);
  let userId = (await findUserByEmail(ctx, email))?.id;
  if (userId === undefined) {
    try {
      userId = await ctx.db.transaction().execute(async (tx) => {
        const id = await createUser(ctx, { email, password: randomToken(32), firstName: account.name || 'Consumer', lastName: `account ${account.id}` }, tx);
        await addCompanyMember(ctx, account.company_id, id, 'administrator', tx);
        return id;
      });
    } catch (error) {
      if ((error as { code?: string }).code !== '23505') throw error;
      userId = (await findUserByEmail(ctx, email))!.id;
    }
  }
  const profile = await getInAppCallingProfile(ctx, userId);
  if (profile?.in_app_calling_status !== 'active') await setInAppStatus(ctx, userId, account.company_id, 'active');
  return userId;
}

/** The account whose calling user `userId` is, or null (not a consumer's calling user). */
async function accountOfCallingUser(ctx: AppContext, userId: number): Promise<CaddyAccountRow | null> {
  const profile = await getInAppCallingProfile(ctx, userId);
  const m = profile ? /^caddy-account-(\d+)@switchboard\.invalid$/.exec(profile.email) : null;
  return m ? ((await caddyRepository.findAccount(ctx.db, Number(m[1]))) ?? null) : null;
}

/**
 * Routes the account's numbers (or only `numberIds`) that do not ring in the app yet to one in-app-calling entry, open
 * always, voicemail when nobody answers within RING_TIMEOUT_S (through the numbers service).
 */
export async function ensureInAppRouting(ctx: AppContext, account: CaddyAccountRow, numberIds?: readonly number[]): Promise<void> {
  const ids = numberIds ?? (await caddyRepository.listNumbers(ctx.db, account.id)).map((n) => n.number_id);
  const pending: number[] = [];
  for (const id of ids) {
    const routing = await findRoutingById(ctx, id);
    if (routing && !(routing.routes.length === 1 && routing.routes[0]!.type === 'in-app-calling')) pending.push(id);
  }
  if (pending.length === 0) return;
  const tz = await companyTimeZone(ctx, account.company_id);
  const entry = { ...newRouteEntry(tz), type: 'in-app-calling' as const, voicemail_enabled: true, timeout: RING_TIMEOUT_S };
  await applyRoutingToNumbers(ctx, null, account.company_id, pending, { routes: [entry], schedule: entry.schedule });
}

/**
 * `GET /caddy/calling`: readies the account for calls in the browser (its calling user, its numbers' in-app routing)
 * and answers the softphone's identity and carrier, with a token for carriers whose browser registers a device
 * (Twilio's Voice SDK). @throws ValidationError (422 `sip_address`) when the carrier cannot issue softphone credentials.
 */
export async function callingReady(ctx: AppContext, account: CaddyAccountRow) {
  const userId = await callingUserOf(ctx, account);
  await ensureInAppRouting(ctx, account);
  const t = await createInAppToken(ctx, userId, account.company_id);
  return { data: { identity: t.identity, carrier: t.carrier, token: t.token, ttl: t.ttl, ringTimeoutS: RING_TIMEOUT_S } };
}

/**
 * `POST /caddy/numbers/{id}/calls {to}`: places a call from one of the account's active numbers (the calls module's
 * outbound call, caller ID the number). @returns the softphone token with the call's params and id.
 * @throws NotFoundError (404: not the account's number); ValidationError (422): an inactive number, the plan's minutes
 *   used up (a clear message), an invalid destination or the number itself.
 */
export async function placeCall(ctx: AppContext, account: CaddyAccountRow, caddyNumberId: number, to: string) {
  const n = (await caddyRepository.listNumbers(ctx.db, account.id)).find((r) => r.id === caddyNumberId);
  if (!n) throw new NotFoundError('Number');
  if (!n.is_active) throw fieldError('to', 'This number is inactive. Activate it to place calls.');
  const usage = await usageOf(ctx, account);
  if (usage.overLimit.includes('minutes')) throw fieldError('to', minutesLimitMessage(usage.plan));
  const userId = await callingUserOf(ctx, account);
  const placed = await placeOutboundCall(ctx, userId, account.company_id, { caller_id: n.number_id, to });
  return {
    message: 'Calling…',
    data: {
      callId: placed.call_id,
      token: placed.token,
      identity: placed.identity,
      carrier: placed.carrier,
      from: placed.from,
      to: placed.to,
      params: placed.params,
    },
  };
}

/**
 * `POST /caddy/calls/connect {token}` (sandbox carrier only): the sandbox softphone connects the call its token was
 * issued for, as the Phone simulator's softphone route does for business users: only the account's own calling user's
 * token. @throws NotFoundError (404) with another carrier; ValidationError (422 `token`) for any other token.
 */
export async function connectSandboxCall(ctx: AppContext, account: CaddyAccountRow, token: string) {
  if (!ctx.carrier.capabilities.simulator) throw new NotFoundError('Route');
  const userId = await callingUserOf(ctx, account);
  const t = verifySandboxClientToken(ctx.config, token);
  if (!t || userIdOfIdentity(t.sub) !== userId) throw fieldError('token', 'The call token is not valid.');
  const legs = {
    waitForAnswer: (sid: string, timeoutMs: number) => waitForBrowserAnswer(ctx, sid, timeoutMs),
    waitForHangup: (callId: number, maxMs: number) => waitForBrowserHangup(ctx, callId, maxMs),
    waitForCallAnswer: (callId: number, timeoutMs: number) => waitForBrowserAnswerOfCall(ctx, callId, timeoutMs),
  };
  const r = await connectSoftphoneCall(ctx, token, legs, (text) => synthesize(text));
  if (!r) throw fieldError('token', 'The call token is not valid.');
  return { data: r };
}

/** `POST /caddy/calls/{callId}/answer`: answers a call ringing the account's screens (first answer wins: 409 after). */
export async function answerConsumerCall(ctx: AppContext, account: CaddyAccountRow, callId: number) {
  const out = await answerCall(ctx, await callingUserOf(ctx, account), account.company_id, callId);
  return { message: out.message };
}

/** `POST /caddy/calls/{callId}/reject {joinToken}`: declines a ringing call (the caller goes on to voicemail). */
export async function rejectConsumerCall(ctx: AppContext, account: CaddyAccountRow, callId: number, joinToken: string) {
  return rejectCall(ctx, await callingUserOf(ctx, account), account.company_id, callId, joinToken);
}

/**
 * `POST /caddy/calls/{callId}/hangup`: ends the account's call, placed (the calls module: the callee stops ringing or
 * hears the hang-up) or answered in the browser (in-app calling). Idempotent. @throws NotFoundError (404) for another
 * account's call.
 */
export async function hangupConsumerCall(ctx: AppContext, account: CaddyAccountRow, callId: number) {
  const userId = await callingUserOf(ctx, account);
  try {
    return await hangupOutboundCall(ctx, userId, account.company_id, callId);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    return hangupCall(ctx, userId, account.company_id, callId);
  }
}

/** The `inAppRing` hook (in-app calling asks it after commit of every ring): a ring of a calling user reaches its account's screens. */
export async function onInAppRing(ctx: AppContext, ring: InAppRing): Promise<void> {
  for (const userId of ring.userIds) {
    const account = await accountOfCallingUser(ctx, userId);
    if (!account || account.company_id !== ring.companyId) continue;
    const n = (await caddyRepository.listNumbers(ctx.db, account.id)).find((r) => r.number === ring.to);
    sendToAccount(ctx, account.id, 'call ringing', {
      callId: ring.callId,
      numberId: n?.id ?? null,
      from: ring.from,
      to: ring.to,
      contactName: ring.contactName,
      joinToken: ring.joinToken ?? '',
      timeoutS: ring.timeoutS,
    });
  }
}

/** `caddy.live` on `call.changed`: a live call of a consumer's number changed; its screens hear `call updated`. */
export async function onCallChangedLive(ctx: AppContext, p: DomainEvents['call.changed'], _meta?: EventMeta): Promise<void> {
  if (p.history) return;
  const account = await caddyRepository.findByCompany(ctx.db, p.companyId);
  if (!account) return;
  const n = (await caddyRepository.listNumbers(ctx.db, account.id)).find((r) => r.number_id === p.numberId);
  const endedAt = p.endedAt ? new Date(p.endedAt).toISOString() : null;
  sendToAccount(ctx, account.id, 'call updated', {
    callId: p.callId,
    numberId: n?.id ?? null,
    direction: p.direction ?? null,
    otherParty: p.from,
    status: p.status,
    answered: p.status === CALL_STATUS.CONNECTED,
    voicemail: Boolean(p.voicemailId),
    endedAt,
    durationS: p.durationS ?? null,
  });
}
