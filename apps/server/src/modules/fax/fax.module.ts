/**
 * The fax module's entry. Faxes: sending and receiving PDFs on fax numbers through the fax port
 * (`carriers/fax.port.ts`), viewer, export (spec 001 activity kind fax, 002 "fax export"; docs/fax.md).
 * Routes: fax.routes.ts; jobs `fax.send`, `fax.fetch` (fax.webhooks.ts). See `platform/module.ts`.
 */
import { events } from '../../platform/events/index.js';
import type { ModuleEntry } from '../../platform/module.js';
import { registerFaxRoutes } from './fax.routes.js';
import { onFaxChangedLive, registerFaxJobs } from './fax.webhooks.js';

export const faxModule: ModuleEntry[] = [
  {
    name: 'fax',
    routes: registerFaxRoutes,
    jobs: registerFaxJobs,
    // The thread's live update of a fax comes from the recorded `fax.changed` (one announcement per change).
    setup: () => {
      events.consume('fax.live', 'fax.changed', onFaxChangedLive);
    },
  },
];
