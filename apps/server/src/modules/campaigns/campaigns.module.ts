/** The campaigns module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerCampaignReactions } from './campaigns.counters.js';
import { registerCampaignJobs } from './campaigns.jobs.js';
import { registerCampaignRoutes } from './campaigns.routes.js';

/** Routes (API and delivery-status webhook), the start and dispatch jobs, and the reactions to replies (`registerCampaignReactions`). */
export const campaignsModule: ModuleEntry[] = [
  { name: 'campaigns', routes: registerCampaignRoutes, jobs: registerCampaignJobs, setup: registerCampaignReactions },
];
