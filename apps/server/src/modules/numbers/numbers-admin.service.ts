/**
 * Number administration use cases (spec 002 §7 "Numbers"; docs/numbers.md): locate, detail,
 * datatable and CSV export, toll-free prefixes and vanity patterns, overlay area codes, forward
 * contacts with usage, number limit and limit-increase requests, extension suggestions, triggers.
 * Design decisions for what the spec does not show: docs/numbers.md.
 */
import {
  NUMBER_CATEGORY_LABELS,
  NUMBER_LIMIT_INCREASE_SUBMITTED,
  NUMBER_TYPE_LABELS,
  NUMBER_TYPES,
  PROVIDER_LABELS,
  SERVICE_TYPES,
  TOLL_FREE_SEARCH_PREFIXES,
  areaCodeOf,
  formatPhone,
  isTollFree,
  overlayAreaCodes,
  parsePhone,
  rolesWith,
  suggestExtensions,
  vanitySearchPattern,
  vanityToDigits,
  type RouteEntry,
} from '@switchboard/domain';
import type { NumberDetailDto } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { toCsv } from '../../platform/csv.js';
import { NotFoundError, ValidationError, fieldError, type FieldErrors } from '../../platform/http/errors.js';
import { pageMeta } from '../../platform/http/page.js';
import { newSigningSecret } from '../../platform/http/signed-post.js';
import { assertFetchableUrl, UnsafeUrlError } from '../../platform/http/safe-fetch.js';
import { fireTest, triggerTuning } from './triggers.fire.js';
import { MANAGER_ROLES, assertCompanyAccess, listUserCompanies } from '../companies/companies.service.js';
import { numbersAdminRepository, numbersRepository, type ForwardContactRow, type NumberRow, type NumberTableQuery } from './numbers.repository.js';
import { numberScope, scopeIncludes, scopeNumberIds } from '../users/members.service.js';
import { numberLimitOf, toNumberDto } from './numbers.service.js';
import { loadNumberExtras, numberTypeLabel, toTriggerDto, type NumberViewExtras } from './numbers.view.js';

const INVALID_PHONE = 'The number is not a valid phone number.';

function label(table: Record<number, string>, id: number): string {
  return table[id] ?? '';
}

export { toTriggerDto };

/** Provider ids whose role the carrier port plays here: 1 the carrier, 2 the toll-free registry (spec 002 §3). */
const CARRIER_PROVIDER_IDS: readonly number[] = [1, 2];

/**
 * A number with its spec 002 §3 labels (category, provider) beside its view (numbers.view.ts; pass
 * `extras` loaded with `loadNumberExtras` for the spec's per-number fields). The provider of a number
 * bought through the carrier port (ids 1 and 2) is the configured carrier's own name
 * (`carrierName` = `ctx.carrier.displayName`, e.g. "Sandbox"), not the spec table's example
 * company (docs/numbers.md "Provider shown").
 */
export function toNumberDetail(row: NumberRow, carrierName: string, extras: NumberViewExtras = {}): NumberDetailDto {
  return {
    ...toNumberDto(row, extras),
    service_type: row.service_type,
    category_label: label(NUMBER_CATEGORY_LABELS, row.category),
    provider_label: CARRIER_PROVIDER_IDS.includes(row.provider_id) ? carrierName : label(PROVIDER_LABELS, row.provider_id),
  };
}

/** {@link toNumberDetail} of rows with their spec fields loaded (one round of statements for all), in order. */
export async function numberDetails(ctx: AppContext, userId: number | null, rows: NumberRow[]): Promise<NumberDetailDto[]> {
  const extras = await loadNumberExtras(ctx, userId, rows);
  return rows.map((r) => toNumberDetail(r, ctx.carrier.displayName, extras.get(r.id)));
}

// ---------------------------------------------------------------- locate

async function carrierOffers(ctx: AppContext, e164: string): Promise<boolean> {
  const area = areaCodeOf(e164);
  if (!area || !e164.startsWith('+1')) return false;
  const subscriber = e164.slice(5);
  const found = await ctx.carrier.searchNumbers({
    kind: isTollFree(e164) ? 'toll_free' : 'local',
    areaCode: area,
    pattern: subscriber,
    mode: 'ends_with',
    limit: 20,
  });
  return found.some((n) => n.number === e164);
}

async function locateOne(ctx: AppContext, userId: number, companyIds: number[], e164: string) {
  const owned = await numbersAdminRepository.findByNumberInCompanies(ctx.db, companyIds, e164);
  // A number active anywhere is not on offer; only ask the carrier about numbers nobody holds.
  const taken = owned ? true : Boolean(await numbersRepository.findActiveByNumber(ctx.db, e164));
  return {
    number: e164,
    national_number: formatPhone(e164),
    // A `user` gets the details only of their own numbers (docs/permissions.md "Numbers a user sees").
    owned: owned && scopeIncludes(await numberScope(ctx, userId, owned.company_id), owned.id) ? (await numberDetails(ctx, userId, [owned]))[0]! : null,
    available: taken ? false : await carrierOffers(ctx, e164),
  };
}

/**
 * Finds `number` (any format, vanity letters allowed) among the caller's companies' numbers and
 * says whether the carrier offers it.
 * @throws ValidationError 422 `number` when it is not a phone number.
 */
export async function locateNumber(ctx: AppContext, userId: number, number: string) {
  const e164 = parsePhone(vanityToDigits(number));
  if (!e164) throw fieldError('number', INVALID_PHONE);
  const companies = (await listUserCompanies(ctx, userId)).map((c) => c.id);
  return locateOne(ctx, userId, companies, e164);
}

/**
 * `locateNumber` for up to 100 numbers, in input order.
 * @throws ValidationError 422 with `numbers.{i}` for every entry that is not a phone number.
 */
export async function locateNumbers(ctx: AppContext, userId: number, numbers: string[]) {
  const errors: FieldErrors = {};
  const parsed = numbers.map((n, i) => {
    const e = parsePhone(vanityToDigits(n));
    if (!e) errors[`numbers.${i}`] = [INVALID_PHONE];
    return e;
  });
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const companies = (await listUserCompanies(ctx, userId)).map((c) => c.id);
  const out = [];
  for (const e164 of parsed) out.push(await locateOne(ctx, userId, companies, e164!));
  return out;
}

// ---------------------------------------------------------------- detail

/**
 * `GET /numbers/list/{id or number}`: a number of one of the caller's companies by id (digits up
 * to 12 characters that do not parse as a phone number) or by phone number text, with the spec's
 * fields as in the list (triggers, `sms_verification: {status}`, ...). `include` "sms-verification"
 * (spec 002 §7) is accepted; the status is on every number ("unverified" until SMS verification exists).
 * @throws NotFoundError 404 when no such number is visible to the caller.
 */
export async function getNumberDetail(ctx: AppContext, userId: number, idOrNumber: string, _include: string[]): Promise<NumberDetailDto> {
  const companies = (await listUserCompanies(ctx, userId)).map((c) => c.id);
  const text = idOrNumber.trim();
  let row: NumberRow | undefined;
  if (/^\d{1,9}$/.test(text)) {
    const byId = await numbersRepository.find(ctx.db, Number(text));
    if (byId && companies.includes(byId.company_id)) row = byId;
  }
  if (!row) {
    const e164 = parsePhone(vanityToDigits(text));
    if (e164) row = await numbersAdminRepository.findByNumberInCompanies(ctx.db, companies, e164);
  }
  if (!row || !scopeIncludes(await numberScope(ctx, userId, row.company_id), row.id)) throw new NotFoundError('Number');
  return (await numberDetails(ctx, userId, [row]))[0]!;
}

// ---------------------------------------------------------------- datatable and export

type TableInput = {
  search?: string;
  type?: number;
  label?: string;
  sort: NumberTableQuery['sort'];
  dir: NumberTableQuery['dir'];
  filters?: { search?: string; type?: number; label?: string };
};

function tableFilters(q: TableInput): NumberTableQuery {
  return { search: q.filters?.search ?? q.search, type: q.filters?.type ?? q.type, label: q.filters?.label ?? q.label, sort: q.sort, dir: q.dir };
}

/** The paged numbers datatable: `{data, meta: {current_page, per_page, total, last_page}}`; a `user` gets only their numbers. */
export async function numbersDatatable(ctx: AppContext, userId: number, companyId: number, q: TableInput & { page: number; perPage: number }) {
  await assertCompanyAccess(ctx, userId, companyId);
  const ids = scopeNumberIds(await numberScope(ctx, userId, companyId));
  const { rows, total } = await numbersAdminRepository.page(ctx.db, companyId, { ...tableFilters(q), ids }, q.page, q.perPage);
  return { data: await numberDetails(ctx, userId, rows), meta: pageMeta(q.page, q.perPage, total) };
}

/** Export column headers, in order. */
export const EXPORT_COLUMNS = ['Number', 'Label', 'Type', 'Route Type', 'Schedule', 'Created At'] as const;

/** Every number matching the datatable filters (a `user`: among their numbers) as CSV (header row first; created_at ISO-8601 UTC). */
export async function exportNumbersCsv(ctx: AppContext, userId: number, companyId: number, q: TableInput): Promise<string> {
  await assertCompanyAccess(ctx, userId, companyId);
  const ids = scopeNumberIds(await numberScope(ctx, userId, companyId));
  const rows = await numbersAdminRepository.all(ctx.db, companyId, { ...tableFilters(q), ids });
  const data = rows.map((r) => {
    const dto = toNumberDto(r);
    return [dto.number, dto.label, dto.type_label, dto.route_type, dto.schedule_label, dto.created_at];
  });
  return toCsv(data, { fields: EXPORT_COLUMNS }); // formula cells neutralised (platform/csv.ts)
}

// ---------------------------------------------------------------- prefixes, patterns, overlays, enumerations

/** Toll-free search prefixes in the spec's order (spec 002 §9), "8**" meaning any. */
export function numberPrefixes() {
  return TOLL_FREE_SEARCH_PREFIXES.map((p) => ({ value: p, label: p === '8**' ? '8** (any toll-free)' : p }));
}

/** Common vanity and pattern searches a person picks from (design; docs/numbers.md). */
const PATTERNS: ReadonlyArray<{ pattern: string; mode: 'contains' | 'starts_with' | 'ends_with'; description: string }> = [
  { pattern: '0000', mode: 'ends_with', description: 'Ends in four zeros' },
  { pattern: '00', mode: 'ends_with', description: 'Ends in double zero' },
  { pattern: '1234', mode: 'ends_with', description: 'Ends in 1234' },
  { pattern: '7777', mode: 'contains', description: 'Repeating sevens' },
  { pattern: 'CALL', mode: 'ends_with', description: 'Ends in CALL (2255)' },
  { pattern: 'HELP', mode: 'ends_with', description: 'Ends in HELP (4357)' },
  { pattern: 'CASH', mode: 'ends_with', description: 'Ends in CASH (2274)' },
  { pattern: 'AUTO', mode: 'ends_with', description: 'Ends in AUTO (2886)' },
  { pattern: 'CARS', mode: 'ends_with', description: 'Ends in CARS (2277)' },
  { pattern: 'SALE', mode: 'ends_with', description: 'Ends in SALE (7253)' },
  { pattern: 'LAW', mode: 'contains', description: 'Contains LAW (529)' },
  { pattern: 'PIZZA', mode: 'ends_with', description: 'Ends in PIZZA (74992)' },
];

/** Pattern suggestions with their keypad digits. */
export function numberPatterns() {
  return PATTERNS.map((p) => ({ ...p, digits: vanitySearchPattern(p.pattern) }));
}

/** The other area codes of the overlay complex of `areaCode` (domain OVERLAYS). */
export function overlayOf(areaCode: string): string[] {
  return overlayAreaCodes(areaCode);
}

const rows = (t: Record<number, string>) =>
  Object.entries(t)
    .map(([id, l]) => ({ id: Number(id), label: l }))
    .sort((a, b) => a.id - b.id);

/** The number label tables of spec 002 §3, for the browser. */
export function numberEnumerations() {
  return {
    number_types: rows({ [NUMBER_TYPES.local]: 'Local', [NUMBER_TYPES.toll_free]: 'Toll free', [NUMBER_TYPES.canadian]: 'Canadian' }).map((r) => ({
      ...r,
      type_label: numberTypeLabel(r.id),
    })),
    // The spec's label table keeps its own ids; `types` says which number types each label is shown for
    // (docs/domain-decisions.md "Number type labels").
    number_type_labels: rows(NUMBER_TYPE_LABELS).map((r) => ({ ...r, types: Object.values(NUMBER_TYPES).filter((t) => numberTypeLabel(t) === r.label) })),
    service_types: rows({ [SERVICE_TYPES.voice_sms]: 'Voice and SMS', [SERVICE_TYPES.fax]: 'Fax' }),
    categories: rows(NUMBER_CATEGORY_LABELS),
    providers: rows(PROVIDER_LABELS),
  };
}

// ---------------------------------------------------------------- forward contacts

function toForwardContact(r: ForwardContactRow) {
  return { id: r.id, company_id: r.company_id, name: r.name, number: r.number, national_number: formatPhone(r.number), created_at: r.created_at.toISOString() };
}

function parseForward(number: string): string {
  const e164 = parsePhone(number);
  if (!e164) throw fieldError('number', INVALID_PHONE);
  return e164;
}

/** The company's forward contacts (any member). @throws ForbiddenError (403). */
export async function listForwardContacts(ctx: AppContext, userId: number, companyId: number) {
  await assertCompanyAccess(ctx, userId, companyId);
  return (await numbersAdminRepository.listForwardContacts(ctx.db, companyId)).map(toForwardContact);
}

/** @throws ValidationError 422 `number`; ForbiddenError 403 unless owner/administrator. */
export async function createForwardContact(ctx: AppContext, userId: number, companyId: number, input: { name: string; number: string }) {
  await assertCompanyAccess(ctx, userId, companyId, MANAGER_ROLES);
  return toForwardContact(
    await numbersAdminRepository.insertForwardContact(ctx.db, { company_id: companyId, name: input.name.trim(), number: parseForward(input.number) }),
  );
}

/** @throws NotFoundError 404 when the contact is not the company's. */
export async function updateForwardContact(ctx: AppContext, userId: number, companyId: number, id: number, input: { name: string; number: string }) {
  await assertCompanyAccess(ctx, userId, companyId, MANAGER_ROLES);
  const e164 = parseForward(input.number);
  const row = await numbersAdminRepository.updateForwardContact(ctx.db, companyId, id, { name: input.name.trim(), number: e164 });
  if (!row) throw new NotFoundError('Forward contact');
  return toForwardContact(row);
}

/** Deletes a forward contact (owner/administrator). @throws ForbiddenError (403), NotFoundError (404). */
export async function deleteForwardContact(ctx: AppContext, userId: number, companyId: number, id: number): Promise<void> {
  await assertCompanyAccess(ctx, userId, companyId, MANAGER_ROLES);
  if (!(await numbersAdminRepository.deleteForwardContact(ctx.db, companyId, id))) throw new NotFoundError('Forward contact');
}

/** The company's numbers and extensions whose forwards ring this contact's number. */
export async function forwardContactUsage(ctx: AppContext, userId: number, companyId: number, id: number) {
  await assertCompanyAccess(ctx, userId, companyId);
  const contact = await numbersAdminRepository.findForwardContact(ctx.db, companyId, id);
  if (!contact) throw new NotFoundError('Forward contact');
  const out: Array<{ number_id: number; number: string; label: string; extension: number; route_label: string }> = [];
  for (const n of await numbersRepository.listForCompany(ctx.db, companyId)) {
    for (const entry of n.routes as RouteEntry[]) {
      if (entry.forwards.some((f) => f.number === contact.number))
        out.push({ number_id: n.id, number: n.number, label: n.label, extension: entry.extension, route_label: entry.label });
    }
  }
  return out;
}

// ---------------------------------------------------------------- number limit

/** The company's number limit and how many numbers it holds (any member). @throws ForbiddenError (403). */
export async function getNumberLimit(ctx: AppContext, userId: number, companyId: number) {
  await assertCompanyAccess(ctx, userId, companyId);
  return numberLimitOf(ctx, companyId);
}

/** Who may ask for a higher number limit: the roles that may buy numbers (`numbers.purchase`: owner, administrator). */
const LIMIT_REQUEST_ROLES = rolesWith('numbers.purchase');

/**
 * Stores a limit-increase request and e-mails it to the support address (one transaction). Open to the roles that may
 * buy numbers (`numbers.purchase`, as the route declares; the billing role cannot buy numbers and gets 403).
 * @throws ValidationError 422 `requested_limit` when not above the current limit.
 * @throws ForbiddenError 403 for other roles.
 */
export async function requestNumberLimitIncrease(ctx: AppContext, userId: number, companyId: number, input: { requested_limit: number; reason: string }) {
  await assertCompanyAccess(ctx, userId, companyId, LIMIT_REQUEST_ROLES);
  const { limit, used } = await numberLimitOf(ctx, companyId);
  if (input.requested_limit <= limit) throw fieldError('requested_limit', `The requested limit must be greater than the current limit of ${limit}.`);
  const company = (await listUserCompanies(ctx, userId)).find((c) => c.id === companyId);
  await ctx.db.transaction().execute(async (tx) => {
    await numbersAdminRepository.insertLimitRequest(tx, {
      company_id: companyId,
      user_id: userId,
      current_limit: limit,
      requested_limit: input.requested_limit,
      reason: input.reason.trim(),
    });
    await ctx.mailer.send(
      {
        to: ctx.config.supportEmail,
        subject: `Number limit increase request: ${company?.name ?? `company ${companyId}`}`,
        text: `Company: ${company?.name ?? ''} (id ${companyId})\nRequested by user id ${userId}\nCurrent limit: ${limit} (${used} numbers in use)\nRequested limit: ${input.requested_limit}\nReason:\n${input.reason.trim()}\n`,
      },
      tx,
    );
  });
  return { message: NUMBER_LIMIT_INCREASE_SUBMITTED };
}

// ---------------------------------------------------------------- extension suggestions

/**
 * Free extensions to offer for a number's new route entry (foundation §5 rule, domain
 * `suggestExtensions`); without `number_id` nothing exists yet, so the list starts at 0.
 * @throws NotFoundError 404 when `number_id` is not the company's.
 */
export async function extensionSuggestions(
  ctx: AppContext,
  userId: number,
  companyId: number,
  numberId: number | undefined,
  perPage: number,
): Promise<number[]> {
  await assertCompanyAccess(ctx, userId, companyId);
  let existing: number[] = [];
  if (numberId !== undefined) {
    const row = await numbersRepository.findForCompany(ctx.db, companyId, numberId);
    if (!row) throw new NotFoundError('Number');
    existing = (row.routes as RouteEntry[]).map((e) => e.extension);
  }
  return suggestExtensions(existing, perPage);
}

// ---------------------------------------------------------------- triggers

type TriggerInput = { id?: number; number_id: number; event: string; action: string; target: string };

/**
 * Why a webhook trigger's URL can never be reached (credentials in it, a literal private or loopback address, a
 * `localhost` name), or null. Names are resolved, and refused when private, at each firing (platform/http/safe-fetch.ts).
 */
function unreachableWebhook(url: string): string | null {
  try {
    const u = assertFetchableUrl(url, triggerTuning.addressPolicy);
    const host = u.hostname.toLowerCase();
    if ((host === 'localhost' || host.endsWith('.localhost')) && !(triggerTuning.addressPolicy.allowHosts ?? []).includes(host)) return `${host} is not public`;
    return null;
  } catch (error) {
    if (error instanceof UnsafeUrlError) return error.message;
    throw error;
  }
}

/**
 * Upserts and removes number triggers of the company in one transaction and returns all of them.
 * `upsert` entries with `id` update that trigger; without, an identical trigger is reused.
 * @throws ValidationError 422 `upsert.{i}.number_id` (not the company's number), `upsert.{i}.target`
 *   (not an e-mail address for `email`, not an http(s) URL for `webhook`), `upsert.{i}.id` (unknown).
 */
export async function saveTriggers(ctx: AppContext, userId: number, companyId: number, input: { upsert: TriggerInput[]; remove: number[] }) {
  await assertCompanyAccess(ctx, userId, companyId, MANAGER_ROLES);
  const errors: FieldErrors = {};
  const owned = new Set(
    (await numbersAdminRepository.findManyForCompany(ctx.db, companyId, [...new Set(input.upsert.map((u) => u.number_id))])).map((n) => n.id),
  );
  input.upsert.forEach((u, i) => {
    if (!owned.has(u.number_id)) errors[`upsert.${i}.number_id`] = ['The selected number is invalid.'];
    if (u.action === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(u.target)) errors[`upsert.${i}.target`] = ['The target must be a valid e-mail address.'];
    if (u.action === 'webhook') {
      const ok = URL.canParse(u.target) && ['http:', 'https:'].includes(new URL(u.target).protocol);
      if (!ok) errors[`upsert.${i}.target`] = ['The target must be a valid http or https URL.'];
      else {
        const unsafe = unreachableWebhook(u.target);
        if (unsafe) errors[`upsert.${i}.target`] = [`The target cannot receive webhooks: ${unsafe}.`];
      }
    }
  });
  if (Object.keys(errors).length) throw new ValidationError(errors);
  await ctx.db.transaction().execute(async (tx) => {
    await numbersAdminRepository.removeTriggers(tx, companyId, input.remove);
    for (const [i, u] of input.upsert.entries()) {
      const values = { number_id: u.number_id, event: u.event, action: u.action, target: u.target.trim() };
      if (u.id !== undefined) {
        let updated;
        try {
          updated = await numbersAdminRepository.updateTrigger(tx, companyId, u.id, values, newSigningSecret());
        } catch (e) {
          if ((e as { code?: string }).code === '23505') throw fieldError(`upsert.${i}`, 'The same trigger already exists.');
          throw e;
        }
        if (!updated) throw fieldError(`upsert.${i}.id`, 'The selected trigger is invalid.');
      } else {
        await numbersAdminRepository.upsertTrigger(tx, {
          company_id: companyId,
          ...values,
          signing_secret: u.action === 'webhook' ? newSigningSecret() : null,
        });
      }
    }
  });
  return listTriggers(ctx, userId, companyId);
}

/**
 * The triggers of the company's numbers (any member), each with its latest firing (`last_fired`: state pending,
 * delivered or failed, when, the webhook's HTTP status and the error; null before the first).
 * @throws ForbiddenError (403).
 */
export async function listTriggers(ctx: AppContext, userId: number, companyId: number) {
  await assertCompanyAccess(ctx, userId, companyId);
  const [rows, fired] = await Promise.all([numbersAdminRepository.listTriggers(ctx.db, companyId), numbersAdminRepository.lastFirings(ctx.db, companyId)]);
  const last = new Map(fired.map((f) => [f.trigger_id, f]));
  return rows.map((t) => {
    const f = last.get(t.id);
    return {
      ...toTriggerDto(t),
      last_fired: f
        ? { state: f.state as 'pending', at: (f.finished_at ?? f.created_at).toISOString(), status_code: f.last_status_code, error: f.last_error }
        : null,
    };
  });
}

/**
 * `POST /companies/{companyId}/triggers/{id}/test`: sends the trigger a test firing now (sample fields, `test: true`;
 * docs/numbers.md "Triggers") and says how it went: "Test sent" with the webhook's status, or the reason it failed.
 * @throws ForbiddenError (403); NotFoundError (404) for another company's trigger.
 */
export async function testTrigger(ctx: AppContext, userId: number, companyId: number, id: number) {
  await assertCompanyAccess(ctx, userId, companyId, MANAGER_ROLES);
  const trigger = (await numbersAdminRepository.listTriggers(ctx.db, companyId)).find((t) => t.id === id);
  if (!trigger) throw new NotFoundError('Trigger');
  const outcome = await fireTest(ctx, trigger);
  const message =
    outcome.state === 'delivered'
      ? trigger.action === 'email'
        ? `A test e-mail was sent to ${trigger.target}.`
        : `The webhook answered the test with HTTP ${outcome.status_code}.`
      : `The test was not delivered: ${outcome.error}`;
  return { message, data: outcome };
}

/**
 * `GET /companies/{companyId}/triggers/{id}/secret`: the Standard Webhooks signing secret of a webhook trigger
 * (docs/numbers.md "Triggers"), for the roles that manage numbers.
 * @throws ForbiddenError (403); NotFoundError (404) for another company's trigger or an e-mail trigger.
 */
export async function triggerSecret(ctx: AppContext, userId: number, companyId: number, id: number): Promise<string> {
  await assertCompanyAccess(ctx, userId, companyId, MANAGER_ROLES);
  const secret = await numbersAdminRepository.triggerSecret(ctx.db, companyId, id);
  if (!secret) throw new NotFoundError('Trigger');
  return secret;
}
