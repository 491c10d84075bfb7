/** The users module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerUsersRoutes } from './users.routes.js';

export const usersModule: ModuleEntry[] = [{ name: 'users', routes: registerUsersRoutes }];
