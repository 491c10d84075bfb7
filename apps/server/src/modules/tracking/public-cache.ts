/**
 * The public tracking path's per-process cache (docs/tracking.md "Performance"): a company key →
 * its settings and active pools (rules, targets, timings, fallback number), so a number request
 * costs one statement. Entries live `PUBLIC_CACHE_TTL_MS` (5 s): a change made on another node is
 * seen within that time (the first request after it may still get the old entry: an expired known
 * company is answered from the old entry while it reloads, so no visitor waits for the reload); a
 * change on this node drops the entry at once. Unknown keys are cached
 * too (as null), so a flood of bad keys does not reach the database more than once per 5 s each.
 */
import type { AppContext } from '../../context.js';
import type { StoredSourceRules } from '../../platform/db/schema-tracking.js';
import { getCompanyNumbers } from '../numbers/numbers.service.js';
import { trackingRepository } from './tracking.repository.js';

export const PUBLIC_CACHE_TTL_MS = 5_000;
/** Up to this age an expired known company is still answered while its reload runs (the request does not wait for it). */
const PUBLIC_CACHE_STALE_MS = 60_000;
const MAX_ENTRIES = 10_000;

/** A pool as the public path uses it. */
export type PublicPool = {
  id: number;
  name: string;
  rules: StoredSourceRules;
  targets: string[];
  sessionMinutes: number;
  coolDownMinutes: number;
  /** The fallback number (E.164), null: the targets stay as written. */
  fallback: string | null;
};

/** A company as the public path sees it. */
export type PublicCompany = {
  companyId: number;
  key: string;
  waitForConsent: boolean;
  firstPartyHost: string | null;
  pools: PublicPool[];
};

type Entry = { at: number; value: PublicCompany | null; pending?: Promise<PublicCompany | null> };
const caches = new WeakMap<AppContext, Map<string, Entry>>();

function cacheOf(ctx: AppContext): Map<string, Entry> {
  let c = caches.get(ctx);
  if (!c) caches.set(ctx, (c = new Map()));
  return c;
}

async function load(ctx: AppContext, key: string): Promise<PublicCompany | null> {
  const s = await trackingRepository.settingsByKey(ctx.db, key);
  if (!s) return null;
  const pools = await trackingRepository.activePools(ctx.db, s.company_id);
  const fallbacks = new Map(
    (
      await getCompanyNumbers(
        ctx,
        s.company_id,
        pools.map((p) => p.fallback_number_id).filter((x): x is number => x !== null),
      )
    ).map((n) => [n.id, n.number]),
  );
  return {
    companyId: s.company_id,
    key: s.key,
    waitForConsent: s.wait_for_consent,
    firstPartyHost: s.first_party_host,
    pools: pools.map((p) => ({
      id: p.id,
      name: p.name,
      rules: p.source_rules,
      targets: p.target_numbers,
      sessionMinutes: p.session_duration_minutes,
      coolDownMinutes: p.cool_down_minutes,
      fallback: p.fallback_number_id !== null ? (fallbacks.get(p.fallback_number_id) ?? null) : null,
    })),
  };
}

/** The company of a public key with its active pools (cached 5 s), or null for an unknown key. */
export async function publicCompany(ctx: AppContext, key: string): Promise<PublicCompany | null> {
  const cache = cacheOf(ctx);
  const hit = cache.get(key);
  const now = Date.now();
  if (hit && now - hit.at < PUBLIC_CACHE_TTL_MS) return hit.pending ?? hit.value;
  if (hit?.value && !hit.pending && now - hit.at < PUBLIC_CACHE_STALE_MS) return refreshInBackground(ctx, cache, key, hit.value);
  const pending = load(ctx, key);
  if (cache.size >= MAX_ENTRIES) cache.clear();
  cache.set(key, { at: now, value: hit?.value ?? null, pending });
  try {
    const value = await pending;
    cache.set(key, { at: Date.now(), value });
    return value;
  } catch (e) {
    cache.delete(key);
    throw e;
  }
}

/**
 * Answers `value` (expired, under PUBLIC_CACHE_STALE_MS old) at once and reloads the entry meanwhile;
 * requests during the reload get `value` too. A reload that fails drops the entry (the next request
 * loads and waits); one that finishes after the entry was dropped (a change on this node) is not kept.
 */
function refreshInBackground(ctx: AppContext, cache: Map<string, Entry>, key: string, value: PublicCompany): PublicCompany {
  const marker: Entry = { at: Date.now(), value };
  cache.set(key, marker);
  load(ctx, key).then(
    (fresh) => {
      if (cache.get(key) === marker) cache.set(key, { at: Date.now(), value: fresh });
    },
    (e: unknown) => {
      if (cache.get(key) === marker) cache.delete(key);
      ctx.log.warn({ err: e }, 'tracking: could not reload a public key');
    },
  );
  return value;
}

/** Drops a key's entry on this node (after a change of its settings or pools). */
export function invalidatePublicCache(ctx: AppContext, key: string): void {
  cacheOf(ctx).delete(key);
}
