/** The calls module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerBlocklistRoutes } from '../blocklist/blocklist.routes.js';
import { registerNumberOfCompanyCheck } from '../blocklist/blocklist.service.js';
import { getCompanyNumber } from '../numbers/numbers.service.js';
import { registerCallsJobs } from './calls.jobs.js';
import { registerCallsRoutes } from './calls.routes.js';
import { registerVoiceWebhooks } from './calls.webhooks.js';

/** The blocklist (below numbers) asks the numbers service whether a block's number is the company's. */
function setupCalls(): void {
  registerNumberOfCompanyCheck(async (ctx, companyId, numberId) => { await getCompanyNumber(ctx, companyId, numberId); });
}

export const callsModule: ModuleEntry[] = [
  { name: 'calls', routes: async (app, ctx) => { await registerCallsRoutes(app, ctx); await registerVoiceWebhooks(app, ctx); }, jobs: registerCallsJobs, setup: setupCalls },
  // The blocklist's routes until the registry lists `blocklistModule` itself (then drop this entry).
  { name: 'blocklist', routes: registerBlocklistRoutes },
];
