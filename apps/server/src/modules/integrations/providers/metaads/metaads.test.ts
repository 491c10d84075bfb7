/**
 * Meta Ads adapter against a local stand-in of the Graph API (its sandbox served over HTTP): exact Conversions API
 * payloads (hashing, timestamps, ids), dedup key stable across retries, rate-limit answers honoured, token errors
 * mapped to reconnect, outcome set later, lookups. Pure adapter tests (no database, no server).
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimitedError, ReconnectNeededError, type DeliveryItem } from '../provider.js';
import { metaAdsAdapter as adapter } from './metaads.adapter.js';
import { buildServerEvent, normalizeName, normalizePhone } from './metaads.payload.js';
import { metaAdsSandbox } from './metaads.sandbox.js';
import { sampleItem, startStandIn, testConnection, type StandIn } from './standin-http.js';

const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
const hourAgo = () => new Date(Date.now() - 3600_000).toISOString();

describe('Meta Ads adapter', () => {
  const sandbox = metaAdsSandbox();
  let standIn: StandIn;
  let throttle: Response | null = null;
  beforeAll(async () => {
    standIn = await startStandIn(sandbox, () => {
      const r = throttle;
      throttle = null;
      return r ?? undefined;
    });
  });
  afterAll(() => standIn.close());
  const conn = (over: Parameters<typeof testConnection>[2] = {}) =>
    testConnection('metaads', `${standIn.baseUrl}/v27.0`, { config: { pixelId: '880011223344', adAccountId: 'act_5550001' }, now: () => new Date(), ...over });

  it('builds the documented server event: hashed, normalised user data, seconds, phone_call', () => {
    const at = '2026-11-29T01:00:00.000Z';
    const e = buildServerEvent(sampleItem({}, at));
    expect(normalizePhone('+1 (555) 010-2030')).toBe('15550102030');
    expect(normalizeName(" O'Neil ")).toBe('oneil');
    expect(e).toEqual({
      event_name: 'Contact',
      event_time: Date.parse(at) / 1000,
      event_id: 'sb-call-4242-call',
      action_source: 'phone_call',
      user_data: {
        ph: [sha('15550102030')],
        em: [sha('jane.oneil@example.com')],
        fn: [sha('jane')],
        ln: [sha('oneil')],
        external_id: [sha('contact-77')],
        fbc: `fb.1.${Date.parse('2026-11-29T13:50:00.000Z')}.IwAR2abcDEF`,
        fbp: 'fb.1.1764400000000.1234567890',
        client_ip_address: '203.0.113.7',
        client_user_agent: 'Mozilla/5.0 (iPhone)',
      },
      custom_data: { value: 50, currency: 'usd', department: 'sales', call_duration_s: 95 },
    });
  });

  it('delivers to /{pixel}/events once per event_id + event_name, also when retried', async () => {
    const item = sampleItem({}, hourAgo());
    const first = await adapter.deliver(conn(), [item]);
    expect(first.items).toEqual([{ deliveryKey: item.deliveryKey, result: 'delivered', providerRef: 'sb-call-4242-call', message: null }]);
    const req = standIn.requests.at(-1)!;
    expect(req.method).toBe('POST');
    expect(req.path.split('?')[0]).toBe('/v27.0/880011223344/events');
    expect(req.headers.authorization).toBe('Bearer sandbox-token-1');
    const body = JSON.parse(req.body) as { data: unknown[]; test_event_code?: string };
    expect(body.data).toEqual([buildServerEvent(item)]);
    expect(body.test_event_code).toBeUndefined();
    // A retry of the same delivery carries the same dedup key and Meta keeps one event.
    expect(adapter.dedupKey(item)).toBe(adapter.dedupKey(sampleItem({}, item.occurredAt)));
    expect(adapter.dedupKey(item)).toBe('sb-call-4242-call:Contact');
    await adapter.deliver(conn(), [item]);
    expect(sandbox.sent().filter((s) => (s.body as { event_id: string }).event_id === 'sb-call-4242-call')).toHaveLength(1);
  });

  it('skips events older than 7 days instead of failing the batch', async () => {
    const old = sampleItem({ deliveryKey: '9:call:1', call: { id: 1 } }, new Date(Date.now() - 8 * 86400_000).toISOString());
    const fresh = sampleItem({ deliveryKey: '9:call:2', call: { id: 2 } }, hourAgo());
    const answer = await adapter.deliver(conn(), [old, fresh]);
    expect(answer.items.map((i) => [i.deliveryKey, i.result])).toEqual([
      ['9:call:1', 'skipped'],
      ['9:call:2', 'delivered'],
    ]);
    expect(JSON.parse(standIn.requests.at(-1)!.body).data).toHaveLength(1);
  });

  it('honours throttling: Business Use Case headers, HTTP 429 Retry-After', async () => {
    const usage = JSON.stringify({ '5550001': [{ type: 'ads_management', call_count: 100, estimated_time_to_regain_access: 5 }] });
    throttle = Response.json(
      { error: { message: 'There have been too many calls', type: 'OAuthException', code: 80004, error_subcode: 2446079, fbtrace_id: 'x' } },
      { status: 400, headers: { 'x-business-use-case-usage': usage } },
    );
    const item = sampleItem({ deliveryKey: '9:call:3', call: { id: 3 } }, hourAgo());
    const err = await adapter.deliver(conn(), [item]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterMs).toBe(300_000);
    throttle = new Response('{"error":{"message":"Too many","code":17}}', { status: 429, headers: { 'retry-after': '7' } });
    const err2 = await adapter.deliver(conn(), [item]).catch((e: unknown) => e);
    expect((err2 as RateLimitedError).retryAfterMs).toBe(7000);
    // Never dropped: the next attempt goes through.
    expect((await adapter.deliver(conn(), [item])).items[0]!.result).toBe('delivered');
  });

  it('maps an invalid or expired token (code 190) to reconnect', async () => {
    await expect(adapter.deliver(conn({ accessToken: 'expired-token' }), [sampleItem({}, hourAgo())])).rejects.toBeInstanceOf(ReconnectNeededError);
    expect(() => adapter.oauth!.normalizeTokenResponse!(400, { error: { message: 'Error validating verification code', code: 100 } })).toThrow(
      ReconnectNeededError,
    );
  });

  it('sends an outcome set later as its own event (new event_id), and skips an unchanged restatement', async () => {
    const callItem = sampleItem({ deliveryKey: '9:call:50', call: { id: 50 } }, hourAgo());
    const outcome: DeliveryItem = sampleItem(
      {
        kind: 'outcome',
        deliveryKey: '9:outcome:50',
        call: { id: 50, outcome: 'appt_booked' },
        conversion: { name: 'Schedule', valueCents: 25000, currency: 'USD' },
      },
      new Date(Date.now() - 60_000).toISOString(),
    );
    await adapter.deliver(conn(), [callItem]);
    const a = await adapter.deliver(conn(), [outcome]);
    expect(a.items[0]).toMatchObject({ result: 'delivered', providerRef: 'sb-call-50-outcome-appt_booked' });
    expect(adapter.dedupKey(outcome)).not.toBe(adapter.dedupKey(callItem));
    const sent = JSON.parse(standIn.requests.at(-1)!.body).data[0];
    expect(sent).toMatchObject({ event_name: 'Schedule', custom_data: { value: 250, currency: 'usd', lead_outcome: 'appt_booked' } });
    const unchanged = {
      ...outcome,
      kind: 'outcome-adjustment' as const,
      deliveryKey: '9:outcome:50:2',
      previous: { outcome: 'appt_booked' as const, valueCents: 25000, deliveryKey: '9:outcome:50' },
    };
    expect((await adapter.deliver(conn(), [unchanged])).items[0]!.result).toBe('skipped');
  });

  it('answers the lookups and verifies with test_event_code', async () => {
    const c = conn();
    expect((await adapter.lookups['business-managers']!(c, {})).items[0]).toMatchObject({ id: '100200300400500', name: 'Sandbox Motors Group' });
    const accounts = await adapter.lookups['ad-accounts']!(c, { businessId: '100200300400500' });
    expect(accounts.items).toEqual([
      { id: 'act_5550001', name: 'Sandbox Motors – Search', parentId: '100200300400500', detail: { currency: 'USD', timeZone: 'America/Chicago', status: 1 } },
    ]);
    expect(standIn.requests.some((r) => r.path.startsWith('/v27.0/100200300400500/owned_ad_accounts?fields='))).toBe(true);
    expect((await adapter.lookups.pixels!(c, {})).items.map((p) => p.id)).toContain('880011223344');
    expect((await adapter.lookups.conversions!(c, {})).items[0]).toMatchObject({ name: 'Qualified phone call' });
    expect(await adapter.identify(c, null)).toEqual({ externalAccountId: '10229900000001', accountName: 'Sandbox Marketer' });
    const note = await adapter.verify(conn({ config: { pixelId: '880011223344', testEventCode: 'TEST4821' } }), sampleItem({}, hourAgo()));
    expect(note).toContain('TEST4821');
    expect(JSON.parse(standIn.requests.at(-1)!.body).test_event_code).toBe('TEST4821');
    // appsecret_proof when the app secret is configured
    await adapter.identify(conn({ app: { META_ADS_CLIENT_SECRET: 's3cret' } }), null);
    const proof = crypto.createHmac('sha256', 's3cret').update('sandbox-token-1').digest('hex');
    expect(new URL(standIn.baseUrl + standIn.requests.at(-1)!.path).searchParams.get('appsecret_proof')).toBe(proof);
  });
});
