/** The users module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerBusinessUnitsRoutes } from './business-units.routes.js';
import { registerInvitationsRoutes } from './invitations.routes.js';
import { registerMembersRoutes } from './members.routes.js';
import { registerUsersRoutes } from './users.routes.js';

export const usersModule: ModuleEntry[] = [
  {
    name: 'users',
    routes: (app, ctx) => {
      registerUsersRoutes(app, ctx);
      registerMembersRoutes(app, ctx);
      registerInvitationsRoutes(app, ctx);
      registerBusinessUnitsRoutes(app, ctx);
    },
  },
];
