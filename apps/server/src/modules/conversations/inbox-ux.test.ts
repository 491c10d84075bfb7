/**
 * What a new user tripped over in the inbox and the call detail, through the real server (sandbox
 * simulator calls, signed webhooks, the HTTP API):
 * - a blocked caller's call starts no conversation and counts nothing unread (it stays in Activity
 *   as Blocked); a blocked caller's text is kept but arrives read, and the conversation says so;
 * - known callers carry the contact's name and the business number's label in Voicemail, Activity
 *   and the call detail;
 * - a voicemail has one length everywhere (the recording's): thread, Activity, Voicemail, detail;
 * - the call detail lists each forward with its real outcome and words every history step;
 * - the voicemail e-mail links to the call's page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, postWebhook, startTestServer, type TestServer } from '../../../test/harness.js';
import * as migration0014 from '../../platform/migrations/0014_voicemail_item_duration.js';

let s: TestServer;
let owner: Account;
let sms = 0;

async function buyNumber(account: Account, areaCode = '415') {
  const found = await account.client.get(`/api/numbers/search?type=local&areaCode=${areaCode}&limit=20`);
  const pick = found.body.data[Math.floor(Math.random() * found.body.data.length)];
  const r = await account.client.post('/api/numbers', { company_id: account.companyId, provider_id: pick.provider_id, number: pick.number });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: number; number: string };
}
async function setRoutes(account: Account, id: number, body: Record<string, unknown>) {
  const r = await account.client.put(`/api/numbers/${id}`, body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}
async function simulateCall(body: Record<string, unknown>) {
  const r = await owner.client.post('/api/simulator/calls', body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return s.ctx.db.selectFrom('calls').selectAll().where('carrier_sid', '=', r.body.sid).executeTakeFirstOrThrow();
}
async function inboundText(from: string, to: string, body: string) {
  const r = await postWebhook(s, '/webhooks/twilio/messaging', {
    MessageSid: `SMux${String(++sms).padStart(30, '0')}`,
    From: from,
    To: to,
    Body: body,
    NumMedia: '0',
  });
  expect(r.status, r.body).toBe(200);
}
async function conversations(numberId: number) {
  const r = await owner.client.get(`/api/companies/${owner.companyId}/conversations?perPage=50&numberIds[]=${numberId}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data as Array<{ id: number; recipient: string; numUnreadItems: number; isBlocked: boolean; latestItem: { type: string } | null }>;
}
async function threadItems(conversationId: number) {
  const r = await owner.client.get(`/api/companies/${owner.companyId}/conversations/${conversationId}/items?perPage=50`);
  expect(r.status).toBe(200);
  return r.body.data as Array<{ isRead: boolean; details: { type: string; callId: number | null; durationS: number | null; content: string | null } }>;
}

beforeAll(async () => {
  s = await startTestServer();
  owner = await createAccount(s);
});
afterAll(async () => {
  await s?.close();
});

describe('blocked callers', () => {
  it("a blocked caller's call starts no conversation and nothing unread; it stays in Activity as Blocked", async () => {
    const n = await buyNumber(owner);
    await setRoutes(owner, n.id, { routes: [{ forwards: [{ number: '6465550101' }] }] });
    const block = await owner.client.post('/api/blocks', { company_id: owner.companyId, target: '(312) 555-0177', global: true });
    expect(block.status, JSON.stringify(block.body)).toBe(201);
    const countsBefore = (await owner.client.get(`/api/companies/${owner.companyId}/notifications`)).body;

    const blocked = await simulateCall({ from: '3125550177', to: n.number });
    expect(blocked.status).toBe(13);
    // A call from someone else afterwards: once its thread item exists, the blocked call's batch is done too.
    const other = await simulateCall({ from: '3125550178', to: n.number });
    await eventually(async () => (await conversations(n.id)).find((c) => c.recipient === '+13125550178'));

    const list = await conversations(n.id);
    expect(list.map((c) => c.recipient)).not.toContain('+13125550177');
    expect(await s.ctx.db.selectFrom('conversation_items').select('id').where('call_id', '=', blocked.id).executeTakeFirst()).toBeUndefined();
    const countsAfter = (await owner.client.get(`/api/companies/${owner.companyId}/notifications`)).body;
    // Only the other caller's call changed the counts (it was answered: read); the blocked one added nothing.
    expect(JSON.stringify(countsAfter)).toBe(JSON.stringify(countsBefore));

    const activity = await owner.client.get(`/api/activity?company=${owner.companyId}&page=1&per_page=10`);
    const row = activity.body.data.find((a: any) => a.call_id === blocked.id);
    expect(row).toMatchObject({ kind: 'call', status_label: 'Blocked', from: '+13125550177' });

    const detail = await owner.client.get(`/api/calls/${blocked.id}`);
    expect(detail.body).toMatchObject({ caller_blocked: true, conversation_id: null });
    expect(detail.body.history[0]).toMatchObject({ title: 'Blocked caller rejected' });
    expect((await owner.client.get(`/api/calls/${other.id}`)).body.caller_blocked).toBe(false);
  });

  it("a blocked caller's text is kept but arrives read; the conversation is marked blocked", async () => {
    const n = await buyNumber(owner);
    const block = await owner.client.post('/api/blocks', { company_id: owner.companyId, target: '+13125550179', number_id: n.id, global: false });
    expect(block.status, JSON.stringify(block.body)).toBe(201);
    await inboundText('+13125550179', n.number, 'Are you there?');
    await inboundText('+13125550180', n.number, 'Hello');
    const list = await conversations(n.id);
    const blocked = list.find((c) => c.recipient === '+13125550179')!;
    const open = list.find((c) => c.recipient === '+13125550180')!;
    expect(blocked).toMatchObject({ numUnreadItems: 0, isBlocked: true });
    expect(open).toMatchObject({ numUnreadItems: 1, isBlocked: false });
    expect((await threadItems(blocked.id)).map((i) => [i.details.content, i.isRead])).toEqual([['Are you there?', true]]);
  });
});

describe('known callers, voicemail lengths and the call detail', () => {
  it('names the contact and the number label in Voicemail, Activity and the detail; one voicemail length everywhere; the e-mail links to the call', async () => {
    const n = await buyNumber(owner);
    await owner.client.put(`/api/numbers/${n.id}`, { label: 'Front desk' });
    await setRoutes(owner, n.id, {
      routes: [{ voicemail_enabled: true, email_alert_address: 'ux-alerts@example.test', forwards: [{ number: '6465550101' }] }],
    });
    const contact = await owner.client.post('/api/contacts', { company_id: owner.companyId, name: 'Dana Whitfield', number: '(312) 555-0190' });
    expect(contact.status, JSON.stringify(contact.body)).toBe(201);

    const call = await simulateCall({ from: '3125550190', to: n.number, forwards: { '6465550101': 'no-answer' }, voicemail_seconds: 4 });
    expect(call.status).toBe(4);
    const vm = await s.ctx.db.selectFrom('voicemails').selectAll().where('call_id', '=', call.id).executeTakeFirstOrThrow();
    expect(vm.duration_s).toBe(4);
    // The call itself lasted longer than the recording (greeting, ringing): the case that disagreed.
    expect(call.duration_s).toBeGreaterThan(vm.duration_s);

    const voicemails = await owner.client.get(`/api/voicemails?company_id=${owner.companyId}`);
    const listed = voicemails.body.data.find((v: any) => v.call_id === call.id);
    expect(listed).toMatchObject({ contact: { name: 'Dana Whitfield' }, number_label: 'Front desk', duration_s: 4 });

    const activity = await owner.client.get(`/api/activity?company=${owner.companyId}&page=1&per_page=10`);
    const row = activity.body.data.find((a: any) => a.call_id === call.id);
    expect(row).toMatchObject({ kind: 'voicemail', contact: { name: 'Dana Whitfield' }, number: { id: n.id, label: 'Front desk' }, duration_s: 4 });

    const detail = (await owner.client.get(`/api/calls/${call.id}`)).body;
    expect(detail).toMatchObject({ contact: { name: 'Dana Whitfield' }, number_label: 'Front desk', caller_blocked: false, voicemail: { duration_s: 4 } });
    expect(detail.conversation_id).toEqual(expect.any(Number));
    expect(detail.forwards).toEqual([expect.objectContaining({ number: '+16465550101', outcome: 'no-answer' })]);

    const item = await eventually(async () =>
      (await threadItems(detail.conversation_id)).find((i) => i.details.callId === call.id && i.details.type === 'voicemail' && i.details.durationS === 4),
    );
    expect(item.isRead).toBe(false);
    // Items stored before (the call's length) are brought in line by migration 0014.
    await s.ctx.db.updateTable('conversation_items').set({ duration_s: call.duration_s }).where('call_id', '=', call.id).execute();
    await migration0014.up(s.ctx.db as never);
    expect((await s.ctx.db.selectFrom('conversation_items').select('duration_s').where('call_id', '=', call.id).executeTakeFirstOrThrow()).duration_s).toBe(4);

    const mail = await s.ctx.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', 'ux-alerts@example.test').executeTakeFirstOrThrow();
    expect(mail.text_body).toContain(`Listen in the app: ${s.ctx.config.publicUrl}/calls/${call.id}`);
    expect(mail.html_body).toContain(`href="${s.ctx.config.publicUrl}/calls/${call.id}"`);
  });

  it('lists each forward with its real outcome and words every history step (no raw lists)', async () => {
    const n = await buyNumber(owner, '212');
    await setRoutes(owner, n.id, {
      routes: [
        { extension: 1, label: 'Sales', forwards: [{ number: '6465550101' }] },
        { extension: 2, label: 'Support', forwards: [{ number: '6465550102' }, { number: '6465550103' }], confirm_key: 65534 },
      ],
    });
    const answered = await simulateCall({ from: '3125550142', to: n.number, digits: '2', forwards: { '+16465550102': 'no-answer' } });
    expect(answered).toMatchObject({ status: 12, forwarded_to: '+16465550103' });
    const detail = (await owner.client.get(`/api/calls/${answered.id}`)).body;
    expect(detail.forwards.map((f: any) => [f.number, f.outcome])).toEqual([
      ['+16465550102', 'no-answer'],
      ['+16465550103', 'answered'],
    ]);
    const titles = detail.history.map((h: any) => h.title);
    expect(titles).toEqual(expect.arrayContaining(['Call received', 'Menu choice', 'Ringing forwards', 'Forward accepted', 'Connected']));
    expect(detail.history.find((h: any) => h.title === 'Menu choice').text).toBe('The caller pressed 2 (Support).');
    for (const h of detail.history) {
      expect(h.title).not.toBe('Call step');
      expect(h.text).not.toMatch(/[[\]{}]/);
    }

    const n2 = await buyNumber(owner, '212');
    await setRoutes(owner, n2.id, { routes: [{ voicemail_enabled: true, forwards: [{ number: '6465550104' }, { number: '6465550105' }] }] });
    const busy = await simulateCall({ from: '3125550142', to: n2.number, forwards: { '+16465550104': 'busy', '+16465550105': 'busy' }, voicemail_seconds: 2 });
    const busyDetail = (await owner.client.get(`/api/calls/${busy.id}`)).body;
    expect(busyDetail.forwards.map((f: any) => f.outcome)).toEqual(['busy', 'busy']);
    expect(busyDetail.forwards.some((f: any) => f.outcome === 'answered')).toBe(false);
  });
});
