/**
 * Consumer numbers (spec 002 "Consumer number": id, isActive, willBeRemovedAt; "Consumer number activation";
 * docs/consumer-area.md "Numbers").
 *
 * The numbers are the business product's: bought through the numbers service (`searchNumbers`,
 * `purchaseIntoCompany`) into the account's hidden company and released through its release batch (`startRelease`,
 * as the consumer area's service user), so calls and texts to them take the product's telephony unchanged. This module
 * keeps only which account holds which number and its consumer state (`caddy_numbers`).
 * - Activation: the chosen numbers become active with no removal date; every other number becomes inactive with a
 *   removal date CADDY_REMOVAL_DAYS (30) ahead (an already inactive number keeps its date: re-activating others never
 *   extends it). Choosing an inactive number again before its date reclaims it.
 * - The plan's `numbers` is how many may be active at once (422 above it); at most MAX_HELD held in all.
 * - The tick (`caddy.tick`, every TICK_MS on worker nodes; a durable pg-boss job with a singleton key per slot) releases
 *   the numbers whose date has passed and reminds the person 7 days and 1 day before (e-mail, else SMS), once each.
 */
import { CADDY_MESSAGES, CADDY_PLAN_LIMITS, CADDY_REMOVAL_DAYS, type CaddyPlan } from '@switchboard/contracts';
import { formatPhone, parsePhone } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import type { App } from '../../platform/http/app-type.js';
import { fieldError, NotFoundError, ValidationError } from '../../platform/http/errors.js';
import { purchaseIntoCompany, searchNumbers } from '../numbers/numbers.service.js';
import { startRelease } from '../numbers/numbers-batches.service.js';
import { companyTimeZone } from '../companies/companies.service.js';
import { planOf, serviceUserId } from './caddy.accounts.js';
import { ensureInAppRouting } from './caddy.calling.js';
import { caddyRepository, type CaddyAccountRow, type CaddyNumberRow } from './caddy.repository.js';

/** Numbers an account may hold at once, active and inactive together. */
export const MAX_HELD = 10;
const DAY_MS = 24 * 3600 * 1000;
/** Carrier provider id of a local number (spec 002 §3 provider labels). */
const LOCAL_PROVIDER_ID = 1;
/** Area codes the random catalogue draws from (US cities). */
const RANDOM_AREA_CODES = ['212', '213', '305', '312', '415', '512', '617', '702', '720', '646'];

export const CADDY_TICK_JOB = 'caddy.tick';
/** How often the removal and reminder pass runs (ms). */
export const caddyTuning = { tickMs: 5 * 60_000 };

/** The API shape of a consumer number. */
export function toCaddyNumber(row: CaddyNumberRow) {
  return {
    id: row.id,
    number: row.number,
    nationalNumber: formatPhone(row.number),
    isActive: row.is_active,
    willBeRemovedAt: row.will_be_removed_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
  };
}

/** `GET /caddy/catalog?areaCode=`: numbers on offer in an area code. @throws ValidationError (422 `areaCode`). */
export async function catalog(ctx: AppContext, areaCode: string, limit: number) {
  try {
    const found = await searchNumbers(ctx, { type: 'local', areaCode, mode: 'contains', limit });
    return { data: found.map((n) => ({ number: n.number, nationalNumber: n.national_number, region: n.region ?? null, locality: n.locality ?? null })) };
  } catch (error) {
    if (error instanceof ValidationError) throw fieldError('areaCode', Object.values(error.errors ?? {}).flat()[0] ?? 'The area code must be 3 digits.');
    throw error;
  }
}

/** `GET /caddy/catalog/random`: numbers on offer in a random area code among RANDOM_AREA_CODES. */
export async function randomCatalog(ctx: AppContext, limit: number) {
  const start = Math.floor(Math.random() * RANDOM_AREA_CODES.length);
  for (let i = 0; i < RANDOM_AREA_CODES.length; i++) {
    const found = await catalog(ctx, RANDOM_AREA_CODES[(start + i) % RANDOM_AREA_CODES.length]!, limit);
    if (found.data.length) return found;
  }
  return { data: [] };
}

/** `GET /caddy/numbers`: the account's numbers, oldest first. */
export async function listNumbers(ctx: AppContext, account: CaddyAccountRow) {
  return { data: (await caddyRepository.listNumbers(ctx.db, account.id)).map(toCaddyNumber) };
}

function planLimit(account: CaddyAccountRow): number {
  return CADDY_PLAN_LIMITS[planOf(account.plan)].numbers;
}

/** The message when a plan allows no more active numbers. */
export function numbersLimitMessage(account: CaddyAccountRow): string {
  const p = CADDY_PLAN_LIMITS[planOf(account.plan)];
  return `Your ${p.label} plan includes ${p.numbers} active number${p.numbers === 1 ? '' : 's'}. Upgrade your plan or make another number inactive first.`;
}

/** Buys `number` into the account's company and records it (active). Gives the number back when recording fails. */
async function acquire(ctx: AppContext, account: CaddyAccountRow, number: string): Promise<CaddyNumberRow> {
  const e164 = parsePhone(number);
  if (!e164) throw fieldError('number', 'The number is not a valid phone number.');
  const tz = await companyTimeZone(ctx, account.company_id);
  const bought = await purchaseIntoCompany(ctx, account.company_id, tz, e164, LOCAL_PROVIDER_ID);
  try {
    const row = await caddyRepository.insertNumber(ctx.db, { account_id: account.id, number_id: bought.id, number: bought.number });
    // Calls to it ring the person's screens (in-app calling), voicemail when nobody answers.
    await ensureInAppRouting(ctx, account, [bought.id]);
    return row;
  } catch (error) {
    await startRelease(ctx, await serviceUserId(ctx), [bought.id]).catch((e: unknown) => ctx.log.warn({ err: e }, 'caddy: release after a failed add'));
    throw error;
  }
}

/**
 * `POST /caddy/catalog/add {number}`: adds a number from the catalogue, active.
 * @throws ValidationError (422 `number`): the plan's active numbers reached (a clear message), MAX_HELD reached, the
 *   number taken or not on offer.
 */
export async function addNumber(ctx: AppContext, account: CaddyAccountRow, number: string) {
  const held = await caddyRepository.listNumbers(ctx.db, account.id);
  if (held.filter((n) => n.is_active).length >= planLimit(account)) throw fieldError('number', numbersLimitMessage(account));
  if (held.length >= MAX_HELD) throw fieldError('number', `An account holds at most ${MAX_HELD} numbers. Remove one first.`);
  const row = await acquire(ctx, account, number);
  return { message: CADDY_MESSAGES.numberAdded, data: toCaddyNumber(row) };
}

/** One of the account's numbers. @throws NotFoundError (404) for another account's or a released one. */
async function ownNumber(ctx: AppContext, account: CaddyAccountRow, id: number): Promise<CaddyNumberRow> {
  const row = (await caddyRepository.listNumbers(ctx.db, account.id)).find((n) => n.id === id);
  if (!row) throw new NotFoundError('Number');
  return row;
}

/** Releases numbers now: marks them released and starts the numbers module's release batch. */
async function releaseNow(ctx: AppContext, rows: CaddyNumberRow[]): Promise<void> {
  if (rows.length === 0) return;
  await caddyRepository.markReleased(
    ctx.db,
    rows.map((r) => r.id),
  );
  const owner = await serviceUserId(ctx);
  // One batch per company (the numbers service's rule); an account's numbers share one.
  const byCompany = new Map<number, number[]>();
  for (const r of rows) byCompany.set(r.account_id ?? 0, [...(byCompany.get(r.account_id ?? 0) ?? []), r.number_id]);
  for (const ids of byCompany.values()) {
    await startRelease(ctx, owner, ids).catch((error: unknown) => ctx.log.warn({ err: error, ids }, 'caddy: release batch not started'));
  }
}

/**
 * `POST /caddy/catalog/replace {id, number}`: buys `number` in place of the account's number `id` (which is released
 * now); the new number takes the old one's state (active, or inactive with the same removal date).
 * @throws NotFoundError (404) for an id not the account's; ValidationError (422 `number`).
 */
export async function replaceNumber(ctx: AppContext, account: CaddyAccountRow, id: number, number: string) {
  const old = await ownNumber(ctx, account, id);
  const row = await acquire(ctx, account, number);
  await caddyRepository.setActive(ctx.db, [row.id], old.is_active, old.will_be_removed_at);
  await releaseNow(ctx, [old]);
  return { message: CADDY_MESSAGES.numberReplaced, data: toCaddyNumber({ ...row, is_active: old.is_active, will_be_removed_at: old.will_be_removed_at }) };
}

/** `DELETE /caddy/numbers/{id}`: releases the number now. @throws NotFoundError (404). */
export async function removeNumber(ctx: AppContext, account: CaddyAccountRow, id: number) {
  const row = await ownNumber(ctx, account, id);
  await releaseNow(ctx, [row]);
  return { message: CADDY_MESSAGES.numberRemoved };
}

/**
 * `PUT /caddy/numbers/activate {ids}`: the chosen numbers become active with no removal date; every other number
 * becomes inactive with a removal date 30 days ahead (kept when already set). All in one transaction under the rows'
 * locks, so two concurrent activations apply one after the other.
 * @throws NotFoundError (404) for an id not the account's; ValidationError (422 `ids`) above the plan's numbers.
 */
export async function activateNumbers(ctx: AppContext, account: CaddyAccountRow, ids: number[], now = new Date()) {
  const chosen = [...new Set(ids)];
  if (chosen.length > planLimit(account)) throw fieldError('ids', numbersLimitMessage(account));
  const removeAt = new Date(now.getTime() + CADDY_REMOVAL_DAYS * DAY_MS);
  const rows = await ctx.db.transaction().execute(async (tx) => {
    const held = await caddyRepository.lockNumbers(tx, account.id);
    const heldIds = new Set(held.map((n) => n.id));
    if (chosen.some((id) => !heldIds.has(id))) throw new NotFoundError('Number');
    await caddyRepository.setActive(tx, chosen, true, null);
    const others = held.filter((n) => !chosen.includes(n.id));
    const fresh = others.filter((n) => n.is_active || !n.will_be_removed_at).map((n) => n.id);
    await caddyRepository.setActive(tx, fresh, false, removeAt);
    return caddyRepository.listNumbers(tx, account.id);
  });
  return { message: CADDY_MESSAGES.activated, data: rows.map(toCaddyNumber) };
}

/**
 * The store subscription ended (expired, refunded, revoked; docs/consumer-area.md "Store subscriptions"): every active
 * number of the account becomes inactive with a removal date CADDY_REMOVAL_DAYS ahead (or `notBefore` when later: a
 * paused Google Play subscription keeps its numbers until it resumes), marked as the subscription's doing so a renewal
 * restores them. Numbers already inactive keep their date. Runs in the caller's transaction (`tx`).
 * @returns how many numbers became inactive.
 */
export async function startSubscriptionRemoval(tx: DbOrTx, accountId: number, now: Date, notBefore: Date | null = null): Promise<number> {
  const base = now.getTime() + CADDY_REMOVAL_DAYS * DAY_MS;
  const removeAt = new Date(Math.max(base, notBefore?.getTime() ?? 0));
  return caddyRepository.deactivateForSubscription(tx, accountId, removeAt);
}

/**
 * The store subscription gives service again (a renewal, a recovery, a reversed refund): the numbers its end made
 * inactive become active again with no removal date, oldest first, as many as `plan` allows beside the active ones
 * (the rest stay inactive with their date; the person may choose among them). Runs in the caller's transaction.
 * @returns how many numbers were restored.
 */
export async function restoreSubscriptionNumbers(tx: DbOrTx, accountId: number, plan: CaddyPlan): Promise<number> {
  const held = await caddyRepository.lockSubscriptionInactive(tx, accountId);
  if (held.length === 0) return 0;
  const active = (await caddyRepository.listNumbers(tx, accountId)).filter((n) => n.is_active).length;
  const room = Math.max(0, CADDY_PLAN_LIMITS[plan].numbers - active);
  const restore = held.slice(0, room).map((n) => n.id);
  await caddyRepository.setActive(tx, restore, true, null);
  return restore.length;
}

/** `GET /caddy/inactivity`: the account's numbers that will be removed, soonest first, with the days left. */
export async function inactivity(ctx: AppContext, account: CaddyAccountRow, now = new Date()) {
  const rows = (await caddyRepository.listNumbers(ctx.db, account.id)).filter((n) => n.will_be_removed_at);
  rows.sort((a, b) => a.will_be_removed_at!.getTime() - b.will_be_removed_at!.getTime());
  return {
    data: rows.map((n) => ({
      id: n.id,
      number: n.number,
      willBeRemovedAt: n.will_be_removed_at!.toISOString(),
      daysLeft: Math.max(0, Math.ceil((n.will_be_removed_at!.getTime() - now.getTime()) / DAY_MS)),
    })),
  };
}

/** Releases every number of an account now (account deletion). */
export async function releaseAllNumbers(ctx: AppContext, accountId: number): Promise<number> {
  const rows = await caddyRepository.listNumbers(ctx.db, accountId);
  await releaseNow(ctx, rows);
  return rows.length;
}

/**
 * One pass of the removal job: releases numbers whose date has passed (in batches of 100, each claimed under
 * `for update skip locked` so two nodes never release one twice) and sends the 7-day and 1-day reminders once each.
 * @returns how many numbers were released and reminders sent.
 */
export async function runCaddyTick(ctx: AppContext, now = new Date()): Promise<{ released: number; reminded: number }> {
  let released = 0;
  for (;;) {
    const due = await ctx.db.transaction().execute(async (tx) => {
      const rows = await caddyRepository.claimDue(tx, now, 100);
      await caddyRepository.markReleased(
        tx,
        rows.map((r) => r.id),
      );
      return rows;
    });
    if (due.length === 0) break;
    released += due.length;
    const owner = await serviceUserId(ctx);
    const byAccount = new Map<number, number[]>();
    for (const r of due) byAccount.set(r.account_id ?? 0, [...(byAccount.get(r.account_id ?? 0) ?? []), r.number_id]);
    for (const ids of byAccount.values()) {
      await startRelease(ctx, owner, ids).catch((error: unknown) => ctx.log.warn({ err: error, ids }, 'caddy: release batch not started'));
    }
    if (due.length < 100) break;
  }
  let reminded = 0;
  for (const [kind, days] of [
    ['7d', 7],
    ['1d', 1],
  ] as const) {
    // Reminders for removals between (days - 1) and `days` days ahead, so a missed tick still sends them in time.
    const rows = await caddyRepository.removalsBetween(ctx.db, new Date(now.getTime() + (days - 1) * DAY_MS), new Date(now.getTime() + days * DAY_MS));
    for (const n of rows) {
      if (kind === '7d' && n.will_be_removed_at!.getTime() - now.getTime() <= DAY_MS) continue; // the 1-day one covers it
      if (!(await caddyRepository.claimReminder(ctx.db, n.id, kind, n.will_be_removed_at!))) continue;
      const account = await caddyRepository.findAccount(ctx.db, n.account_id!);
      if (!account) continue;
      const when = n.will_be_removed_at!.toISOString().slice(0, 10);
      const text = `Your number ${formatPhone(n.number)} is inactive and will be removed on ${when} (UTC). Open the app and activate it to keep it.`;
      if (account.email) await ctx.mailer.send({ to: account.email, subject: `Your number ${formatPhone(n.number)} will be removed on ${when}`, text });
      else if (account.phone) {
        await ctx.carrier
          .sendMessage({
            from: ctx.config.mfaSmsFrom,
            to: account.phone,
            body: text,
            mediaUrls: [],
            statusCallback: ctx.carrier.webhookUrl('messaging.status', { purpose: 'caddy' }),
          })
          .catch((error: unknown) => ctx.log.warn({ err: error }, 'caddy: reminder text not sent'));
      }
      reminded++;
    }
  }
  return { released, reminded };
}

/** Declares the `caddy.tick` job. */
export function registerCaddyJobs(ctx: AppContext): void {
  ctx.queue.define<{ at?: string }>(
    CADDY_TICK_JOB,
    async () => {
      await runCaddyTick(ctx);
    },
    1,
  );
}

/** Starts this node's ticker once the app is ready (worker nodes only) and stops it when the app closes. */
export function registerCaddyTicker(app: App, ctx: AppContext): void {
  if (!ctx.config.runWorkers) return;
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      const slot = new Date(Math.floor(Date.now() / caddyTuning.tickMs) * caddyTuning.tickMs).toISOString();
      ctx.queue
        .enqueue(CADDY_TICK_JOB, { at: slot }, { singletonKey: `caddy-tick-${slot}` })
        .catch((e: unknown) => ctx.log.warn({ err: e }, 'caddy: could not enqueue the removal pass'));
    }, caddyTuning.tickMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
