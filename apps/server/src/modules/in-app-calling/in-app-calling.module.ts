/** The in-app-calling module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerInAppCallingRoutes } from './in-app-calling.routes.js';
import { registerInAppCallingWebhooks } from './in-app-calling.webhooks.js';

export const inAppCallingModule: ModuleEntry[] = [
  { name: 'in-app-calling', routes: registerInAppCallingRoutes },
  { name: 'in-app-calling-webhooks', routes: registerInAppCallingWebhooks },
];
