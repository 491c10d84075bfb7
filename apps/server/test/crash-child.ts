/**
 * Preload (`node --import tsx --import ./apps/server/test/crash-child.ts apps/server/src/main.ts`) of
 * the server processes of the crash test (platform/crash-recovery.test.ts): a clock reading about
 * 12:00 in Chicago (inside every legal sending window there, so the campaign to 312 numbers is not
 * held by quiet hours) and a campaign rate of `CRASH_TEST_RATE` messages/s, so the send takes long
 * enough to be killed mid-way. Test-only; never loaded by `npm start`.
 */
import { campaignRuntime } from '../src/modules/campaigns/campaigns.service.js';

const [h, m] = new Date()
  .toLocaleTimeString('en-US', { timeZone: 'America/Chicago', hourCycle: 'h23', hour: '2-digit', minute: '2-digit' })
  .split(':')
  .map(Number) as [number, number];
const shift = (12 * 60 - (h * 60 + m)) * 60_000;
campaignRuntime.now = () => new Date(Date.now() + shift);
campaignRuntime.defaultRatePerSecond = Number(process.env.CRASH_TEST_RATE ?? 100);

// The outbox crash test (platform/events/outbox.crash.test.ts) delivers webhooks to a receiver on loopback.
if (process.env.CRASH_TEST_LOOPBACK_WEBHOOKS === '1') {
  const { webhookTuning } = await import('../src/modules/webhooks/webhooks.delivery.js');
  webhookTuning.addressPolicy = { allowHosts: ['127.0.0.1'] };
}
