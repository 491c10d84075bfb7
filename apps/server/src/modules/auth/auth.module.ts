/** The auth module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerAuthRoutes } from './auth.routes.js';

export const authModule: ModuleEntry[] = [{ name: 'auth', routes: registerAuthRoutes }];
