/**
 * Routing complete (docs/telephony.md) through the real server and Twilio-signed webhooks: round robin, geo by FromState with
 * fallback, stagger, in-app calling, voicemail with the e-mail alert, override and holidays,
 * voicemail list/read/delete, tags, notes, qualification, blocks query version, tenant isolation.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XMLParser } from 'fast-xml-parser';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, postWebhook, startTestServer, type TestServer } from '../../../test/harness.js';

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  isArray: (name) => ['Number', 'Say', 'Client', 'Play'].includes(name),
});
const twiml = (body: string) => (xml.parse(body).Response ?? {}) as Record<string, any>;
const sid = () => 'CA' + crypto.randomBytes(16).toString('hex');
const text = (n: any) => (typeof n === 'string' ? n : n['#text']);
const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

let s: TestServer;
let owner: Account;

async function buyNumber(account: Account) {
  const found = await account.client.get('/api/numbers/search?type=local&areaCode=415&limit=20');
  const pick = found.body.data[Math.floor(Math.random() * found.body.data.length)];
  const r = await account.client.post('/api/numbers', { company_id: account.companyId, provider_id: pick.provider_id, number: pick.number });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: number; number: string };
}
async function setRoutes(account: Account, id: number, body: Record<string, unknown>) {
  const r = await account.client.put(`/api/numbers/${id}`, body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
}
const callRow = (callSid: string) => s.ctx.db.selectFrom('calls').selectAll().where('carrier_sid', '=', callSid).executeTakeFirstOrThrow();
const start = (to: string, callSid: string, extra: Record<string, string> = {}) =>
  postWebhook(s, '/webhooks/twilio/voice', {
    CallSid: callSid,
    AccountSid: s.ctx.config.twilioAccountSid,
    From: '+13125550142',
    To: to,
    CallStatus: 'ringing',
    Direction: 'inbound',
    FromState: 'IL',
    ...extra,
  });

beforeAll(async () => {
  s = await startTestServer();
  owner = await createAccount(s);
});
afterAll(async () => {
  await s?.close();
});

describe('routing through signed webhooks', () => {
  it('round robin: two calls start on different forwards; a no-answer moves on in the same rotation', async () => {
    const n = await buyNumber(owner);
    await setRoutes(owner, n.id, {
      routes: [{ round_robin: 'forwards', forwards: [{ number: '6465550101' }, { number: '6465550102' }, { number: '6465550103' }] }],
    });
    const a = sid();
    const b = sid();
    const d1 = twiml((await start(n.number, a)).body).Dial;
    const d2 = twiml((await start(n.number, b)).body).Dial;
    expect(d1.Number.map(text)).toEqual(['+16465550101']);
    expect(d2.Number.map(text)).toEqual(['+16465550102']);
    const next = twiml((await postWebhook(s, pathOf(d2.action), { CallSid: b, DialCallStatus: 'no-answer' })).body).Dial;
    expect(next.Number.map(text)).toEqual(['+16465550103']);
    const done = await postWebhook(s, pathOf(next.action), { CallSid: b, DialCallStatus: 'completed', DialCallDuration: '9' });
    expect(done.status).toBe(200);
    expect(await callRow(b)).toMatchObject({ status: 12, forwarded_to: '+16465550103' });
  });

  it('geo routes by FromState to the matching forwards, else to the static fallback', async () => {
    const n = await buyNumber(owner);
    await setRoutes(owner, n.id, { routes: [{ type: 'geo', forwards: [{ number: '3125550101' }, { number: '2125550102' }, { number: '6465550103' }] }] });
    // Forward states as the routing editor stores them (`states` per forward).
    const routes = (await s.ctx.db.selectFrom('numbers').select('routes').where('id', '=', n.id).executeTakeFirstOrThrow()).routes as any[];
    routes[0].forwards = [{ number: '+13125550101', states: ['IL'] }, { number: '+12125550102', states: ['NY'] }, { number: '+16465550103' }];
    await s.ctx.db
      .updateTable('numbers')
      .set({ routes: JSON.stringify(routes) })
      .where('id', '=', n.id)
      .execute();
    expect(twiml((await start(n.number, sid(), { FromState: 'NY' })).body).Dial.Number.map(text)).toEqual(['+12125550102']);
    expect(twiml((await start(n.number, sid(), { FromState: 'IL' })).body).Dial.Number.map(text)).toEqual(['+13125550101']);
    const tx = sid();
    expect(twiml((await start(n.number, tx, { FromState: 'TX' })).body).Dial.Number.map(text)).toEqual(['+16465550103']);
    expect((await callRow(tx)).from_state).toBe('TX');
  });

  it('stagger rings forwards one by one with the shorter leg timeout; caller ID shows the business number when pass-through is off', async () => {
    const n = await buyNumber(owner);
    await setRoutes(owner, n.id, {
      routes: [{ stagger: true, timeout: 40, caller_id_pass_thru: false, forwards: [{ number: '6465550101' }, { number: '6465550102' }] }],
    });
    const c = sid();
    const d1 = twiml((await start(n.number, c)).body).Dial;
    expect(d1.Number.map(text)).toEqual(['+16465550101']);
    expect(d1.timeout).toBe('10');
    expect(d1.callerId).toBe(n.number);
    const d2 = twiml((await postWebhook(s, pathOf(d1.action), { CallSid: c, DialCallStatus: 'no-answer' })).body).Dial;
    expect(d2.Number.map(text)).toEqual(['+16465550102']);
  });

  it('in-app calling dials <Client> for each active user; with nobody active it goes to voicemail', async () => {
    const n = await buyNumber(owner);
    await setRoutes(owner, n.id, { routes: [{ type: 'in-app-calling', voicemail_enabled: true }] });
    const away = twiml((await start(n.number, sid())).body);
    expect(away.Record).toBeDefined();
    await s.ctx.db.updateTable('users').set({ in_app_calling_status: 'active' }).where('id', '=', owner.userId).execute();
    const c = sid();
    const dial = twiml((await start(n.number, c)).body).Dial;
    expect(dial.Client.map(text)).toEqual([`user_${owner.userId}`]);
    await postWebhook(s, pathOf(dial.action), { CallSid: c, DialCallStatus: 'completed' });
    expect(await callRow(c)).toMatchObject({ status: 12, forwarded_to: `user_${owner.userId}` });
    await s.ctx.db.updateTable('users').set({ in_app_calling_status: 'away' }).where('id', '=', owner.userId).execute();
  });

  it('voicemail after no answer e-mails the alert address with a link; list, read, unread and delete it', async () => {
    const n = await buyNumber(owner);
    await setRoutes(owner, n.id, {
      routes: [{ voicemail_enabled: true, email_alert_address: 'alerts@example.test', label: 'Sales', forwards: [{ number: '6465550101' }] }],
    });
    const c = sid();
    const dial = twiml((await start(n.number, c)).body).Dial;
    const rec = twiml((await postWebhook(s, pathOf(dial.action), { CallSid: c, DialCallStatus: 'no-answer' })).body).Record;
    expect(rec.action).toContain('/voice/recording?ext=1');
    await s.ctx.blobs.put('sandbox/recordings/REalert.wav', Buffer.from('RIFF0000WAVE'));
    await postWebhook(s, pathOf(rec.action), {
      CallSid: c,
      RecordingUrl: s.ctx.blobs.signedUrl('sandbox/recordings/REalert.wav', 60_000),
      RecordingDuration: '6',
      RecordingSid: 'REalert',
    });
    const call = await callRow(c);
    expect(call.status).toBe(4);
    const mail = await s.ctx.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', 'alerts@example.test').executeTakeFirstOrThrow();
    expect(mail.subject).toBe('New voicemail from +13125550142');
    expect(mail.text_body).toContain(`${s.ctx.config.publicUrl}/calls/${call.id}`);
    expect(mail.text_body).toContain('(Sales)');

    const vmId = await eventually(async () => {
      const r = await owner.client.get(`/api/voicemails?company_id=${owner.companyId}`);
      const item = r.body.data.find((v: any) => v.call_id === call.id);
      return item?.recording_url.includes(`/files/c/${owner.companyId}/recordings/`) ? (item.id as number) : undefined;
    });
    // The mail's recording link is signed: it opens without a session (platform/blob/access.ts).
    const link = /Recording: (\S+)/.exec(mail.text_body)![1]!;
    expect(link).toMatch(/\?expires=\d+&signature=/);
    expect(await (await fetch(link)).text()).toBe('RIFF0000WAVE');
    const list = await owner.client.get(`/api/voicemails?company_id=${owner.companyId}&page=1`);
    expect(list.body.meta).toMatchObject({ current_page: 1, total: 1 });
    expect((await owner.client.put(`/api/voicemails/${vmId}/read`)).body.data.is_read).toBe(true);
    expect((await owner.client.put(`/api/voicemails/${vmId}/unread`)).body.data.is_read).toBe(false);
    const key = s.ctx.blobs.derivedKey(owner.companyId, 'recordings', String(vmId), '.wav');
    expect(await s.ctx.blobs.get(key)).not.toBeNull();
    const other = await createAccount(s);
    expect((await other.client.delete(`/api/voicemails/${vmId}`)).status).toBe(404);
    expect((await owner.client.delete(`/api/voicemails/${vmId}`)).status).toBe(200);
    expect(await s.ctx.blobs.get(key)).toBeNull();
    expect((await owner.client.get(`/api/voicemails?company_id=${owner.companyId}`)).body.data).toHaveLength(0);
  });

  it('the manual override and company holidays close the number; auto follows the schedule again', async () => {
    const n = await buyNumber(owner);
    await setRoutes(owner, n.id, { routes: [{ forwards: [{ number: '6465550101' }] }] });
    const closed = await owner.client.put(`/api/numbers/${n.id}/override`, { mode: 'closed' });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body.data).toMatchObject({ mode: 'closed', is_open: false });
    const c1 = sid();
    expect(twiml((await start(n.number, c1)).body).Say).toEqual(['We are currently closed. Please call again during business hours. Goodbye.']);
    expect((await callRow(c1)).status).toBe(10);
    expect((await owner.client.put(`/api/numbers/${n.id}/override`, { mode: 'auto' })).body.data.is_open).toBe(true);
    expect(twiml((await start(n.number, sid())).body).Dial).toBeDefined();
    // Holidays are local dates in the schedule's zone: yesterday, today and tomorrow (UTC) cover today there.
    const around = [-1, 0, 1].map((d) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10));
    expect((await owner.client.put(`/api/companies/${owner.companyId}/schedule`, { holidays: around })).status).toBe(200);
    expect(twiml((await start(n.number, sid())).body).Dial).toBeUndefined();
    expect(
      (await owner.client.put(`/api/numbers/${n.id}/override`, { mode: 'open', until: new Date(Date.now() + 3_600_000).toISOString() })).body.data.is_open,
    ).toBe(true);
    expect(twiml((await start(n.number, sid())).body).Dial).toBeDefined();
    await owner.client.put(`/api/companies/${owner.companyId}/schedule`, { holidays: [] });
    const other = await createAccount(s);
    expect((await other.client.put(`/api/numbers/${n.id}/override`, { mode: 'closed' })).status).toBe(404);
    expect((await owner.client.put(`/api/numbers/${n.id}/override`, { mode: 'closed', until: '2000-01-01T00:00:00Z' })).status).toBe(422);
  });
});

describe('call detail: tags, notes, qualification', () => {
  it('tags, notes and qualification show on the call; another company gets 404 everywhere', async () => {
    const n = await buyNumber(owner);
    const c = sid();
    await start(n.number, c);
    const id = (await callRow(c)).id;
    const tagged = await owner.client.post(`/api/calls/${id}/tags/tags`, { tags: ['Lead', 'vip', 'VIP'] });
    expect(tagged.status, JSON.stringify(tagged.body)).toBe(200);
    expect(tagged.body.data.map((t: any) => t.name)).toEqual(['Lead', 'vip']);
    const untagged = await owner.client.request('DELETE', `/api/calls/${id}/tags/tags`, { tags: ['LEAD'] });
    expect(untagged.body.data.map((t: any) => t.name)).toEqual(['vip']);

    const note = await owner.client.post('/api/notes', { model_type: 'call', model_id: id, body: 'Asked for a quote' });
    expect(note.status).toBe(201);
    const edited = await owner.client.put(`/api/notes/${note.body.data.id}`, { body: 'Asked for a quote by Friday' });
    expect(edited.body.data.body).toBe('Asked for a quote by Friday');

    // Custom fields of calls live in the shared EAV store (entity type Call 6), validated by type.
    const budget = (await owner.client.post('/api/eavEntityTypes/6/eavAttributes', { name: 'Budget', type: 'number', companyId: owner.companyId })).body.data;
    const contactField = (await owner.client.post('/api/eavEntityTypes/7/eavAttributes', { name: 'Tier', type: 'text', companyId: owner.companyId })).body.data;
    const patched = await owner.client.patch(`/api/calls/${id}`, { qualification: 3, eavAttributeValues: [{ attribute_id: budget.id, value: '5000' }] });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({
      qualification: 3,
      eavAttributeValues: [{ attribute_id: budget.id, value: 5000, name: 'Budget', type: 'number' }],
      isInbound: true,
    });
    const badValue = await owner.client.patch(`/api/calls/${id}`, { eavAttributeValues: [{ attribute_id: budget.id, value: 'lots' }] });
    expect(badValue.status).toBe(422);
    expect(badValue.body.errors['eavAttributeValues.0.value']).toEqual(['The Budget must be a number.']);
    const wrongType = await owner.client.patch(`/api/calls/${id}`, { eavAttributeValues: [{ attribute_id: contactField.id, value: 'x' }] });
    expect(wrongType.body.errors['eavAttributeValues.0.attribute_id']).toBeDefined();
    expect((await owner.client.get(`/api/calls/${id}`)).body.eavAttributeValues).toEqual([
      { attribute_id: budget.id, value: 5000, name: 'Budget', type: 'number' },
    ]);
    expect((await owner.client.patch(`/api/calls/${id}`, { qualification: 4 })).status).toBe(422);

    const detail = (await owner.client.get(`/api/calls/${id}`)).body;
    expect(detail.tags.map((t: any) => t.name)).toEqual(['vip']);
    expect(detail.note.body).toBe('Asked for a quote by Friday');
    expect(detail.history.length).toBeGreaterThan(0);

    const other = await createAccount(s);
    expect((await other.client.get(`/api/calls/${id}`)).status).toBe(404);
    expect((await other.client.patch(`/api/calls/${id}`, { qualification: 1 })).status).toBe(404);
    expect((await other.client.patch(`/api/calls/${id}`, { eavAttributeValues: [{ attribute_id: budget.id, value: 1 }] })).status).toBe(404);
    expect((await other.client.post(`/api/calls/${id}/tags/tags`, { tags: ['x'] })).status).toBe(404);
    expect((await other.client.post('/api/notes', { model_type: 'call', model_id: id, body: 'x' })).status).toBe(404);
    expect((await other.client.put(`/api/notes/${note.body.data.id}`, { body: 'x' })).status).toBe(404);
    expect((await other.client.delete(`/api/notes/${note.body.data.id}`)).status).toBe(404);

    expect((await owner.client.delete(`/api/notes/${note.body.data.id}`)).status).toBe(200);
    expect((await owner.client.get(`/api/calls/${id}`)).body.note).toBeNull();
  });

  it('blocks: the query version pages with perPage (default 1000)', async () => {
    for (const t of ['7735550181', '7735550182', '7735550183']) {
      expect((await owner.client.post('/api/blocks', { company_id: owner.companyId, target: t, global: true, action: 'reject' })).status).toBe(201);
    }
    const all = await owner.client.get(`/api/blocks?company_id=${owner.companyId}`);
    expect(all.body.meta).toMatchObject({ per_page: 1000, total: 3, last_page: 1 });
    const page2 = await owner.client.get(`/api/blocks?company_id=${owner.companyId}&perPage=2&page=2`);
    expect(page2.body.data).toHaveLength(1);
    expect(page2.body.meta).toMatchObject({ current_page: 2, last_page: 2 });
    const paged = await owner.client.get(`/api/blocks/${owner.companyId}`);
    expect(paged.body.meta.per_page).toBe(50);
  });
});
