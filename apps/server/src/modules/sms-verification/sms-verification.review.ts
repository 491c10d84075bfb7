/**
 * The review job `sms-verification.review` {campaignId} (docs/sms-verification.md "Review"): asks the registry about
 * the campaign's pending brand and sides and applies what it answers (compare-and-set from `pending`, one history
 * row per change, `sms verification updated` after commit), assigns the numbers of a newly approved side, and comes
 * back after the poll delay while anything is still pending. Idempotent: a second run finds nothing pending to move.
 * A provider webhook (signed) or the ticker only enqueue this job sooner.
 */
import type { AppContext } from '../../context.js';
import { smsRegistry, type BrandReview } from '../../platform/registration/index.js';
import { smsVerificationRepository as repo } from './sms-verification.repository.js';
import { assignApproved, brandSubmission, campaignSubmission, pollDelayMs, publishChange, SMS_REVIEW_JOB } from './sms-verification.service.js';

/** Reviews one campaign now. @returns whether anything is still pending. */
export async function reviewCampaign(ctx: AppContext, campaignId: number): Promise<boolean> {
  const registry = smsRegistry(ctx.config);
  let c = await repo.campaign(ctx.db, campaignId);
  if (!c) return false;
  let brand = await repo.brand(ctx.db, c.brand_id);
  if (!brand) return false;
  const changes: Array<{ subject: 'brand' | 'local' | 'toll_free'; status: string }> = [];

  let brandReview: BrandReview =
    brand.status === 'verified'
      ? { status: 'verified', vettingScore: brand.vetting_score ?? 1 }
      : brand.status === 'unverified'
        ? { status: 'unverified', reason: brand.status_reason ?? '' }
        : { status: 'pending' };
  if (brand.status === 'pending' && brand.registry_id && brand.submitted_at) {
    brandReview = await registry.reviewBrand({ registryId: brand.registry_id, submittedAt: brand.submitted_at }, brandSubmission(brand));
    if (brandReview.status !== 'pending') {
      const review = brandReview;
      const moved = await ctx.db.transaction().execute(async (tx) => {
        const row = await repo.transitionBrand(tx, brand!.id, ['pending'], {
          status: review.status,
          vetting_score: review.status === 'verified' ? review.vettingScore : null,
          status_reason: review.status === 'unverified' ? review.reason : null,
        });
        if (row)
          await repo.addHistory(tx, {
            company_id: row.company_id,
            brand_id: row.id,
            campaign_id: null,
            subject: 'brand',
            from_status: 'pending',
            to_status: review.status,
            reason: review.status === 'unverified' ? review.reason : null,
            vetting_score: review.status === 'verified' ? review.vettingScore : null,
            source: `registry:${registry.kind}`,
          });
        return row;
      });
      if (moved) {
        brand = moved;
        changes.push({ subject: 'brand', status: moved.status });
      }
    }
  }

  for (const side of ['local', 'toll_free'] as const) {
    const status = side === 'local' ? c.local_status : c.toll_free_status;
    const registryId = side === 'local' ? c.local_registry_id : c.toll_free_registry_id;
    const submittedAt = side === 'local' ? c.local_submitted_at : c.toll_free_submitted_at;
    if (status !== 'pending' || !registryId || !submittedAt) continue;
    const review = await registry.reviewCampaign({ registryId, submittedAt }, campaignSubmission(c, brand, side, []), brandReview);
    if (review.status === 'pending') continue;
    const reason = review.status === 'rejected' ? review.reason : null;
    const moved = await ctx.db.transaction().execute(async (tx) => {
      const patch = side === 'local' ? { local_status: review.status, local_reason: reason } : { toll_free_status: review.status, toll_free_reason: reason };
      const row = await repo.transitionSide(tx, c!.id, side, ['pending'], patch);
      if (row)
        await repo.addHistory(tx, {
          company_id: row.company_id,
          brand_id: row.brand_id,
          campaign_id: row.id,
          subject: side,
          from_status: 'pending',
          to_status: review.status,
          reason,
          vetting_score: null,
          source: `registry:${registry.kind}`,
        });
      return row;
    });
    if (moved) {
      c = moved;
      changes.push({ subject: side, status: review.status });
    }
  }
  if (changes.some((ch) => ch.status === 'approved')) await assignApproved(ctx, c);
  for (const ch of changes) publishChange(ctx, { companyId: c.company_id, campaignId: c.id, brandId: c.brand_id, subject: ch.subject, status: ch.status });
  return brand.status === 'pending' || c.local_status === 'pending' || c.toll_free_status === 'pending';
}

/** The job handler: reviews, then enqueues itself again after the poll delay while anything is pending. */
export async function runReviewJob(ctx: AppContext, data: { campaignId: number }): Promise<void> {
  const pending = await reviewCampaign(ctx, data.campaignId);
  if (pending) await enqueueReview(ctx, data.campaignId, pollDelayMs(ctx));
}

/** Enqueues a review of the campaign after `delayMs` (one queued review per campaign and time slot). */
export async function enqueueReview(ctx: AppContext, campaignId: number, delayMs = 0): Promise<void> {
  const at = Date.now() + delayMs;
  await ctx.queue.enqueue(SMS_REVIEW_JOB, { campaignId }, { startAfter: new Date(at), singletonKey: `sms-review-${campaignId}-${Math.floor(at / 1000)}` });
}

/** The ticker's pass: a review for every campaign with something pending (recovers a chain lost with a worker). */
export async function reviewAllPending(ctx: AppContext): Promise<number> {
  const ids = await repo.pendingCampaignIds(ctx.db);
  for (const id of ids) await enqueueReview(ctx, id);
  return ids.length;
}

/** The campaign (or the campaigns of the brand) a provider webhook names, to review now. */
export async function campaignsForRegistryId(ctx: AppContext, registryId: string, subject: 'brand' | 'campaign'): Promise<number[]> {
  if (subject === 'campaign') {
    const c = await repo.campaignByRegistryId(ctx.db, registryId);
    return c ? [c.id] : [];
  }
  const b = await repo.brandByRegistryId(ctx.db, registryId);
  return b ? (await repo.campaignsOfBrand(ctx.db, b.id)).map((c) => c.id) : [];
}
