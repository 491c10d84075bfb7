/**
 * Numbers (spec 002 §3 "Number", §7 "Numbers"; docs/numbers.md): search the carrier's inventory,
 * buy into a company (with a default route entry and schedule), list, read, and save the label,
 * routing setup and schedule.
 */
import {
  EAV_ENTITY_TYPES,
  NUMBER_TYPES,
  SERVICE_TYPES,
  TOLL_FREE_SEARCH_PREFIXES,
  cleanRoutes,
  confirmKeyToDtmf,
  defaultSchedule,
  areaCodeOf,
  formatPhone,
  isTollFree,
  isValidTimeZone,
  newRouteEntry,
  parsePhone,
  scheduleHoursErrors,
  vanityToDigits,
  type RouteEntry,
  type Schedule,
} from '@switchboard/domain';
import type { MenuFallback, NumberDto } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import type { HookFn } from '../../platform/hooks/registry.js';
import { ValidationError, fieldError, NotFoundError, CarrierError, type FieldErrors, deniedAsNotFound } from '../../platform/http/errors.js';
import { GroupCommit } from '../../platform/db/group-commit.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { invalidationFeed, notifyInvalidation } from '../../platform/db/invalidation-feed.js';
import { CALL_FLOW_CACHE_TTL_MS, readCache, type ReadCache } from '../../platform/db/read-cache.js';
import { MANAGER_ROLES, assertCompanyAccess, companyTimeZone } from '../companies/companies.service.js';
import { numberScope, scopeIncludes } from '../users/members.service.js';
import { setEavValues } from '../custom-fields/custom-fields.service.js';
import { planNumberLimit } from './number-limit.hooks.js';
import { numbersAdminRepository, numbersRepository, type NumberRow } from './numbers.repository.js';
import { numberView, numberViews, toNumberDto } from './numbers.view.js';

const CATEGORY_VOICE_SMS = 1;
const CATEGORY_FAX = 3;
const INVALID_PHONE = 'The number is not a valid phone number.';

/** The API shape of a number: numbers.view.ts (re-exported for the module's other files). */
export { toNumberDto };

export type SearchInput = {
  type: 'local' | 'toll_free';
  areaCode?: string;
  prefix?: string;
  mode: 'contains' | 'starts_with' | 'ends_with';
  pattern?: string;
  limit: number;
};

/**
 * Searches purchasable numbers. Local: `areaCode` must be 3 digits (NXX); toll-free: `prefix`
 * one of TOLL_FREE_SEARCH_PREFIXES (default "8**"). `pattern` letters become keypad digits.
 * @throws ValidationError (422) on bad input.
 */
export async function searchNumbers(ctx: AppContext, q: SearchInput) {
  const errors: FieldErrors = {};
  let areaCode: string | undefined;
  if (q.type === 'local') {
    if (!q.areaCode || !/^[2-9]\d{2}$/.test(q.areaCode.trim())) errors.areaCode = ['The area code must be 3 digits.'];
    else areaCode = q.areaCode.trim();
  } else {
    const prefix = q.prefix ?? q.areaCode ?? '8**';
    if (!(TOLL_FREE_SEARCH_PREFIXES as readonly string[]).includes(prefix))
      errors.prefix = [`The prefix must be one of ${TOLL_FREE_SEARCH_PREFIXES.join(', ')}.`];
    else areaCode = prefix;
  }
  let pattern = '';
  if (q.pattern && q.pattern.trim()) {
    pattern = vanityToDigits(q.pattern.trim()).replace(/[\s()+-]/g, '');
    if (!/^\d{1,7}$/.test(pattern)) errors.pattern = ['The pattern must be 1 to 7 digits or letters.'];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const found = await ctx.carrier.searchNumbers({ kind: q.type, areaCode, pattern: pattern || undefined, mode: q.mode, limit: q.limit });
  return found.map((n) => ({
    number: n.number,
    national_number: formatPhone(n.number),
    type: n.kind,
    region: n.region,
    locality: n.locality,
    provider_id: n.provider_id,
  }));
}

/**
 * The company's time zone for a new number's schedule and routes (companies `companyTimeZone`: the
 * company schedule's zone, else the company settings' zone; never a fixed default like New York).
 * `userId` (who acts) is not needed: the zone is the company's.
 */
export async function companyTimezone(ctx: AppContext, userId: number | null, companyId: number): Promise<string> {
  return companyTimeZone(ctx, companyId);
}

/** Default number limit of a company (spec 002 §7 "Numbers": number-limit; the spec shows no value). */
export const DEFAULT_NUMBER_LIMIT = 25;

/** A company's number limit (stored per company, else its plan's through the number-limit hook, else DEFAULT_NUMBER_LIMIT) and active numbers. */
export async function numberLimitOf(ctx: AppContext, companyId: number): Promise<{ limit: number; used: number }> {
  const [limit, used, planLimit] = await Promise.all([
    numbersAdminRepository.getLimit(ctx.db, companyId),
    numbersAdminRepository.countActive(ctx.db, companyId),
    planNumberLimit(ctx, companyId),
  ]);
  return { limit: limit ?? planLimit ?? DEFAULT_NUMBER_LIMIT, used };
}

/**
 * Refuses adding `adding` numbers when that passes the company's limit.
 * @throws ValidationError 422 on `field` with the limit in the message.
 */
export async function assertWithinNumberLimit(ctx: AppContext, companyId: number, adding: number, field = 'number'): Promise<void> {
  const { limit, used } = await numberLimitOf(ctx, companyId);
  if (used + adding > limit) {
    throw fieldError(field, `The number limit of ${limit} numbers has been reached (${used} in use). Request a limit increase to add more numbers.`);
  }
}

/** Provider id of the toll-free registry (spec 002 §3 provider labels: 2). */
const TOLL_FREE_REGISTRY_PROVIDER_ID = 2;

/** What POST /numbers takes (contracts BuyNumberInput). */
export type BuyInput = {
  company_id: number;
  provider_id: number;
  number?: string;
  national_number?: string;
  vanity?: string;
  area_code?: string;
  service_type?: number;
};

/**
 * The E.164 number POST /numbers buys: the one given (`number`, `national_number` or `vanity`,
 * letters as keypad digits), else the first the carrier offers for the provider: toll-free for the
 * toll-free registry (provider 2; prefix `area_code`, default 8**), else local in `area_code` or
 * the area code of the company's newest local number (docs/numbers.md "Buying with the spec's payload").
 * @throws ValidationError 422 on the given field (not a phone number), on `area_code` (none known
 * for a local number, or nothing on offer there).
 */
async function numberToBuy(ctx: AppContext, input: BuyInput): Promise<string> {
  for (const field of ['number', 'national_number', 'vanity'] as const) {
    const text = input[field];
    if (text === undefined) continue;
    const e164 = parsePhone(vanityToDigits(text));
    if (!e164) throw fieldError(field, INVALID_PHONE);
    return e164;
  }
  const tollFree = input.provider_id === TOLL_FREE_REGISTRY_PROVIDER_ID;
  let areaCode = input.area_code;
  if (tollFree) {
    areaCode ??= '8**';
    if (!(TOLL_FREE_SEARCH_PREFIXES as readonly string[]).includes(areaCode))
      throw fieldError('area_code', `The prefix must be one of ${TOLL_FREE_SEARCH_PREFIXES.join(', ')}.`);
  } else {
    if (areaCode === '8**') throw fieldError('area_code', 'The area code must be 3 digits.');
    const newest = (await numbersRepository.listForCompany(ctx.db, input.company_id)).filter((n) => !isTollFree(n.number)).at(-1);
    areaCode ??= newest ? (areaCodeOf(newest.number) ?? undefined) : undefined;
    if (!areaCode) throw fieldError('area_code', 'The area code field is required when no number is given.');
  }
  const offered = await ctx.carrier.searchNumbers({ kind: tollFree ? 'toll_free' : 'local', areaCode, limit: 1 });
  if (!offered[0]) throw fieldError('area_code', 'No number is available in this area code.');
  return offered[0].number;
}

/**
 * POST /numbers (spec 002 §7: company_id, provider_id; the number optional, see {@link numberToBuy}):
 * buys the number through the carrier for the company (owner/administrator), storing it with
 * type (toll-free 2, else local 1), service type `service_type` (1 voice and SMS by default, 2 fax:
 * category 3 Fax, else category 1), one default route entry and the
 * default schedule in the company's time zone.
 * @throws ValidationError 422 (invalid or already active number, number limit reached), ForbiddenError 403, CarrierError 502.
 */
export async function buyNumber(ctx: AppContext, userId: number, input: BuyInput): Promise<NumberDto> {
  await assertCompanyAccess(ctx, userId, input.company_id, MANAGER_ROLES);
  await assertWithinNumberLimit(ctx, input.company_id, 1);
  const e164 = await numberToBuy(ctx, input);
  const tz = await companyTimezone(ctx, userId, input.company_id);
  return numberView(ctx, userId, await purchaseIntoCompany(ctx, input.company_id, tz, e164, input.provider_id, input.service_type));
}

/**
 * Buys an E.164 number through the carrier and stores it in the company with the defaults
 * (no access or limit check: callers do that). Used by buy, bulk purchase and completed port-ins.
 * @throws ValidationError 422 on `number` (already active, carrier refused).
 */
export async function purchaseIntoCompany(
  ctx: AppContext,
  companyId: number,
  tz: string,
  e164: string,
  providerId: number,
  serviceType: number = SERVICE_TYPES.voice_sms,
): Promise<NumberRow> {
  if (await numbersRepository.findActiveByNumber(ctx.db, e164)) throw fieldError('number', 'The number has already been taken.');
  let purchased;
  try {
    purchased = await ctx.carrier.buyNumber(e164, {
      voiceUrl: ctx.carrier.webhookUrl('voice'),
      smsUrl: ctx.carrier.webhookUrl('messaging'),
      statusCallback: ctx.carrier.webhookUrl('voice.status'),
    });
  } catch (e) {
    if (e instanceof CarrierError) throw fieldError('number', e.message);
    throw e;
  }
  try {
    return await numbersRepository.insert(ctx.db, {
      company_id: companyId,
      number: e164,
      label: formatPhone(e164),
      type: isTollFree(e164) ? NUMBER_TYPES.toll_free : NUMBER_TYPES.local,
      service_type: serviceType,
      // A fax number (service type 2, docs/fax.md) is in category 3 Fax (spec 002 "Number enumerations").
      category: serviceType === SERVICE_TYPES.fax ? CATEGORY_FAX : CATEGORY_VOICE_SMS,
      provider_id: providerId,
      carrier_sid: purchased.sid,
      routes: JSON.stringify([newRouteEntry(tz)]),
      schedule: JSON.stringify(defaultSchedule(tz)),
    });
  } catch (e) {
    // Give the number back; the insert's error is what the caller sees, a failed release is logged.
    await ctx.carrier
      .releaseNumber(purchased.sid)
      .catch((releaseError: unknown) => ctx.log.warn({ err: releaseError, sid: purchased.sid }, 'release after a failed purchase failed'));
    if ((e as { code?: string }).code === '23505') throw fieldError('number', 'The number has already been taken.');
    throw e;
  }
}

/** The company's active numbers the member may see (a `user`: those assigned to them; docs/permissions.md "Numbers a user sees"). */
export async function listCompanyNumbers(ctx: AppContext, userId: number, companyId: number): Promise<NumberDto[]> {
  await assertCompanyAccess(ctx, userId, companyId);
  const scope = await numberScope(ctx, userId, companyId);
  const rows = (await numbersRepository.listForCompany(ctx.db, companyId)).filter((r) => scopeIncludes(scope, r.id));
  return numberViews(ctx, userId, rows);
}

/**
 * A company's number by id.
 * @throws NotFoundError when the number is not the company's (or released).
 */
export async function getCompanyNumber(ctx: AppContext, companyId: number, numberId: number): Promise<NumberRow> {
  const row = await numbersRepository.findForCompany(ctx.db, companyId, numberId);
  if (!row) throw new NotFoundError('Number');
  return row;
}

/** Id, E.164 and label of the company's active numbers among `ids` (one statement; ids of other companies are absent, released numbers too unless `includeReleased`: history such as calls and voicemails keeps its labels). */
export async function getCompanyNumbers(
  ctx: AppContext,
  companyId: number,
  ids: number[],
  opts: { includeReleased?: boolean } = {},
): Promise<Array<{ id: number; number: string; label: string }>> {
  return numbersRepository.findManyForCompany(ctx.db, companyId, [...new Set(ids)], opts.includeReleased === true);
}

/** The company's active numbers among `ids`, whole rows (one statement; other companies' and released ones absent). */
export async function getCompanyNumberRows(ctx: AppContext, companyId: number, ids: readonly number[]): Promise<NumberRow[]> {
  return numbersAdminRepository.findManyForCompany(ctx.db, companyId, [...new Set(ids)]);
}

/**
 * Loads a number the user may read (`roles`) and see (their number scope), else 404 (never
 * revealing another company's number, nor a number not assigned to a `user`).
 */
async function numberForUser(ctx: AppContext, userId: number, id: number, roles?: Parameters<typeof assertCompanyAccess>[3]): Promise<NumberRow> {
  const row = await numbersRepository.find(ctx.db, id);
  if (!row) throw new NotFoundError('Number');
  await deniedAsNotFound(assertCompanyAccess(ctx, userId, row.company_id, roles), 'Number');
  if (!scopeIncludes(await numberScope(ctx, userId, row.company_id), row.id)) throw new NotFoundError('Number');
  return row;
}

/** A number with its custom-field values (entity type Number 1; every number view carries them). */
export type NumberWithEav = NumberDto;

/**
 * GET /api/numbers/{id} (any member of its company): the number with its custom-field values.
 * @throws NotFoundError 404 for a missing, released or another company's number.
 */
export async function getNumber(ctx: AppContext, userId: number, id: number): Promise<NumberWithEav> {
  return numberView(ctx, userId, await numberForUser(ctx, userId, id));
}

/**
 * For inbound messages and in-app calling: the active number with this E.164, if any, through the
 * same in-process cache as the voice webhook's routing lookup (`findRoutingByE164Cached`,
 * invalidated on every committed write of a number, here and on the other nodes). `db`: the
 * caller's transaction, if any, for a miss (a transaction never waits on the pool; it must not have
 * written `numbers`).
 */
export async function findNumberByE164(
  ctx: AppContext,
  e164: string,
  db: DbOrTx = ctx.db,
): Promise<{ id: number; company_id: number; number: string; label: string } | undefined> {
  const row = await findRoutingByE164Cached(ctx, e164, db);
  return row ? { id: row.id, company_id: row.company_id, number: row.number, label: row.label } : undefined;
}

/** For the call flow: the active number with its routing data (a number without routes: see {@link EmptyRoutingFallback}). */
export async function findRoutingByE164(ctx: AppContext, e164: string, db = ctx.db): Promise<RoutingData | undefined> {
  const row = db === ctx.db ? await routingReader(ctx).submit(e164) : await numbersRepository.findActiveByNumber(db, e164);
  return row ? withFallbackRouting(ctx, toRoutingData(row), db) : undefined;
}

/**
 * What a number whose routes reach no one ({@link routesReachSomeone}) rings instead, asked by the call flow's routing reads (issue 23 item 1: a
 * call to a tracking number never meets an empty route). Provided by call tracking as the `emptyRoutingFallback` hook (a pool number rings
 * its pool's routing target, a tracking number the company's main routing); undefined: the number's own
 * (empty) routing stands. Reads through `db` (the webhook's transaction, if any).
 */
export type EmptyRoutingFallback = HookFn<'emptyRoutingFallback'>;

/**
 * Whether routes can reach anyone (issue 23 item 1): some entry forwards to a number, rings the app
 * (in-app calling), or takes a voicemail. A bought number's default entry (no forwards, no voicemail)
 * reaches no one: its caller hears "no one is available".
 */
export function routesReachSomeone(routes: readonly Partial<RouteEntry>[] | null | undefined): boolean {
  return (routes ?? []).some(
    (e) =>
      e.type === 'voicemail' ||
      e.type === 'in-app-calling' ||
      e.voicemail_enabled === true ||
      (e.forwards ?? []).some((f) => typeof f?.number === 'string' && f.number.trim() !== ''),
  );
}

async function withFallbackRouting(ctx: AppContext, data: RoutingData, db: DbOrTx): Promise<RoutingData> {
  const fallbackOf = ctx.hooks.get('emptyRoutingFallback');
  if (!fallbackOf || routesReachSomeone(data.routes)) return data;
  const fallback = await fallbackOf(ctx, data, db);
  return fallback && routesReachSomeone(fallback.routes) ? { ...data, routes: fallback.routes, schedule: fallback.schedule } : data;
}

/** Which of the company's active numbers among `ids` have routes that reach someone ({@link routesReachSomeone}). One statement. */
export async function numbersWithRouting(ctx: AppContext, companyId: number, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const wanted = new Set(ids);
  const rows = await numbersRepository.listForCompany(ctx.db, companyId);
  return new Set(rows.filter((r) => wanted.has(r.id) && routesReachSomeone(r.routes as RouteEntry[])).map((r) => r.id));
}

/**
 * The company's main routing (issue 23 item 1, docs/tracking.md "Routing target"): the routes and
 * schedule of `preferredId` (e.g. a pool's fallback number, the number written on the website) when it
 * is the company's active number whose routes reach someone, else of the company's oldest such active
 * voice number other than `exceptId`; undefined when no number has any. Reads through `db`.
 */
export async function companyMainRouting(
  ctx: AppContext,
  companyId: number,
  opts: { preferredId?: number | null; exceptId?: number } = {},
  db: DbOrTx = ctx.db,
): Promise<{ number_id: number; routes: RouteEntry[]; schedule: Schedule } | undefined> {
  const rows = (await numbersRepository.listForCompany(db, companyId)).filter(
    (r) => r.id !== opts.exceptId && r.category !== CATEGORY_FAX && routesReachSomeone(r.routes as RouteEntry[]),
  );
  const main = rows.find((r) => r.id === opts.preferredId) ?? rows[0];
  return main ? { number_id: main.id, routes: main.routes as RouteEntry[], schedule: main.schedule as Schedule } : undefined;
}

function toRoutingData(row: NumberRow): RoutingData {
  return {
    id: row.id,
    company_id: row.company_id,
    number: row.number,
    label: row.label,
    routes: row.routes as RouteEntry[],
    schedule: row.schedule as Schedule,
    menu: { replays: row.menu_replays, fallback: row.menu_fallback as MenuFallback },
    record: row.record,
    call_transcription_enabled: row.call_transcription_enabled,
  };
}

const routingReaders = new WeakMap<AppContext, GroupCommit<string, NumberRow | undefined>>();
/**
 * Lookups by E.164 made through the pool (not a transaction) in the same turn of the event loop
 * share ONE statement (`numbersRepository.findActiveByNumbers`): the voice webhook's routing-cache
 * misses (docs/architecture.md "The voice webhook's hot path"). Up to 4 statements at once, 256 numbers each.
 */
function routingReader(ctx: AppContext): GroupCommit<string, NumberRow | undefined> {
  let g = routingReaders.get(ctx);
  if (!g) {
    g = new GroupCommit<string, NumberRow | undefined>({
      maxWaitMs: 0,
      maxItems: 256,
      concurrency: 4,
      owner: ctx,
      run: async (e164s) => {
        const found = await numbersRepository.findActiveByNumbers(ctx.db, [...new Set(e164s)]);
        return e164s.map((n) => found.get(n));
      },
    });
    routingReaders.set(ctx, g);
  }
  return g;
}

/** A number's routing data as the call flow reads it; `menu`: its menu replays and fallback (migration 0013). */
export type RoutingData = {
  id: number;
  company_id: number;
  number: string;
  label: string;
  routes: RouteEntry[];
  schedule: Schedule;
  menu: { replays: number; fallback: MenuFallback };
  /** Record answered calls in two channels; transcribe recordings and voicemails (spec 002 §3 "Number"; docs/transcription.md). */
  record: boolean;
  call_transcription_enabled: boolean;
};

/** Cross-process channel telling every server on the database that some number's routing changed. */
export const ROUTING_INVALIDATE_CHANNEL = 'routing_invalidate';
/** TTL of the routing cache (ms) while the invalidation feed is live (another process's change arrives by NOTIFY). */
const ROUTING_CACHE_TTL_MS = 60_000;

const routingCaches = new WeakMap<object, ReadCache<string, RoutingData | undefined>>();
function routingCache(ctx: AppContext): ReadCache<string, RoutingData | undefined> {
  let cache = routingCaches.get(ctx.db);
  if (!cache) {
    let live = () => false;
    const c = readCache<string, RoutingData | undefined>(ctx.db, 'numbers.routingByE164', () => (live() ? ROUTING_CACHE_TTL_MS : CALL_FLOW_CACHE_TTL_MS));
    live = invalidationFeed(ctx, ROUTING_INVALIDATE_CHANNEL, () => c.invalidate()).live;
    routingCaches.set(ctx.db, (cache = c));
  }
  return cache;
}

/**
 * For the voice webhook (docs/architecture.md "The voice webhook's hot path"): `findRoutingByE164` through an in-process cache
 * (platform/db/read-cache.ts). Entries live 60 s while this process LISTENs on
 * `routing_invalidate` (platform/db/invalidation-feed.ts), else 3 s. Every write of a number in
 * this module calls `invalidateRoutingCache` after it commits: this process drops its entries at
 * once (the very next call sees the change) and the others on NOTIFY. Misses read through `db`:
 * pass the webhook's transaction (it must not have written `numbers`). Treat the result as read-only.
 */
export async function findRoutingByE164Cached(ctx: AppContext, e164: string, db = ctx.db): Promise<RoutingData | undefined> {
  return routingCache(ctx).get(e164, () => findRoutingByE164(ctx, e164, db));
}

/**
 * Drops the cached routing data of every number in this process and NOTIFYs `routing_invalidate`
 * so other server processes drop theirs (call after a committed write of `numbers`).
 */
export function invalidateRoutingCache(ctx: AppContext): void {
  routingCache(ctx).invalidate();
  notifyInvalidation(ctx, ROUTING_INVALIDATE_CHANNEL);
}

/** For the call flow: a number's routing data by id (any company; webhooks are not user-scoped). */
export async function findRoutingById(ctx: AppContext, id: number, db = ctx.db) {
  const row = await numbersRepository.find(db, id);
  return row ? withFallbackRouting(ctx, toRoutingData(row), db) : undefined;
}

/**
 * Field errors of a schedule being saved, under `prefix` (e.g. `schedule.`, `routes.0.schedule.`):
 * an unknown time zone (`{prefix}timezone`) and the domain's hour rule `scheduleHoursErrors`
 * (`{prefix}hours.{day}.open|close`: close after open, both hours or Closed; foundation §3).
 */
export function scheduleErrors(schedule: Schedule, prefix: string): FieldErrors {
  const errors: FieldErrors = {};
  if (!isValidTimeZone(schedule.timezone)) errors[`${prefix}timezone`] = ['The time zone is not valid.'];
  for (const [field, messages] of Object.entries(scheduleHoursErrors(schedule))) errors[`${prefix}${field}`] = messages;
  return errors;
}

/**
 * Refuses a schedule that breaks {@link scheduleErrors}.
 * @throws ValidationError 422 with the field errors under `prefix`.
 */
export function assertValidSchedule(schedule: Schedule, prefix = 'schedule.'): void {
  const errors = scheduleErrors(schedule, prefix);
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

export type RouteInput = Partial<Omit<RouteEntry, 'extension' | 'forwards'>> & {
  extension?: number | string | null;
  forwards?: Array<{ number?: string | null }>;
};

/**
 * Validates and cleans edited routes (foundation §3): forwards must parse as phone numbers
 * (field `routes.{i}.forwards.{j}.number`), extensions must be distinct (`routes.{i}.extension`),
 * confirm keys one of CONFIRM_KEY_CHOICES, schedules valid ({@link scheduleErrors}). Forwards are stored E.164.
 */
export function validateRoutes(input: RouteInput[], timezone: string): RouteEntry[] {
  const errors: FieldErrors = {};
  const seen = new Map<number, number>();
  input.forEach((entry, i) => {
    (entry.forwards ?? []).forEach((f, j) => {
      const n = typeof f?.number === 'string' ? f.number.trim() : '';
      if (n && !parsePhone(n)) errors[`routes.${i}.forwards.${j}.number`] = [INVALID_PHONE];
    });
    const ext = entry.extension === undefined || entry.extension === null || entry.extension === '' ? 1 : Number(entry.extension);
    if (seen.has(ext)) errors[`routes.${i}.extension`] = ['The extension has already been taken.'];
    else seen.set(ext, i);
    if (entry.confirm_key !== undefined && entry.confirm_key !== null && confirmKeyToDtmf(entry.confirm_key) === null)
      errors[`routes.${i}.confirm_key`] = ['The confirm key is not valid.'];
    if (entry.schedule) Object.assign(errors, scheduleErrors(entry.schedule, `routes.${i}.schedule.`));
  });
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return cleanRoutes(input as Partial<RouteEntry>[], timezone).map((e) => ({ ...e, forwards: e.forwards.map((f) => ({ number: parsePhone(f.number)! })) }));
}

/**
 * Saves a number's label, routes, schedule, menu replays and fallback, and custom-field values (owner/administrator of its
 * company), in one transaction. `eavAttributeValues`: only the listed attributes change; null clears.
 * @throws NotFoundError 404 (not the user's company's number), ValidationError 422 (including
 * `eavAttributeValues.{i}.attribute_id|value` from the custom-fields service).
 */
export async function updateNumber(
  ctx: AppContext,
  userId: number,
  id: number,
  input: {
    label?: string;
    routes?: RouteInput[];
    schedule?: Schedule;
    menu_replays?: number;
    menu_fallback?: MenuFallback;
    eavAttributeValues?: Array<{ attribute_id: number; value: unknown }>;
  } & NumberCallSettings,
): Promise<NumberWithEav> {
  const row = await numberForUser(ctx, userId, id);
  await assertCompanyAccess(ctx, userId, row.company_id, MANAGER_ROLES);
  const patch: { label?: string; routes?: string; schedule?: string; menu_replays?: number; menu_fallback?: MenuFallback } & NumberCallSettings =
    callSettingsPatch(input);
  if (input.label !== undefined) patch.label = input.label.trim();
  if (input.menu_replays !== undefined) patch.menu_replays = input.menu_replays;
  if (input.menu_fallback !== undefined) patch.menu_fallback = input.menu_fallback;
  if (input.schedule !== undefined) {
    assertValidSchedule(input.schedule);
    patch.schedule = JSON.stringify(input.schedule);
  }
  if (input.routes !== undefined) {
    const tz = (input.schedule ?? (row.schedule as Schedule)).timezone;
    patch.routes = JSON.stringify(validateRoutes(input.routes, tz));
  }
  const values = input.eavAttributeValues ?? [];
  const updated = await ctx.db.transaction().execute(async (tx) => {
    const saved = Object.keys(patch).length ? await numbersRepository.update(tx, id, patch) : row;
    await setEavValues(ctx, EAV_ENTITY_TYPES.Number, row.id, row.company_id, values, tx);
    return saved;
  });
  invalidateRoutingCache(ctx);
  return numberView(ctx, userId, updated);
}

/** A number's call settings (spec 002 §3 "Number": record, transcription, AI custom fields; migration 0016). */
export type NumberCallSettings = { record?: boolean; call_transcription_enabled?: boolean; ai_eav_enabled?: boolean };

/**
 * The call settings to store. With `ai_eav_enabled` on, `record` and `call_transcription_enabled`
 * are left as they are (spec 002 §5: "Template update with ai_eav_enabled omits the record and
 * call_transcription_enabled settings"; the same rule for a number).
 */
export function callSettingsPatch(input: NumberCallSettings): NumberCallSettings {
  const out: NumberCallSettings = {};
  if (input.ai_eav_enabled !== undefined) out.ai_eav_enabled = input.ai_eav_enabled;
  if (input.ai_eav_enabled) return out;
  if (input.record !== undefined) out.record = input.record;
  if (input.call_transcription_enabled !== undefined) out.call_transcription_enabled = input.call_transcription_enabled;
  return out;
}

/**
 * For the call flow (spec 002 §3 "Number": forwards; round robin across forwards, docs/numbers.md): returns the number's
 * `round_robin_cursor` (the rotation this call takes) and stores cursor + 1 for the next call, in
 * one atomic statement (concurrent calls take distinct cursors). Pass the webhook's transaction as
 * `db`. 0 when the number does not exist. The routing cache holds no cursor, so nothing to invalidate.
 */
export async function takeRoundRobinCursor(ctx: AppContext, numberId: number, db = ctx.db): Promise<number> {
  return (await numbersRepository.takeRoundRobinCursor(db, numberId)) ?? 0;
}

/**
 * Applies routes and schedule (already validated and cleaned) to the company's numbers
 * (number templates). All ids must be active numbers of the company.
 * @throws NotFoundError 404 when any id is not the company's active number.
 */
export async function applyRoutingToNumbers(
  ctx: AppContext,
  userId: number | null,
  companyId: number,
  ids: number[],
  routing: { routes: RouteEntry[]; schedule: Schedule } & NumberCallSettings,
): Promise<NumberDto[]> {
  const unique = [...new Set(ids)];
  const settings = { record: routing.record, call_transcription_enabled: routing.call_transcription_enabled, ai_eav_enabled: routing.ai_eav_enabled };
  const rows = await ctx.db
    .transaction()
    .execute(async (tx) => {
      const found = await numbersAdminRepository.findManyForCompany(tx, companyId, unique);
      if (found.length !== unique.length) throw new NotFoundError('Number');
      const out: NumberRow[] = [];
      for (const row of found) {
        out.push(
          await numbersRepository.update(tx, row.id, {
            routes: JSON.stringify(routing.routes),
            schedule: JSON.stringify(routing.schedule),
            ...callSettingsPatch(settings),
          }),
        );
      }
      return out;
    })
    .finally(() => invalidateRoutingCache(ctx));
  return numberViews(ctx, userId, rows);
}

/** Whether an E.164 number is active in any company (port-in and bulk purchase checks). */
export async function isNumberActive(ctx: AppContext, e164: string): Promise<boolean> {
  return Boolean(await numbersRepository.findActiveByNumber(ctx.db, e164));
}

/**
 * Moves an active number from one company to another (a marketplace sale; docs/marketplace.md "Transfer"). The row
 * keeps its id, E.164 and carrier SID (nothing changes at the carrier); its label, routes and schedule are reset to
 * the defaults in the buyer's time zone and its triggers dropped (the seller's forwards, users and triggers mean
 * nothing to the buyer); the routing cache is invalidated. No access check: the caller has done it.
 * @throws NotFoundError when the number is not an active number of `fromCompanyId`; ValidationError 422 on `number`
 * when the buyer's number limit is reached.
 */
export async function transferNumber(ctx: AppContext, numberId: number, fromCompanyId: number, toCompanyId: number): Promise<NumberRow> {
  await assertWithinNumberLimit(ctx, toCompanyId, 1);
  const tz = await companyTimeZone(ctx, toCompanyId);
  const moved = await ctx.db.transaction().execute(async (tx) => {
    const row = await numbersRepository.findForCompany(tx, fromCompanyId, numberId);
    if (!row) throw new NotFoundError('Number');
    const triggers = await numbersAdminRepository.listTriggers(tx, fromCompanyId, numberId);
    await numbersAdminRepository.removeTriggers(
      tx,
      fromCompanyId,
      triggers.map((t) => Number(t.id)),
    );
    return numbersRepository.update(tx, numberId, {
      company_id: toCompanyId,
      label: formatPhone(row.number),
      routes: JSON.stringify([newRouteEntry(tz)]),
      schedule: JSON.stringify(defaultSchedule(tz)),
    });
  });
  invalidateRoutingCache(ctx);
  return moved;
}
