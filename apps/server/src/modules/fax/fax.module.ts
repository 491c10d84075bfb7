/**
 * The fax module's entry. Faxes: sending and receiving PDFs on fax numbers through the fax port
 * (`carriers/fax.port.ts`), viewer, export (spec 001 activity kind fax, 002 "fax export"; docs/fax.md).
 * Routes: fax.routes.ts; jobs `fax.send`, `fax.fetch` (fax.webhooks.ts). See `platform/module.ts`.
 */
import type { ModuleEntry } from '../../platform/module.js';
import { registerFaxRoutes } from './fax.routes.js';
import { registerFaxJobs } from './fax.webhooks.js';

export const faxModule: ModuleEntry[] = [{ name: 'fax', routes: registerFaxRoutes, jobs: registerFaxJobs }];
