/** The simulator module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerSandboxRoutes } from '../../carriers/sandbox/sandbox.routes.js';

export const simulatorModule: ModuleEntry[] = [
  { name: 'simulator', routes: registerSandboxRoutes },
];
