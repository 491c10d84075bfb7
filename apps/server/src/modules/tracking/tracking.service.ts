/**
 * The tracking module's published functions for other modules (spec 001 "Activity": the
 * `trackingmatch` kind and the `dniSessionId` filter; spec 002 "DNI"; docs/tracking.md). Read-only;
 * callers have checked the tenant. The module's own use cases live in files named for what they do:
 * - `pools.ts`: pools, static sources, settings (the DNI screens' CRUD);
 * - `assignment.ts`: the public script's session, page view and heartbeat (number assignment);
 * - `attribution.ts`: attributing inbound calls and grouping leads (domain-event reactions);
 * - `leads.ts`: the leads list and a lead's calls, texts and visits (`leads.repository.ts` holds their SQL);
 * - `script.ts`: the tracking script, its snippet and `verifyScript`;
 * - `timeline.ts`: session timelines, the real-time feed, a call's attribution;
 * - `reports.ts`: DNI reports; `bulk-attributes.ts`: the bulk attribute update;
 * - `demo-site.ts`: the sandbox's demo website.
 */
import type { TrafficSource } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { trackingRepository } from './tracking.repository.js';

/** A call matched to a visitor session, as the activity feed shows it (`trackingmatch`). */
export type TrackingMatchActivity = {
  /** The call's start (UTC). */
  at: Date;
  callId: number;
  /** The DNI session (UUID). */
  sessionId: string;
  poolId: number | null;
  poolName: string | null;
  trafficSource: TrafficSource | null;
  source: string | null;
  medium: string | null;
  campaign: string | null;
  keyword: string | null;
  /** The session's landing page (without its query). */
  landingPage: string | null;
  /** The dialled tracking number (E.164). */
  number: string;
};

/**
 * The company's calls matched to a visitor session (spec 001 activity kind `trackingmatch`),
 * newest first; `sessionId` narrows to one session (the activity filter `dniSessionId`).
 * `offset` (default 0) pages. No access check: the caller checked the tenant.
 * @returns the page of items and the total count.
 */
export async function listTrackingMatchActivity(
  ctx: AppContext,
  companyId: number,
  opts: { limit: number; offset?: number; sessionId?: string },
): Promise<{ items: TrackingMatchActivity[]; total: number }> {
  if (opts.sessionId !== undefined && !isUuid(opts.sessionId)) return { items: [], total: 0 };
  const { rows, total } = await trackingRepository.trackingMatches(ctx.db, companyId, {
    limit: opts.limit,
    offset: opts.offset ?? 0,
    sessionId: opts.sessionId,
  });
  return {
    total,
    items: rows.map((r) => ({
      at: r.started_at,
      callId: r.call_id,
      sessionId: r.session_id,
      poolId: r.pool_id,
      poolName: r.pool_name,
      trafficSource: r.traffic_source as TrafficSource | null,
      source: r.source,
      medium: r.medium,
      campaign: r.campaign,
      keyword: r.keyword,
      landingPage: r.landing_page,
      number: r.number,
    })),
  };
}

/** Ids of the company's calls attributed to the session (oldest first); [] for an unknown or malformed id. */
export async function callIdsOfSession(ctx: AppContext, companyId: number, sessionId: string): Promise<number[]> {
  if (!isUuid(sessionId)) return [];
  return trackingRepository.callIdsOfSession(ctx.db, companyId, sessionId);
}

/** Names of the company's pools among `poolIds` (ids of other companies are absent). */
export async function poolNamesOf(ctx: AppContext, companyId: number, poolIds: number[]): Promise<Map<number, string>> {
  const rows = await trackingRepository.poolNames(ctx.db, companyId, [...new Set(poolIds)]);
  return new Map(rows.map((r) => [r.id, r.name]));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Whether `text` is a UUID (session and visitor ids). */
export function isUuid(text: string): boolean {
  return UUID.test(text);
}
