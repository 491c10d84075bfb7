/** The dev module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerDevRoutes } from './dev.routes.js';

export const devModule: ModuleEntry[] = [{ name: 'dev', routes: registerDevRoutes }];
