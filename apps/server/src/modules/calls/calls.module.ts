/** The calls module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { AppContext } from '../../context.js';
import type { ModuleEntry } from '../../platform/module.js';
import { AGENT_ROLES } from '../companies/companies.service.js';
import { markAnsweredInApp } from './browser-calls.js';
import { registerCallLiveUpdates } from './call-changes.js';
import { callForUser, callTagUsage } from './call-records.js';
import { callsRepository } from './calls.repository.js';
import { registerCallsJobs } from './calls.jobs.js';
import { registerCallsRoutes } from './calls.routes.js';
import { registerRecordingJobs } from './recordings.js';
import { registerRecordingRoutes } from './recordings.routes.js';
import { registerOutboundCallRoutes } from './outbound-calls.routes.js';
import { registerVoiceWebhooks } from './calls.webhooks.js';
import { registerCallEnhancedCallerIdRoutes } from './enhanced-caller-id.routes.js';

/**
 * Registers what lower modules ask the calls side synchronously (docs/architecture.md "Module map"):
 * in-app calling's answer (the call becomes 12 Connected in the answer's transaction), notes on a
 * call (the call's company for an agent; `call updated` with `note: true` once saved), the tags
 * page's calls per tag, and the account-deletion probe (the company has calls; docs/accounts.md).
 */
function setupCalls(ctx: AppContext): void {
  registerCallLiveUpdates();
  ctx.hooks.provide('tagCallUsage', callTagUsage);
  ctx.hooks.provide('companyUsageProbe', (_ctx, companyId, db) => callsRepository.companyHasCalls(db, companyId), 'calls');
  ctx.hooks.provide('inAppAnswer', markAnsweredInApp);
  ctx.hooks.provide(
    'noteSubject',
    async (ctx, userId, callId) => {
      const call = await callForUser(ctx, userId, callId, AGENT_ROLES);
      return { companyId: call.company_id, onSaved: () => ctx.realtime.send(`company.${call.company_id}`, 'call updated', { id: call.id, note: true }) };
    },
    'call',
  );
}

export const callsModule: ModuleEntry[] = [
  {
    name: 'calls',
    routes: async (app, ctx) => {
      await registerCallsRoutes(app, ctx);
      await registerVoiceWebhooks(app, ctx);
      await registerRecordingRoutes(app, ctx);
      await registerOutboundCallRoutes(app, ctx);
      await registerCallEnhancedCallerIdRoutes(app, ctx);
    },
    jobs: (ctx) => {
      registerCallsJobs(ctx);
      registerRecordingJobs(ctx);
    },
    setup: setupCalls,
  },
];
