/**
 * Enhanced caller ID through the real server (docs/caller-id.md): the call and message routes with
 * lookupWhenMissing on and off, the provider vs the cache (the `caller-id.looked-up` event's
 * source), TTL expiry, the negative cache, coalescing, provider failures (503, nothing cached),
 * the manual lookup, 422s, another company's ids, roles, the automatic lookup of inbound callers,
 * and `enhancedCallerId` on conversations and activity items.
 */
import { CALLER_ID_NOT_FOUND } from '@switchboard/domain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, postWebhook, startTestServer, type TestServer } from '../../../test/harness.js';
import { events } from '../../platform/events/index.js';
import { failNextSandboxLookups } from '../../platform/lookup/index.js';
import { addCompanyMember } from '../companies/companies.service.js';
import { createContact } from '../contacts/contacts.service.js';
import { buyTestNumber } from '../messaging/messaging.test-helpers.js';

let s: TestServer;
let a: Account;
let b: Account;
let reader: Account;
let numberA: { id: number; number: string };
let numberB: { id: number; number: string };
const seen: Array<{ companyId: number; e164: string; source: string; found: boolean }> = [];
let off: () => void;

const TTL_S = 3;
const NEGATIVE_TTL_S = 1;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The id of company `acc`'s call from `from` (through the activity feed). */
async function callIdFrom(acc: Account, from: string): Promise<number> {
  return eventually(async () => {
    const r = await acc.client.get(`/api/activity?company=${acc.companyId}&per_page=50`);
    return r.body?.data?.find((i: any) => i.from === from && i.call_id)?.call_id as number | undefined;
  }, 15_000);
}

beforeAll(async () => {
  s = await startTestServer({
    lookup: { adapter: 'sandbox', cacheTtlS: TTL_S, negativeTtlS: NEGATIVE_TTL_S, sandboxLatencyMs: 150, twilioBaseUrl: 'http://127.0.0.1:9' },
  });
  off = events.consume('test.caller-id-seen', 'caller-id.looked-up', (_ctx, e) => {
    seen.push(e);
  });
  a = await createAccount(s);
  b = await createAccount(s);
  reader = await createAccount(s);
  await addCompanyMember(s.ctx, a.companyId, reader.userId, 'reporting');
  // Company a looks callers up only on request (so the tests see the provider); b keeps the default (automatic).
  expect((await a.client.get(`/api/companies/${a.companyId}/caller-id/settings`)).body).toEqual({ autoLookup: true });
  const put = await a.client.put(`/api/companies/${a.companyId}/caller-id/settings`, { autoLookup: false });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  expect((await a.client.get(`/api/companies/${a.companyId}/caller-id/settings`)).body).toEqual({ autoLookup: false });
  numberA = await buyTestNumber(a, '212');
  numberB = await buyTestNumber(b, '646');
  await createContact(s.ctx, a.companyId, { name: 'Priya Shah', number: '+16175550123' });
  for (const from of ['+14155550198', '+13125550000', '+16175550123']) {
    const r = await a.client.post('/api/simulator/calls', { from, to: numberA.number, forwards: {} });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
}, 120_000);

afterAll(async () => {
  off?.();
  await s?.close();
});

beforeEach(() => {
  seen.length = 0;
});

describe('GET /api/calls/{id}/enhanced-caller-id', () => {
  it('answers missing without a lookup, then asks the provider once and serves the cache until the TTL expires', async () => {
    const id = await callIdFrom(a, '+14155550198');
    const missing = await a.client.get(`/api/calls/${id}/enhanced-caller-id?lookupWhenMissing=0`);
    expect(missing.status, JSON.stringify(missing.body)).toBe(200);
    expect(missing.body).toMatchObject({ number: '+14155550198', status: 'missing', displayName: null, callerName: null, source: null, message: null });
    expect(seen).toEqual([]);

    const looked = await a.client.get(`/api/calls/${id}/enhanced-caller-id?lookupWhenMissing=1`);
    expect(looked.status).toBe(200);
    expect(looked.body).toMatchObject({
      number: '+14155550198',
      status: 'found',
      displayName: 'CARTER PLUMBING',
      contact: null,
      callerName: 'CARTER PLUMBING',
      callerType: 'business',
      lineType: 'landline',
      carrierName: 'Pacific Bell',
      countryCode: 'US',
      source: 'provider',
      message: null,
    });
    const ttl = Date.parse(looked.body.expiresAt) - Date.parse(looked.body.lookedUpAt);
    expect(ttl).toBe(TTL_S * 1000);
    expect(seen).toEqual([{ companyId: a.companyId, e164: '+14155550198', source: 'provider', found: true }]);

    // Cache hit, with or without lookupWhenMissing.
    for (const flag of ['0', '1']) {
      const again = await a.client.get(`/api/calls/${id}/enhanced-caller-id?lookupWhenMissing=${flag}`);
      expect(again.body).toMatchObject({ status: 'found', source: 'cache', callerName: 'CARTER PLUMBING', lookedUpAt: looked.body.lookedUpAt });
    }
    expect(seen.map((e) => e.source)).toEqual(['provider', 'cache', 'cache']);

    // After the TTL the answer is stale: missing without a lookup, the provider again with one.
    await sleep(TTL_S * 1000 + 200);
    expect((await a.client.get(`/api/calls/${id}/enhanced-caller-id`)).body).toMatchObject({ status: 'missing', source: null });
    const fresh = await a.client.get(`/api/calls/${id}/enhanced-caller-id?lookupWhenMissing=1`);
    expect(fresh.body).toMatchObject({ status: 'found', source: 'provider' });
    expect(Date.parse(fresh.body.lookedUpAt)).toBeGreaterThan(Date.parse(looked.body.lookedUpAt));
  }, 30_000);

  it('caches a not-found answer for the shorter negative TTL, with the spec notice', async () => {
    const id = await callIdFrom(a, '+13125550000');
    const nf = await a.client.get(`/api/calls/${id}/enhanced-caller-id?lookupWhenMissing=1`);
    expect(nf.status).toBe(200);
    expect(nf.body).toMatchObject({ status: 'not_found', displayName: null, callerName: null, source: 'provider', message: CALLER_ID_NOT_FOUND });
    expect(nf.body.message).toBe('This number is withheld or not registered in national databases.');
    expect(Date.parse(nf.body.expiresAt) - Date.parse(nf.body.lookedUpAt)).toBe(NEGATIVE_TTL_S * 1000);
    const cached = await a.client.get(`/api/calls/${id}/enhanced-caller-id`);
    expect(cached.body).toMatchObject({ status: 'not_found', source: 'cache', message: CALLER_ID_NOT_FOUND });
    expect(seen).toEqual([
      { companyId: a.companyId, e164: '+13125550000', source: 'provider', found: false },
      { companyId: a.companyId, e164: '+13125550000', source: 'cache', found: false },
    ]);
    await sleep(NEGATIVE_TTL_S * 1000 + 200);
    expect((await a.client.get(`/api/calls/${id}/enhanced-caller-id`)).body).toMatchObject({ status: 'missing' });
  });

  it("puts the company's contact name first", async () => {
    const id = await callIdFrom(a, '+16175550123');
    const r = await a.client.get(`/api/calls/${id}/enhanced-caller-id?lookupWhenMissing=1`);
    expect(r.body).toMatchObject({ status: 'found', displayName: 'Priya Shah', callerName: 'SHAH PRIYA', contact: { name: 'Priya Shah' }, lineType: 'mobile' });
  });

  it('refuses bad input (422), hides another company’s call (404) and lets a reporting member read', async () => {
    const id = await callIdFrom(a, '+14155550198');
    const bad = await a.client.get(`/api/calls/${id}/enhanced-caller-id?lookupWhenMissing=maybe`);
    expect(bad.status).toBe(422);
    expect((await a.client.get('/api/calls/abc/enhanced-caller-id')).status).toBe(422);
    expect((await a.client.get('/api/calls/99999999/enhanced-caller-id')).status).toBe(404);
    expect((await b.client.get(`/api/calls/${id}/enhanced-caller-id?lookupWhenMissing=1`)).status).toBe(404);
    const asReader = await reader.client.get(`/api/calls/${id}/enhanced-caller-id`);
    expect(asReader.status).toBe(200);
    expect(asReader.body.number).toBe('+14155550198');
  });
});

describe('POST /api/company/{companyId}/trestle/lookup', () => {
  it('coalesces concurrent lookups of one number into one provider request', async () => {
    const all = await Promise.all(Array.from({ length: 5 }, () => a.client.post(`/api/company/${a.companyId}/trestle/lookup`, { number: '(646) 555-0103' })));
    for (const r of all) expect(r.body).toMatchObject({ number: '+16465550103', status: 'found', callerName: 'OKAFOR CHIDI' });
    expect(all.map((r) => r.body.source).sort()).toEqual(['cache', 'cache', 'cache', 'cache', 'provider']);
    expect(seen.filter((e) => e.source === 'provider')).toHaveLength(1);
    expect(seen).toHaveLength(5);
  });

  it('answers 503 with Retry-After on a provider failure and caches nothing', async () => {
    failNextSandboxLookups(1);
    const failed = await a.client.post(`/api/company/${a.companyId}/trestle/lookup`, { number: '+12025550143' });
    expect(failed.status).toBe(503);
    expect(failed.headers.get('retry-after')).toBe('30');
    expect(failed.body.message).toMatch(/lookup is unavailable/);
    expect(seen).toEqual([]);
    const call = await a.client.post(`/api/company/${a.companyId}/trestle/lookup`, { number: '+12025550143' });
    expect(call.status).toBe(200);
    expect(call.body).toMatchObject({ status: 'found', source: 'provider', callerName: 'CAPITOL HVAC CO' });
    // The sandbox's failing numbers (last digits 0503) fail every time.
    expect((await a.client.post(`/api/company/${a.companyId}/trestle/lookup`, { number: '+12125550503' })).status).toBe(503);
  });

  it('validates the number (422), checks the company (403) and the role (403)', async () => {
    const bad = await a.client.post(`/api/company/${a.companyId}/trestle/lookup`, { number: 'not a number' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.number).toBeDefined();
    const empty = await a.client.post(`/api/company/${a.companyId}/trestle/lookup`, {});
    expect(empty.status).toBe(422);
    expect(empty.body.errors.number).toBeDefined();
    expect((await b.client.post(`/api/company/${a.companyId}/trestle/lookup`, { number: '+14155550198' })).status).toBe(403);
    expect((await reader.client.post(`/api/company/${a.companyId}/trestle/lookup`, { number: '+14155550198' })).status).toBe(403);
    expect((await reader.client.put(`/api/companies/${a.companyId}/caller-id/settings`, { autoLookup: true })).status).toBe(403);
    expect((await a.client.put(`/api/companies/${a.companyId}/caller-id/settings`, { autoLookup: 'yes' })).status).toBe(422);
    expect(seen).toEqual([]);
  });
});

describe('GET /api/messages/{id}/enhanced-caller-id and the inbox', () => {
  it("serves the message's party and the conversation list carries enhancedCallerId once looked up", async () => {
    const r = await postWebhook(s, '/webhooks/twilio/messaging', {
      MessageSid: 'SMcallerid000000000000000000000001',
      From: '+16465550102',
      To: numberA.number,
      Body: 'Do you do implants?',
      NumMedia: '0',
    });
    expect(r.status).toBe(200);
    const conv = await eventually(async () => {
      const list = await a.client.get(`/api/companies/${a.companyId}/conversations?perPage=50`);
      return list.body.data?.find((c: any) => c.recipient === '+16465550102');
    });
    expect(conv.enhancedCallerId).toBeNull();
    const items = await a.client.get(`/api/companies/${a.companyId}/conversations/${conv.id}/items`);
    const messageId = items.body.data[0].id;

    expect((await a.client.get(`/api/messages/${messageId}/enhanced-caller-id`)).body).toMatchObject({ status: 'missing' });
    expect((await b.client.get(`/api/messages/${messageId}/enhanced-caller-id?lookupWhenMissing=1`)).status).toBe(404);
    // A reporting member has no inbox.read in company a: the message looks absent (404), as another company's.
    expect((await reader.client.get(`/api/messages/${messageId}/enhanced-caller-id`)).status).toBe(404);
    expect((await a.client.get('/api/messages/99999999/enhanced-caller-id')).status).toBe(404);
    expect(seen).toEqual([]);

    const looked = await a.client.get(`/api/messages/${messageId}/enhanced-caller-id?lookupWhenMissing=1`);
    expect(looked.body).toMatchObject({ number: '+16465550102', status: 'found', displayName: 'BROOKLYN DENTAL', lineType: 'fixedVoip', source: 'provider' });

    const list = await a.client.get(`/api/companies/${a.companyId}/conversations?perPage=50`);
    const after = list.body.data.find((c: any) => c.recipient === '+16465550102');
    expect(after.enhancedCallerId).toMatchObject({ number: '+16465550102', status: 'found', displayName: 'BROOKLYN DENTAL', source: 'cache', contact: null });

    const activity = await eventually(async () => {
      const res = await a.client.get(`/api/activity?company=${a.companyId}&per_page=50`);
      const item = res.body.data?.find((i: any) => i.kind === 'message' && i.from === '+16465550102');
      return item?.enhanced_caller_id ? item : null;
    });
    expect(activity.enhanced_caller_id).toMatchObject({ status: 'found', callerName: 'BROOKLYN DENTAL' });
  });
});

describe('automatic lookups', () => {
  it("looks a new inbound caller up when the company's setting is on (the default)", async () => {
    const r = await b.client.post('/api/simulator/calls', { from: '+13125557777', to: numberB.number, forwards: {} });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const id = await callIdFrom(b, '+13125557777');
    const found = await eventually(async () => {
      const res = await b.client.get(`/api/calls/${id}/enhanced-caller-id`);
      return res.body.status === 'found' ? res.body : null;
    }, 15_000);
    expect(found).toMatchObject({ callerName: 'NGUYEN THOMAS', source: 'cache' });
    expect(seen.find((e) => e.source === 'provider')).toEqual({ companyId: b.companyId, e164: '+13125557777', source: 'provider', found: true });
  }, 30_000);
});
