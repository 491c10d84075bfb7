/**
 * Account status and per-user routing through the real server (docs/accounts.md "Account status",
 * "Per-user routing", docs/calling.md "Who rings for an in-app line"; docs/audit.md "Jobs"): an inbound call
 * rings every active member who may take the number (owners, administrators, the users it is assigned to); a parked account answers inbound calls with the out-of-service message,
 * drops inbound SMS, refuses sends (422) and keeps its campaign waiting; reactivation restores
 * service and the campaign goes out, recorded in the audit log under its job; a deactivated account
 * signs nobody in; a bulk number job is recorded under its job and the person who started it.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XMLParser } from 'fast-xml-parser';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { ApiClient, eventually, postWebhook, startTestServer, type TestServer } from '../../../test/harness.js';
import { campaignJobTuning } from '../campaigns/campaigns.jobs.js';
import { campaignRuntime, setCompanyCampaignRate } from '../campaigns/campaigns.service.js';
import { addCompanyMember } from '../companies/companies.service.js';
import { createContact } from '../contacts/contacts.service.js';
import { addContactsToGroups, createGroup } from '../contacts/groups.service.js';
import { buyTestNumber } from '../messaging/messaging.test-helpers.js';
import { OUT_OF_SERVICE_TEXT, forgetCompanyServiceStates } from '../numbers/service-state.js';

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', parseTagValue: false, isArray: (name) => ['Say', 'Client'].includes(name) });
const twiml = (body: string) => xml.parse(body).Response as Record<string, any>;
const sid = () => 'CA' + crypto.randomBytes(16).toString('hex');
// A fixed clock inside the campaigns' sending window (New York 14:00).
const DAYTIME = new Date('2030-06-03T18:00:00Z');
const realRuntime = { ...campaignRuntime };
const realRecheck = campaignJobTuning.outOfServiceRecheckS;

let s: TestServer;
let owner: Account;
let agent: Account;
let admin: Account;
let seq = 0;

function voice(to: string, callSid: string) {
  return postWebhook(s, '/webhooks/twilio/voice', {
    CallSid: callSid,
    AccountSid: s.ctx.config.twilioAccountSid,
    From: '+13125550142',
    To: to,
    CallStatus: 'ringing',
    Direction: 'inbound',
  });
}

function sms(to: string, body: string): Record<string, string> {
  seq += 1;
  return { MessageSid: `SM${'7'.repeat(8)}${String(seq).padStart(24, '0')}`, AccountSid: 'ACtest', From: '+13125550177', To: to, Body: body, NumMedia: '0' };
}

/** Sets the account status as the status call does, and forgets this process's cached states (see service-state.ts). */
async function setStatus(companyId: number, status: 0 | 1 | 2): Promise<void> {
  await s.ctx.db.updateTable('companies').set({ account_status: status }).where('id', '=', companyId).execute();
  forgetCompanyServiceStates(s.ctx);
}

beforeAll(async () => {
  s = await startTestServer();
  [owner, agent, admin] = await Promise.all([createAccount(s, { firstName: 'Olive' }), createAccount(s), createAccount(s)]);
  await addCompanyMember(s.ctx, owner.companyId, agent.userId, 'user');
  await addCompanyMember(s.ctx, owner.companyId, admin.userId, 'administrator');
  Object.assign(campaignRuntime, { now: () => DAYTIME });
  campaignJobTuning.outOfServiceRecheckS = 1;
}, 60_000);

afterAll(async () => {
  Object.assign(campaignRuntime, realRuntime);
  campaignJobTuning.outOfServiceRecheckS = realRecheck;
  await s?.close();
});

describe('in-app ringing of a number', () => {
  it('rings every active member who may take the number: owners and administrators always, users when it is assigned to them', async () => {
    const base = `/api/companies/${owner.companyId}/in-app-calling`;
    for (const acc of [owner, agent, admin]) expect((await acc.client.post(`${base}/status`, { status: 'active' })).status).toBe(200);
    const n = await buyTestNumber(owner, '415');
    const route = { routes: [{ type: 'in-app-calling', voicemail_enabled: true, timeout: 20 }] };
    expect((await owner.client.put(`/api/numbers/${n.id}`, route)).status).toBe(200);
    const rung = async (callSid: string) => {
      const r = await voice(n.number, callSid);
      expect(r.status).toBe(200);
      const clients = (twiml(r.body).Dial?.Client ?? []) as Array<string | { '#text': string }>;
      const row = await s.ctx.db
        .selectFrom('in_app_calls')
        .innerJoin('calls', 'calls.id', 'in_app_calls.call_id')
        .select('in_app_calls.rung_user_ids')
        .where('calls.carrier_sid', '=', callSid)
        .executeTakeFirstOrThrow();
      return { ids: row.rung_user_ids.map(Number).sort((x, y) => x - y), clients: clients.map((c) => (typeof c === 'string' ? c : c['#text'])).sort() };
    };

    // Assigned to nobody: owner and administrator ring; the user does not (not their number).
    const none = await rung(sid());
    expect(none.ids).toEqual([owner.userId, admin.userId].sort((x, y) => x - y));

    // Assigned to the user: the user rings too; the owner and administrator keep ringing (they may take every number).
    expect((await owner.client.put(`/api/companies/${owner.companyId}/users/${agent.userId}`, { numbers: [n.id] })).status).toBe(200);
    const assigned = await rung(sid());
    expect(assigned.ids).toEqual([owner.userId, agent.userId, admin.userId].sort((x, y) => x - y));
    expect(assigned.clients).toEqual([owner.userId, agent.userId, admin.userId].map((id) => `user_${id}`).sort());

    // The assignee is away: the owner and administrator still ring (no voicemail while they are active).
    expect((await agent.client.post(`${base}/status`, { status: 'away' })).status).toBe(200);
    const away = await rung(sid());
    expect(away.ids).toEqual([owner.userId, admin.userId].sort((x, y) => x - y));

    // Everyone who may answer is away: nobody rings (the entry's voicemail).
    for (const acc of [owner, admin]) expect((await acc.client.post(`${base}/status`, { status: 'away' })).status).toBe(200);
    const before = await s.ctx.db.selectFrom('in_app_calls').select('call_id').execute();
    const r = await voice(n.number, sid());
    expect(r.status).toBe(200);
    expect(twiml(r.body).Dial?.Client).toBeUndefined();
    expect((await s.ctx.db.selectFrom('in_app_calls').select('call_id').execute()).length).toBe(before.length);
  });
});

describe('a parked account', () => {
  it('keeps its numbers and stops service (campaigns refused, drafts kept); reactivation restores it; the campaign then goes out and is audited', async () => {
    const n = await buyTestNumber(owner, '212');
    const group = await createGroup(s.ctx, owner.userId, { company_id: owner.companyId, name: 'Parked group' });
    const contact = await createContact(s.ctx, owner.companyId, { name: 'Pat Parked', number: '+12125550123' });
    await addContactsToGroups(s.ctx, [group.id], [contact.id]);
    await setCompanyCampaignRate(s.ctx, owner.companyId, 0);

    await setStatus(owner.companyId, 1);
    try {
      // Inbound call: the polite message, then the end; kept as 10 Missed.
      const callSid = sid();
      const r = await voice(n.number, callSid);
      expect(r.status).toBe(200);
      const t = twiml(r.body);
      expect(t.Say.map((x: string | { '#text': string }) => (typeof x === 'string' ? x : x['#text']))).toEqual([OUT_OF_SERVICE_TEXT]);
      expect(t.Hangup).toBeDefined();
      expect(t.Dial).toBeUndefined();
      const call = await s.ctx.db.selectFrom('calls').select(['status']).where('carrier_sid', '=', callSid).executeTakeFirstOrThrow();
      expect(call.status).toBe(10);

      // Inbound SMS: 200 to the carrier, nothing in the inbox.
      expect((await postWebhook(s, '/webhooks/twilio/messaging', sms(n.number, 'Are you open?'))).status).toBe(200);
      // (The missed call above is in the inbox; the message is not.)
      const kept = await s.ctx.db
        .selectFrom('conversation_items')
        .select('id')
        .where('company_id', '=', owner.companyId)
        .where('body', '=', 'Are you open?')
        .execute();
      expect(kept).toEqual([]);

      // Sending is refused with a message; the numbers are kept.
      const send = await owner.client.post('/api/message', { company_id: owner.companyId, number_id: n.id, to: '+13125550177', content: 'Hi' });
      expect(send.status).toBe(422);
      expect(send.body.message).toBe('This account is parked: messages are not sent.');
      const placed = await owner.client.post('/api/v1/calls/token', { number_id: n.id, destination: '+13125550177' });
      expect(placed.status).toBe(422);
      expect(placed.body.message).toBe('This account is parked: calls are not placed.');
      expect((await owner.client.get(`/api/companies/${owner.companyId}/numbers`)).body.data.map((x: { id: number }) => x.id)).toContain(n.id);

      // A campaign is refused while parked (422 with the message); a draft is kept; nothing went out.
      const campaign = {
        company_id: owner.companyId,
        title: 'While parked',
        state: 'queued',
        groups: [group.id],
        number_id: n.id,
        text: 'Spring sale',
        unsubscribe_text: 'Reply STOP to stop',
      };
      const refused = await owner.client.post('/api/campaigns', campaign);
      expect(refused.status, JSON.stringify(refused.body)).toBe(422);
      expect(refused.body.message).toBe('This account is parked: campaigns are not sent.');
      const created = await owner.client.post('/api/campaigns', { ...campaign, state: 'draft' });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const campaignId = created.body.id as number;
      expect((await owner.client.patch(`/api/campaigns/${campaignId}`, { ...campaign, company_id: undefined })).status).toBe(422);
      const sent = await s.ctx.db
        .selectFrom('sandbox_messages')
        .select('to_number')
        .where('direction', '=', 'outbound')
        .where('to_number', '=', contact.number!)
        .execute();
      expect(sent).toEqual([]);

      // Reactivated: calls route, sends go out, the campaign is sent and recorded under its job.
      await setStatus(owner.companyId, 0);
      const again = await voice(n.number, sid());
      expect(twiml(again.body).Say ?? []).not.toContain(OUT_OF_SERVICE_TEXT);
      expect((await owner.client.post('/api/message', { company_id: owner.companyId, number_id: n.id, to: '+13125550177', content: 'Back' })).status).toBe(201);
      const queued = await owner.client.patch(`/api/campaigns/${campaignId}`, { ...campaign, company_id: undefined });
      expect(queued.status, JSON.stringify(queued.body)).toBe(200);
      await eventually(
        async () => (await s.ctx.db.selectFrom('campaigns').select('state').where('id', '=', campaignId).executeTakeFirst())?.state === 'sent',
        20_000,
      );
      // The job writes its entry right after the change it made.
      const entries = await eventually(async () => {
        const log = await owner.client.get(`/api/audit-log?company_id=${owner.companyId}&entity_type=campaigns`);
        expect(log.status).toBe(200);
        const mine = log.body.data.filter((e: { entity_id: string }) => e.entity_id === String(campaignId));
        return mine.length >= 2 ? mine : undefined;
      });
      expect(entries.map((e: { action: string }) => e.action).sort()).toEqual(['sending', 'sent']);
      expect(entries.find((e: { action: string }) => e.action === 'sent')).toMatchObject({
        actor_kind: 'system',
        actor_user_id: owner.userId,
        actor_name: 'Job campaigns.dispatch, started by Olive User',
        outcome: 'success',
      });
      expect(entries.find((e: { action: string }) => e.action === 'sending').changes).toMatchObject({ job: 'campaigns.start', started_by: owner.userId });
    } finally {
      await setStatus(owner.companyId, 0);
    }
  }, 60_000);

  it('a scheduled message due while parked fails with 30002; an opt-out sent meanwhile is honoured without a reply', async () => {
    const n = await buyTestNumber(owner, '312');
    const at = new Date(Date.now() + 1500).toISOString();
    const scheduled = await owner.client.post('/api/inbox/message/schedule', {
      company_id: owner.companyId,
      number_id: n.id,
      to: '+13125550166',
      content: 'Reminder',
      shouldBeSentAt: at,
    });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(201);
    const contact = await createContact(s.ctx, owner.companyId, { name: 'Stop Sender', number: '+13125550155' });
    await setStatus(owner.companyId, 1);
    try {
      const item = await eventually(async () => {
        const row = await s.ctx.db.selectFrom('conversation_items').selectAll().where('id', '=', scheduled.body.id).executeTakeFirst();
        return row?.type === 'message' ? row : undefined;
      }, 15_000);
      expect(item).toMatchObject({ delivery_state: 'failed', error_code: 30002, carrier_sid: null });
      const out = await s.ctx.db
        .selectFrom('sandbox_messages')
        .select('to_number')
        .where('direction', '=', 'outbound')
        .where('to_number', '=', '+13125550166')
        .execute();
      expect(out).toEqual([]);

      const stop = await postWebhook(s, '/webhooks/twilio/messaging', { ...sms(n.number, 'STOP'), From: contact.number! });
      expect(stop.status).toBe(200);
      const after = await s.ctx.db.selectFrom('contacts').select('is_unsubscribed').where('id', '=', contact.id).executeTakeFirstOrThrow();
      expect(after.is_unsubscribed).toBe(true);
      // Neither the STOP nor a confirmation is in the inbox.
      const thread = await s.ctx.db
        .selectFrom('conversation_items as i')
        .innerJoin('conversations as c', 'c.id', 'i.conversation_id')
        .select('i.id')
        .where('c.company_id', '=', owner.companyId)
        .where('c.recipient', '=', contact.number!)
        .execute();
      expect(thread).toEqual([]);
    } finally {
      await setStatus(owner.companyId, 0);
    }
  }, 30_000);

  it('a deactivated account signs nobody in whose only account it is, and reaches nobody', async () => {
    const solo = await createAccount(s);
    const n = await buyTestNumber(solo, '213');
    await setStatus(solo.companyId, 2);
    try {
      const fresh = new ApiClient(s.url);
      await fresh.get('/api/csrf-cookie');
      const login = await fresh.post('/api/sanctum/login', { email: solo.email, password: solo.password });
      expect(login.status).toBeGreaterThanOrEqual(400);
      expect(login.status).toBeLessThan(500);
      expect((await solo.client.get(`/api/companies/${solo.companyId}/numbers`)).status).toBeGreaterThanOrEqual(401);
      const r = await voice(n.number, sid());
      expect(twiml(r.body).Say).toEqual([OUT_OF_SERVICE_TEXT]);
    } finally {
      await setStatus(solo.companyId, 0);
    }
    // Reactivated: signing in works again.
    const fresh = new ApiClient(s.url);
    await fresh.get('/api/csrf-cookie');
    expect((await fresh.post('/api/sanctum/login', { email: solo.email, password: solo.password })).status).toBe(200);
  });
});

describe('audit entries of jobs', () => {
  it('records a bulk number job under its name and the person who started it', async () => {
    const n = await buyTestNumber(owner, '646');
    const started = await owner.client.post('/api/numbers/remove-bulk', { ids: [n.id] });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const entry = await eventually(async () => {
      const r = await owner.client.get(`/api/audit-log?company_id=${owner.companyId}&entity_type=number-batches&action=bulk-release`);
      return r.body.data?.[0];
    }, 15_000);
    expect(entry).toMatchObject({
      actor_kind: 'system',
      actor_user_id: owner.userId,
      actor_name: 'Job numbers.batch, started by Olive User',
      outcome: 'success',
    });
    expect(entry.changes).toMatchObject({ kind: 'release', done: 1, failed: 0, number_ids: [n.id], job: 'numbers.batch', started_by: owner.userId });
    // The audit log stays for owners and administrators: the user is refused.
    expect((await agent.client.get(`/api/audit-log?company_id=${owner.companyId}`)).status).toBe(403);
  });
});
