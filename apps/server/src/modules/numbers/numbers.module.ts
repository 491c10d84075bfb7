/** The numbers module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import type { AppContext } from '../../context.js';
import { numbersRepository } from './numbers.repository.js';
import { registerNumbersAdminRoutes } from './numbers-admin.routes.js';
import { registerNumbersJobs } from './numbers.jobs.js';
import { registerNumbersRoutes } from './numbers.routes.js';
import { getCompanyNumber } from './numbers.service.js';
import { registerTriggerFiring, subscribeTriggers } from './triggers.fire.js';

/**
 * Gives lower modules their checks on numbers: the blocklist's (a block's number is the
 * company's, 404 otherwise), the users module's (numbers assigned to a member are the company's)
 * and the account-deletion probe (the company holds numbers; docs/accounts.md); subscribes the numbers'
 * triggers to the events they fire on (triggers.fire.ts).
 */
function setupNumbers(ctx: AppContext): void {
  subscribeTriggers();
  ctx.hooks.provide('companyUsageProbe', (_ctx, companyId, db) => numbersRepository.companyHasNumbers(db, companyId), 'numbers');
  ctx.hooks.provide('companyNumbers', (_ctx, companyId, ids, db) => numbersRepository.idsOfCompany(db, companyId, ids));
  ctx.hooks.provide('numberOfCompany', async (ctx, companyId, numberId) => {
    await getCompanyNumber(ctx, companyId, numberId);
  });
}

export const numbersModule: ModuleEntry[] = [
  { name: 'numbers', routes: registerNumbersRoutes, setup: setupNumbers },
  {
    name: 'numbers-admin',
    routes: registerNumbersAdminRoutes,
    jobs: (ctx) => {
      registerNumbersJobs(ctx);
      registerTriggerFiring(ctx);
    },
  },
];
