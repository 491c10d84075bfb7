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
import { GroupCommit } from '../../platform/db/group-commit.js';
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

/**
 * Loads `keys` (settings and active pools: one statement; the pools' fallback numbers: one more
 * per company that has any). @returns one company per key, in order, null for an unknown key.
 */
async function loadMany(ctx: AppContext, keys: string[]): Promise<Array<PublicCompany | null>> {
  const rows = await trackingRepository.publicConfigs(ctx.db, keys);
  const companies = await Promise.all(
    rows.map(async (s): Promise<PublicCompany> => {
      const ids = s.pools.map((p) => p.fallback_number_id).filter((x): x is number => x !== null);
      const fallbacks = new Map((await getCompanyNumbers(ctx, s.company_id, ids)).map((n) => [n.id, n.number]));
      return {
        companyId: s.company_id,
        key: s.key,
        waitForConsent: s.wait_for_consent,
        firstPartyHost: s.first_party_host,
        pools: s.pools.map((p) => ({
          id: p.id,
          name: p.name,
          rules: p.source_rules,
          targets: p.target_numbers,
          sessionMinutes: p.session_duration_minutes,
          coolDownMinutes: p.cool_down_minutes,
          fallback: p.fallback_number_id !== null ? (fallbacks.get(p.fallback_number_id) ?? null) : null,
        })),
      };
    }),
  );
  const byKey = new Map(companies.map((c) => [c.key, c]));
  return keys.map((k) => byKey.get(k) ?? null);
}

async function load(ctx: AppContext, key: string): Promise<PublicCompany | null> {
  return (await loadMany(ctx, [key]))[0]!;
}

const reloaders = new WeakMap<AppContext, GroupCommit<string, PublicCompany | null>>();
/**
 * Background reloads of expired entries (nobody waits for them) gathered for up to 50 ms and read
 * in one statement (`loadMany`): with many busy companies, a reload per key every 5 s would
 * otherwise cost more statements than the visitors' own assignments.
 */
function reloader(ctx: AppContext): GroupCommit<string, PublicCompany | null> {
  let g = reloaders.get(ctx);
  if (!g) {
    g = new GroupCommit<string, PublicCompany | null>({
      maxWaitMs: 50,
      maxItems: 500,
      concurrency: 1,
      detached: true,
      owner: ctx,
      run: (keys) => loadMany(ctx, keys),
    });
    reloaders.set(ctx, g);
  }
  return g;
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
 * Answers `value` (expired, under PUBLIC_CACHE_STALE_MS old) at once and reloads the entry meanwhile
 * (`reloader`: batched with other keys' reloads);
 * requests during the reload get `value` too. A reload that fails drops the entry (the next request
 * loads and waits); one that finishes after the entry was dropped (a change on this node) is not kept.
 */
function refreshInBackground(ctx: AppContext, cache: Map<string, Entry>, key: string, value: PublicCompany): PublicCompany {
  const marker: Entry = { at: Date.now(), value };
  cache.set(key, marker);
  reloader(ctx)
    .submit(key)
    .then(
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
