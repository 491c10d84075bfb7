/** The blocklist module's entry: its routes (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerBlocklistRoutes } from './blocklist.routes.js';

export const blocklistModule: ModuleEntry[] = [{ name: 'blocklist', routes: registerBlocklistRoutes }];
