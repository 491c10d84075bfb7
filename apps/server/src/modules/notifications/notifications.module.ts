/** The notifications module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerNotificationRoutes } from './notifications.routes.js';
import { registerNotificationHooks } from './notifications.service.js';

export const notificationsModule: ModuleEntry[] = [{ name: 'notifications', routes: registerNotificationRoutes, setup: registerNotificationHooks }];
