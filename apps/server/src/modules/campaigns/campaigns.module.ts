/** The campaigns module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerCampaignReactions } from './campaigns.counters.js';
import { registerCampaignJobs } from './campaigns.jobs.js';
import { registerCampaignRoutes } from './campaigns.routes.js';

export const campaignsModule: ModuleEntry[] = [
  { name: 'campaigns', routes: registerCampaignRoutes, jobs: registerCampaignJobs, setup: registerCampaignReactions },
];
