/** The custom-fields module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerCustomFieldsHooks } from './company-values.service.js';
import { registerCustomFieldsRoutes } from './custom-fields.routes.js';

export const customFieldsModule: ModuleEntry[] = [{ name: 'custom-fields', routes: registerCustomFieldsRoutes, setup: registerCustomFieldsHooks }];
