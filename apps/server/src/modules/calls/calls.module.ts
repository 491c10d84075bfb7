/** The calls module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerCallsJobs } from './calls.jobs.js';
import { registerCallsRoutes } from './calls.routes.js';
import { registerVoiceWebhooks } from './calls.webhooks.js';

export const callsModule: ModuleEntry[] = [
  { name: 'calls', routes: async (app, ctx) => { await registerCallsRoutes(app, ctx); await registerVoiceWebhooks(app, ctx); }, jobs: registerCallsJobs },
];
