/**
 * Enhanced caller ID (spec 001 §7 "GET /calls/{id}/enhanced-caller-id" lookupWhenMissing, "GET
 * /messages/{id}/enhanced-caller-id", §3 "Conversation" enhancedCallerId; spec 002 "POST
 * /company/{companyId}/trestle/lookup"; the not-found notice of spec 000 §8; docs/caller-id.md).
 *
 * - Answers come from the lookup port (`platform/lookup`: the sandbox or Twilio Lookup v2) and are
 *   cached per E.164 number in `caller_id_lookups` (shared by every company): a found name for
 *   `config.lookup.cacheTtlS` (default 30 days), a not-found answer for `negativeTtlS` (default 1 day).
 * - Concurrent lookups of one number in a process share one provider request (coalescing).
 * - A provider failure caches nothing: 503 with Retry-After (unreachable, 5xx, 429), 502 (refused:
 *   credentials, bad request).
 * - Every answer given to a company emits `caller-id.looked-up` with its source (`provider`: a
 *   billable request made for that company; `cache`), which billing meters.
 * - The company's contact name wins over the provider's name (`displayName`); callers (calls,
 *   messaging, conversations, activity: higher modules) pass the contact they know.
 * This module sits at level 2 and imports no contacts or calls: they call it.
 */
import { CALLER_ID_NOT_FOUND, parsePhone } from '@switchboard/domain';
import type { CallerIdSettings, EnhancedCallerId } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { events } from '../../platform/events/index.js';
import { AppError, ServiceUnavailableError, fieldError } from '../../platform/http/errors.js';
import { LookupUnavailableError, createLookup, type LookupPort } from '../../platform/lookup/index.js';
import { assertCompanyAccess, rolesFor } from '../companies/companies.service.js';
import { callerIdRepository, type CallerIdLookupRow } from './caller-id.repository.js';

/** The outside party's contact in the asking company, as the caller knows it. */
export type KnownContact = { id: number; name: string } | null;

/** Seconds a client is asked to wait after a provider failure (Retry-After). */
export const LOOKUP_RETRY_AFTER_S = 30;

const ports = new WeakMap<AppContext['config'], LookupPort>();
const inflight = new WeakMap<object, Map<string, Promise<CallerIdLookupRow>>>();

/** The configured lookup adapter of this app (one per config). */
export function lookupPort(ctx: AppContext): LookupPort {
  let port = ports.get(ctx.config);
  if (!port) ports.set(ctx.config, (port = createLookup(ctx.config)));
  return port;
}

/** Builds the API object from a cached row (or none), the contact and where the answer came from. */
export function toEnhancedCallerId(
  number: string,
  row: CallerIdLookupRow | undefined,
  contact: KnownContact,
  source: 'provider' | 'cache' | null,
  withheld = false,
): EnhancedCallerId {
  const status = withheld ? 'not_found' : !row ? 'missing' : row.found ? 'found' : 'not_found';
  const callerName = row?.found ? row.caller_name : null;
  return {
    number,
    status,
    displayName: contact?.name || callerName || null,
    contact: contact ? { id: contact.id, name: contact.name } : null,
    callerName,
    callerType: row?.found ? row.caller_type : null,
    lineType: row?.line_type ?? null,
    carrierName: row?.carrier_name ?? null,
    countryCode: row?.country_code ?? null,
    source: row ? source : null,
    lookedUpAt: row ? row.looked_up_at.toISOString() : null,
    expiresAt: row ? row.expires_at.toISOString() : null,
    message: status === 'not_found' ? CALLER_ID_NOT_FOUND : null,
  };
}

/** Maps a provider failure to the HTTP answer: 502 refused (bad credentials or request), else 503 with Retry-After. */
function providerFailure(e: LookupUnavailableError): AppError {
  const s = e.providerStatus;
  if (s !== null && s >= 400 && s < 500 && s !== 404 && s !== 408 && s !== 429) {
    return new AppError(502, `The caller name provider refused the lookup (HTTP ${s}). Check the lookup provider's credentials.`);
  }
  return new ServiceUnavailableError(LOOKUP_RETRY_AFTER_S, 'The caller name lookup is unavailable right now. Please try again in a moment.');
}

/**
 * One provider request for `e164`, stored in the cache; concurrent callers in this process share
 * it (`initiator` false for those who joined). Nothing is stored when the provider fails.
 * @throws AppError 502/503 (see {@link providerFailure}).
 */
async function askProvider(ctx: AppContext, e164: string): Promise<{ row: CallerIdLookupRow; initiator: boolean }> {
  let pending = inflight.get(ctx.db);
  if (!pending) inflight.set(ctx.db, (pending = new Map()));
  const joined = pending.get(e164);
  if (joined) return { row: await joined, initiator: false };
  const port = lookupPort(ctx);
  const request = (async () => {
    const answer = await port.lookup(e164);
    const now = new Date();
    const ttlS = answer.found ? ctx.config.lookup.cacheTtlS : ctx.config.lookup.negativeTtlS;
    return callerIdRepository.upsert(ctx.db, {
      e164,
      found: answer.found,
      caller_name: answer.callerName,
      caller_type: answer.callerType,
      line_type: answer.lineType,
      carrier_name: answer.carrierName,
      country_code: answer.countryCode,
      provider: port.name,
      looked_up_at: now,
      expires_at: new Date(now.getTime() + ttlS * 1000),
    });
  })();
  pending.set(e164, request);
  try {
    return { row: await request, initiator: true };
  } catch (e) {
    if (e instanceof LookupUnavailableError) {
      ctx.log.warn({ err: e, e164 }, 'caller name lookup failed');
      throw providerFailure(e);
    }
    throw e;
  } finally {
    if (pending.get(e164) === request) pending.delete(e164);
  }
}

/**
 * The enhanced caller ID of an outside party `party` (as stored on a call or conversation) for a
 * company. A party that is not a valid phone number (withheld, anonymous) is `not_found` without a
 * lookup. A fresh cached answer is used (`source: cache`); otherwise, with `lookupWhenMissing`,
 * the provider is asked (`source: provider`), else the answer is `missing`. Emits
 * `caller-id.looked-up` for every cached or provider answer. Access is the caller's to check.
 * @throws AppError 502/503 when the provider fails (nothing cached).
 */
export async function callerIdOfParty(
  ctx: AppContext,
  companyId: number,
  party: string,
  opts: { lookupWhenMissing: boolean; contact: KnownContact },
): Promise<EnhancedCallerId> {
  const e164 = parsePhone(party);
  if (!e164) return toEnhancedCallerId(party, undefined, opts.contact, null, true);
  const cached = await callerIdRepository.find(ctx.db, e164);
  let row: CallerIdLookupRow | undefined;
  let source: 'provider' | 'cache';
  if (cached && cached.expires_at.getTime() > Date.now()) {
    row = cached;
    source = 'cache';
  } else if (opts.lookupWhenMissing) {
    const asked = await askProvider(ctx, e164);
    row = asked.row;
    source = asked.initiator ? 'provider' : 'cache';
  } else {
    return toEnhancedCallerId(e164, undefined, opts.contact, null);
  }
  await events.publish(ctx, 'caller-id.looked-up', { companyId, e164, source, found: row.found });
  return toEnhancedCallerId(e164, row, opts.contact, source);
}

/**
 * `POST /company/{companyId}/trestle/lookup`: a person's manual check of `number` (any form
 * `parsePhone` reads, US by default); always answers (cache, else provider). `contactOf` resolves
 * the company's contact for the E.164 number (the caller's module knows contacts).
 * @throws ValidationError 422 (`number` is not a valid phone number); AppError 502/503 (provider).
 */
export async function lookupNumberForCompany(
  ctx: AppContext,
  companyId: number,
  number: string,
  contactOf: (e164: string) => Promise<KnownContact>,
): Promise<EnhancedCallerId> {
  const e164 = parsePhone(number);
  if (!e164) throw fieldError('number', 'The number is not a valid phone number.');
  return callerIdOfParty(ctx, companyId, e164, { lookupWhenMissing: true, contact: await contactOf(e164) });
}

/**
 * Cached answers for many parties at once (lists: the inbox, activity), without provider
 * requests or events: a map from the party as given to its fresh row. Parties that are not valid
 * numbers, or have no fresh answer, are absent.
 */
export async function cachedCallerIds(ctx: AppContext, parties: readonly string[]): Promise<Map<string, CallerIdLookupRow>> {
  const byE164 = new Map<string, string[]>();
  for (const p of new Set(parties)) {
    const e164 = parsePhone(p);
    if (e164) byE164.set(e164, [...(byE164.get(e164) ?? []), p]);
  }
  const rows = await callerIdRepository.findFresh(ctx.db, [...byE164.keys()], new Date());
  const out = new Map<string, CallerIdLookupRow>();
  for (const r of rows) for (const p of byE164.get(r.e164) ?? []) out.set(p, r);
  return out;
}

/** A list item's `enhancedCallerId` from {@link cachedCallerIds}: null when the party has no fresh answer. */
export function listCallerId(cached: Map<string, CallerIdLookupRow>, party: string, contact: KnownContact): EnhancedCallerId | null {
  const row = cached.get(party);
  return row ? toEnhancedCallerId(row.e164, row, contact, 'cache') : null;
}

/** Whether `companyId` looks its inbound callers up automatically (docs/caller-id.md "Automatic lookups"; default true). */
export async function autoLookupEnabled(ctx: AppContext, companyId: number): Promise<boolean> {
  return callerIdRepository.autoLookup(ctx.db, companyId);
}

/** `GET /companies/{companyId}/caller-id/settings`. @throws 403 (not a member). */
export async function getCallerIdSettings(ctx: AppContext, userId: number, companyId: number): Promise<CallerIdSettings> {
  await assertCompanyAccess(ctx, userId, companyId);
  return { autoLookup: await callerIdRepository.autoLookup(ctx.db, companyId) };
}

/** `PUT /companies/{companyId}/caller-id/settings`. @throws 403 (not an owner or administrator). */
export async function updateCallerIdSettings(ctx: AppContext, userId: number, companyId: number, input: CallerIdSettings): Promise<CallerIdSettings> {
  await assertCompanyAccess(ctx, userId, companyId, rolesFor('settings.manage'));
  await callerIdRepository.setAutoLookup(ctx.db, companyId, input.autoLookup);
  return { autoLookup: input.autoLookup };
}
