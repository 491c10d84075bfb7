/** The groups module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerGroupsRoutes } from './groups.routes.js';

export const groupsModule: ModuleEntry[] = [
  { name: 'groups', routes: registerGroupsRoutes },
];
