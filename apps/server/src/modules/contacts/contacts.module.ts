/** The contacts module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerContactsJobs } from './contacts.jobs.js';
import { registerContactsRoutes } from './contacts.routes.js';

export const contactsModule: ModuleEntry[] = [
  { name: 'contacts', routes: registerContactsRoutes, jobs: registerContactsJobs },
];
