/**
 * Call tracking in the demo account (docs/tracking.md "The demo site"): a tracking pool of eight
 * local numbers that replaces the company's main number on its website (every visitor, fallback the
 * main number), a static tracking number for a billboard, a few visits through the public path
 * (Google Ads, Meta, organic search) and, with the sandbox simulator, calls to the numbers those
 * visitors saw and to the billboard, so that the pools, feed, timelines and reports are not empty.
 * Everything goes through the tracking module's services and the carrier's webhooks.
 */
import { DniPoolInput, DniStaticSourceInput } from '@switchboard/contracts';
import type { AppContext } from '../context.js';
import { simulateCall } from '../carriers/sandbox/sandbox.simulator.js';
import { buyNumber, searchNumbers, updateNumber } from '../modules/numbers/numbers.service.js';
import { openSession } from '../modules/tracking/assignment.js';
import { createPool, createStaticSource, ensureSettings } from '../modules/tracking/pools.js';

/** The office line the tracking numbers forward to. */
const OFFICE = '+12125550111';

const VISITS = [
  {
    url: 'https://acme-plumbing.example/?utm_source=google&utm_medium=cpc&utm_campaign=water-heaters&utm_term=water%20heater%20repair&gclid=DEMO-GCLID-1',
    referrer: 'https://www.google.com/',
    caller: '+13125550162',
  },
  {
    url: 'https://acme-plumbing.example/offers?utm_source=facebook&utm_medium=paid_social&utm_campaign=spring-tuneup&fbclid=DEMO-FBCLID-1',
    referrer: 'https://m.facebook.com/',
    caller: '+17735550145',
  },
  { url: 'https://acme-plumbing.example/services/drain-cleaning', referrer: 'https://duckduckgo.com/', caller: null },
];

/**
 * Seeds call tracking for the demo company (`main`: its number written on the website). Returns the
 * public key (the demo site is `{PUBLIC_URL}/api/dni/demo/{key}` with the sandbox carrier).
 */
export async function seedDemoTracking(ctx: AppContext, demo: { userId: number; companyId: number; main: { id: number; number: string } }): Promise<string> {
  const { userId, companyId, main } = demo;
  const offered = await searchNumbers(ctx, { type: 'local', areaCode: '312', mode: 'contains', limit: 12 });
  const bought: Array<{ id: number; number: string }> = [];
  for (const n of offered.slice(0, 9)) {
    const row = await buyNumber(ctx, userId, { company_id: companyId, provider_id: n.provider_id, number: n.number });
    // Tracking numbers ring the office like the main line (a pool only decides who sees which number).
    await updateNumber(ctx, userId, row.id, {
      label: `Tracking ${bought.length + 1}`,
      routes: [{ extension: 1, label: 'Office', type: 'standard', forwards: [{ number: OFFICE }], voicemail_enabled: true }],
    });
    bought.push(row);
  }
  const billboard = bought.pop();
  await createPool(
    ctx,
    userId,
    companyId,
    DniPoolInput.parse({
      name: 'Website visitors',
      target_numbers: [main.number],
      source_rules: { all_visitors: true, traffic_sources: [], custom_rules: [] },
      number_ids: bought.map((n) => n.id),
      fallback_number_id: main.id,
      routing: { type: 'forward', number: OFFICE },
    }),
  );
  if (billboard) {
    await createStaticSource(
      ctx,
      userId,
      companyId,
      DniStaticSourceInput.parse({
        name: 'Billboard on I-90',
        number_id: billboard.id,
        source: 'billboard',
        medium: 'outdoor',
        campaign: 'summer-2026',
      }) as Required<ReturnType<typeof DniStaticSourceInput.parse>>,
    );
  }
  const { key } = await ensureSettings(ctx, companyId);
  const shown: Array<{ number: string | null; caller: string | null }> = [];
  for (const v of VISITS) {
    const s = await openSession(
      ctx,
      key,
      { url: v.url, referrer: v.referrer, title: 'Acme Plumbing' },
      { cookieVisitorId: undefined, userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/605.1.15' },
    );
    shown.push({ number: s.swaps[0]?.number ?? null, caller: v.caller });
  }
  if (ctx.carrier.capabilities.simulator) {
    for (const s of shown)
      if (s.number && s.caller) await simulateCall(ctx, { from: s.caller, to: s.number, forwards: { [OFFICE]: 'answer' }, talk_seconds: 120 });
    if (billboard) await simulateCall(ctx, { from: '+16305550188', to: billboard.number, forwards: { [OFFICE]: 'answer' }, talk_seconds: 45 });
  }
  return key;
}
