/**
 * A per-process cache of each company's enabled webhook endpoints (3 s), so the domain events on the call and
 * message paths do not read the table every time. Writes through the service forget the company at once; other
 * nodes see a change within 3 s. Keyed by the app's database handle (several apps may share a process in tests).
 */
import type { EndpointRow } from './webhooks.repository.js';

const TTL_MS = 3_000;
const caches = new WeakMap<object, Map<number, { at: number; rows: EndpointRow[] }>>();

function of(scope: object): Map<number, { at: number; rows: EndpointRow[] }> {
  let c = caches.get(scope);
  if (!c) caches.set(scope, (c = new Map()));
  return c;
}

/** The cached endpoints of a company, or undefined when absent or stale. */
export function cachedEndpoints(scope: object, companyId: number): EndpointRow[] | undefined {
  const hit = of(scope).get(companyId);
  return hit && Date.now() - hit.at < TTL_MS ? hit.rows : undefined;
}
export function storeEndpoints(scope: object, companyId: number, rows: EndpointRow[]): void {
  const c = of(scope);
  if (c.size > 10_000) c.clear();
  c.set(companyId, { at: Date.now(), rows });
}
/** Forgets a company's endpoints. */
export function forgetEndpoints(scope: object, companyId: number): void {
  of(scope).delete(companyId);
}
