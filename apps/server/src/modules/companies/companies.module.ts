/** The companies module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerCompaniesSlimRoutes } from './companies-slim.routes.js';
import { registerCompaniesRoutes } from './companies.routes.js';

export const companiesModule: ModuleEntry[] = [
  {
    name: 'companies',
    routes: (app, ctx) => {
      // The static `/api/companies/slim` is registered before `/api/companies/:companyId` (both work either way in find-my-way).
      registerCompaniesSlimRoutes(app, ctx);
      registerCompaniesRoutes(app, ctx);
    },
  },
];
