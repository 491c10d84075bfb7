/**
 * Contacts integration tests on a real server: CRUD with every field, 422 field errors, tenant
 * isolation, list filters and pagination, bulk destroy / export over all pages, upsert into groups.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';

let s: TestServer;
let a: Account;
let b: Account;

beforeAll(async () => {
  s = await startTestServer();
  [a, b] = await Promise.all([createAccount(s), createAccount(s)]);
});
afterAll(async () => {
  await s?.close();
});

describe('contacts CRUD', () => {
  it('creates with every field, derives the name from first + last, reads it back, patches and deletes', async () => {
    const r = await a.client.post('/api/contacts', {
      company_id: a.companyId,
      first_name: 'Ada',
      last_name: 'Lovelace',
      number: '(212) 555-0101',
      email: 'ada@example.com',
      company_name: 'Engines',
      address1: '1 Main St',
      address2: 'Apt 2',
      city: 'New York',
      state: 'NY',
      zip: '10001',
      notes: 'vip',
      optin_type: 'web',
      optin_source: 'form',
      alternative_names: ['Countess'],
      secondary_emails: ['ada2@example.com'],
      carrier: 'Verizon',
      gender: 'Female',
      age_range: '31-35',
      type: 'Person',
      custom: { country: 'US', title: 'Dr' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({
      name: 'Ada Lovelace',
      number: '+12125550101',
      source: 'Manual',
      gender: 'Female',
      age_range: '31-35',
      type: 'Person',
      city: 'New York',
      alternative_names: ['Countess'],
      custom: { country: 'US', title: 'Dr' },
      is_invalid: false,
    });
    const id = r.body.id;
    const g = await a.client.get(`/api/contacts/${id}`);
    expect(g.status).toBe(200);
    expect(g.body).toMatchObject({ id, labels: [], groups: [], eavAttributeValues: [] });

    const p = await a.client.patch(`/api/contacts/${id}`, { full_name: 'Augusta Ada King', state: 'CA' });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    expect(p.body).toMatchObject({ name: 'Augusta Ada King', state: 'CA', email: 'ada@example.com' });

    expect((await a.client.delete(`/api/contacts/${id}`)).status).toBe(200);
    expect((await a.client.get(`/api/contacts/${id}`)).status).toBe(404);
  });

  it('answers 422 with field errors for bad input', async () => {
    const r = await a.client.post('/api/contacts', { company_id: a.companyId, name: 'X', number: '123', gender: 'Unknown', age_range: '70-75', email: 'nope' });
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.errors)).toEqual(expect.arrayContaining(['gender', 'age_range', 'email']));
    const noName = await a.client.post('/api/contacts', { company_id: a.companyId, number: '2125550102' });
    expect(noName.status).toBe(422);
    expect(noName.body.errors.name).toBeDefined();
    const badNumber = await a.client.post('/api/contacts', { company_id: a.companyId, name: 'Bob', number: '123' });
    expect(badNumber.status).toBe(422);
    expect(badNumber.body.errors.number).toEqual(['The number must be a valid phone number.']);
    await a.client.post('/api/contacts', { company_id: a.companyId, name: 'Dup', number: '2125550103' });
    const dup = await a.client.post('/api/contacts', { company_id: a.companyId, name: 'Dup 2', number: '+1 212 555 0103' });
    expect(dup.status).toBe(422);
    expect(dup.body.errors.number).toEqual(['The number has already been taken.']);
  });

  it('keeps companies apart (403 on another company, 404 on its contacts)', async () => {
    const mine = await a.client.post('/api/contacts', { company_id: a.companyId, name: 'Mine', number: '2125550104' });
    expect((await b.client.get(`/api/contacts/${mine.body.id}`)).status).toBe(404);
    expect((await b.client.patch(`/api/contacts/${mine.body.id}`, { name: 'Stolen' })).status).toBe(404);
    expect((await b.client.delete(`/api/contacts/${mine.body.id}`)).status).toBe(404);
    expect((await b.client.get(`/api/contacts?company_id=${a.companyId}`)).status).toBe(403);
    expect((await b.client.post(`/api/companies/${a.companyId}/contacts/bulkDestroy`, { all: true })).status).toBe(403);
    const bList = await b.client.get('/api/contacts');
    expect(bList.status).toBe(200);
    expect(bList.body.data.find((c: { id: number }) => c.id === mine.body.id)).toBeUndefined();
  });
});

describe('list, upsert and bulk actions', () => {
  let c: Account;
  beforeAll(async () => {
    c = await createAccount(s);
  });

  it('upserts by number into groups, filters, paginates, exports and destroys across every page', async () => {
    const group = await c.client.post('/api/groups', { company_id: c.companyId, name: 'Leads' });
    expect(group.status).toBe(201);
    const contacts = Array.from({ length: 12 }, (_, i) => ({
      name: `Person ${i}`,
      number: `21255502${String(i).padStart(2, '0')}`,
      email: i % 2 ? `p${i}@example.com` : null,
    }));
    const up = await c.client.put(`/api/companies/${c.companyId}/contacts`, { contacts, groups: [group.body.id] });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body).toMatchObject({ inserted: 12, merged: 0 });
    const again = await c.client.put(`/api/companies/${c.companyId}/contacts`, {
      contacts: [{ name: 'Person 0 Renamed', number: '+12125550200' }],
      groups: [],
    });
    expect(again.body).toMatchObject({ inserted: 0, merged: 1 });
    await c.client.post('/api/contacts', { company_id: c.companyId, name: 'Outsider', number: '2125550299' });

    const page1 = await c.client.get(`/api/contacts?company_id=${c.companyId}&group_id=${group.body.id}&per_page=5&page=1`);
    expect(page1.status).toBe(200);
    expect(page1.body.meta.pagination).toEqual({ current_page: 1, total_pages: 3, total: 12, per_page: 5 });
    expect(page1.body.data[0]).toMatchObject({ groups: [{ id: group.body.id, name: 'Leads' }], labels: [], eavAttributeValues: [] });
    const search = await c.client.get(`/api/contacts?company_id=${c.companyId}&search=Renamed`);
    expect(search.body.data.map((x: { name: string }) => x.name)).toEqual(['Person 0 Renamed']);
    const byNumber = await c.client.get(`/api/contacts?company_id=${c.companyId}&search=${encodeURIComponent('(212) 555-0299')}`);
    expect(byNumber.body.data.map((x: { name: string }) => x.name)).toEqual(['Outsider']);

    const exp = await c.client.post(`/api/companies/${c.companyId}/contacts/bulkExport`, { all: true, filters: { group_id: group.body.id } });
    expect(exp.status, JSON.stringify(exp.body)).toBe(200);
    expect(exp.body.count).toBe(12);
    expect((await fetch(exp.body.url)).status).toBe(401); // the company's users only (platform/blob/access.ts)
    const csv = (await c.client.get(new URL(exp.body.url).pathname)).body as string;
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/^id,name,first_name,last_name,number,email/);
    expect(lines).toHaveLength(13);
    expect(csv).toContain('Person 0 Renamed');
    expect(csv).not.toContain('Outsider');

    const chosen = await c.client.post(`/api/companies/${c.companyId}/contacts/bulkExport`, { contacts: [page1.body.data[0].id] });
    expect(chosen.body.count).toBe(1);

    const del = await c.client.post(`/api/companies/${c.companyId}/contacts/bulkDestroy`, { all: true, filters: { group_id: group.body.id } });
    expect(del.body.count).toBe(12);
    const rest = await c.client.get(`/api/contacts?company_id=${c.companyId}`);
    expect(rest.body.data.map((x: { name: string }) => x.name)).toEqual(['Outsider']);
    expect((await c.client.post(`/api/companies/${c.companyId}/contacts/bulkDestroy`, {})).status).toBe(422);
  });
});
