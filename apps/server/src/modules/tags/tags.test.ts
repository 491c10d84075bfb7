/**
 * Tags (spec 002 "Other: tags CRUD"; docs/workspace.md "Tags") through the real server: CRUD with colours and usage,
 * unique names, roles, another company's tag 404; tags used on calls (`POST|DELETE /calls/{id}/tags/tags`, through
 * the tags module) and on contacts and numbers (`/tags/links`).
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { postWebhook, startTestServer, type TestServer } from '../../../test/harness.js';
import { addCompanyMember } from '../companies/companies.service.js';

let s: TestServer;
let a: Account;
let other: Account;
let agent: Account;
let reader: Account;

beforeAll(async () => {
  s = await startTestServer();
  a = await createAccount(s);
  other = await createAccount(s);
  agent = await createAccount(s);
  reader = await createAccount(s);
  await addCompanyMember(s.ctx, a.companyId, agent.userId, 'user');
  await addCompanyMember(s.ctx, a.companyId, reader.userId, 'reporting');
}, 180_000);

afterAll(async () => {
  await s?.close();
});

async function buyNumber(account: Account): Promise<{ id: number; number: string }> {
  const found = await account.client.get('/api/numbers/search?type=local&areaCode=415&limit=20');
  const pick = found.body.data[Math.floor(Math.random() * found.body.data.length)];
  const r = await account.client.post('/api/numbers', { company_id: account.companyId, provider_id: pick.provider_id, number: pick.number });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: number; number: string };
}

describe('tags', () => {
  it('creates, lists, renames, recolours and deletes with messages; names unique case-insensitively', async () => {
    const created = await a.client.post('/api/tags', { companyId: a.companyId, name: 'Hot lead', color: '#FA5252' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.message).toBe('Tag was successfully created');
    expect(created.body.data).toMatchObject({ name: 'Hot lead', color: '#fa5252', companyId: a.companyId, usage: { contacts: 0, numbers: 0 } });
    const id = created.body.data.id;
    const dup = await a.client.post('/api/tags', { companyId: a.companyId, name: 'HOT LEAD' });
    expect(dup.status).toBe(422);
    expect(dup.body.errors.name).toEqual(['The name has already been taken.']);
    await a.client.post('/api/tags', { companyId: a.companyId, name: 'appointment' });
    const list = await a.client.get(`/api/tags?companyId=${a.companyId}`);
    expect(list.body.data.map((t: any) => t.name)).toEqual(['appointment', 'Hot lead']);
    expect(list.body.data[0].color).toBe('#228be6');
    expect((await a.client.get(`/api/tags?companyId=${a.companyId}&search=HOT`)).body.data.map((t: any) => t.name)).toEqual(['Hot lead']);

    const renamed = await a.client.put(`/api/tags/${id}`, { name: 'Warm lead', color: '#40c057' });
    expect(renamed.body).toMatchObject({ message: 'Tag was successfully updated', data: { name: 'Warm lead', color: '#40c057' } });
    expect((await a.client.put(`/api/tags/${id}`, { name: 'Appointment' })).status).toBe(422);
    expect((await a.client.put(`/api/tags/${id}`, {})).status).toBe(422);
    expect((await a.client.put(`/api/tags/${id}`, { color: 'red' })).status).toBe(422);
    const removed = await a.client.delete(`/api/tags/${id}`);
    expect(removed.body.message).toBe('Tag was successfully deleted');
    expect((await a.client.get(`/api/tags/${id}`)).status).toBe(404);
  });

  it('refuses bad input (422), another company (403/404) and roles that may not change', async () => {
    expect((await a.client.post('/api/tags', { companyId: a.companyId, name: '   ' })).status).toBe(422);
    expect((await a.client.post('/api/tags', { companyId: a.companyId, name: 'x'.repeat(51) })).status).toBe(422);
    expect((await a.client.get('/api/tags')).status).toBe(422);
    const t = (await a.client.post('/api/tags', { companyId: a.companyId, name: 'Private' })).body.data;
    expect((await other.client.get(`/api/tags?companyId=${a.companyId}`)).status).toBe(403);
    expect((await other.client.post('/api/tags', { companyId: a.companyId, name: 'Sneaky' })).status).toBe(403);
    expect((await other.client.get(`/api/tags/${t.id}`)).status).toBe(404);
    expect((await other.client.put(`/api/tags/${t.id}`, { name: 'Mine' })).status).toBe(404);
    expect((await other.client.delete(`/api/tags/${t.id}`)).status).toBe(404);
    // An agent (user role) creates but does not rename or delete; reporting reads only.
    expect((await agent.client.post('/api/tags', { companyId: a.companyId, name: 'From agent' })).status).toBe(201);
    expect((await agent.client.put(`/api/tags/${t.id}`, { name: 'Renamed' })).status).toBe(403);
    expect((await agent.client.delete(`/api/tags/${t.id}`)).status).toBe(403);
    expect((await reader.client.get(`/api/tags?companyId=${a.companyId}`)).status).toBe(200);
    expect((await reader.client.post('/api/tags', { companyId: a.companyId, name: 'From reader' })).status).toBe(403);
  });

  it('tags a call through the tags module: an existing tag is reused, a new one created; rename and delete show on the call', async () => {
    const n = await buyNumber(a);
    const callSid = 'CA' + crypto.randomBytes(16).toString('hex');
    await postWebhook(s, '/webhooks/twilio/voice', {
      CallSid: callSid,
      AccountSid: s.ctx.config.twilioAccountSid,
      From: '+13125550142',
      To: n.number,
      CallStatus: 'ringing',
      Direction: 'inbound',
    });
    const call = await s.ctx.db.selectFrom('calls').select('id').where('carrier_sid', '=', callSid).executeTakeFirstOrThrow();
    const vip = (await a.client.post('/api/tags', { companyId: a.companyId, name: 'VIP', color: '#be4bdb' })).body.data;
    const tagged = await a.client.post(`/api/calls/${call.id}/tags/tags`, { tags: ['vip', 'Quote', 'quote'] });
    expect(tagged.status, JSON.stringify(tagged.body)).toBe(200);
    expect(tagged.body.data).toEqual([
      { id: expect.any(Number), name: 'Quote' },
      { id: vip.id, name: 'VIP' },
    ]);
    const names = (await a.client.get(`/api/tags?companyId=${a.companyId}`)).body.data.map((t: any) => t.name);
    expect(names).toContain('Quote');
    await a.client.put(`/api/tags/${vip.id}`, { name: 'Very important' });
    expect((await a.client.get(`/api/calls/${call.id}`)).body.tags.map((t: any) => t.name)).toEqual(['Quote', 'Very important']);
    const untagged = await a.client.request('DELETE', `/api/calls/${call.id}/tags/tags`, { tags: ['QUOTE'] });
    expect(untagged.body.data.map((t: any) => t.name)).toEqual(['Very important']);
    await a.client.delete(`/api/tags/${vip.id}`);
    expect((await a.client.get(`/api/calls/${call.id}`)).body.tags).toEqual([]);
    expect((await other.client.post(`/api/calls/${call.id}/tags/tags`, { tags: ['x'] })).status).toBe(404);
  });

  it('tags contacts and numbers through tag links, counted in usage; another company’s contact is 404', async () => {
    const contact = await a.client.post('/api/contacts', { company_id: a.companyId, name: 'Dana Buyer', number: '+14155550123' });
    expect(contact.status, JSON.stringify(contact.body)).toBe(201);
    const contactId = contact.body.id;
    const n = await buyNumber(a);
    const onContact = await a.client.post('/api/tags/links', {
      companyId: a.companyId,
      entityType: 'contact',
      entityId: contactId,
      tags: ['Fleet', 'Spring promo'],
    });
    expect(onContact.status, JSON.stringify(onContact.body)).toBe(200);
    expect(onContact.body.data.map((t: any) => t.name)).toEqual(['Fleet', 'Spring promo']);
    await a.client.post('/api/tags/links', { companyId: a.companyId, entityType: 'number', entityId: n.id, tags: ['fleet'] });
    const fleet = (await a.client.get(`/api/tags?companyId=${a.companyId}&search=fleet`)).body.data[0];
    expect(fleet.usage).toMatchObject({ contacts: 1, numbers: 1 });
    const off = await a.client.request('DELETE', '/api/tags/links', { companyId: a.companyId, entityType: 'contact', entityId: contactId, tags: ['FLEET'] });
    expect(off.body.data.map((t: any) => t.name)).toEqual(['Spring promo']);
    expect((await a.client.get(`/api/tags/links?companyId=${a.companyId}&entityType=number&entityId=${n.id}`)).body.data.map((t: any) => t.name)).toEqual([
      'Fleet',
    ]);

    const foreign = await other.client.post('/api/contacts', { company_id: other.companyId, name: 'Not yours', number: '+14155550124' });
    expect((await a.client.post('/api/tags/links', { companyId: a.companyId, entityType: 'contact', entityId: foreign.body.id, tags: ['x'] })).status).toBe(
      404,
    );
    expect((await other.client.post('/api/tags/links', { companyId: a.companyId, entityType: 'contact', entityId: contactId, tags: ['x'] })).status).toBe(403);
    expect((await a.client.post('/api/tags/links', { companyId: a.companyId, entityType: 'call', entityId: 1, tags: ['x'] })).status).toBe(422);
  });
});
