/** The tags module's entry: company tags and their use on contacts and numbers (spec 002 "Other: tags CRUD"; docs/workspace.md). See `platform/module.ts`. */
import type { ModuleEntry } from '../../platform/module.js';
import { registerTagsRoutes } from './tags.routes.js';

export const tagsModule: ModuleEntry[] = [{ name: 'tags', routes: registerTagsRoutes }];
