/** The numbers module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerNumberOfCompanyCheck } from '../blocklist/blocklist.service.js';
import { registerNumbersAdminRoutes } from './numbers-admin.routes.js';
import { registerNumbersJobs } from './numbers.jobs.js';
import { registerNumbersRoutes } from './numbers.routes.js';
import { getCompanyNumber } from './numbers.service.js';

/** Gives the blocklist (a lower module) its check that a block's number is the company's (404 otherwise). */
function setupNumbers(): void {
  registerNumberOfCompanyCheck(async (ctx, companyId, numberId) => {
    await getCompanyNumber(ctx, companyId, numberId);
  });
}

export const numbersModule: ModuleEntry[] = [
  { name: 'numbers', routes: registerNumbersRoutes, setup: setupNumbers },
  { name: 'numbers-admin', routes: registerNumbersAdminRoutes, jobs: registerNumbersJobs },
];
