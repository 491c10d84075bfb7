/**
 * Consumer usage (docs/consumer-area.md "Usage and plan limits"): minutes and texts of the account's numbers per
 * calendar month (UTC), metered from the same domain events as the business product's billing — consumers of the
 * outbox named `caddy.usage`:
 * - `call.changed` once the call ended (not `history`): its length rounded up to the minute (`call:{callId}`);
 * - `message.received`: one text in (`sms-in:{carrierSid}`);
 * - `message.status-changed` with a state other than failed/undelivered: one text out (`sms-out:{itemId}`).
 * Each event's effect is claimed once in `caddy_usage_events` in the same transaction as the count, so redeliveries
 * and replays count nothing twice. Events of companies that are not a consumer account's are ignored.
 *
 * Live updates: the outbox consumer that counted the event sends, after its commit, `usage updated` with the new usage
 * on the `caddy.{accountId}` channel: Socket.IO's namespace `/caddy` with the PostgreSQL adapter, so the update reaches
 * a phone connected to any node ({@link registerCaddyLive}).
 */
import { CADDY_FAIR_USE, CADDY_PLAN_LIMITS, type CaddyPlan } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import type { DomainEvents, EventMeta } from '../../platform/events/index.js';
import { fieldError } from '../../platform/http/errors.js';
import { planOf } from './caddy.accounts.js';
import { caddyRepository, type CaddyAccountRow } from './caddy.repository.js';

/** The live channel kind of the consumer area: `caddy.{accountId}` (issue 25: "live updates on the `caddy` channel"). */
export const CADDY_CHANNEL = 'caddy';
/** The live events of the `caddy.{accountId}` channel (contracts `CADDY_LIVE_EVENTS`). */
export type CaddyLiveEvent = 'usage updated' | 'call ringing' | 'call updated';

/** `YYYY-MM-01` of `at`'s month (UTC). */
export function periodOf(at: Date = new Date()): string {
  return `${at.toISOString().slice(0, 7)}-01`;
}

/** The account's usage this month against its plan (`GET /caddy/billing/usage`). */
export async function usageOf(ctx: AppContext, account: CaddyAccountRow, at: Date = new Date()) {
  const plan = planOf(account.plan);
  const limits = CADDY_PLAN_LIMITS[plan];
  const [u, numbers] = await Promise.all([caddyRepository.usageOf(ctx.db, account.id, periodOf(at)), caddyRepository.listNumbers(ctx.db, account.id)]);
  const minutesUsed = Math.round((u.call_seconds / 60) * 10) / 10;
  const textsUsed = u.texts_in + u.texts_out;
  const minutesLimit = limits.minutes ?? CADDY_FAIR_USE.minutes;
  const textsLimit = limits.texts ?? CADDY_FAIR_USE.texts;
  const active = numbers.filter((n) => n.is_active).length;
  const overLimit: Array<'minutes' | 'texts' | 'numbers'> = [];
  if (minutesUsed >= minutesLimit) overLimit.push('minutes');
  if (textsUsed >= textsLimit) overLimit.push('texts');
  if (active > limits.numbers) overLimit.push('numbers');
  return {
    period: at.toISOString().slice(0, 7),
    plan,
    minutesUsed,
    minutesLimit: limits.minutes,
    textsUsed,
    textsLimit: limits.texts,
    textsIn: u.texts_in,
    textsOut: u.texts_out,
    numbersUsed: active,
    numbersLimit: limits.numbers,
    overLimit,
  };
}

/**
 * Refuses a text the plan has no room for (never a silent drop: the person sees why).
 * @throws ValidationError (422 `body`) with the plan and its allowance.
 */
export async function assertTextAllowed(ctx: AppContext, account: CaddyAccountRow): Promise<void> {
  const usage = await usageOf(ctx, account);
  if (!usage.overLimit.includes('texts')) return;
  const p = CADDY_PLAN_LIMITS[usage.plan];
  const allowance = p.texts ?? CADDY_FAIR_USE.texts;
  throw fieldError(
    'body',
    `You have used all ${allowance} texts your ${p.label} plan includes this month. Upgrade your plan to send more; texts you receive still arrive.`,
  );
}

/** The message when the plan's minutes are used up (calls from the person's numbers are refused until next month). */
export function minutesLimitMessage(plan: CaddyPlan): string {
  const p = CADDY_PLAN_LIMITS[plan];
  const allowance = p.minutes ?? CADDY_FAIR_USE.minutes;
  return `You have used all ${allowance} minutes your ${p.label} plan includes this month. Upgrade your plan to place more calls; calls to your numbers still ring.`;
}

/** Counts one event's usage once, then sends the new usage to the account's screens (after commit). */
async function meter(ctx: AppContext, companyId: number, key: string, add: { callSeconds?: number; textsIn?: number; textsOut?: number }): Promise<void> {
  const account = await caddyRepository.findByCompany(ctx.db, companyId);
  if (!account) return;
  const counted = await ctx.db.transaction().execute(async (tx) => {
    if (!(await caddyRepository.claimUsageEvent(tx, key, account.id))) return false;
    await caddyRepository.addUsage(tx, account.id, periodOf(), add);
    return true;
  });
  if (counted) await publishUsage(ctx, account.id);
}

/** `caddy.usage` on `call.changed`: an ended live call's minutes (rounded up per call). */
export async function onCallChanged(ctx: AppContext, p: DomainEvents['call.changed'], _meta?: EventMeta): Promise<void> {
  if (p.history || !p.endedAt) return;
  const seconds = Math.ceil(Math.max(0, p.durationS ?? 0) / 60) * 60;
  await meter(ctx, p.companyId, `call:${p.callId}`, { callSeconds: seconds });
}

/** `caddy.usage` on `message.received`: one text in. */
export async function onMessageReceived(ctx: AppContext, p: DomainEvents['message.received'], _meta?: EventMeta): Promise<void> {
  await meter(ctx, p.companyId, `sms-in:${p.carrierSid}`, { textsIn: 1 });
}

/** `caddy.usage` on `message.status-changed`: one text out, once per item, unless it failed. */
export async function onMessageStatus(ctx: AppContext, p: DomainEvents['message.status-changed'], _meta?: EventMeta): Promise<void> {
  if (!p.state || p.state === 'failed' || p.state === 'undelivered') return;
  await meter(ctx, p.companyId, `sms-out:${p.itemId}`, { textsOut: 1 });
}

/** The Socket.IO namespace of the consumer screens (docs/consumer-area.md "Live updates"). */
export const CADDY_NAMESPACE = '/caddy';
/** How often each node re-checks the consumer sessions of its sockets (ms). */
const REVALIDATE_MS = 10_000;

/** The account's room in the consumer namespace: the `caddy.{accountId}` channel. */
export function caddyChannel(accountId: number): string {
  return `${CADDY_CHANNEL}.${accountId}`;
}
/** The room of the sockets of one consumer session (`#` keeps it apart from the channels). */
function sessionRoom(sessionId: string): string {
  return `#caddy-session:${sessionId}`;
}

/**
 * Sends a live event to every open consumer screen of the account, on every node (Socket.IO with the PostgreSQL
 * adapter, namespace CADDY_NAMESPACE, room `caddy.{accountId}`), as `(event, payload, channel)`. Call after commit.
 */
export function sendToAccount(ctx: AppContext, accountId: number, event: CaddyLiveEvent, payload: unknown): void {
  ctx.realtime.publishIn(CADDY_NAMESPACE, caddyChannel(accountId), event, payload);
}

/** Reads the account's usage again and sends it to its screens (`usage updated`); nothing when the account is gone. */
export async function publishUsage(ctx: AppContext, accountId: number): Promise<void> {
  const account = await caddyRepository.findAccount(ctx.db, accountId);
  if (account) sendToAccount(ctx, account.id, 'usage updated', await usageOf(ctx, account));
}

/** Disconnects the sockets of a consumer session that ended (sign-out, password change or reset, deletion). */
export function endLiveSession(ctx: AppContext, sessionId: string): void {
  ctx.realtime.disconnectIn(CADDY_NAMESPACE, sessionRoom(sessionId));
}

/**
 * The consumer namespace (`/caddy`): a socket authenticates with its consumer session token (`auth: {token}`; business
 * sessions and API keys are not consumer sessions and are refused), joins its account's room `caddy.{accountId}` and
 * nothing else (the consumer cannot choose a room, so one account never hears another's), and gets the current usage
 * first. Every REVALIDATE_MS each node disconnects its sockets whose session ended by any path.
 * `accountOf`: the account of a bearer token (caddy.accounts `accountOfToken`).
 */
export function registerCaddyLive(ctx: AppContext, accountOf: (token: string) => Promise<{ account: CaddyAccountRow; sessionId: string } | null>): void {
  ctx.realtime.useNamespace(CADDY_NAMESPACE, (nsp) => {
    nsp.use((socket, next) => {
      const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
      if (typeof token !== 'string' || !token) return next(new Error('Unauthenticated.'));
      accountOf(token)
        .then((found) => {
          if (!found) return next(new Error('Unauthenticated.'));
          socket.data.caddy = { accountId: found.account.id, sessionId: found.sessionId };
          next();
        })
        .catch(() => next(new Error('Unauthenticated.')));
    });
    nsp.on('connection', (socket) => {
      const { accountId, sessionId } = socket.data.caddy as { accountId: number; sessionId: string };
      void socket.join([caddyChannel(accountId), sessionRoom(sessionId)]);
      void (async () => {
        const account = await caddyRepository.findAccount(ctx.db, accountId);
        if (account) socket.emit('usage updated', await usageOf(ctx, account), caddyChannel(accountId));
      })().catch((e: unknown) => ctx.log.warn({ err: e }, 'caddy live: first usage'));
    });
    const timer = setInterval(() => {
      const sockets = [...nsp.sockets.values()];
      const ids = [...new Set(sockets.map((s) => (s.data.caddy as { sessionId: string }).sessionId))];
      if (ids.length === 0) return;
      void caddyRepository
        .liveSessionIds(ctx.db, ids)
        .then((live) => {
          for (const s of sockets) if (!live.has((s.data.caddy as { sessionId: string }).sessionId)) s.disconnect(true);
        })
        .catch((e: unknown) => ctx.log.warn({ err: e }, 'caddy live: revalidate'));
    }, REVALIDATE_MS);
    timer.unref();
    return () => clearInterval(timer);
  });
}
