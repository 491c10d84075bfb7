/** The notes module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerNotesRoutes } from './notes.routes.js';

export const notesModule: ModuleEntry[] = [{ name: 'notes', routes: registerNotesRoutes }];
