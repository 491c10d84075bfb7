/**
 * Every module's HTTP routes and job handlers, in one list the app registers at start.
 * Add a module by adding its entry here; modules never import each other's routes.
 */
import type { App } from '../platform/http/app-type.js';
import type { AppContext } from '../context.js';
import { registerHealthRoutes } from './health/health.routes.js';
import { registerAuthRoutes } from './auth/auth.routes.js';
import { registerCompaniesRoutes } from './companies/companies.routes.js';
import { registerDevRoutes } from './dev/dev.routes.js';
import { registerUsersRoutes } from './users/users.routes.js';
// [auth-module imports]
import { registerNumbersRoutes } from './numbers/numbers.routes.js';
import { registerCallsRoutes } from './calls/calls.routes.js';
import { registerVoiceWebhooks } from './calls/calls.webhooks.js';
import { registerCallsJobs } from './calls/calls.jobs.js';
import { registerSandboxRoutes } from '../carriers/sandbox/sandbox.routes.js';
// [telephony-module imports]
import { registerInAppCallingRoutes } from './in-app-calling/in-app-calling.routes.js';
import { registerInAppCallingWebhooks } from './in-app-calling/in-app-calling.webhooks.js';
import { registerSchedulesRoutes } from './schedules/schedules.routes.js';
import { registerGreetingsRoutes } from './greetings/greetings.routes.js';
import { registerNotesRoutes } from './notes/notes.routes.js';
import { registerNumbersAdminRoutes } from './numbers/numbers-admin.routes.js';
import { registerNumbersJobs } from './numbers/numbers.jobs.js';
import { registerNumberTemplatesRoutes } from './number-templates/number-templates.routes.js';
import { registerPortsRoutes } from './ports/ports.routes.js';
import { registerPortsJobs } from './ports/ports.jobs.js';
// [messaging-module imports]
import { registerCampaignRoutes } from './campaigns/campaigns.routes.js';
import { registerCampaignJobs } from './campaigns/campaigns.jobs.js';
import { registerContactsRoutes } from './contacts/contacts.routes.js';
import { registerContactsJobs } from './contacts/contacts.jobs.js';
import { registerGroupsRoutes } from './groups/groups.routes.js';
import { registerCustomFieldsRoutes } from './custom-fields/custom-fields.routes.js';
import { registerMessagingRoutes } from './messaging/messaging.routes.js';
import { registerMessagingJobs } from './messaging/messaging.jobs.js';
import { registerConversationRoutes } from './conversations/conversations.routes.js';
import { registerConversationSubscribers } from './conversations/conversations.service.js';
import { registerActivityRoutes } from './activity/activity.routes.js';
import { registerNotificationRoutes } from './notifications/notifications.routes.js';

export type ModuleEntry = {
  name: string;
  routes?: (app: App, ctx: AppContext) => void | Promise<void>;
  jobs?: (ctx: AppContext) => void;
  /** Module setup, run once per app before any route: subscribes the module to the domain events it reacts to (idempotent). */
  setup?: (ctx: AppContext) => void;
};

export const modules: ModuleEntry[] = [
  { name: 'health', routes: registerHealthRoutes },
  { name: 'auth', routes: registerAuthRoutes },
  { name: 'users', routes: registerUsersRoutes },
  { name: 'companies', routes: registerCompaniesRoutes },
  { name: 'dev', routes: registerDevRoutes },
  // [auth-module entries]
  { name: 'numbers', routes: registerNumbersRoutes },
  { name: 'calls', routes: async (app, ctx) => { await registerCallsRoutes(app, ctx); await registerVoiceWebhooks(app, ctx); }, jobs: registerCallsJobs },
  { name: 'simulator', routes: registerSandboxRoutes },
  // [telephony-module entries]
  { name: 'in-app-calling', routes: registerInAppCallingRoutes },
  { name: 'in-app-calling-webhooks', routes: registerInAppCallingWebhooks },
  { name: 'schedules', routes: registerSchedulesRoutes },
  { name: 'greetings', routes: registerGreetingsRoutes },
  { name: 'notes', routes: registerNotesRoutes },
  { name: 'numbers-admin', routes: registerNumbersAdminRoutes, jobs: registerNumbersJobs },
  { name: 'number-templates', routes: registerNumberTemplatesRoutes },
  { name: 'ports', routes: registerPortsRoutes, jobs: registerPortsJobs },
  // [messaging-module entries]
  { name: 'campaigns', routes: registerCampaignRoutes, jobs: registerCampaignJobs },
  { name: 'contacts', routes: registerContactsRoutes, jobs: registerContactsJobs },
  { name: 'groups', routes: registerGroupsRoutes },
  { name: 'custom-fields', routes: registerCustomFieldsRoutes },
  { name: 'messaging', routes: registerMessagingRoutes, jobs: registerMessagingJobs },
  { name: 'conversations', routes: registerConversationRoutes, setup: registerConversationSubscribers },
  { name: 'activity', routes: registerActivityRoutes },
  { name: 'notifications', routes: registerNotificationRoutes },
];
