/** The messaging module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerMessagingJobs } from './messaging.jobs.js';
import { registerMessagingRoutes } from './messaging.routes.js';
import { registerMessageEnhancedCallerIdRoutes } from './enhanced-caller-id.routes.js';

export const messagingModule: ModuleEntry[] = [
  {
    name: 'messaging',
    routes: async (app, ctx) => {
      await registerMessagingRoutes(app, ctx);
      await registerMessageEnhancedCallerIdRoutes(app, ctx);
    },
    jobs: registerMessagingJobs,
  },
];
