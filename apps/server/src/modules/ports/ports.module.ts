/** The ports module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerPortsJobs } from './ports.jobs.js';
import { registerPortsRoutes } from './ports.routes.js';
import { registerPortsHooks } from './ports.number-view.js';

export const portsModule: ModuleEntry[] = [{ name: 'ports', routes: registerPortsRoutes, jobs: registerPortsJobs, setup: registerPortsHooks }];
