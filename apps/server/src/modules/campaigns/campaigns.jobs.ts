/**
 * Campaign job handlers: `campaigns.start` (resolve recipients) and `campaigns.dispatch` (send a chunk).
 * Both are resumable (platform/queue): a job active in a process that died runs again within a
 * minute; claims make each send happen once (`campaigns.dispatch.ts` "reconcileStaleClaims").
 *
 * Around both (docs/accounts.md "Account status", docs/audit.md "Jobs"):
 * - an account that is parked or deactivated sends nothing: the job does no work and comes back
 *   after `campaignJobTuning.outOfServiceRecheckS` s, so the campaign waits (its recipients stay pending)
 *   and resumes once the account is active again; deleting or pausing the campaign ends the wait;
 * - the campaign's state changes made by a job are recorded in the audit log (actor: the job, and
 *   the person who created the campaign): `sending` when it starts, `sent` or `failed` when it ends.
 */
import { CampaignDispatchJob, CampaignStartJob } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { recordJobAudit } from '../audit/audit.service.js';
import { isCompanyInService } from '../numbers/service-state.js';
import { dispatchChunk, startCampaign } from './campaigns.dispatch.js';
import { campaignsRepository as repo, type CampaignRow } from './campaigns.repository.js';
import { CAMPAIGN_DISPATCH_JOB, CAMPAIGN_START_JOB, campaignRuntime } from './campaigns.runtime.js';

/** Seconds before a campaign job of an account out of service looks again (600; tests shorten it). */
export const campaignJobTuning = { outOfServiceRecheckS: 600 };

/** States a job moves a campaign into that the audit log records. */
const AUDITED_STATES = new Set(['sending', 'sent', 'failed']);

/**
 * Runs `work` for the campaign unless its account is out of service (then re-enqueues `job` with
 * `data` after `campaignJobTuning.outOfServiceRecheckS` s and returns); afterwards records the state change
 * the work made, if any.
 */
async function guarded(ctx: AppContext, job: string, campaignId: number, data: Record<string, unknown>, work: () => Promise<void>): Promise<void> {
  const before = await repo.findById(ctx.db, campaignId);
  if (!before) return work(); // gone: the handler knows what to do with a missing campaign
  if (!(await isCompanyInService(ctx, before.company_id))) {
    if (before.state === 'queued' || before.state === 'sending') {
      ctx.log.info({ campaignId, companyId: before.company_id, job }, 'campaign job waits: the account is out of service');
      await ctx.queue.enqueue(job, data, {
        startAfter: new Date(Date.now() + campaignJobTuning.outOfServiceRecheckS * 1000),
        ...(job === CAMPAIGN_DISPATCH_JOB ? { retryDelay: campaignRuntime.dispatchRetryDelayS } : {}),
      });
    }
    return;
  }
  await work();
  const after = await repo.findById(ctx.db, campaignId);
  if (after && after.state !== before.state && AUDITED_STATES.has(after.state)) await auditState(ctx, job, after);
}

async function auditState(ctx: AppContext, job: string, c: CampaignRow): Promise<void> {
  await recordJobAudit(ctx, {
    job,
    companyId: c.company_id,
    action: c.state,
    entityType: 'campaigns',
    entityId: c.id,
    startedBy: c.user_id,
    changes: { state: c.state, started_at: c.started_at, finished_at: c.finished_at },
    outcome: c.state === 'failed' ? 'failed' : 'success',
    // Parallel dispatch chunks may both see the campaign end.
    once: true,
  });
}

/** Defines the campaign jobs on the queue (2 start workers, 4 dispatch workers per process). */
export function registerCampaignJobs(ctx: AppContext): void {
  ctx.queue.define(
    CAMPAIGN_START_JOB,
    async (data) => {
      const job = CampaignStartJob.parse(data);
      await guarded(ctx, CAMPAIGN_START_JOB, job.campaignId, job, () => startCampaign(ctx, job));
    },
    2,
    { resumable: true },
  );
  ctx.queue.define(
    CAMPAIGN_DISPATCH_JOB,
    async (data) => {
      const job = CampaignDispatchJob.parse(data);
      await guarded(ctx, CAMPAIGN_DISPATCH_JOB, job.campaignId, job, () => dispatchChunk(ctx, job));
    },
    4,
    { resumable: true },
  );
}
