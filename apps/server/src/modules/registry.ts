/**
 * Every module's entry (routes, jobs, setup), in the order the app registers them. Each module
 * declares its own entry in `<module>/<module>.module.ts`; this is the only file (with `app.ts`)
 * that imports modules as a whole, so it is the composition root, exempt from the layering rule.
 */
import type { ModuleEntry } from '../platform/module.js';
import { healthModule } from './health/health.module.js';
import { authModule } from './auth/auth.module.js';
import { usersModule } from './users/users.module.js';
import { companiesModule } from './companies/companies.module.js';
import { devModule } from './dev/dev.module.js';
import { numbersModule } from './numbers/numbers.module.js';
import { blocklistModule } from './blocklist/blocklist.module.js';
import { callsModule } from './calls/calls.module.js';
import { simulatorModule } from './simulator/simulator.module.js';
import { inAppCallingModule } from './in-app-calling/in-app-calling.module.js';
import { schedulesModule } from './schedules/schedules.module.js';
import { greetingsModule } from './greetings/greetings.module.js';
import { notesModule } from './notes/notes.module.js';
import { numberTemplatesModule } from './number-templates/number-templates.module.js';
import { portsModule } from './ports/ports.module.js';
import { campaignsModule } from './campaigns/campaigns.module.js';
import { contactsModule } from './contacts/contacts.module.js';
import { customFieldsModule } from './custom-fields/custom-fields.module.js';
import { messagingModule } from './messaging/messaging.module.js';
import { conversationsModule } from './conversations/conversations.module.js';
import { activityModule } from './activity/activity.module.js';
import { notificationsModule } from './notifications/notifications.module.js';
import { trackingModule } from './tracking/tracking.module.js';
import { analyticsModule } from './analytics/analytics.module.js';
import { alertsModule } from './alerts/alerts.module.js';
import { reportPreferencesModule } from './report-preferences/report-preferences.module.js';
import { tenantModule } from './tenant/tenant.module.js';
import { auditModule } from './audit/audit.module.js';
import { settingsModule } from './settings/settings.module.js';
import { tagsModule } from './tags/tags.module.js';
import { apiKeysModule } from './api-keys/api-keys.module.js';
import { supportModule } from './support/support.module.js';
import { dataGroupsModule } from './data-groups/data-groups.module.js';
import { webhooksModule } from './webhooks/webhooks.module.js';
import { pushModule } from './push/push.module.js';
import { billingModule } from './billing/billing.module.js';
import { callerIdModule } from './caller-id/caller-id.module.js';
import { smsVerificationModule } from './sms-verification/sms-verification.module.js';
import { faxModule } from './fax/fax.module.js';
import { transcriptionModule } from './transcription/transcription.module.js';
import { callIntelligenceModule } from './call-intelligence/call-intelligence.module.js';
import { marketplaceModule } from './marketplace/marketplace.module.js';
import { integrationsModule } from './integrations/integrations.module.js';
import { caddyModule } from './caddy/caddy.module.js';

export type { ModuleEntry };

export const modules: ModuleEntry[] = [
  ...healthModule,
  ...authModule,
  ...usersModule,
  ...companiesModule,
  ...devModule,
  ...numbersModule,
  ...blocklistModule,
  ...callsModule,
  ...simulatorModule,
  ...inAppCallingModule,
  ...schedulesModule,
  ...greetingsModule,
  ...notesModule,
  ...numberTemplatesModule,
  ...portsModule,
  ...campaignsModule,
  ...contactsModule,
  ...customFieldsModule,
  ...messagingModule,
  ...conversationsModule,
  ...activityModule,
  ...notificationsModule,
  ...trackingModule,
  ...analyticsModule,
  ...alertsModule,
  ...reportPreferencesModule,
  ...tenantModule,
  ...auditModule,
  ...settingsModule,
  ...tagsModule,
  ...apiKeysModule,
  ...supportModule,
  ...dataGroupsModule,
  ...webhooksModule,
  ...pushModule,
  ...billingModule,
  ...callerIdModule,
  ...smsVerificationModule,
  ...faxModule,
  ...transcriptionModule,
  ...callIntelligenceModule,
  ...marketplaceModule,
  ...integrationsModule,
  ...caddyModule,
];
