/** The in-app-calling module's entry: its routes (see `platform/module.ts`). The browser legs' carrier webhooks are the calls module's. */
import type { ModuleEntry } from '../../platform/module.js';
import { registerInAppCallingRoutes } from './in-app-calling.routes.js';

export const inAppCallingModule: ModuleEntry[] = [{ name: 'in-app-calling', routes: registerInAppCallingRoutes }];
