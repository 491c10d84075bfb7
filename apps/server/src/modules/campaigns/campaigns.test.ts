/**
 * Campaigns through the real server: every call (incl. 422s and tenant isolation), a sandbox send
 * with merge fields and live counters, skipped recipients, pause/resume, quiet hours with a fixed
 * clock, replies, and a worker killed mid-campaign with no message sent twice and none lost.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OPT_OUT_CONFIRMATION } from '@switchboard/domain';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, postWebhook, startTestServer, type TestServer } from '../../../test/harness.js';
import { startServer, type Running } from '../../bootstrap.js';
import { loadConfig } from '../../platform/config.js';
import { createContact } from '../contacts/contacts.service.js';
import { addContactsToGroups, createGroup } from '../contacts/groups.service.js';
import { buyTestNumber, connectSocket, subscribe } from '../messaging/messaging.test-helpers.js';
import { recordCampaignReply } from './campaigns.counters.js';
import { campaignRuntime, kickCampaign, setCompanyCampaignRate } from './campaigns.service.js';

// A fixed clock inside the default window (New York 14:00, Los Angeles 11:00).
const DAYTIME = new Date('2030-06-03T18:00:00Z');
const realRuntime = { ...campaignRuntime };
let s: TestServer;
let a: Account;
let b: Account;
let number: { id: number; number: string };
let bNumber: { id: number; number: string };
let bGroup: number;
const sockets: Socket[] = [];
let seq = 0;

beforeAll(async () => {
  s = await startTestServer();
  [a, b] = await Promise.all([createAccount(s), createAccount(s)]);
  number = await buyTestNumber(a, '212');
  bNumber = await buyTestNumber(b, '213');
  await setCompanyCampaignRate(s.ctx, a.companyId, 0); // unlimited for the sandbox
  bGroup = (await createGroup(s.ctx, b.userId, { company_id: b.companyId, name: 'B group' })).id;
});
afterEach(() => {
  Object.assign(campaignRuntime, realRuntime, { now: () => DAYTIME });
});
afterAll(async () => {
  Object.assign(campaignRuntime, realRuntime);
  for (const so of sockets) so.close();
  await s?.close();
});

/** Creates `n` contacts with numbers in area code `area` and puts them in a new group. */
async function makeGroup(
  server: Pick<TestServer, 'ctx'>,
  account: Account,
  area: string,
  n: number,
  name = 'Group',
): Promise<{ groupId: number; contacts: Array<{ id: number; number: string; name: string }> }> {
  const group = await createGroup(server.ctx, account.userId, { company_id: account.companyId, name: `${name} ${++seq}` });
  const contacts = [];
  for (let i = 0; i < n; i++) {
    seq += 1;
    const c = await createContact(server.ctx, account.companyId, {
      name: `Person${String(seq).padStart(3, '0')} Last${seq}`,
      number: `+1${area}555${String(1000 + seq).slice(-4)}`,
      email: `p${seq}@example.test`,
    });
    contacts.push({ id: c.id, number: c.number!, name: c.name });
  }
  await addContactsToGroups(
    server.ctx,
    [group.id],
    contacts.map((c) => c.id),
  );
  return { groupId: group.id, contacts };
}

async function sandboxCount(server: Pick<TestServer, 'ctx'>, to: string[]): Promise<Map<string, number>> {
  const rows = await server.ctx.db
    .selectFrom('sandbox_messages')
    .select(['to_number', 'body'])
    .where('direction', '=', 'outbound')
    .where('to_number', 'in', to)
    .execute();
  const m = new Map<string, number>();
  for (const r of rows) m.set(r.to_number, (m.get(r.to_number) ?? 0) + 1);
  return m;
}

/** A clock that runs at real speed but reads about 12:00 today in Chicago (inside the law's window there, any day). */
function middayInChicago(): () => Date {
  const [h, m] = new Date()
    .toLocaleTimeString('en-US', { timeZone: 'America/Chicago', hourCycle: 'h23', hour: '2-digit', minute: '2-digit' })
    .split(':')
    .map(Number) as [number, number];
  const shift = (12 * 60 - (h * 60 + m)) * 60_000;
  return () => new Date(Date.now() + shift);
}

let smsSeq = 0;
/** Twilio form fields of an inbound SMS from `from` to our number `to`. */
function inboundSms(from: string, to: string, body: string): Record<string, string> {
  smsSeq += 1;
  return { MessageSid: `SM${'c'.repeat(8)}${String(smsSeq).padStart(24, '0')}`, AccountSid: 'ACtest', From: from, To: to, Body: body, NumMedia: '0' };
}

async function getCampaign(id: number, account = a) {
  const r = await account.client.get(`/api/campaigns/${id}`);
  expect(r.status).toBe(200);
  return r.body;
}

describe('campaign calls', () => {
  beforeAll(() => {
    campaignRuntime.now = () => DAYTIME;
  });

  it('creates a draft with defaults, validates with field errors and the domain rules', async () => {
    const draft = await a.client.post('/api/campaigns', { company_id: a.companyId, title: 'Spring sale', state: 'draft' });
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    expect(draft.body).toMatchObject({
      title: 'Spring sale',
      state: 'draft',
      status: 'draft',
      type: 'sms',
      unsubscribe_text: 'Reply STOP to stop',
      skip_inbox: false,
      groups: [],
      sent_count: 0,
    });
    expect(draft.body.dynamic_fields.map((f: any) => f.tag)).toEqual(['%%firstname%%', '%%lastname%%', '%%phone%%', '%%email%%']);

    const noTitle = await a.client.post('/api/campaigns', { company_id: a.companyId, state: 'draft' });
    expect(noTitle.status).toBe(422);
    expect(noTitle.body.errors.title).toEqual(['The title field is required.']);

    const queued = await a.client.post('/api/campaigns', { company_id: a.companyId, title: 'X', state: 'queued', unsubscribe_text: ' ' });
    expect(queued.status).toBe(422);
    expect(Object.keys(queued.body.errors).sort()).toEqual(['groups', 'number_id', 'text', 'unsubscribe_text']);
    expect(queued.body.errors.groups).toEqual(['Please choose a group.']);

    const { groupId } = await makeGroup(s, a, '310', 1);
    const base = { company_id: a.companyId, title: 'T', state: 'queued', groups: [groupId], number_id: number.id, unsubscribe_text: 'Reply STOP to stop' };
    const link = await a.client.post('/api/campaigns', { ...base, text: 'See example.com today' });
    expect(link.status).toBe(422);
    expect(link.body.errors.text).toEqual(['Links are not allowed in messages for this account.']);
    const long = await a.client.post('/api/campaigns', { ...base, text: 'x'.repeat(990) });
    expect(long.body.errors.text).toEqual(['Max 1000 characters per SMS']);
    const past = await a.client.post('/api/campaigns', { ...base, text: 'hi', should_be_sent_at: '2030-06-03T17:00:00Z' });
    expect(past.body.errors.should_be_sent_at).toEqual(['The delivery time must be in the future.']);
    const badDate = await a.client.post('/api/campaigns', { ...base, text: 'hi', should_be_sent_at: 'tomorrow-ish' });
    expect(badDate.body.errors.should_be_sent_at).toEqual(['The delivery time is not a valid date.']);
    const otherNumber = await a.client.post('/api/campaigns', { ...base, text: 'hi', number_id: bNumber.id, groups: [bGroup] });
    expect(otherNumber.status).toBe(422);
    expect(otherNumber.body.errors.number_id).toEqual(['The selected number id is invalid.']);
    expect(otherNumber.body.errors.groups).toEqual(['The selected group is invalid.']);
    const noCompany = await a.client.post('/api/campaigns', { title: 'x' });
    expect(noCompany.body.errors.company_id).toBeDefined();
    const badFields = await a.client.post('/api/campaigns', { company_id: a.companyId, title: 'x', dynamic_fields: '{nope' });
    expect(badFields.status).toBe(422);
    expect(badFields.body.errors.dynamic_fields).toBeDefined();

    const scheduled = await a.client.post('/api/campaigns', { ...base, text: 'hi', should_be_sent_at: '2030-06-04T18:00:00Z' });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(201);
    expect(scheduled.body).toMatchObject({ state: 'queued', status: 'scheduled', should_be_sent_at: '2030-06-04T18:00:00.000Z', preview_count: 1 });
  });

  it('creates and edits with multipart (groups[], dynamic_fields JSON, media[] in the blob store, _method PATCH)', async () => {
    const { groupId } = await makeGroup(s, a, '310', 2);
    const form = new FormData();
    form.set('company_id', String(a.companyId));
    form.set('title', 'With picture');
    form.set('text', 'Hello %%firstname%%');
    form.set('unsubscribe_text', 'Reply STOP to stop');
    form.set('skip_inbox', '1');
    form.append('groups[]', String(groupId));
    form.set('number_id', String(number.id));
    form.set('state', 'draft');
    form.set('type', 'sms');
    form.set('dynamic_fields', JSON.stringify([{ name: 'First Name', tag: '%%firstname%%', key: 'firstname', length: 5, enabled: true }]));
    form.append('media[]', new Blob([Buffer.from('png-bytes')], { type: 'image/png' }), 'cat.png');
    const r = await a.client.post('/api/campaigns', form);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ skip_inbox: true, groups: [groupId], number_id: number.id, preview_count: 2 });
    expect(r.body.dynamic_fields).toEqual([{ name: 'First Name', tag: '%%firstname%%', key: 'firstname', length: 5, enabled: true }]);
    expect(r.body.media).toHaveLength(1);
    expect(r.body.media[0]).toMatch(new RegExp(`/files/c/${a.companyId}/campaign-media/[0-9a-f]{32}-cat\\.png$`));
    expect((await a.client.get(new URL(r.body.media[0]).pathname)).body).toBe('png-bytes'); // the company's users only

    const edit = new FormData();
    edit.set('_method', 'PATCH');
    edit.set('title', 'With picture (edited)');
    edit.append('media[]', r.body.media[0]);
    edit.append('media[]', new Blob([Buffer.from('gif')], { type: 'image/gif' }), 'dog.gif');
    const e = await a.client.post(`/api/campaigns/${r.body.id}`, edit);
    expect(e.status, JSON.stringify(e.body)).toBe(200);
    expect(e.body).toMatchObject({ title: 'With picture (edited)', text: 'Hello %%firstname%%', groups: [groupId] });
    expect(e.body.media_items.map((m: any) => m.name)).toEqual(['cat.png', 'dog.gif']);
    const drop = await a.client.post(`/api/campaigns/${r.body.id}`, { _method: 'PATCH', media: [e.body.media[1]] });
    expect(drop.body.media).toEqual([e.body.media[1]]);
  });

  it('lists with paging, search, display-status filter and sort; isolates companies', async () => {
    for (const t of ['Alpha promo', 'Beta promo', 'Gamma'])
      expect((await a.client.post('/api/campaigns', { company_id: a.companyId, title: t })).status).toBe(201);
    const page = await a.client.get(`/api/campaigns?company_id=${a.companyId}`);
    expect(page.status).toBe(200);
    expect(page.body.meta).toMatchObject({ current_page: 1, per_page: 13 });
    const total = page.body.meta.total;
    expect(total).toBeGreaterThanOrEqual(5);
    const small = await a.client.get(`/api/campaigns?company_id=${a.companyId}&size=2&page=2&sort=title&dir=asc`);
    expect(small.body.data).toHaveLength(2);
    expect(small.body.meta).toMatchObject({ current_page: 2, per_page: 2, total, last_page: Math.ceil(total / 2) });
    const search = await a.client.get(`/api/campaigns?company_id=${a.companyId}&filter[search]=promo&sort=title&dir=asc`);
    expect(search.body.data.map((c: any) => c.title)).toEqual(['Alpha promo', 'Beta promo']);
    const scheduled = await a.client.get(`/api/campaigns?company_id=${a.companyId}&filter[status]=scheduled&include=groups`);
    expect(scheduled.body.data.length).toBe(1);
    expect(scheduled.body.data[0].status).toBe('scheduled');
    const drafts = await a.client.get(`/api/campaigns?company_id=${a.companyId}&filter[status]=draft&size=50`);
    expect(drafts.body.data.every((c: any) => c.status === 'draft')).toBe(true);
    expect(drafts.body.meta.total).toBe(total - 1);
    const bad = await a.client.get(`/api/campaigns?company_id=${a.companyId}&filter[status]=bogus`);
    expect(bad.status).toBe(422);

    const id = page.body.data[0].id;
    expect((await b.client.get(`/api/campaigns?company_id=${a.companyId}`)).status).toBe(403);
    expect((await b.client.get(`/api/campaigns/${id}`)).status).toBe(404);
    expect((await b.client.post(`/api/campaigns/${id}`, { _method: 'PATCH', title: 'hijack' })).status).toBe(404);
    expect((await b.client.post(`/api/campaigns/${id}/pause`)).status).toBe(404);
    expect((await b.client.get(`/api/campaigns/${id}/events`)).status).toBe(404);
    expect((await b.client.delete(`/api/campaigns/${id}`)).status).toBe(404);
    expect((await b.client.post('/api/campaigns', { company_id: a.companyId, title: 'x' })).status).toBe(403);
    expect((await b.client.get(`/api/campaigns?company_id=${b.companyId}`)).body.meta.total).toBe(0);

    const del = await a.client.delete(`/api/campaigns/${id}`);
    expect(del.status).toBe(204);
    expect((await a.client.get(`/api/campaigns/${id}`)).status).toBe(404);
    const notPausable = await a.client.post(`/api/campaigns/${page.body.data[1].id}/pause`);
    expect(notPausable.status).toBe(422);
  });
});

describe('sending', () => {
  beforeAll(() => {
    campaignRuntime.now = () => DAYTIME;
  });

  it('sends a 20-recipient campaign through the sandbox: merge fields, skipped contacts, live counters, events, replies', async () => {
    const { groupId, contacts } = await makeGroup(s, a, '310', 22, 'Send');
    const [unsub, invalid] = [contacts[20]!, contacts[21]!];
    await s.ctx.db.updateTable('contacts').set({ is_unsubscribed: true }).where('id', '=', unsub.id).execute();
    await s.ctx.db.updateTable('contacts').set({ is_invalid: true }).where('id', '=', invalid.id).execute();
    const so = await connectSocket(s, a.client);
    sockets.push(so);
    expect(await subscribe(so, `campaigns.${a.companyId}`)).toEqual({ ok: true });
    const events: any[] = [];
    so.on('campaigns updated', (e) => events.push(e));

    const r = await a.client.post('/api/campaigns', {
      company_id: a.companyId,
      title: 'Twenty',
      text: 'Hi %%firstname%%, 20% off today',
      unsubscribe_text: 'Reply STOP to stop',
      groups: [groupId],
      number_id: number.id,
      state: 'queued',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.status).toBe('in-progress');
    const done = await eventually(async () => {
      const c = await getCampaign(r.body.id);
      return c.state === 'sent' && c.delivered_count === 20 ? c : null;
    }, 15_000);
    expect(done).toMatchObject({
      sent_count: 20,
      delivered_count: 20,
      undelivered_count: 0,
      skipped_unsubscribed_count: 1,
      skipped_invalid_count: 1,
      recipients_count: 22,
      started: true,
      status: 'sent',
    });

    const counts = await sandboxCount(
      s,
      contacts.map((c) => c.number),
    );
    expect(counts.get(unsub.number)).toBeUndefined();
    expect(counts.get(invalid.number)).toBeUndefined();
    expect([...counts.values()]).toEqual(Array(20).fill(1));
    const first = contacts[0]!;
    const handset = await a.client.get(`/api/simulator/handsets/${encodeURIComponent(first.number)}/messages`);
    expect(JSON.stringify(handset.body)).toContain(JSON.stringify(`Hi ${first.name.split(' ')[0]}, 20% off today\nReply STOP to stop`).slice(1, -1));

    const live = await eventually(async () => events.find((e) => e.id === r.body.id && e.delivered_count === 20));
    expect(live).toMatchObject({ company_id: a.companyId, state: 'sent', sent_count: 20 });

    // The message landed in the inbox conversation (skip_inbox false) and follows the delivery state.
    const conv = await a.client.get(`/api/companies/${a.companyId}/conversations?search=${first.number.slice(2)}`);
    expect(conv.body.data[0]?.latestItem.details).toMatchObject({ isInbound: false, deliveryState: 'delivered' });

    const ev = await a.client.get(`/api/campaigns/${r.body.id}/events`);
    expect(ev.status).toBe(200);
    expect(ev.body.meta).toMatchObject({ per_page: 10, total: 22, last_page: 3 });
    expect(ev.body.data[0]).toMatchObject({ contact: { id: first.id, name: first.name }, state: 'delivered', number: first.number });
    const skipped = await a.client.get(`/api/campaigns/${r.body.id}/events?status=skipped`);
    expect(skipped.body.data.map((e: any) => e.state).sort()).toEqual(['skipped_invalid', 'skipped_unsubscribed']);
    const byName = await a.client.get(`/api/campaigns/${r.body.id}/events?search=${encodeURIComponent(contacts[3]!.name)}`);
    expect(byName.body.data.map((e: any) => e.contact_id)).toEqual([contacts[3]!.id]);

    // Replies through the inbound SMS webhook: one answer, one STOP (any reply counts as responded).
    expect((await postWebhook(s, '/webhooks/twilio/messaging', inboundSms(contacts[1]!.number, number.number, 'Thanks!'))).status).toBe(200);
    expect((await postWebhook(s, '/webhooks/twilio/messaging', inboundSms(contacts[2]!.number, number.number, 'stop'))).status).toBe(200);
    const after = await eventually(async () => {
      const c = await getCampaign(r.body.id);
      return c.responded_count === 2 && c.unsubscriber_count === 1 ? c : null;
    });
    expect(after.delivered_count).toBe(20);
    const responded = await a.client.get(`/api/campaigns/${r.body.id}/events?status=responded`);
    expect(responded.body.data.map((e: any) => e.contact_id).sort()).toEqual([contacts[1]!.id, contacts[2]!.id].sort());
    const unsubscribed = await a.client.get(`/api/campaigns/${r.body.id}/events?status=unsubscribed`);
    expect(unsubscribed.body.data.map((e: any) => e.contact_id)).toEqual([contacts[2]!.id]);
    const stopped = await s.ctx.db
      .selectFrom('contacts')
      .select(['id', 'is_unsubscribed'])
      .where('id', 'in', [contacts[1]!.id, contacts[2]!.id])
      .orderBy('id')
      .execute();
    expect(stopped.map((x) => x.is_unsubscribed)).toEqual([false, true]);
    // skip_inbox false: the replies are in the conversation thread, after the campaign message.
    const thread = await a.client.get(`/api/companies/${a.companyId}/conversations?search=${contacts[1]!.number.slice(2)}`);
    expect(thread.body.data[0]?.latestItem.details).toMatchObject({ isInbound: true, content: 'Thanks!' });
    // A direct call is idempotent: the first response time is kept and nothing is counted twice.
    expect(await recordCampaignReply(s.ctx, { companyId: a.companyId, numberId: number.id, from: contacts[1]!.number, body: 'again' })).toEqual({
      campaignId: r.body.id,
      skipInbox: false,
    });
    await new Promise((res) => setTimeout(res, 400));
    expect((await getCampaign(r.body.id)).responded_count).toBe(2);
    // Only replies to a campaign get a campaigns.counters delivery (its condition): a text from someone else gets none.
    const stranger = '+13105550199';
    expect((await postWebhook(s, '/webhooks/twilio/messaging', inboundSms(stranger, number.number, 'Hello?'))).status).toBe(200);
    const counterDeliveries = async (from: string) =>
      (
        await sql<{ n: number }>`select count(*)::int as n from event_deliveries d join domain_events e on e.id = d.event_id
          where e.name = 'message.received' and e.payload->>'from' = ${from} and d.consumer = 'campaigns.counters'`.execute(s.ctx.db)
      ).rows[0]!.n;
    expect(await counterDeliveries(contacts[1]!.number)).toBe(1);
    expect(await counterDeliveries(stranger)).toBe(0);
  });

  it('skip_inbox: replies stay out of the inbox (no conversation item) but are counted and STOP still unsubscribes', async () => {
    const { groupId, contacts } = await makeGroup(s, a, '310', 3, 'Skip');
    const r = await a.client.post('/api/campaigns', {
      company_id: a.companyId,
      title: 'No inbox',
      text: 'Hi %%firstname%%',
      unsubscribe_text: 'Reply STOP to stop',
      groups: [groupId],
      number_id: number.id,
      state: 'queued',
      skip_inbox: true,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.skip_inbox).toBe(true);
    await eventually(async () => (await getCampaign(r.body.id)).state === 'sent', 15_000);
    const numbers = contacts.map((c) => c.number);
    const conversationsOf = () =>
      s.ctx.db.selectFrom('conversations').select(['id', 'recipient']).where('number_id', '=', number.id).where('recipient', 'in', numbers).execute();
    expect(await conversationsOf()).toEqual([]);

    expect((await postWebhook(s, '/webhooks/twilio/messaging', inboundSms(contacts[0]!.number, number.number, 'Great offer'))).status).toBe(200);
    expect((await postWebhook(s, '/webhooks/twilio/messaging', inboundSms(contacts[1]!.number, number.number, 'STOP'))).status).toBe(200);
    const counted = await eventually(async () => {
      const c = await getCampaign(r.body.id);
      return c.responded_count === 2 && c.unsubscriber_count === 1 ? c : null;
    });
    expect(counted.sent_count).toBe(3);
    // No inbound item anywhere for these senders; the STOP confirmation is the only message stored.
    const items = await s.ctx.db
      .selectFrom('conversation_items as i')
      .innerJoin('conversations as c', 'c.id', 'i.conversation_id')
      .select(['c.recipient', 'i.is_inbound', 'i.body'])
      .where('c.number_id', '=', number.id)
      .where('c.recipient', 'in', numbers)
      .execute();
    expect(items.filter((i) => i.is_inbound)).toEqual([]);
    expect(items.map((i) => i.recipient)).toEqual([contacts[1]!.number]);
    expect(items[0]!.body).toBe(OPT_OUT_CONFIRMATION);
    const unsub = await s.ctx.db
      .selectFrom('contacts')
      .select(['id', 'is_unsubscribed'])
      .where('id', 'in', [contacts[0]!.id, contacts[1]!.id])
      .orderBy('id')
      .execute();
    expect(unsub.map((x) => x.is_unsubscribed)).toEqual([false, true]);
    // The confirmation is sent once.
    await eventually(async () => ((await sandboxCount(s, [contacts[1]!.number])).get(contacts[1]!.number) ?? 0) === 2, 10_000);
    // An ordinary inbound message from someone who got no campaign still lands in the inbox.
    expect((await postWebhook(s, '/webhooks/twilio/messaging', inboundSms('+13105559999', number.number, 'Hello?'))).status).toBe(200);
    const other = await a.client.get(`/api/companies/${a.companyId}/conversations?search=3105559999`);
    expect(other.body.data[0]?.latestItem.details).toMatchObject({ isInbound: true, content: 'Hello?' });
  });

  it('writes the inbox side in batches: one conversation per number (two contacts sharing a number), archived ones restored, contacts linked', async () => {
    const { groupId, contacts } = await makeGroup(s, a, '310', 4, 'Batch');
    // Two contacts with the same number, and an archived conversation with the first number.
    const twin = await createContact(s.ctx, a.companyId, { name: 'Twin Contact', number: contacts[0]!.number });
    await addContactsToGroups(s.ctx, [groupId], [twin.id]);
    await s.ctx.db
      .insertInto('conversations')
      .values({ company_id: a.companyId, number_id: number.id, recipient: contacts[0]!.number, contact_id: null, is_archived: true })
      .execute();
    const r = await a.client.post('/api/campaigns', {
      company_id: a.companyId,
      title: 'Batch',
      text: 'Hi %%firstname%%',
      unsubscribe_text: 'Reply STOP to stop',
      groups: [groupId],
      number_id: number.id,
      state: 'queued',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    await eventually(async () => (await getCampaign(r.body.id)).state === 'sent', 15_000);
    const numbers = contacts.map((c) => c.number);
    const convs = await s.ctx.db
      .selectFrom('conversations')
      .selectAll()
      .where('number_id', '=', number.id)
      .where('recipient', 'in', numbers)
      .orderBy('recipient')
      .execute();
    expect(convs.map((c) => c.recipient)).toEqual([...numbers].sort());
    const shared = convs.find((c) => c.recipient === contacts[0]!.number)!;
    expect(shared.is_archived).toBe(false);
    expect(shared.contact_id).not.toBeNull();
    expect(
      convs
        .filter((c) => c.recipient !== shared.recipient)
        .map((c) => c.contact_id)
        .sort(),
    ).toEqual(
      contacts
        .slice(1)
        .map((c) => c.id)
        .sort(),
    );
    const items = await s.ctx.db
      .selectFrom('conversation_items')
      .select(['conversation_id', 'body', 'carrier_sid', 'is_inbound'])
      .where(
        'conversation_id',
        'in',
        convs.map((c) => c.id),
      )
      .execute();
    expect(items).toHaveLength(5); // one message per recipient: the shared number's conversation holds two
    expect(items.filter((i) => i.conversation_id === shared.id)).toHaveLength(2);
    expect(items.every((i) => !i.is_inbound && i.carrier_sid)).toBe(true);
    const ledger = await s.ctx.db.selectFrom('campaign_recipients').select(['item_id', 'carrier_sid']).where('campaign_id', '=', r.body.id).execute();
    expect(ledger.every((l) => l.item_id !== null && l.carrier_sid !== null)).toBe(true);
    expect(new Set(ledger.map((l) => l.item_id)).size).toBe(5);
  });

  it('pauses within a second and resumes where it stopped', async () => {
    const { groupId, contacts } = await makeGroup(s, a, '310', 15, 'Pause');
    const r = await a.client.post('/api/campaigns', {
      company_id: a.companyId,
      title: 'Slow',
      text: 'Hello',
      unsubscribe_text: 'Reply STOP to stop',
      groups: [groupId],
      number_id: number.id,
      state: 'queued',
      rate_per_second: 5,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const numbers = contacts.map((c) => c.number);
    const total = async () => [...(await sandboxCount(s, numbers)).values()].reduce((x, y) => x + y, 0);
    await eventually(async () => (await total()) >= 3, 10_000, 50);
    const paused = await a.client.post(`/api/campaigns/${r.body.id}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ state: 'paused', status: 'paused' });
    const atPause = await total();
    await new Promise((res) => setTimeout(res, 1500));
    const later = await total();
    expect(later - atPause).toBeLessThanOrEqual(5); // at most the one batch (≤ 1 s of sending) already claimed
    await new Promise((res) => setTimeout(res, 700));
    expect(await total()).toBe(later);
    expect(later).toBeLessThan(15);

    const resumed = await a.client.post(`/api/campaigns/${r.body.id}/pause`);
    expect(resumed.body).toMatchObject({ state: 'sending', status: 'in-progress' });
    await eventually(async () => (await getCampaign(r.body.id)).state === 'sent', 10_000);
    expect([...(await sandboxCount(s, numbers)).values()]).toEqual(Array(15).fill(1));
  });

  it('defers recipients outside quiet hours in their local time and sends them at the next allowed time', async () => {
    // 03:30 UTC: New York 23:30 (outside 8–21), Los Angeles 20:30 (inside).
    campaignRuntime.now = () => new Date('2030-06-03T03:30:00Z');
    const ny = await makeGroup(s, a, '212', 3, 'NY');
    const la = await makeGroup(s, a, '310', 3, 'LA');
    const r = await a.client.post('/api/campaigns', {
      company_id: a.companyId,
      title: 'Night',
      text: 'Evening offer',
      unsubscribe_text: 'Reply STOP to stop',
      groups: [ny.groupId, la.groupId],
      number_id: number.id,
      state: 'queued',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const laNumbers = la.contacts.map((c) => c.number);
    const nyNumbers = ny.contacts.map((c) => c.number);
    await eventually(async () => (await sandboxCount(s, laNumbers)).size === 3, 10_000);
    await new Promise((res) => setTimeout(res, 800));
    expect((await sandboxCount(s, nyNumbers)).size).toBe(0);
    const pending = await s.ctx.db
      .selectFrom('campaign_recipients')
      .select(['state', 'not_before'])
      .where('campaign_id', '=', r.body.id)
      .where('number', 'in', nyNumbers)
      .execute();
    expect(pending.map((p) => [p.state, p.not_before?.toISOString()])).toEqual(Array(3).fill(['pending', '2030-06-03T12:00:00.000Z']));
    expect((await getCampaign(r.body.id)).state).toBe('sending');

    campaignRuntime.now = () => new Date('2030-06-03T12:00:30Z');
    await kickCampaign(s.ctx, r.body.id);
    await eventually(async () => (await getCampaign(r.body.id)).state === 'sent', 10_000);
    expect([...(await sandboxCount(s, [...nyNumbers, ...laNumbers])).values()]).toEqual(Array(6).fill(1));
  });
});

describe('company messaging settings (spec 001 §7 quiet hours and links, from modules/companies)', () => {
  it('a company with quiet hours turned off drops only its own window: the law still holds texts at night', async () => {
    const c = await createAccount(s);
    const cNumber = await buyTestNumber(c, '212');
    await setCompanyCampaignRate(s.ctx, c.companyId, 0);
    const put = await c.client.put(`/api/companies/${c.companyId}/settings`, {
      help_text: '',
      quiet_hours_enabled: false,
      quiet_hours_start: '08:00',
      quiet_hours_end: '21:00',
      links_enabled: false,
      timezone: 'America/New_York',
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    // Monday 07:30 UTC: New York 03:30, Los Angeles 00:30 — outside the law's window for both.
    campaignRuntime.now = () => new Date('2030-06-03T07:30:00Z');
    const ny = await makeGroup(s, c, '212', 2, 'Night NY');
    const la = await makeGroup(s, c, '310', 2, 'Night LA');
    const r = await c.client.post('/api/campaigns', {
      company_id: c.companyId,
      title: 'Midnight',
      text: 'Night owl offer',
      unsubscribe_text: 'Reply STOP to stop',
      groups: [ny.groupId, la.groupId],
      number_id: cNumber.id,
      state: 'queued',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const all = [...ny.contacts, ...la.contacts].map((x) => x.number);
    await eventually(
      async () =>
        (await s.ctx.db.selectFrom('campaign_recipients').select('id').where('campaign_id', '=', r.body.id).where('not_before', 'is not', null).execute())
          .length === 4,
      10_000,
    );
    const rows = await s.ctx.db
      .selectFrom('campaign_recipients')
      .select(['number', 'not_before'])
      .where('campaign_id', '=', r.body.id)
      .orderBy('number')
      .execute();
    expect(rows.map((x) => [x.number.slice(0, 5), x.not_before?.toISOString()])).toEqual([
      ['+1212', '2030-06-03T12:00:00.000Z'],
      ['+1212', '2030-06-03T12:00:00.000Z'],
      // California's window starts at 9:00 (Cal. Pub. Util. Code § 2872): 09:00 PDT.
      ['+1310', '2030-06-03T16:00:00.000Z'],
      ['+1310', '2030-06-03T16:00:00.000Z'],
    ]);
    expect((await sandboxCount(s, all)).size).toBe(0);
    campaignRuntime.now = () => new Date('2030-06-03T16:00:30Z');
    await kickCampaign(s.ctx, r.body.id);
    await eventually(async () => (await getCampaign(r.body.id, c)).state === 'sent', 10_000);
    expect([...(await sandboxCount(s, all)).values()]).toEqual(Array(4).fill(1));
  });

  it("the law of the recipient's country and state: a UK number at 00:12 London time and a Florida number at 20:30 wait, New York at 20:30 is sent", async () => {
    const c = await createAccount(s);
    const cNumber = await buyTestNumber(c, '212');
    await setCompanyCampaignRate(s.ctx, c.companyId, 0);
    const group = await createGroup(s.ctx, c.userId, { company_id: c.companyId, name: 'Abroad' });
    const uk = await createContact(s.ctx, c.companyId, { name: 'London Caller', number: '+442079460123' });
    const ny = await makeGroup(s, c, '212', 1, 'Evening NY');
    const fl = await makeGroup(s, c, '305', 1, 'Evening FL');
    await addContactsToGroups(s.ctx, [group.id], [uk.id]);
    // Monday 23:12 UTC = Tuesday 00:12 in London (BST).
    campaignRuntime.now = () => new Date('2030-06-03T23:12:00Z');
    const night = await c.client.post('/api/campaigns', {
      company_id: c.companyId,
      title: 'UK night',
      text: 'Hello',
      unsubscribe_text: 'Reply STOP to stop',
      groups: [group.id],
      number_id: cNumber.id,
      state: 'queued',
    });
    expect(night.status, JSON.stringify(night.body)).toBe(201);
    await eventually(
      async () =>
        (
          await s.ctx.db.selectFrom('campaign_recipients').select('not_before').where('campaign_id', '=', night.body.id).executeTakeFirst()
        )?.not_before?.toISOString() === '2030-06-04T07:00:00.000Z',
      10_000,
    );
    expect((await sandboxCount(s, [uk.number!])).size).toBe(0);
    // Tuesday 00:30 UTC = Monday 20:30 in New York and Miami: Florida's window ends at 20:00.
    campaignRuntime.now = () => new Date('2030-06-04T00:30:00Z');
    const evening = await c.client.post('/api/campaigns', {
      company_id: c.companyId,
      title: 'Evening',
      text: 'Hello',
      unsubscribe_text: 'Reply STOP to stop',
      groups: [ny.groupId, fl.groupId],
      number_id: cNumber.id,
      state: 'queued',
    });
    expect(evening.status, JSON.stringify(evening.body)).toBe(201);
    await eventually(async () => (await sandboxCount(s, [ny.contacts[0]!.number])).size === 1, 10_000);
    const florida = await s.ctx.db
      .selectFrom('campaign_recipients')
      .select(['state', 'not_before'])
      .where('campaign_id', '=', evening.body.id)
      .where('number', '=', fl.contacts[0]!.number)
      .executeTakeFirstOrThrow();
    expect([florida.state, florida.not_before?.toISOString()]).toEqual(['pending', '2030-06-04T12:00:00.000Z']);
    expect((await sandboxCount(s, [fl.contacts[0]!.number])).size).toBe(0);
  });

  it('links are refused until the company allows them in its settings', async () => {
    const c = await createAccount(s);
    const cNumber = await buyTestNumber(c, '212');
    const g = await makeGroup(s, c, '212', 1, 'Links');
    const body = {
      company_id: c.companyId,
      title: 'Link',
      text: 'See https://example.com/sale',
      unsubscribe_text: 'Reply STOP to stop',
      groups: [g.groupId],
      number_id: cNumber.id,
      state: 'draft',
    };
    const refused = await c.client.post('/api/campaigns', { ...body, state: 'queued', should_be_sent_at: '2031-01-01T12:00:00Z' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.text).toEqual(['Links are not allowed in messages for this account.']);
    const settings = (await c.client.get(`/api/companies/${c.companyId}/settings`)).body.data;
    expect((await c.client.put(`/api/companies/${c.companyId}/settings`, { ...settings, links_enabled: true })).status).toBe(200);
    const allowed = await c.client.post('/api/campaigns', { ...body, state: 'queued', should_be_sent_at: '2031-01-01T12:00:00Z' });
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(201);
  });
});

describe('crash safety', () => {
  it('workers die mid-campaign (one after claiming, one after the carrier accepted): after restart no contact got two messages and none is lost', async () => {
    campaignRuntime.now = () => new Date();
    campaignRuntime.claimLeaseMs = 1000;
    campaignRuntime.batchSize = 5;
    campaignRuntime.chunkSize = 20;
    campaignRuntime.dispatchRetryDelayS = 1;
    const sA = await startTestServer();
    let sB: Running | null = null;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-test-b-'));
    try {
      const acc = await createAccount(sA);
      const num = await buyTestNumber(acc, '312');
      await setCompanyCampaignRate(sA.ctx, acc.companyId, 0);
      // The real clock runs here, moved to about noon in Chicago (the law's quiet hours always
      // apply, docs/quiet-hours.md), so the test does not depend on the time of day.
      campaignRuntime.now = middayInChicago();
      const settings = await acc.client.put(`/api/companies/${acc.companyId}/settings`, {
        help_text: '',
        quiet_hours_enabled: false,
        quiet_hours_start: '08:00',
        quiet_hours_end: '21:00',
        links_enabled: false,
        timezone: 'America/New_York',
      });
      expect(settings.status, JSON.stringify(settings.body)).toBe(200);
      const { groupId, contacts } = await makeGroup(sA, acc, '312', 60, 'Crash');
      // Node A's workers freeze forever (a dead process): one right after claiming its 2nd batch,
      // another right after the carrier accepted its 2nd batch, before the SIDs were recorded.
      const frozen: string[] = [];
      const kill: Array<() => void> = [];
      let batches = 0;
      let bothFrozen!: () => void;
      const frozenNow = new Promise<void>((r) => {
        bothFrozen = r;
      });
      campaignRuntime.faultHook = (ctx, stage) => {
        if (ctx !== sA.ctx) return;
        if (stage === 'claimed') batches += 1;
        const want = frozen.length === 0 ? 'claimed' : frozen.length === 1 ? 'sent' : null;
        if (want === stage && batches >= 2 * (frozen.length + 1)) {
          frozen.push(stage);
          if (frozen.length === 2) bothFrozen();
          // Frozen until node A dies; then the handler ends with an error and does nothing more,
          // like a killed process (the queue retries the job elsewhere).
          return new Promise<void>((_, reject) => {
            kill.push(() => reject(new Error('worker killed')));
          });
        }
      };
      const r = await acc.client.post('/api/campaigns', {
        company_id: acc.companyId,
        title: 'Crash',
        text: 'Hi %%firstname%%',
        unsubscribe_text: 'Reply STOP to stop',
        groups: [groupId],
        number_id: num.id,
        state: 'queued',
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      await frozenNow;
      const numbers = contacts.map((c) => c.number);
      for (const k of kill) k();
      await sA.close(); // the frozen jobs failed (→ retried on node B); nothing of theirs was recorded
      const config = loadConfig({
        ...process.env,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        PORT: '0',
        HOST: '127.0.0.1',
        CARRIER: 'sandbox',
        TWILIO_AUTH_TOKEN: 'test-auth-token',
        SMTP_URL: '',
        PUBLIC_URL: '',
      });
      sB = await startServer(config, sA.dbUrl, { publicUrlFromPort: true });
      const b2 = sB;
      const before = await b2.ctx.db
        .selectFrom('campaign_recipients')
        .select(({ fn }) => fn.countAll<number>().as('n'))
        .where('campaign_id', '=', r.body.id)
        .where('state', '=', 'sending')
        .executeTakeFirstOrThrow();
      // The batch frozen after claiming is still claimed with no outcome (the other one may already
      // have been completed by the carrier's status callbacks, which carry the recipient id).
      expect(Number(before.n)).toBeGreaterThanOrEqual(5);
      await eventually(
        async () => (await b2.ctx.db.selectFrom('campaigns').select('state').where('id', '=', r.body.id).executeTakeFirstOrThrow()).state === 'sent',
        20_000,
        200,
      );
      const per = await sandboxCount(b2, numbers);
      expect(per.size).toBe(60);
      expect([...per.values()].every((n) => n === 1)).toBe(true);
      const states = await b2.ctx.db.selectFrom('campaign_recipients').select('state').where('campaign_id', '=', r.body.id).execute();
      expect(states.filter((x) => !['sent', 'delivered'].includes(x.state))).toEqual([]);
    } finally {
      campaignRuntime.faultHook = null;
      await sB?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 40_000);
});
