/**
 * Contact and campaign webhooks through the real server (docs/api-and-webhooks.md "Event types"): a company's
 * endpoint receives signed `contact.created`, `contact.updated` (only when something changed, with the changed
 * fields), `contact.deleted` (one and bulk) and `campaign.finished` deliveries, verified with the Standard Webhooks
 * reference verifier; another company's endpoint receives none of them; an endpoint not subscribed to a type gets
 * nothing of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, startReceiver, startTestServer, verifyWebhook, type ReceivedRequest, type TestServer } from '../../../test/harness.js';
import { campaignRuntime, setCompanyCampaignRate } from '../campaigns/campaigns.service.js';
import { createContact } from '../contacts/contacts.service.js';
import { addContactsToGroups, createGroup } from '../contacts/groups.service.js';
import { buyTestNumber } from '../messaging/messaging.test-helpers.js';
import { webhookTuning } from './webhooks.delivery.js';

/** A fixed clock inside every US sending window (New York 14:00, Los Angeles 11:00). */
const DAYTIME = new Date('2030-06-03T18:00:00Z');
const savedTuning = { ...webhookTuning };
const savedRuntime = { ...campaignRuntime };

let s: TestServer;
let a: Account;
let b: Account;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let base: string;
let received: ReceivedRequest[];

beforeAll(async () => {
  webhookTuning.retryDelaysMs = [150, 150, 150];
  webhookTuning.addressPolicy = { allowHosts: ['127.0.0.1'] };
  campaignRuntime.now = () => DAYTIME;
  s = await startTestServer();
  [a, b] = await Promise.all([createAccount(s, { firstName: 'Ada' }), createAccount(s, { firstName: 'Bea' })]);
  receiver = await startReceiver();
  ({ base, received } = receiver);
}, 60_000);

afterAll(async () => {
  Object.assign(webhookTuning, savedTuning);
  Object.assign(campaignRuntime, savedRuntime);
  receiver?.close();
  await s?.close();
});

/** Subscribes `path` of the receiver for `account`'s company; @returns the endpoint id and its signing secret. */
async function subscribe(account: Account, path: string, eventTypes: string[]): Promise<{ id: number; secret: string }> {
  const r = await account.client.post('/api/webhook-endpoints', { company_id: account.companyId, url: `${base}${path}`, events: eventTypes });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const secret = (await account.client.get(`/api/webhook-endpoints/${r.body.data.id}/secret`)).body.data.secret as string;
  return { id: r.body.data.id as number, secret };
}

/** The verified payloads the receiver got on `path` (throws when a signature does not verify). */
function verified(path: string, secret: string): Array<{ type: string; data: Record<string, any> }> {
  return received.filter((r) => r.path === path).map((r) => verifyWebhook(secret, r));
}

describe('contact webhooks', () => {
  it('delivers signed contact.created, contact.updated (changes only) and contact.deleted to the company that subscribed', async () => {
    const ep = await subscribe(a, '/contacts', ['contact.created', 'contact.updated', 'contact.deleted']);
    const callsOnly = await subscribe(a, '/calls-only', ['call.completed']);
    const otherCompany = await subscribe(b, '/other', ['contact.created', 'contact.updated', 'contact.deleted']);

    const created = await a.client.post('/api/contacts', { company_id: a.companyId, first_name: 'Grace', last_name: 'Hopper', number: '(312) 555-0147' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    const first = await eventually(async () => verified('/contacts', ep.secret).find((p) => p.type === 'contact.created'), 10_000);
    expect(first.data).toMatchObject({
      company_id: a.companyId,
      contact_id: id,
      name: 'Grace Hopper',
      number: '+13125550147',
      email: null,
      source: 'Manual',
      is_unsubscribed: false,
    });
    expect(first.data.created_at).toBe(created.body.created_at);

    // A PATCH that changes nothing sends nothing; one that changes the e-mail says so.
    expect((await a.client.patch(`/api/contacts/${id}`, { first_name: 'Grace', last_name: 'Hopper' })).status).toBe(200);
    const changed = await a.client.patch(`/api/contacts/${id}`, { email: 'grace@example.test' });
    expect(changed.status).toBe(200);
    const updates = await eventually(async () => {
      const u = verified('/contacts', ep.secret).filter((p) => p.type === 'contact.updated');
      return u.length ? u : undefined;
    }, 10_000);
    expect(updates).toHaveLength(1);
    expect(updates[0]!.data).toMatchObject({ contact_id: id, email: 'grace@example.test', changed_fields: ['email'], updated_at: changed.body.updated_at });

    // An upsert (PUT) creates the new number's contact and merges the known one.
    const upsert = await a.client.put(`/api/companies/${a.companyId}/contacts`, {
      contacts: [
        { number: '+13125550147', notes: 'VIP' },
        { name: 'Alan Turing', number: '+13125550148' },
      ],
    });
    expect(upsert.status, JSON.stringify(upsert.body)).toBe(200);
    const turingId = upsert.body.data[1].id as number;
    await eventually(async () => {
      const p = verified('/contacts', ep.secret);
      return p.some((x) => x.type === 'contact.created' && x.data.contact_id === turingId) && p.filter((x) => x.type === 'contact.updated').length === 2;
    }, 10_000);
    const merged = verified('/contacts', ep.secret).filter((p) => p.type === 'contact.updated')[1]!;
    expect(merged.data).toMatchObject({ contact_id: id, changed_fields: ['notes'] });

    // One deleted, then the other by a bulk delete.
    expect((await a.client.delete(`/api/contacts/${id}`)).status).toBe(200);
    const bulk = await a.client.post(`/api/companies/${a.companyId}/contacts/bulkDestroy`, { contacts: [turingId] });
    expect(bulk.body).toMatchObject({ count: 1 });
    const deletions = await eventually(async () => {
      const d = verified('/contacts', ep.secret).filter((p) => p.type === 'contact.deleted');
      return d.length === 2 ? d : undefined;
    }, 10_000);
    expect(deletions.map((d) => d.data.contact_ids).sort((x, y) => x[0] - y[0])).toEqual([[id], [turingId]]);
    for (const d of deletions) expect(d.data.company_id).toBe(a.companyId);

    // Exactly these six deliveries, each with its own webhook-id; nothing for the calls-only endpoint or company B.
    const mine = received.filter((r) => r.path === '/contacts');
    expect(mine).toHaveLength(6);
    expect(new Set(mine.map((r) => r.headers['webhook-id'])).size).toBe(6);
    expect(received.filter((r) => r.path === '/calls-only' || r.path === '/other')).toEqual([]);
    const log = await a.client.get(`/api/webhook-endpoints/${ep.id}/deliveries`);
    expect(log.body.data.map((d: { event_type: string }) => d.event_type).sort()).toEqual([
      'contact.created',
      'contact.created',
      'contact.deleted',
      'contact.deleted',
      'contact.updated',
      'contact.updated',
    ]);
    await Promise.all([
      a.client.delete(`/api/webhook-endpoints/${ep.id}`),
      a.client.delete(`/api/webhook-endpoints/${callsOnly.id}`),
      b.client.delete(`/api/webhook-endpoints/${otherCompany.id}`),
    ]);
  });

  it('lists the contact and campaign event types as subscribable and refuses unknown ones (422)', async () => {
    const r = await a.client.post('/api/webhook-endpoints', { company_id: a.companyId, url: `${base}/x`, events: ['contact.exploded'] });
    expect(r.status).toBe(422);
    const ok = await subscribe(a, '/x', ['campaign.finished', 'contact.deleted']);
    expect((await a.client.get(`/api/webhook-endpoints/${ok.id}`)).body.data.events).toEqual(['campaign.finished', 'contact.deleted']);
    await a.client.delete(`/api/webhook-endpoints/${ok.id}`);
  });
});

describe('campaign webhooks', () => {
  it('delivers a signed campaign.finished with the final counters once the campaign is sent', async () => {
    const ep = await subscribe(a, '/campaigns', ['campaign.finished']);
    const number = await buyTestNumber(a, '212');
    await setCompanyCampaignRate(s.ctx, a.companyId, 0); // unlimited for the sandbox
    const group = await createGroup(s.ctx, a.userId, { company_id: a.companyId, name: 'Webhook group' });
    const contacts = [];
    for (const n of ['+13125550161', '+13125550162', '+13125550163'])
      contacts.push(await createContact(s.ctx, a.companyId, { name: `Person ${n.slice(-2)}`, number: n }));
    await addContactsToGroups(
      s.ctx,
      [group.id],
      contacts.map((c) => c.id),
    );

    const r = await a.client.post('/api/campaigns', {
      company_id: a.companyId,
      title: 'Webhook spring sale',
      text: 'Hi %%firstname%%, 20% off today',
      unsubscribe_text: 'Reply STOP to stop',
      groups: [group.id],
      number_id: number.id,
      state: 'queued',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const finished = await eventually(async () => verified('/campaigns', ep.secret)[0], 20_000);
    expect(finished).toMatchObject({
      type: 'campaign.finished',
      data: { company_id: a.companyId, campaign_id: r.body.id, title: 'Webhook spring sale', state: 'sent', recipients_count: 3, sent_count: 3 },
    });
    expect(finished.data.finished_at).toBe(DAYTIME.toISOString());
    const campaign = await a.client.get(`/api/campaigns/${r.body.id}`);
    expect(campaign.body).toMatchObject({ state: 'sent', recipients_count: 3, sent_count: 3 });

    // Once per campaign: a later dispatch run finds it finished and sends nothing more.
    await new Promise((res) => setTimeout(res, 500));
    expect(received.filter((x) => x.path === '/campaigns')).toHaveLength(1);
  });
});
