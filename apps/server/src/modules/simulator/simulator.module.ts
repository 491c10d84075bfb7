/** The simulator module's entry: the Phone simulator's routes (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerSimulatorRoutes } from './simulator.routes.js';
import { registerSimulatorFaxRoutes } from './simulator.fax.js';

export const simulatorModule: ModuleEntry[] = [
  { name: 'simulator', routes: registerSimulatorRoutes },
  { name: 'simulator', routes: registerSimulatorFaxRoutes },
];
