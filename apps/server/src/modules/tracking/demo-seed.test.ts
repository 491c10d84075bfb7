/**
 * The demo seed's call tracking (seed/demo-tracking.ts; docs/tracking.md "The demo site"): a pool
 * for the main number, sessions and attributed calls, and the sandbox loop on the demo page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, eventually, IpClient, startTestServer, type TestServer } from '../../../test/harness.js';
import { DEMO_EMAIL, DEMO_PASSWORD, seedDemo } from '../../seed/demo.js';

let s: TestServer;
let demo: ApiClient;
let companyId: number;

beforeAll(async () => {
  s = await startTestServer();
  await seedDemo(s.ctx);
  demo = new ApiClient(s.url);
  const me = await demo.signIn(DEMO_EMAIL, DEMO_PASSWORD);
  companyId = me.companies?.[0]?.id ?? (await demo.get('/api/companies')).body.data[0].id;
}, 120_000);
afterAll(async () => {
  await s?.close();
});

describe('demo call tracking', () => {
  it('has a pool, live visitors and attributed calls', async () => {
    const pools = await demo.get(`/api/companies/${companyId}/dniPools`);
    expect(pools.body.data).toHaveLength(1);
    expect(pools.body.data[0]).toMatchObject({ name: 'Website visitors', health: { size: 8, in_use: 3 } });
    const feed = await eventually(async () => {
      const r = await demo.get(`/api/companies/${companyId}/dni/realTimeFeed`);
      return r.body.calls.filter((c: { method: string }) => c.method !== 'none').length === 3 ? r.body : null;
    });
    // The seed's other calls (to the toll-free support line) are there too, unattributed.
    expect(feed.calls.filter((c: { method: string }) => c.method === 'none')).toHaveLength(2);
    expect(feed.visitors.map((v: { traffic_source: string }) => v.traffic_source).sort()).toEqual(['google_ads', 'meta_ads', 'organic']);
    expect(
      feed.calls
        .filter((c: { method: string }) => c.method !== 'none')
        .map((c: { traffic_source: string }) => c.traffic_source)
        .sort(),
    ).toEqual(['google_ads', 'meta_ads', 'static']);
    const sources = await demo.get(`/api/companies/${companyId}/dniSources`);
    expect(sources.body.data.map((x: { name: string }) => x.name)).toEqual(['Billboard on I-90']);
  });

  it('closes the sandbox loop: the demo page, a number for a Google Ads visitor, a call attributed to it', async () => {
    const script = await demo.get(`/api/companies/${companyId}/trackingNumbers/script`);
    const key = script.body.settings.key as string;
    const page = await fetch(`${s.url}/api/dni/demo/${key}`);
    expect(page.status).toBe(200);
    const v = new IpClient(s.url);
    const session = await v.get(
      `/api/dni/public/${key}/session?${new URLSearchParams({ url: `${s.url}/api/dni/demo/${key}?utm_source=google&utm_medium=cpc&gclid=TEST` })}`,
    );
    const shown = session.body.swaps[0].number as string;
    const call = await demo.post('/api/simulator/calls', { from: '+13125550999', to: shown });
    expect(call.status, JSON.stringify(call.body)).toBe(200);
    const fc = await eventually(async () => {
      const r = await demo.get(`/api/companies/${companyId}/dni/realTimeFeed`);
      return r.body.calls.find((c: { from: string }) => c.from === '+13125550999');
    });
    expect(fc).toMatchObject({ traffic_source: 'google_ads', session_id: session.body.session_id, number: shown });
    const attribution = await demo.get(`/api/companies/${companyId}/dniCallAttribution/${fc.call_id}`);
    expect(attribution.body.data.click_ids.gclid).toBe('TEST');
  });
});
