/** The numbers module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerNumbersAdminRoutes } from './numbers-admin.routes.js';
import { registerNumbersJobs } from './numbers.jobs.js';
import { registerNumbersRoutes } from './numbers.routes.js';

export const numbersModule: ModuleEntry[] = [
  { name: 'numbers', routes: registerNumbersRoutes },
  { name: 'numbers-admin', routes: registerNumbersAdminRoutes, jobs: registerNumbersJobs },
];
