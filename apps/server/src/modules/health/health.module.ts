/** The health module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerHealthRoutes } from './health.routes.js';

export const healthModule: ModuleEntry[] = [{ name: 'health', routes: registerHealthRoutes }];
