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
      events.on('call.changed', onCallChanged);
      events.on('message.status-changed', onMessageStatus);
      events.on('tracking.pool-exhausted', onPoolExhausted);
      events.on('campaign.delivery-outcomes', onCampaignDeliveries);
    },
  },
];
