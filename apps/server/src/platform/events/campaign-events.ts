/**
 * Domain events of the campaigns family (emitted by modules/campaigns after commit; others only
 * subscribe, e.g. the webhooks module's `campaign.finished` deliveries, docs/api-and-webhooks.md
 * "Event types"). Each entry: event name → zod schema of its payload. See `platform/events/index.ts`
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
} as const;
