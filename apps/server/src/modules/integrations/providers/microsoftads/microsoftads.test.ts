/**
 * Microsoft Advertising adapter against a local stand-in of the Bing Ads API v13 REST endpoints (its sandbox over
 * HTTP): exact OfflineConversions payloads and headers, ≤ 1,000 per request, dedup on click id + time, the goal's
 * two-hour "not yet", 429/CallRateExceeded honoured, expired token → reconnect, outcome restated/retracted later, lookups.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimitedError, ReconnectNeededError } from '../provider.js';
import { sampleItem, startStandIn, testConnection, type StandIn } from '../metaads/standin-http.js';
import { microsoftAdsAdapter as adapter, microsoftAdsNotBefore, msTime } from './microsoftads.adapter.js';
import { microsoftAdsSandbox } from './microsoftads.sandbox.js';

const hourAgo = () => new Date(Date.now() - 3600_000).toISOString();

describe('Microsoft Advertising adapter', () => {
  const sandbox = microsoftAdsSandbox();
  let standIn: StandIn;
  let next: Response | null = null;
  beforeAll(async () => {
    standIn = await startStandIn(sandbox, () => {
      const r = next;
      next = null;
      return r ?? undefined;
    });
  });
  afterAll(() => standIn.close());
  const conn = (over: Parameters<typeof testConnection>[2] = {}) =>
    testConnection('microsoftads', standIn.baseUrl, {
      config: { customerId: '251000111', accountId: '180001001', goalCreatedAt: '2026-01-01T00:00:00Z' },
      app: { MICROSOFT_ADS_DEVELOPER_TOKEN: 'dev-token-1' },
      now: () => new Date(),
      ...over,
    });
  const settings = sampleItem().settings;
  const withGoals = {
    ...settings,
    conversions: {
      call: { name: 'Phone call', valueCents: 5000, currency: 'USD' },
      'outcome:appt_booked': { name: 'Appointment booked', valueCents: 20000, currency: 'USD' },
    },
  };

  it('applies offline conversions by msclkid with the documented body and headers, once per click + time', async () => {
    const started = hourAgo();
    const item = sampleItem({ conversion: { name: 'Phone call', valueCents: 5000, currency: 'usd' }, settings: withGoals }, started);
    const answer = await adapter.deliver(conn(), [item]);
    expect(answer.items[0]).toMatchObject({ result: 'delivered', providerRef: `b1a2c3d4e5f60718293a4b5c6d7e8f90|Phone call|${msTime(started)}` });
    const req = standIn.requests.at(-1)!;
    expect([req.method, req.path]).toEqual(['POST', '/CampaignManagement/v13/OfflineConversions/Apply']);
    expect(req.headers).toMatchObject({
      authorization: 'Bearer sandbox-token-1',
      developertoken: 'dev-token-1',
      customerid: '251000111',
      customeraccountid: '180001001',
    });
    expect(JSON.parse(req.body)).toEqual({
      OfflineConversions: [
        {
          ConversionName: 'Phone call',
          ConversionTime: msTime(started),
          MicrosoftClickId: 'b1a2c3d4e5f60718293a4b5c6d7e8f90',
          ConversionValue: 50,
          ConversionCurrencyCode: 'USD',
        },
      ],
    });
    expect(msTime('2026-11-29T14:05:00.123Z')).toBe('2026-11-29T14:05:00Z');
    // A retry: same dedup key, Microsoft keeps the first.
    expect(adapter.dedupKey(item)).toBe(adapter.dedupKey(sampleItem({ conversion: item.conversion, settings: withGoals }, started)));
    await adapter.deliver(conn(), [item]);
    expect(sandbox.sent().filter((s) => (s.body as { MicrosoftClickId: string }).MicrosoftClickId === 'b1a2c3d4e5f60718293a4b5c6d7e8f90')).toHaveLength(1);
    expect(adapter.maxBatch).toBe(1000);
  });

  it('skips calls without msclkid and reports per-item refusals by index', async () => {
    const noClick = sampleItem({ deliveryKey: '9:call:1', attribution: { msclkid: null } }, hourAgo());
    const badGoal = sampleItem(
      { deliveryKey: '9:call:2', call: { id: 2 }, conversion: { name: 'No such goal', valueCents: null, currency: 'USD' } },
      hourAgo(),
    );
    const good = sampleItem(
      { deliveryKey: '9:call:3', call: { id: 3 }, attribution: { msclkid: 'c3' }, conversion: { name: 'Qualified call', valueCents: null, currency: 'USD' } },
      hourAgo(),
    );
    const answer = await adapter.deliver(conn(), [noClick, badGoal, good]);
    expect(answer.items.map((i) => [i.deliveryKey, i.result])).toEqual([
      ['9:call:1', 'skipped'],
      ['9:call:2', 'rejected'],
      ['9:call:3', 'delivered'],
    ]);
    expect(answer.items[1]!.message).toContain('OfflineConversionNameInvalid');
  });

  it('answers "not yet" during the goal\'s first two hours (retried later, not dropped)', async () => {
    const c = conn({ config: { customerId: '251000111', accountId: '180001001', goalCreatedAt: new Date(Date.now() - 30 * 60_000).toISOString() } });
    expect(microsoftAdsNotBefore(c)).not.toBeNull();
    const err = await adapter.deliver(c, [sampleItem({}, hourAgo())]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterMs).toBeGreaterThan(89 * 60_000);
    expect((err as RateLimitedError).retryAfterMs).toBeLessThanOrEqual(90 * 60_000);
  });

  it('honours 429 CallRateExceeded and maps an expired token to reconnect', async () => {
    next = Response.json(
      { Errors: [{ Code: 117, ErrorCode: 'CallRateExceeded', Message: 'Too many calls' }] },
      { status: 429, headers: { 'retry-after': '30' } },
    );
    const err = await adapter.deliver(conn(), [sampleItem({}, hourAgo())]).catch((e: unknown) => e);
    expect((err as RateLimitedError).retryAfterMs).toBe(30_000);
    await expect(adapter.deliver(conn({ accessToken: 'old' }), [sampleItem({}, hourAgo())])).rejects.toBeInstanceOf(ReconnectNeededError);
  });

  it('sends an outcome set later as its conversion, then restates its value and retracts it when the outcome changes', async () => {
    const started = new Date(Date.now() - 2 * 3600_000).toISOString();
    const base = { call: { id: 70, outcome: 'appt_booked' as const, startedAt: started }, attribution: { msclkid: 'click-70' }, settings: withGoals };
    const outcome = sampleItem(
      { ...base, kind: 'outcome', deliveryKey: '9:outcome:70', conversion: { name: 'Appointment booked', valueCents: 20000, currency: 'USD' } },
      hourAgo(),
    );
    await adapter.deliver(conn(), [outcome]);
    expect(JSON.parse(standIn.requests.at(-1)!.body).OfflineConversions[0]).toMatchObject({
      ConversionName: 'Appointment booked',
      ConversionTime: msTime(started),
      ConversionValue: 200,
    });
    const restate = sampleItem(
      {
        ...base,
        kind: 'outcome-adjustment',
        deliveryKey: '9:outcome:70:2',
        conversion: { name: 'Appointment booked', valueCents: 35000, currency: 'USD' },
        previous: { outcome: 'appt_booked', valueCents: 20000, deliveryKey: '9:outcome:70' },
      },
      new Date().toISOString(),
    );
    expect((await adapter.deliver(conn(), [restate])).items[0]!.result).toBe('delivered');
    const r = standIn.requests.at(-1)!;
    expect(r.path).toBe('/CampaignManagement/v13/OfflineConversionAdjustments/Apply');
    expect(JSON.parse(r.body).OfflineConversionAdjustments[0]).toMatchObject({
      AdjustmentType: 'Restate',
      AdjustmentValue: 350,
      AdjustmentCurrencyCode: 'USD',
      ConversionName: 'Appointment booked',
      ConversionTime: msTime(started),
      MicrosoftClickId: 'click-70',
    });
    const retract = sampleItem(
      {
        ...base,
        call: { ...base.call, outcome: 'not_opportunity' },
        kind: 'outcome-adjustment',
        deliveryKey: '9:outcome:70:3',
        conversion: null,
        previous: { outcome: 'appt_booked', valueCents: 35000, deliveryKey: '9:outcome:70:2' },
      },
      new Date().toISOString(),
    );
    expect((await adapter.deliver(conn(), [retract])).items[0]!.result).toBe('delivered');
    expect(JSON.parse(standIn.requests.at(-1)!.body).OfflineConversionAdjustments[0]).toMatchObject({
      AdjustmentType: 'Retract',
      ConversionName: 'Appointment booked',
    });
    expect(
      sandbox
        .sent()
        .map((s) => s.summary)
        .slice(-2),
    ).toEqual(['Restate Appointment booked ← click-70', 'Retract Appointment booked ← click-70']);
  });

  it('answers the lookups (managers, accounts) and identifies the user', async () => {
    const c = conn();
    expect((await adapter.lookups.managers!(c, {})).items).toEqual([
      { id: '251000111', name: 'Sandbox Motors (manager)' },
      { id: '251000222', name: 'Sandbox Agency (manager)' },
    ]);
    const accounts = await adapter.lookups.accounts!(c, { customerId: '251000111' });
    expect(accounts.items.map((a) => [a.id, a.parentId])).toEqual([
      ['180001001', '251000111'],
      ['180001002', '251000111'],
    ]);
    expect(JSON.parse(standIn.requests.at(-1)!.body)).toEqual({
      Predicates: [{ Field: 'CustomerId', Operator: 'Equals', Value: '251000111' }],
      Ordering: [{ Field: 'Name', Order: 'Ascending' }],
      PageInfo: { Index: 0, Size: 100 },
    });
    expect(await adapter.identify(c, null)).toMatchObject({ externalAccountId: '141000999', accountName: 'sandbox.marketer@example.com' });
    expect(await adapter.verify(c, sampleItem())).toContain('Sandbox Motors – Search');
    expect(adapter.oauth!.scopes).toEqual(['https://ads.microsoft.com/msads.manage', 'offline_access']);
  });
});
