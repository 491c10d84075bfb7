/**
 * The numbers API says what spec 002 says (§3 "Number", §7 "Numbers"), through the real server:
 * POST /numbers with the spec's payload (company_id, provider_id), the spec's Number fields alike
 * in the list, the datatable, GET /numbers/list/{id or number} and GET /numbers/{id}, the number's
 * call settings (and the §5 ai_eav_enabled rule), and the type label agreeing with the
 * enumerations answer (docs/domain-decisions.md "Number type labels").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, postWebhook, startTestServer, type TestServer } from '../../../test/harness.js';
import { buyTestNumber } from '../messaging/messaging.test-helpers.js';

let s: TestServer;
let owner: Account;
let other: Account;

const SPEC_FIELDS = [
  'id',
  'label',
  'number',
  'routes',
  'forwards',
  'tags',
  'port',
  'triggers',
  'eavAttributeValues',
  'unread_messages_count',
  'hasNotificationBlocks',
  'call_transcription_enabled',
  'sms_enabled',
  'sms_verification',
  'record',
  'ai_eav_enabled',
] as const;

beforeAll(async () => {
  // Port-ins complete quickly (the sandbox's port-in timing), for the `port` field.
  process.env.SANDBOX_PORT_PROGRESS_MS = '100';
  process.env.SANDBOX_PORT_COMPLETE_MS = '300';
  s = await startTestServer();
  [owner, other] = await Promise.all([createAccount(s), createAccount(s)]);
});
afterAll(async () => {
  await s?.close();
  delete process.env.SANDBOX_PORT_PROGRESS_MS;
  delete process.env.SANDBOX_PORT_COMPLETE_MS;
});

describe('POST /numbers with the spec payload', () => {
  it("buys a toll-free number for the toll-free registry and a local one in the area code given or the newest number's", async () => {
    const acct = await createAccount(s);
    const tollFree = await acct.client.post('/api/numbers', { company_id: acct.companyId, provider_id: 2 });
    expect(tollFree.status).toBe(201);
    expect(tollFree.body.number).toMatch(/^\+18(00|33|44|55|66|77|88)\d{7}$/);
    expect(tollFree.body.type).toBe(2);
    expect(tollFree.body.provider_id).toBe(2);

    // A local number without an area code: none known yet for a company with only a toll-free number.
    const none = await acct.client.post('/api/numbers', { company_id: acct.companyId, provider_id: 1 });
    expect(none.status).toBe(422);
    expect(none.body.errors.area_code).toEqual(['The area code field is required when no number is given.']);

    const local = await acct.client.post('/api/numbers', { company_id: acct.companyId, provider_id: 1, area_code: '312' });
    expect(local.status).toBe(201);
    expect(local.body.number).toMatch(/^\+1312\d{7}$/);
    expect(local.body.type).toBe(1);

    // Now the newest number's area code (312) is used.
    const again = await acct.client.post('/api/numbers', { company_id: acct.companyId, provider_id: 1 });
    expect(again.status).toBe(201);
    expect(again.body.number).toMatch(/^\+1312\d{7}$/);
    expect(again.body.number).not.toBe(local.body.number);

    // The number may still come with it, as `number` or as the spec's `national_number`.
    const pick = (await acct.client.get('/api/numbers/search?type=local&areaCode=617&limit=2')).body.data;
    const withNumber = await acct.client.post('/api/numbers', { company_id: acct.companyId, provider_id: 1, national_number: pick[1].national_number });
    expect(withNumber.status).toBe(201);
    expect(withNumber.body.number).toBe(pick[1].number);
    const junk = await acct.client.post('/api/numbers', { company_id: acct.companyId, provider_id: 1, national_number: 'abc' });
    expect(junk.status).toBe(422);
    expect(junk.body.errors.national_number).toBeDefined();
    expect((await acct.client.post('/api/numbers', { company_id: acct.companyId, provider_id: 1, area_code: '31' })).status).toBe(422);
    expect((await acct.client.post('/api/numbers', { company_id: acct.companyId })).status).toBe(422);
    // Another company cannot buy into this one.
    expect((await other.client.post('/api/numbers', { company_id: acct.companyId, provider_id: 2 })).status).toBe(403);
  });
});

describe('the spec Number fields', () => {
  it('are the same in the list, the datatable, GET /numbers/list/{id or number} and GET /numbers/{id}', async () => {
    const n = await buyTestNumber(owner, '212');
    // Routes with forwards, a trigger, a custom-field value, unread texts and a muted channel.
    const put = await owner.client.put(`/api/numbers/${n.id}`, {
      routes: [
        { extension: 1, forwards: [{ number: '+13125550101' }, { number: '+13125550102' }] },
        { extension: 2, forwards: [{ number: '+13125550103' }] },
      ],
      record: true,
      call_transcription_enabled: true,
    });
    expect(put.status).toBe(200);
    const trig = await owner.client.put(`/api/companies/${owner.companyId}/triggers`, {
      upsert: [{ number_id: n.id, event: 'call.missed', action: 'email', target: 'ops@example.com' }],
    });
    expect(trig.status).toBe(200);
    const attr = await owner.client.post('/api/eavEntityTypes/1/eavAttributes', { name: 'Campaign source', type: 'text', companyId: owner.companyId });
    expect(attr.status).toBe(201);
    const attrId = attr.body.data.id;
    expect((await owner.client.put(`/api/numbers/${n.id}`, { eavAttributeValues: [{ attribute_id: attrId, value: 'Billboard' }] })).status).toBe(200);
    for (const [i, body] of ['first', 'second'].entries()) {
      const r = await postWebhook(s, '/webhooks/twilio/messaging', {
        MessageSid: `SMspecalign${String(i).padStart(23, '0')}`,
        From: '+13125550150',
        To: n.number,
        Body: body,
        NumMedia: '0',
      });
      expect(r.status).toBe(200);
    }
    expect((await owner.client.post(`/api/companies/${owner.companyId}/notificationBlocks`, { number_id: n.id, channel_types: ['call'] })).status).toBe(200);

    const list = (await owner.client.get(`/api/companies/${owner.companyId}/numbers`)).body.data.find((x: any) => x.id === n.id);
    const table = (await owner.client.get(`/api/companies/${owner.companyId}/numbers/datatable?perPage=100`)).body.data.find((x: any) => x.id === n.id);
    const byId = (await owner.client.get(`/api/numbers/list/${n.id}?include=sms-verification`)).body;
    const byNumber = (await owner.client.get(`/api/numbers/list/${encodeURIComponent(n.number)}`)).body;
    const one = (await owner.client.get(`/api/numbers/${n.id}`)).body;
    for (const view of [list, table, byId, byNumber, one]) {
      for (const field of SPEC_FIELDS) expect(view, field).toHaveProperty(field);
      expect(view.routes.map((r: any) => r._id)).toEqual([`${n.id}.1`, `${n.id}.2`]);
      expect(view.routes[0].forwards).toEqual([
        { _id: `${n.id}.1.0`, number: '+13125550101' },
        { _id: `${n.id}.1.1`, number: '+13125550102' },
      ]);
      expect(view.forwards).toEqual([
        { _id: `${n.id}.1.0`, number: '+13125550101' },
        { _id: `${n.id}.1.1`, number: '+13125550102' },
        { _id: `${n.id}.2.0`, number: '+13125550103' },
      ]);
      expect(view.triggers).toEqual([expect.objectContaining({ number_id: n.id, event: 'call.missed', action: 'email', target: 'ops@example.com' })]);
      expect(view.eavAttributeValues).toEqual([expect.objectContaining({ attribute_id: attrId, value: 'Billboard' })]);
      expect(view.unread_messages_count).toBe(2);
      expect(view.hasNotificationBlocks).toBe(true);
      expect(view).toMatchObject({
        tags: [],
        port: null,
        sms_enabled: true,
        sms_verification: { status: 'unverified' },
        record: true,
        call_transcription_enabled: true,
        ai_eav_enabled: false,
      });
    }
    // The same fields in the same values everywhere (the detail adds only its labels).
    const pickSpec = (v: any) => Object.fromEntries(SPEC_FIELDS.map((f) => [f, v[f]]));
    for (const view of [table, byId, byNumber, one]) expect(pickSpec(view)).toEqual(pickSpec(list));

    // Reading the thread clears the unread count; unmuting clears the flag.
    const conv = (await owner.client.get(`/api/companies/${owner.companyId}/conversations`)).body.data.find((c: any) => c.number.id === n.id);
    expect(typeof conv.conversationId).toBe('number');
    expect(conv.conversationId).toBe(conv.id);
    const items = (await owner.client.get(`/api/companies/${owner.companyId}/conversations/${conv.id}/items`)).body.data;
    expect(items.every((i: any) => i.conversationId === conv.id)).toBe(true);
    expect((await owner.client.put(`/api/companies/${owner.companyId}/conversations/${conv.id}/read-all`)).status).toBe(200);
    await owner.client.request('DELETE', `/api/companies/${owner.companyId}/notificationBlocks`, { number_id: n.id, channel_types: ['call'] });
    const after = (await owner.client.get(`/api/numbers/list/${n.id}`)).body;
    expect(after.unread_messages_count).toBe(0);
    expect(after.hasNotificationBlocks).toBe(false);

    // Other companies see none of it.
    expect((await other.client.get(`/api/numbers/list/${n.id}`)).status).toBe(404);
    expect((await other.client.get(`/api/numbers/${n.id}`)).status).toBe(404);
  });

  it('stores record, transcription and AI custom fields; with ai_eav_enabled on, record and transcription in the same payload are left as they were', async () => {
    const n = await buyTestNumber(owner, '213');
    const fresh = (await owner.client.get(`/api/numbers/${n.id}`)).body;
    expect(fresh).toMatchObject({ record: false, call_transcription_enabled: false, ai_eav_enabled: false });
    const on = await owner.client.put(`/api/numbers/${n.id}`, { record: true, call_transcription_enabled: true });
    expect(on.body.data).toMatchObject({ record: true, call_transcription_enabled: true, ai_eav_enabled: false });
    const ai = await owner.client.put(`/api/numbers/${n.id}`, { ai_eav_enabled: true, record: false, call_transcription_enabled: false });
    expect(ai.body.data).toMatchObject({ record: true, call_transcription_enabled: true, ai_eav_enabled: true });
    const stored = await s.ctx.db
      .selectFrom('numbers')
      .select(['record', 'call_transcription_enabled', 'ai_eav_enabled'])
      .where('id', '=', n.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ record: true, call_transcription_enabled: true, ai_eav_enabled: true });
    expect((await owner.client.put(`/api/numbers/${n.id}`, { record: 'yes' })).status).toBe(422);

    // Applying a template copies its call settings.
    const base = `/api/companies/${owner.companyId}/numberTemplates`;
    const t = (await owner.client.post(base, { name: 'Recorded', record: true, call_transcription_enabled: false })).body.data;
    const n2 = await buyTestNumber(owner, '213', 1);
    const applied = await owner.client.post(`${base}/${t.id}/apply`, { number_ids: [n2.id] });
    expect(applied.status).toBe(200);
    expect(applied.body.data[0]).toMatchObject({ id: n2.id, record: true, call_transcription_enabled: false, ai_eav_enabled: false });
  });
});

describe('the port field', () => {
  it('names the completed port-in request that brought the number; null for a bought number', async () => {
    const acct = await createAccount(s);
    const bought = await buyTestNumber(acct, '512');
    const r = await acct.client.post(`/api/company/${acct.companyId}/numbers/port`, {
      numbers: ['(737) 555-0142'],
      carrier_name: 'Old Telco',
      account_number: 'A-1',
      pin: '1234',
      authorized_name: 'Pat Owner',
      service_address: '1 Main St, Austin TX',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const portId = r.body.data.id;
    const ported = await eventually(async () =>
      (await acct.client.get(`/api/companies/${acct.companyId}/numbers`)).body.data.find((n: any) => n.number === '+17375550142'),
    );
    expect(ported.port).toEqual({ id: portId, state: 'completed' });
    expect((await acct.client.get(`/api/numbers/list/${ported.id}`)).body.port).toEqual({ id: portId, state: 'completed' });
    expect((await acct.client.get(`/api/companies/${acct.companyId}/numbers/datatable`)).body.data.find((n: any) => n.id === ported.id).port).toEqual({
      id: portId,
      state: 'completed',
    });
    expect((await acct.client.get(`/api/numbers/${bought.id}`)).body.port).toBeNull();
  });
});

describe('number type labels', () => {
  it("a number's type_label is the one the enumerations answer gives for its type", async () => {
    const enums = (await owner.client.get('/api/numbers/enumerations')).body;
    expect(enums.number_types).toEqual([
      { id: 1, label: 'Local', type_label: 'Local Voice & SMS' },
      { id: 2, label: 'Toll free', type_label: 'Toll-Free Voice & SMS' },
      { id: 3, label: 'Canadian', type_label: 'Local Voice & SMS' },
    ]);
    const local = await buyTestNumber(owner, '415');
    const tollFree = (await owner.client.post('/api/numbers', { company_id: owner.companyId, provider_id: 2 })).body;
    for (const id of [local.id, tollFree.id]) {
      const n = (await owner.client.get(`/api/numbers/list/${id}`)).body;
      const row = enums.number_types.find((t: any) => t.id === n.type);
      expect(n.type_label).toBe(row.type_label);
      // The spec's label table (its own ids) names the same label for this type.
      const labelRow = enums.number_type_labels.find((l: any) => l.label === n.type_label);
      expect(labelRow.types).toContain(n.type);
    }
    expect((await owner.client.get(`/api/numbers/list/${tollFree.id}`)).body.type_label).toBe('Toll-Free Voice & SMS');
  });
});
