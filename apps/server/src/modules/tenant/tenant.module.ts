/** The tenant module's entry: white-label tenants, custom domains and e-mail senders (spec 002 "Organizations and tenant"; docs/workspace.md). See `platform/module.ts`. */
import type { ModuleEntry } from '../../platform/module.js';
import { registerTenantRoutes } from './tenant.routes.js';

export const tenantModule: ModuleEntry[] = [{ name: 'tenant', routes: registerTenantRoutes }];
