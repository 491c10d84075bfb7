/** The activity module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerActivityRoutes } from './activity.routes.js';

export const activityModule: ModuleEntry[] = [{ name: 'activity', routes: registerActivityRoutes }];
