/**
 * Campaign job handlers: `campaigns.start` (resolve recipients) and `campaigns.dispatch` (send a chunk).
 * Both are resumable (platform/queue): a job active in a process that died runs again within a
 * minute; claims make each send happen once (`campaigns.dispatch.ts` "reconcileStaleClaims").
 */
import { CampaignDispatchJob, CampaignStartJob } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { dispatchChunk, startCampaign } from './campaigns.dispatch.js';
import { CAMPAIGN_DISPATCH_JOB, CAMPAIGN_START_JOB } from './campaigns.runtime.js';

/** Defines the campaign jobs on the queue (2 start workers, 4 dispatch workers per process). */
export function registerCampaignJobs(ctx: AppContext): void {
  ctx.queue.define(CAMPAIGN_START_JOB, async (data) => startCampaign(ctx, CampaignStartJob.parse(data)), 2, { resumable: true });
  ctx.queue.define(CAMPAIGN_DISPATCH_JOB, async (data) => dispatchChunk(ctx, CampaignDispatchJob.parse(data)), 4, { resumable: true });
}
