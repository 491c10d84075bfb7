/**
 * Schedules (spec 002 "Schedule", foundation §3-4: schedules per company and per user,
 * holidays and a manual override per number).
 *
 * - The company schedule (`GET`/`PUT /api/companies/{companyId}/schedule`) holds the company's
 *   business hours and its holiday dates ("YYYY-MM-DD", read in each number's schedule zone).
 *   A company without a stored schedule answers the default (preset 1, the company's zone).
 * - The user schedule (`GET`/`PUT /api/user/schedule`): the signed-in user's hours (default: their zone).
 * - The number override (`PUT /api/numbers/{id}/override`): mode auto | open | closed, optionally
 *   until an instant; the call flow evaluates override → holidays → the number's schedule.
 */
import { SETTINGS_UPDATED, defaultSchedule, isValidTimeZone, scheduleLabel, toBlocks, type Schedule } from '@switchboard/domain';
import { scheduleView } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { readCache } from '../../platform/db/read-cache.js';
import { NotFoundError, fieldError, deniedAsNotFound } from '../../platform/http/errors.js';
import { MANAGER_ROLES, assertCompanyAccess, listUserCompanies } from '../companies/companies.service.js';
import { findUser } from '../users/users.service.js';
import { numberScope, scopeIncludes } from '../users/members.service.js';
import { assertValidSchedule, findRoutingById } from '../numbers/numbers.service.js';
import type { NumberOverride } from '../routing/routing.service.js';
import { isNumberOpen } from '../routing/routing.service.js';
import { schedulesRepository } from './schedules.repository.js';

/**
 * A schedule as answered (foundation §3): the schedule in the contracts' form (its 24-hour `blocks`
 * beside the open/close `hours`), the same blocks at the top (the earlier form) and its label.
 */
function view(schedule: Schedule) {
  return { schedule: scheduleView(schedule), blocks: toBlocks(schedule), label: scheduleLabel(schedule, false) };
}

/** Unknown zone (422 `schedule.timezone`) and the domain's hour rule (422 `schedule.hours.{day}.open|close`). */
function checkZone(schedule: Schedule | undefined): void {
  if (schedule && !isValidTimeZone(schedule.timezone)) throw fieldError('schedule.timezone', 'The time zone is not a valid IANA time zone.');
  if (schedule) assertValidSchedule(schedule);
}

/** GET /api/companies/{companyId}/schedule. @throws ForbiddenError when not a member. */
export async function getCompanySchedule(ctx: AppContext, userId: number, companyId: number) {
  await assertCompanyAccess(ctx, userId, companyId);
  const row = await schedulesRepository.company(ctx.db, companyId);
  const zone = (await listUserCompanies(ctx, userId)).find((c) => c.id === companyId)?.timezone;
  const schedule = (row?.schedule as Schedule | undefined) ?? defaultSchedule(zone);
  return { data: { ...view(schedule), holidays: (row?.holidays as string[] | undefined) ?? [] } };
}

/**
 * PUT /api/companies/{companyId}/schedule (owner/administrator): stores the schedule and/or the
 * holiday dates (sorted, without duplicates). @throws 403, 422 (unknown time zone).
 */
export async function putCompanySchedule(ctx: AppContext, userId: number, companyId: number, input: { schedule?: Schedule; holidays?: string[] }) {
  await assertCompanyAccess(ctx, userId, companyId, MANAGER_ROLES);
  checkZone(input.schedule);
  const current = await getCompanySchedule(ctx, userId, companyId);
  const kept = current.data.schedule;
  const schedule = input.schedule ?? { preset: kept.preset, timezone: kept.timezone, hours: kept.hours };
  const holidays = input.holidays ? [...new Set(input.holidays)].sort() : current.data.holidays;
  await schedulesRepository.upsertCompany(ctx.db, companyId, schedule, holidays);
  holidaysCache(ctx).invalidate();
  return { message: SETTINGS_UPDATED, ...(await getCompanySchedule(ctx, userId, companyId)) };
}

/**
 * The zone of the company's saved schedule, or undefined when none is saved (the companies
 * module's `companyTimeZone` source, registered in this module's setup).
 */
export async function savedCompanyScheduleZone(ctx: AppContext, companyId: number, db: DbOrTx = ctx.db): Promise<string | undefined> {
  const row = await schedulesRepository.company(db, companyId);
  return (row?.schedule as Schedule | undefined)?.timezone;
}

/** Module setup: the companies module reads a company's zone from its saved schedule first. */
export function registerSchedulesHooks(ctx: AppContext): void {
  ctx.hooks.provide('companyZone', savedCompanyScheduleZone);
}

/** GET /api/user/schedule: the signed-in user's schedule (default preset 1 in their zone). */
export async function getUserSchedule(ctx: AppContext, userId: number) {
  const row = await schedulesRepository.user(ctx.db, userId);
  const schedule = (row?.schedule as Schedule | undefined) ?? defaultSchedule((await findUser(ctx, userId))?.timezone);
  return { data: view(schedule) };
}

/** PUT /api/user/schedule. @throws 422 (unknown time zone). */
export async function putUserSchedule(ctx: AppContext, userId: number, schedule: Schedule) {
  checkZone(schedule);
  await schedulesRepository.upsertUser(ctx.db, userId, schedule);
  return { message: SETTINGS_UPDATED, ...(await getUserSchedule(ctx, userId)) };
}

/** For the call flow: the company's holiday dates. */
export async function companyHolidays(ctx: AppContext, companyId: number, db: DbOrTx = ctx.db): Promise<string[]> {
  return ((await schedulesRepository.company(db, companyId))?.holidays as string[] | undefined) ?? [];
}

/** For the call flow: the number's manual override, or null when none is stored. */
export async function numberOverride(ctx: AppContext, numberId: number, db: DbOrTx = ctx.db): Promise<NumberOverride | null> {
  const row = await schedulesRepository.override(db, numberId);
  return row ? { mode: row.mode as NumberOverride['mode'], until: row.until } : null;
}

const holidaysCache = (ctx: AppContext) => readCache<number, string[]>(ctx.db, 'schedules.holidays');
/** Most overrides a process keeps in memory; with more, the call flow reads a number's override each call. */
const MAX_CACHED_OVERRIDES = 20_000;
const overrideCache = (ctx: AppContext) => readCache<'all', Map<number, NumberOverride> | null>(ctx.db, 'schedules.overrides');

/**
 * For the voice webhook (docs/architecture.md "The voice webhook's hot path"): the company's holidays and the number's override through
 * short-lived in-process caches (platform/db/read-cache.ts); this module invalidates them after
 * every write. Misses read through `db` (the webhook's transaction, which must not have written
 * these tables). Treat the results as read-only.
 */
export async function callFlowSchedule(
  ctx: AppContext,
  companyId: number,
  numberId: number,
  db: DbOrTx = ctx.db,
): Promise<{ holidays: string[]; override: NumberOverride | null }> {
  const holidays = await holidaysCache(ctx).get(companyId, () => companyHolidays(ctx, companyId, db));
  // Overrides are few (a manual switch per number): all non-`auto` ones are cached together, so a
  // number without one needs no read. An `auto` override acts as none.
  const all = await overrideCache(ctx).get('all', async () => {
    const rows = await schedulesRepository.activeOverrides(db, MAX_CACHED_OVERRIDES + 1);
    if (rows.length > MAX_CACHED_OVERRIDES) return null;
    return new Map(rows.map((r) => [r.number_id, { mode: r.mode as NumberOverride['mode'], until: r.until }]));
  });
  const override = all ? (all.get(numberId) ?? null) : await numberOverride(ctx, numberId, db);
  return { holidays, override };
}

/**
 * PUT /api/numbers/{id}/override (owner/administrator): mode auto | open | closed, `until` an
 * ISO instant in the future (ignored for auto). Answers whether the number is open now.
 * @throws 403, 404 (another company's number), 422 (`until` in the past).
 */
export async function setNumberOverride(
  ctx: AppContext,
  userId: number,
  numberId: number,
  input: { mode: 'auto' | 'open' | 'closed'; until?: string | null },
  now = new Date(),
) {
  const routing = await numberForManager(ctx, userId, numberId);
  const companyId = routing.company_id;
  const until = input.mode === 'auto' || !input.until ? null : new Date(input.until);
  if (until && until.getTime() <= now.getTime()) throw fieldError('until', 'The until time must be in the future.');
  await schedulesRepository.upsertOverride(ctx.db, numberId, input.mode, until);
  overrideCache(ctx).invalidate();
  const holidays = await companyHolidays(ctx, companyId);
  const isOpen = isNumberOpen({ ...routing, extras: { holidays, override: { mode: input.mode, until } } }, now);
  return { message: SETTINGS_UPDATED, data: { number_id: numberId, mode: input.mode, until: until ? until.toISOString() : null, is_open: isOpen } };
}

/**
 * GET /api/numbers/{id}/override (any member of the number's company): the manual override as it
 * applies now: mode 'auto' with until null when none is stored or its `until` has passed; and
 * whether the number is open now (override → holidays → schedule).
 * @throws NotFoundError 404 for a missing number or another company's number.
 */
export async function getNumberOverride(ctx: AppContext, userId: number, numberId: number, now = new Date()) {
  const routing = await findRoutingById(ctx, numberId);
  if (!routing) throw new NotFoundError('Number');
  await deniedAsNotFound(assertCompanyAccess(ctx, userId, routing.company_id), 'Number');
  // A `user` reads only the numbers assigned to them (docs/permissions.md "Numbers a user sees").
  if (!scopeIncludes(await numberScope(ctx, userId, routing.company_id), numberId)) throw new NotFoundError('Number');
  const [stored, holidays] = await Promise.all([numberOverride(ctx, numberId), companyHolidays(ctx, routing.company_id)]);
  const active = stored && stored.mode !== 'auto' && (!stored.until || stored.until.getTime() > now.getTime()) ? stored : null;
  const isOpen = isNumberOpen({ ...routing, extras: { holidays, override: active } }, now);
  return {
    data: { number_id: numberId, mode: active ? active.mode : ('auto' as const), until: active?.until ? active.until.toISOString() : null, is_open: isOpen },
  };
}

/**
 * A number's routing data for a company owner/administrator of its company.
 * @throws NotFoundError for a missing number or another company's number (never 403, to not reveal it).
 */
export async function numberForManager(ctx: AppContext, userId: number, numberId: number) {
  const routing = await findRoutingById(ctx, numberId);
  if (!routing) throw new NotFoundError('Number');
  await deniedAsNotFound(assertCompanyAccess(ctx, userId, routing.company_id, MANAGER_ROLES), 'Number');
  return routing;
}
