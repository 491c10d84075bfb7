/** The contacts module's entry: contacts, imports, groups and labels routes, and jobs (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerContactsJobs } from './contacts.jobs.js';
import { registerContactsRoutes } from './contacts.routes.js';
import { registerGroupsRoutes } from './groups.routes.js';

export const contactsModule: ModuleEntry[] = [
  { name: 'contacts', routes: registerContactsRoutes, jobs: registerContactsJobs },
  { name: 'contact-groups', routes: registerGroupsRoutes },
];
