/** The support module's entry: support tickets (spec 002 "Support"; docs/workspace.md). See `platform/module.ts`. */
import type { ModuleEntry } from '../../platform/module.js';
import { registerSupportRoutes } from './support.routes.js';

export const supportModule: ModuleEntry[] = [{ name: 'support', routes: registerSupportRoutes }];
