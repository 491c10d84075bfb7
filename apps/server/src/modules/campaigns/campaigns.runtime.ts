/**
 * What every part of the campaigns module shares: the job and live-event names, the tunables and
 * injectable clock (`campaignRuntime`), and the recipient ledger's state ranking (spec 001 §4
 * states; the ledger's state machine is described in `campaigns.repository.ts`).
 */
import type { AppContext } from '../../context.js';

/** pg-boss job that resolves a campaign's recipients and starts dispatch (`campaigns.dispatch.ts`). */
export const CAMPAIGN_START_JOB = 'campaigns.start';
/** pg-boss job that sends one chunk of the recipient ledger (`campaigns.dispatch.ts`). */
export const CAMPAIGN_DISPATCH_JOB = 'campaigns.dispatch';
/** Live event name on `campaigns.{companyId}`. */
export const CAMPAIGNS_UPDATED = 'campaigns updated';

/**
 * Tunables and the injectable clock (tests replace `now`). Units: ms, messages/s, rows.
 * `defaultRatePerSecond` applies when neither the campaign nor the company sets a rate; a rate of
 * 0 means unlimited (sandbox bench).
 */
export const campaignRuntime = {
  now: (): Date => new Date(),
  claimLeaseMs: 120_000,
  chunkSize: 5_000,
  batchSize: 500,
  sliceMs: 25_000,
  defaultRatePerSecond: 1,
  publishIntervalMs: 250,
  /** Concurrent carrier calls when the carrier has no batch send. */
  sendConcurrency: 16,
  /** Replies are attributed to a campaign message sent within this window. */
  replyWindowMs: 30 * 24 * 3600_000,
  /**
   * Fault injection for the crash tests only (null in production): awaited after a batch is
   * claimed and after it was handed to the carrier, before its outcome is recorded.
   */
  faultHook: null as null | ((ctx: AppContext, stage: 'claimed' | 'sent') => Promise<void> | void),
  /** Seconds before a failed dispatch job is retried (pg-boss `retryDelay`, with the queue's backoff). */
  dispatchRetryDelayS: 2,
};

/**
 * Rank of a recipient ledger state: a delivery update only moves a recipient forward (pending 0 <
 * sending/queued 1 < sent/unknown 2 < delivered/undelivered/failed 3 < responded 4).
 */
export const STATE_RANK: Record<string, number> = {
  pending: 0,
  sending: 1,
  queued: 1,
  sent: 2,
  unknown: 2,
  delivered: 3,
  undelivered: 3,
  failed: 3,
  responded: 4,
};

/** ISO 8601 string of a date, null for null. */
export const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);
