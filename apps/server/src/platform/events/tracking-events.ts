/**
 * Domain events of the call-tracking family (owned by modules/tracking; others only subscribe).
 * Each entry: event name → zod schema of its payload. See `platform/events/index.ts` and
 * docs/tracking.md "Attribution".
 */
import { z } from 'zod';

const when = z.union([z.date(), z.string()]);
const id = z.number().int();
const text = z.string().nullable();

/** Where a visit or a static number's call came from (`TRAFFIC_SOURCES` of contracts/tracking.ts). */
const trafficSource = z.enum(['google_ads', 'microsoft_ads', 'meta_ads', 'organic', 'direct', 'referral', 'email', 'custom', 'static']);

/** The marketing facts of one touch. */
const touch = z.object({ trafficSource, source: text, medium: text, campaign: text, keyword: text });

/** The tracking family: event name → payload schema. */
export const TRACKING_EVENTS = {
  /**
   * An inbound call was seen for the first time and attributed (after commit). Emitted ONCE for
   * EVERY inbound call, tracked or not (untracked: poolId, sessionId, trafficSource and the touch
   * fields null). Last touch = the fields at the top level (the session or static source that the
   * call came through); first touch = the visitor's first session's touch (for a static source, the
   * same as last touch), null when unattributed.
   *
   * `isFirstContact`: no earlier call (any direction, any number of the company) from this caller's
   * number to this company, by call start time (docs/tracking.md "First contact").
   */
  'call.attributed': z.object({
    callId: id,
    companyId: id,
    startedAt: when,
    /** E.164 of the caller. */
    from: z.string(),
    /** The dialled company number. */
    numberId: id,
    isFirstContact: z.boolean(),
    /** The lead (person) the call was grouped into. */
    leadId: id.nullable(),
    /** `pool`, `static` (a static tracking number) or `none`. */
    method: z.enum(['pool', 'static', 'none']),
    poolId: id.nullable(),
    staticSourceId: id.nullable(),
    /** The DNI session (UUID) that held the dialled pool number at the call's start. */
    sessionId: z.string().nullable(),
    trafficSource: trafficSource.nullable(),
    source: text,
    medium: text,
    campaign: text,
    keyword: text,
    landingPage: text,
    referrer: text,
    gclid: text,
    gbraid: text,
    wbraid: text,
    msclkid: text,
    fbclid: text,
    firstTouch: touch.nullable(),
    /** GA4 `client_id` / `session_id` and Meta `_fbp` / `_fbc` of the session at number assignment (issue 24; absent on older events). */
    gaClientId: text.optional(),
    gaSessionId: text.optional(),
    fbp: text.optional(),
    fbc: text.optional(),
    /** When that session started (GA4 joins a call to it within 24 h). */
    sessionStartedAt: when.optional(),
  }),
  /**
   * A pool had no free number for a visitor, who got the fallback number (after commit). Once per
   * exhaustion episode: an episode ends when a number of the pool is free again at assignment time.
   */
  'tracking.pool-exhausted': z.object({
    companyId: id,
    poolId: id,
    poolName: z.string(),
    at: when,
  }),
} as const;
