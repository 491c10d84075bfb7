/** The schedules module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerSchedulesRoutes } from './schedules.routes.js';
import { registerSchedulesHooks } from './schedules.service.js';

export const schedulesModule: ModuleEntry[] = [{ name: 'schedules', routes: registerSchedulesRoutes, setup: registerSchedulesHooks }];
