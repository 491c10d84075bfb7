/** The api-keys module's entry: API keys (personal access tokens; spec 001 "API keys"). See `platform/module.ts`. */
import { setAccessResolvers } from '../../platform/http/access.js';
import type { ModuleEntry } from '../../platform/module.js';
import { getCompanyOrganizationId } from '../companies/companies.service.js';
import { getUserNames } from '../users/users.service.js';
import { registerApiKeyRoutes } from './api-keys.routes.js';

export const apiKeysModule: ModuleEntry[] = [
  {
    name: 'api-keys',
    routes: (app, ctx) => {
      registerApiKeyRoutes(app, ctx);
      // The access check holds keys limited to a business unit to its companies (platform/http/access.ts).
      setAccessResolvers(app, { companyOrganizationOf: (companyId) => getCompanyOrganizationId(ctx, companyId) });
    },
    setup: (ctx) => {
      // The request guard asks this for API keys limited to a business unit (docs/api-and-webhooks.md).
      ctx.hooks.provide('companyOrganizationOf', (companyId) => getCompanyOrganizationId(ctx, companyId));
      // The audit log (a lower module) names the people behind its entries through the users module.
      ctx.hooks.provide('auditActorNames', (ids) => getUserNames(ctx, ids));
    },
  },
];
