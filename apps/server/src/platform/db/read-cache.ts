/**
 * A short-lived in-process read cache for data the voice webhook reads on every call and people
 * change rarely (a number's routing, company holidays, overrides, greeting audio): docs/architecture.md
 * "The voice webhook's hot path", `bench/call-routing`.
 *
 * - One cache per database handle (`ctx.db`) and name, so several servers in one process (the
 *   integration tests) never share entries.
 * - Entries live `ttlMs` at most (a number, or a function read when an entry is stored, e.g. a long
 *   TTL only while a cross-process invalidation feed is live: platform/db/invalidation-feed.ts).
 *   The owning module's service calls `invalidate()` after every write (after commit), so this
 *   process sees a change at once; other server processes see it within `ttlMs`, or at once
 *   through the feed.
 * - A load that started before an invalidation is not stored (generation check), so a read racing
 *   with a write cannot put the old value back.
 * - `undefined` results (e.g. an unknown number) are never cached: a new number works at once.
 * - At most `maxEntries` entries; the cache is emptied when full.
 */
export class ReadCache<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number | (() => number),
    private readonly maxEntries = 50_000,
  ) {}

  /** The cached value of `key`, or `load()`'s result (stored unless undefined or invalidated meanwhile). */
  async get(key: K, load: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    const now = Date.now();
    if (hit && hit.expiresAt > now) return hit.value;
    const generation = this.generation;
    const value = await load();
    if (value !== undefined && generation === this.generation) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      const ttl = typeof this.ttlMs === 'number' ? this.ttlMs : this.ttlMs();
      this.entries.set(key, { value, expiresAt: now + ttl });
    }
    return value;
  }

  /** Drops every entry (call after a committed write of the cached data). */
  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }
}

/** Time to live of the call-flow caches (ms): how long another server process may read old routing data. */
export const CALL_FLOW_CACHE_TTL_MS = 3_000;

const caches = new WeakMap<object, Map<string, ReadCache<unknown, unknown>>>();

/** The cache `name` of the database handle `db` (create on first use). */
export function readCache<K, V>(db: object, name: string, ttlMs: number | (() => number) = CALL_FLOW_CACHE_TTL_MS): ReadCache<K, V> {
  let byName = caches.get(db);
  if (!byName) caches.set(db, (byName = new Map()));
  let cache = byName.get(name);
  if (!cache) byName.set(name, (cache = new ReadCache<unknown, unknown>(ttlMs)));
  return cache as ReadCache<K, V>;
}
