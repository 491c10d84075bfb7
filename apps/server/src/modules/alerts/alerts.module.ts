/** The alerts module's entry: alerts (monitors and the alerts they raise; spec 001 "Alerts"). See `platform/module.ts`. */
import type { ModuleEntry } from '../../platform/module.js';
import { events } from '../../platform/events/index.js';
import { registerAlertJobs, registerAlertTicker } from './alerts.jobs.js';
import { onCallChanged, onCampaignDeliveries, onMessageStatus, onPoolExhausted } from './alerts.monitors.js';
import { registerAlertRoutes } from './alerts.routes.js';

export const alertsModule: ModuleEntry[] = [
  {
    name: 'alerts',
    routes: (app, ctx) => {
      registerAlertRoutes(app, ctx);
      registerAlertTicker(app, ctx);
    },
    jobs: registerAlertJobs,
    setup: () => {
      events.consume('alerts.monitors', 'call.changed', onCallChanged);
      events.consume('alerts.monitors', 'message.status-changed', onMessageStatus);
      events.consume('alerts.monitors', 'tracking.pool-exhausted', onPoolExhausted);
      events.consume('alerts.monitors', 'campaign.delivery-outcomes', onCampaignDeliveries);
    },
  },
];
