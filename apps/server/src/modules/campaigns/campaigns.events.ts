/**
 * The campaigns module's domain events (platform/events/campaign-events.ts): `campaign.finished` when a
 * campaign reaches `sent` or `failed` (spec 001 §4 states). Emitted after the state change committed, by
 * whoever won the conditional transition (one worker), so a campaign finishes once.
 */
import type { AppContext } from '../../context.js';
import { events } from '../../platform/events/index.js';
import { refreshCampaignCounters } from './campaigns.counters.js';
import type { CampaignRow } from './campaigns.repository.js';

/**
 * Recomputes the finished campaign's counters (publishing `campaigns updated` to the app), then emits
 * `campaign.finished` with them. `row`: the campaign as the winning transition returned it (state `sent` or
 * `failed`); any other state emits nothing. Errors of subscribers are logged by the bus, never thrown.
 */
export async function announceCampaignFinished(ctx: AppContext, row: CampaignRow): Promise<void> {
  const c = (await refreshCampaignCounters(ctx, row.id)) ?? row;
  if (c.state !== 'sent' && c.state !== 'failed') return;
  await events.publish(ctx, 'campaign.finished', {
    companyId: c.company_id,
    campaignId: c.id,
    title: c.title,
    state: c.state,
    finishedAt: (c.finished_at ?? new Date()).toISOString(),
    recipientsCount: c.recipients_count,
    sentCount: c.sent_count,
    deliveredCount: c.delivered_count,
    undeliveredCount: c.undelivered_count,
    respondedCount: c.responded_count,
    unsubscriberCount: c.unsubscriber_count,
  });
}
