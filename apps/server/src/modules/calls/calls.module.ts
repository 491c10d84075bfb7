/** The calls module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { AGENT_ROLES } from '../companies/companies.service.js';
import { registerInAppAnswerHandler } from '../in-app-calling/in-app-calling.service.js';
import { registerNoteSubject } from '../notes/notes.service.js';
import { markAnsweredInApp } from './browser-calls.js';
import { callForUser } from './call-records.js';
import { registerCallsJobs } from './calls.jobs.js';
import { registerCallsRoutes } from './calls.routes.js';
import { registerVoiceWebhooks } from './calls.webhooks.js';

/**
 * Registers what lower modules ask the calls side synchronously (docs/architecture.md "Module map"):
 * in-app calling's answer (the call becomes 12 Connected in the answer's transaction), notes on a
 * call (the call's company for an agent; `call updated` with `note: true` once saved).
 */
function setupCalls(): void {
  registerInAppAnswerHandler(markAnsweredInApp);
  registerNoteSubject('call', async (ctx, userId, callId) => {
    const call = await callForUser(ctx, userId, callId, AGENT_ROLES);
    return { companyId: call.company_id, onSaved: () => ctx.realtime.send(`company.${call.company_id}`, 'call updated', { id: call.id, note: true }) };
  });
}

export const callsModule: ModuleEntry[] = [
  {
    name: 'calls',
    routes: async (app, ctx) => {
      await registerCallsRoutes(app, ctx);
      await registerVoiceWebhooks(app, ctx);
    },
    jobs: registerCallsJobs,
    setup: setupCalls,
  },
];
