/**
 * Preload of the server processes of the integrations crash test (modules/integrations/integrations.crash.test.ts),
 * loaded after `crash-child.ts`: a delivery lease of `INTEGRATIONS_CRASH_LEASE_MS` (default 3 s, instead of 60 s) and a
 * sweep every second, so deliveries a SIGKILL cut off are sent again within seconds of the restart. Test-only; never
 * loaded by `npm start`.
 */
import { deliveryTuning } from '../src/modules/integrations/deliveries.js';

deliveryTuning.leaseMs = Number(process.env.INTEGRATIONS_CRASH_LEASE_MS ?? 3000);
deliveryTuning.sweepMs = 1000;
