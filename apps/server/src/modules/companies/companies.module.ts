/** The companies module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerCompaniesRoutes } from './companies.routes.js';

export const companiesModule: ModuleEntry[] = [{ name: 'companies', routes: registerCompaniesRoutes }];
