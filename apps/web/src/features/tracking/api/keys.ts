/** Query keys of the call tracking screens: every one under `['company', companyId, 'tracking', ...]`. */
import { companyKey } from '../../../lib/query-client';

/** Prefix of every tracking query of a company (pools, sources, script, feed, timelines, reports). */
export function trackingKey(companyId: number | null, ...rest: unknown[]): unknown[] {
  return companyKey(companyId, 'tracking', ...rest);
}
