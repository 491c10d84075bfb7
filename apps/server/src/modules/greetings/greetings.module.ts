/** The greetings module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerGreetingsRoutes } from './greetings.routes.js';

export const greetingsModule: ModuleEntry[] = [{ name: 'greetings', routes: registerGreetingsRoutes }];
