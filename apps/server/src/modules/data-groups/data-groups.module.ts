/**
 * The data-groups module's entry: data groups (spec 002 "Data groups"; docs/workspace.md), and in its setup the tags
 * module's checks that a contact or number belongs to a company (tags, level 2, cannot ask contacts or numbers).
 * See `platform/module.ts`.
 */
import type { ModuleEntry } from '../../platform/module.js';
import { registerDataGroupsRoutes } from './data-groups.routes.js';
import { companyContactIds, companyNumberIds } from './data-groups.service.js';

export const dataGroupsModule: ModuleEntry[] = [
  {
    name: 'data-groups',
    routes: registerDataGroupsRoutes,
    setup: (ctx) => {
      ctx.hooks.provide('tagTargets', companyContactIds, 'contact');
      ctx.hooks.provide('tagTargets', companyNumberIds, 'number');
    },
  },
];
