/**
 * The sms-verification module's entry. 10DLC SMS verification: brands, campaigns and their numbers through the
 * registry port (spec 002 "SMS verification"; docs/sms-verification.md). See `platform/module.ts`.
 * - routes: the SMS verification calls, the registry webhook, the review ticker;
 * - jobs: `sms-verification.review` (idempotent);
 * - setup: the numbers module's view source (`sms_verification.status` of every number).
 */
import type { AppContext } from '../../context.js';
import type { App } from '../../platform/http/app-type.js';
import type { ModuleEntry } from '../../platform/module.js';
import { reviewAllPending, runReviewJob } from './sms-verification.review.js';
import { registerSmsVerificationRoutes } from './sms-verification.routes.js';
import { numberStatuses, pollDelayMs, SMS_REVIEW_JOB } from './sms-verification.service.js';

function jobs(ctx: AppContext): void {
  ctx.queue.define<{ campaignId: number }>(SMS_REVIEW_JOB, async (job) => runReviewJob(ctx, job), 2);
}

/** Every poll delay, the worker enqueues a review of every pending campaign (a chain lost with a dead worker resumes). */
function registerTicker(app: App, ctx: AppContext): void {
  if (!ctx.config.runWorkers) return;
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    const every = Math.max(pollDelayMs(ctx) * 10, 60_000);
    timer = setInterval(() => {
      reviewAllPending(ctx).catch((e: unknown) => ctx.log.warn({ err: e }, 'sms-verification: could not enqueue the reviews'));
    }, every);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}

async function routes(app: App, ctx: AppContext): Promise<void> {
  await registerSmsVerificationRoutes(app, ctx);
  registerTicker(app, ctx);
}

function setup(ctx: AppContext): void {
  ctx.hooks.provide('numberView', async (c, _userId, _companyId, numberIds) => {
    const statuses = await numberStatuses(c, numberIds);
    return new Map([...statuses].map(([id, status]) => [id, { sms_verification: status }]));
  });
}

export const smsVerificationModule: ModuleEntry[] = [{ name: 'sms-verification', routes, jobs, setup }];
