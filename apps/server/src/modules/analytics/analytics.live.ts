/**
 * Freshness of analytics (docs/analytics.md "Cache lifetimes" and "Live"): the answers cache (dashboard
 * 15 s, spec 002 §9) keyed per company and dropped as soon as a company's figures change, and the
 * debounced `analytics updated` event on `company.{companyId}` after facts changed, so an open
 * dashboard refetches within seconds.
 *
 * The cache is per process: another node's cache may answer up to its lifetime late (events are
 * in-process too).
 */
import type { AppContext } from '../../context.js';

/** Debounce of `analytics updated` per company (ms): a burst of calls sends one event a second. */
export const LIVE_DEBOUNCE_MS = 1_000;

type Entry = { at: number; value: unknown };
type State = { cache: Map<number, Map<string, Entry>>; timers: Map<number, NodeJS.Timeout> };
const states = new WeakMap<AppContext, State>();

function state(ctx: AppContext): State {
  let s = states.get(ctx);
  if (!s) states.set(ctx, (s = { cache: new Map(), timers: new Map() }));
  return s;
}

/**
 * The cached answer of `key` for the companies it covers, or a fresh one from `load` (kept `ttlMs`).
 * Dropped when any of `companyIds` changes.
 */
export async function cached<T>(ctx: AppContext, companyIds: readonly number[], key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
  // ANALYTICS_NO_CACHE=1 (bench/analytics): every request computes its answer.
  if (ttlMs <= 0 || process.env.ANALYTICS_NO_CACHE === '1') return load();
  const s = state(ctx);
  const owner = companyIds[0]!;
  const fullKey = `${[...companyIds].sort((a, b) => a - b).join(',')}|${key}`;
  const hit = s.cache.get(owner)?.get(fullKey);
  if (hit && Date.now() - hit.at < ttlMs) return hit.value as T;
  const value = await load();
  if (s.cache.size > 5_000) s.cache.clear(); // bounded: many companies
  const perCompany = s.cache.get(owner) ?? new Map<string, Entry>();
  if (perCompany.size > 200) perCompany.clear(); // bounded: many different filters of one company
  perCompany.set(fullKey, { at: Date.now(), value });
  for (const id of companyIds) {
    if (!s.cache.has(id)) s.cache.set(id, new Map());
  }
  s.cache.set(owner, perCompany);
  // Multi-company answers are also dropped when another of their companies changes (linked below).
  for (const id of companyIds) if (id !== owner) s.cache.get(id)!.set(fullKey, { at: 0, value: owner });
  return value;
}

/** Drops the companies' cached answers and sends `analytics updated` to each (debounced per company). */
export function markCompaniesChanged(ctx: AppContext, companyIds: readonly number[]): void {
  const s = state(ctx);
  for (const id of companyIds) {
    const entries = s.cache.get(id);
    if (entries) {
      for (const [key, e] of entries) {
        // A link from a multi-company answer: drop it at its owner too.
        if (e.at === 0 && typeof e.value === 'number') s.cache.get(e.value)?.delete(key);
      }
      s.cache.delete(id);
    }
    if (s.timers.has(id)) continue;
    const timer = setTimeout(() => {
      s.timers.delete(id);
      ctx.realtime.send(`company.${id}`, 'analytics updated', { companyId: id, at: new Date().toISOString() });
    }, LIVE_DEBOUNCE_MS);
    timer.unref?.();
    s.timers.set(id, timer);
  }
}
