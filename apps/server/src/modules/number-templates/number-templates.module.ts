/** The number-templates module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerNumberTemplatesRoutes } from './number-templates.routes.js';

export const numberTemplatesModule: ModuleEntry[] = [{ name: 'number-templates', routes: registerNumberTemplatesRoutes }];
