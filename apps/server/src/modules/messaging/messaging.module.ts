/** The messaging module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerMessagingJobs } from './messaging.jobs.js';
import { registerMessagingRoutes } from './messaging.routes.js';

export const messagingModule: ModuleEntry[] = [{ name: 'messaging', routes: registerMessagingRoutes, jobs: registerMessagingJobs }];
