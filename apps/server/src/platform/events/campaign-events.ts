/**
 * Domain events of the campaigns family (emitted by modules/campaigns after commit; others only
 * subscribe, e.g. the webhooks module's `campaign.finished` deliveries, docs/api-and-webhooks.md
 * "Event types", and the alerts module's delivery monitor on `campaign.delivery-outcomes`, docs/alerts.md). Each entry: event name → zod schema of its payload. See `platform/events/index.ts`
 * and docs/campaigns.md "Domain events".
 */
import { z } from 'zod';

const id = z.number().int();
const count = z.number().int().min(0);

/** The campaigns family: event name → payload schema. */
export const CAMPAIGN_EVENTS = {
  /**
   * A campaign ended (spec 001 §4 states): `sent` when no recipient is left to send, `failed` when it could not send
   * (its number is gone). Emitted once per campaign (the state change is a conditional update only one worker wins).
   * Counters: the recipient ledger when it ended (spec 001 §3 Campaign counters). `finishedAt`: ISO, UTC.
   */
  'campaign.finished': z.object({
    companyId: id,
    campaignId: id,
    title: z.string(),
    state: z.enum(['sent', 'failed']),
    finishedAt: z.string(),
    recipientsCount: count,
    sentCount: count,
    deliveredCount: count,
    undeliveredCount: count,
    respondedCount: count,
    unsubscriberCount: count,
  }),
  /**
   * Campaign messages reached a final delivery outcome (spec 001 §3 Campaign counters: delivered / undelivered):
   * `delivered`, `undelivered` or `failed` from the carrier's delivery callback (the recipient's ledger row moved to
   * it, once per row), or `failed` for messages the carrier refused at send time (one event per send batch with
   * its refused messages). `errorCode`: the carrier's error code of a failure, else null. `at`: ISO, UTC, when it
   * was recorded. At least once (a crash between commit and handler loses it; a retried batch may repeat it):
   * subscribers count rates, not exact totals.
   */
  'campaign.delivery-outcomes': z.object({
    companyId: id,
    campaignId: id,
    at: z.string(),
    outcomes: z
      .array(
        z.object({
          recipientId: id,
          state: z.enum(['delivered', 'undelivered', 'failed']),
          errorCode: z.number().int().nullable(),
        }),
      )
      .min(1),
  }),
} as const;

/** Payload of `campaign.delivery-outcomes`. */
export type CampaignDeliveryOutcomesEvent = z.infer<(typeof CAMPAIGN_EVENTS)['campaign.delivery-outcomes']>;
