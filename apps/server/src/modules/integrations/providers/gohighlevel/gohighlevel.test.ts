/**
 * GoHighLevel adapter against a local stand-in of API v2 (its sandbox over HTTP): `Version` headers, agency token
 * exchanged for a location token, contact upsert, the call logged through the conversation provider once across
 * retries, outcome set later as contact tags, the 100 / 10 s burst limit answered with its headers, expired token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimitedError, ReconnectNeededError } from '../provider.js';
import { sampleItem, startStandIn, testConnection, type StandIn } from '../metaads/standin-http.js';
import { goHighLevelAdapter as adapter } from './gohighlevel.adapter.js';
import { goHighLevelSandbox } from './gohighlevel.sandbox.js';

describe('GoHighLevel adapter', () => {
  const sandbox = goHighLevelSandbox();
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
  const app = { GOHIGHLEVEL_CONVERSATION_PROVIDER_ID: 'cp-sandbox-1', GOHIGHLEVEL_APP_ID: 'app-1' };
  const conn = (over: Parameters<typeof testConnection>[2] = {}) =>
    testConnection('gohighlevel', standIn.baseUrl, { config: { userType: 'Location', locationId: 'sbxLoc0001MotorsAAA' }, app, ...over });
  const last = (path: string) => standIn.requests.filter((r) => r.path === path).at(-1)!;

  it('upserts the contact and logs the inbound call through the conversation provider, with Version headers', async () => {
    const item = sampleItem();
    const answer = await adapter.deliver(conn(), [item]);
    expect(answer.items[0]).toMatchObject({ result: 'delivered', providerRef: expect.stringMatching(/^message:/) });
    const upsert = last('/contacts/upsert');
    expect(upsert.headers.version).toBe('2021-07-28');
    expect(JSON.parse(upsert.body)).toEqual({
      locationId: 'sbxLoc0001MotorsAAA',
      phone: '+15550102030',
      email: 'jane.oneil@example.com',
      firstName: 'Jane',
      lastName: "O'Neil",
      source: 'Call tracking: facebook / cpc / spring-sale',
    });
    const inbound = last('/conversations/messages/inbound');
    expect(inbound.headers.version).toBe('2021-04-15');
    expect(JSON.parse(inbound.body)).toEqual({
      type: 'Call',
      conversationId: expect.any(String),
      conversationProviderId: 'cp-sandbox-1',
      date: '2026-11-29T14:05:00.000Z',
      call: { from: '+15550102030', to: '+15550009999', status: 'completed' },
      contactId: expect.any(String),
      direction: 'inbound',
      message:
        'Inbound call, 1:35 on Meta – Spring sale\nSummary: Asked about the blue SUV; booked a test drive for Saturday.\nSource: facebook / cpc / spring-sale\nCall and transcript: https://app.example.com/calls/4242\nRecording: https://app.example.com/files/recordings/4242.mp3?sig=abc\nTranscript: Caller: Hi, is the blue SUV still available? Agent: Yes, it is.',
    });
  });

  it('does not log the same call twice on a retry, and tags the contact when the outcome is set later', async () => {
    const item = sampleItem();
    expect(adapter.dedupKey(item)).toBe('call:4242@2026-11-29T14:05:00.000Z');
    const retry = await adapter.deliver(conn(), [item]);
    expect(retry.items[0]!.result).toBe('duplicate');
    expect(sandbox.sent().filter((s) => s.summary.startsWith('Inbound call'))).toHaveLength(1);
    const outcome = sampleItem({ kind: 'outcome', deliveryKey: '9:outcome:4242', call: { outcome: 'appt_booked' } });
    const a = await adapter.deliver(conn(), [outcome]);
    expect(a.items[0]!.message).toBe('Tagged outcome:appt_booked, department:sales.');
    expect(sandbox.sent().at(-1)!.summary).toMatch(/outcome:appt_booked, department:sales$/);
  });

  it('exchanges an agency token for a location token first', async () => {
    const agency = conn({ config: { userType: 'Company', companyId: 'sbxCompany01', locationId: 'sbxLoc0002DentalAAA' } });
    await adapter.deliver(agency, [sampleItem({ deliveryKey: '9:call:77', call: { id: 77, startedAt: '2026-11-29T10:00:00.000Z' } })]);
    const exchange = last('/oauth/locationToken');
    expect(exchange.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(exchange.body))).toEqual({ companyId: 'sbxCompany01', locationId: 'sbxLoc0002DentalAAA' });
    expect(last('/contacts/upsert').headers.authorization).toBe('Bearer sandbox-loc-sbxLoc0002DentalAAA');
    expect((await adapter.lookups.locations!(agency, {})).items.map((l) => l.name)).toEqual(['Sandbox Motors', 'Sandbox Dental']);
    expect(await adapter.identify(conn(), { access_token: 'sandbox-x', userType: 'Location', locationId: 'sbxLoc0001MotorsAAA', companyId: 'c1' })).toEqual({
      externalAccountId: 'sbxLoc0001MotorsAAA',
      accountName: 'Sandbox Motors',
      config: { userType: 'Location', companyId: 'c1', locationId: 'sbxLoc0001MotorsAAA' },
    });
  });

  it('identifies a grant without location (sandbox authorization server): the location is chosen later', async () => {
    expect(await adapter.identify(conn({ config: {} }), { access_token: 'sandbox-x' })).toEqual({
      externalAccountId: 'ghl-9',
      accountName: 'GoHighLevel sub-account',
      config: { userType: 'Location', companyId: '' },
    });
  });

  it('honours the burst limit (429 with X-RateLimit headers) and maps an invalid token to reconnect', async () => {
    next = Response.json(
      { statusCode: 429, message: 'Too many requests' },
      { status: 429, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-interval-milliseconds': '10000', 'x-ratelimit-daily-remaining': '150000' } },
    );
    const err = await adapter.deliver(conn(), [sampleItem()]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterMs).toBe(10_000);
    expect(adapter.rateLimit).toEqual({ requests: 100, perMs: 10_000, scope: 'integration' });
    await expect(adapter.deliver(conn({ accessToken: 'expired-jwt' }), [sampleItem()])).rejects.toBeInstanceOf(ReconnectNeededError);
  });
});
