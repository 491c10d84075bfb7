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
 * Live updates: after the count commits, `pg_notify('caddy', {accountId})`; every node LISTENs on the `caddy` channel
 * and sends `usage updated` with the new usage to that account's open streams (`GET /api/caddy/billing/usage/live`,
 * server-sent events), so the update reaches a phone connected to any node.
 */
import { CADDY_FAIR_USE, CADDY_PLAN_LIMITS } from '@switchboard/contracts';
import type pg from 'pg';
import type { AppContext } from '../../context.js';
import type { DomainEvents, EventMeta } from '../../platform/events/index.js';
import { fieldError } from '../../platform/http/errors.js';
import { planOf } from './caddy.accounts.js';
import { caddyRepository, type CaddyAccountRow } from './caddy.repository.js';

/** The PostgreSQL channel of live consumer updates. */
export const CADDY_CHANNEL = 'caddy';

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

/** Counts one event's usage once, then tells the account's live streams (after commit). */
async function meter(ctx: AppContext, companyId: number, key: string, add: { callSeconds?: number; textsIn?: number; textsOut?: number }): Promise<void> {
  const account = await caddyRepository.findByCompany(ctx.db, companyId);
  if (!account) return;
  const counted = await ctx.db.transaction().execute(async (tx) => {
    if (!(await caddyRepository.claimUsageEvent(tx, key, account.id))) return false;
    await caddyRepository.addUsage(tx, account.id, periodOf(), add);
    return true;
  });
  if (counted) await caddyRepository.notify(ctx.db, CADDY_CHANNEL, JSON.stringify({ accountId: account.id, what: 'usage' }));
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

/** One open live stream: the account it belongs to and how to send it an event. */
type Listener = { accountId: number; send: (event: string, data: unknown) => void };

/**
 * This node's fan-out of the `caddy` channel to its open streams: one LISTEN connection (taken on the first stream,
 * re-taken after an error), released when the app closes.
 */
export class CaddyLive {
  private client: pg.PoolClient | null = null;
  private connecting: Promise<void> | null = null;
  private readonly listeners = new Set<Listener>();
  private closed = false;

  constructor(private readonly ctx: AppContext) {}

  /** Adds a stream; returns the function that removes it. */
  async add(listener: Listener): Promise<() => void> {
    this.listeners.add(listener);
    await this.connect();
    return () => this.listeners.delete(listener);
  }

  private async connect(): Promise<void> {
    if (this.client || this.closed) return;
    this.connecting ??= (async () => {
      const client = await this.ctx.pool.connect();
      client.on('error', () => {
        this.client = null;
        client.release(true);
      });
      client.on('notification', (n) => {
        if (n.channel === CADDY_CHANNEL && n.payload) void this.deliver(n.payload).catch((e: unknown) => this.ctx.log.warn({ err: e }, 'caddy live'));
      });
      await client.query(`LISTEN ${CADDY_CHANNEL}`);
      this.client = client;
    })().finally(() => {
      this.connecting = null;
    });
    await this.connecting;
  }

  private async deliver(payload: string): Promise<void> {
    const { accountId } = JSON.parse(payload) as { accountId: number };
    const mine = [...this.listeners].filter((l) => l.accountId === accountId);
    if (mine.length === 0) return;
    const account = await caddyRepository.findAccount(this.ctx.db, accountId);
    if (!account) return;
    const usage = await usageOf(this.ctx, account);
    for (const l of mine) l.send('usage updated', usage);
  }

  /** Ends the LISTEN connection (app close). */
  async close(): Promise<void> {
    this.closed = true;
    await this.connecting?.catch(() => {});
    const c = this.client;
    this.client = null;
    if (c) {
      await c.query(`UNLISTEN ${CADDY_CHANNEL}`).catch(() => {});
      c.release();
    }
  }
}
