/** Custom fields (EAV) on a real server: entity types, attribute CRUD, values on contacts, stats, 422s, isolation. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { getEavValues, setEavValues } from './custom-fields.service.js';

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

describe('custom fields', () => {
  it('lists entity types with the spec ids', async () => {
    const r = await a.client.get('/api/eavEntityTypes');
    expect(r.body.data).toEqual([
      { id: 1, name: 'Number' },
      { id: 2, name: 'Company' },
      { id: 3, name: 'TrackingPool' },
      { id: 4, name: 'Organization' },
      { id: 5, name: 'User' },
      { id: 6, name: 'Call' },
      { id: 7, name: 'Contact' },
    ]);
  });

  it('creates, lists, updates, uses on contacts, counts and deletes attributes', async () => {
    const tier = await a.client.post('/api/eavEntityTypes/7/eavAttributes', {
      name: 'Tier',
      type: 'select',
      companyId: a.companyId,
      defaultValue: 'Gold',
      choices: [
        { value: 'Gold', sort_order: 1 },
        { value: 'Silver', sort_order: 2, description: 'second' },
      ],
    });
    expect(tier.status, JSON.stringify(tier.body)).toBe(201);
    expect(tier.body.message).toBe('Custom field created successfully');
    expect(tier.body.data).toMatchObject({ name: 'Tier', type: 'select', entityType: 7, companyId: a.companyId, defaultValue: 1 });
    const [gold, silver] = tier.body.data.choices;
    const age = await a.client.post('/api/eavEntityTypes/7/eavAttributes', { name: 'Age', type: 'number', companyId: a.companyId });
    expect(age.status).toBe(201);
    expect((await a.client.post('/api/eavEntityTypes/7/eavAttributes', { name: '', type: 'text', companyId: a.companyId })).status).toBe(422);
    expect((await a.client.post('/api/eavEntityTypes/7/eavAttributes', { name: 'X', type: 'color', companyId: a.companyId })).status).toBe(422);
    expect((await a.client.post('/api/eavEntityTypes/7/eavAttributes', { name: 'X', type: 'select', companyId: a.companyId, choices: [] })).status).toBe(422);
    expect((await b.client.post('/api/eavEntityTypes/7/eavAttributes', { name: 'X', type: 'text', companyId: a.companyId })).status).toBe(403);

    const list = await a.client.get(`/api/eavAttributes?company_id=${a.companyId}&entity_type=7`);
    expect(list.body.data.map((x: { name: string }) => x.name)).toEqual(['Age', 'Tier']);
    expect((await a.client.get(`/api/eavAttributes?company_id=${a.companyId}&entity_type=6`)).body.data).toEqual([]);

    const c = await a.client.post('/api/contacts', {
      company_id: a.companyId,
      name: 'Eve',
      number: '2125550501',
      eavAttributeValues: [
        { attribute_id: tier.body.data.id, value: 'Silver' },
        { attribute_id: age.body.data.id, value: '42' },
      ],
    });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    expect(c.body.eavAttributeValues).toEqual(
      expect.arrayContaining([
        { attribute_id: tier.body.data.id, value: silver.id, name: 'Tier', type: 'select' },
        { attribute_id: age.body.data.id, value: 42, name: 'Age', type: 'number' },
      ]),
    );
    const bad = await a.client.patch(`/api/contacts/${c.body.id}`, { eavAttributeValues: [{ attribute_id: age.body.data.id, value: 'old' }] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors['eavAttributeValues.0.value']).toBeDefined();
    const p = await a.client.patch(`/api/contacts/${c.body.id}`, {
      eavAttributeValues: [
        { attribute_id: tier.body.data.id, value: gold.id },
        { attribute_id: age.body.data.id, value: null },
      ],
    });
    expect(p.body.eavAttributeValues).toEqual([{ attribute_id: tier.body.data.id, value: gold.id, name: 'Tier', type: 'select' }]);
    const listed = await a.client.get(`/api/contacts?company_id=${a.companyId}`);
    expect(listed.body.data[0].eavAttributeValues).toHaveLength(1);

    // another company's attribute cannot be used, read or deleted
    const other = await b.client.post('/api/eavEntityTypes/7/eavAttributes', { name: 'Secret', type: 'text', companyId: b.companyId });
    const steal = await a.client.patch(`/api/contacts/${c.body.id}`, { eavAttributeValues: [{ attribute_id: other.body.data.id, value: 'x' }] });
    expect(steal.status).toBe(422);
    expect((await a.client.get(`/api/eavAttributes/${other.body.data.id}/countStats`)).status).toBe(404);
    expect((await a.client.delete(`/api/eavAttributes/${other.body.data.id}`)).status).toBe(403);

    // service API for other modules (e.g. calls: entity type 6)
    const callField = await a.client.post('/api/eavEntityTypes/6/eavAttributes', {
      name: 'Outcome',
      type: 'multiselect',
      companyId: a.companyId,
      choices: [{ value: 'Sale' }, { value: 'Lead' }],
    });
    await setEavValues(s.ctx, 6, 999, a.companyId, [{ attribute_id: callField.body.data.id, value: ['Sale', 'Lead'] }]);
    expect(await getEavValues(s.ctx, 6, 999)).toEqual([{ attribute_id: callField.body.data.id, value: [1, 2], name: 'Outcome', type: 'multiselect' }]);
    await expect(setEavValues(s.ctx, 7, 999, a.companyId, [{ attribute_id: callField.body.data.id, value: ['Sale'] }])).rejects.toThrow();

    const stats = await a.client.get(`/api/eavAttributes/${tier.body.data.id}/countStats`);
    expect(stats.body.data).toMatchObject({ total: 1, entities: 1, companies: 1, perValue: [{ value: gold.id, count: 1 }] });

    const u = await a.client.put(`/api/eavEntityTypes/7/eavAttributes/${tier.body.data.id}`, { name: 'Level' });
    expect(u.body).toMatchObject({ message: 'Custom field updated successfully', data: { name: 'Level' } });
    expect((await a.client.put(`/api/eavEntityTypes/7/eavAttributes/${tier.body.data.id}`, { type: 'text' })).status).toBe(422);
    const d = await a.client.delete(`/api/eavAttributes/${tier.body.data.id}`);
    expect(d.body.message).toBe('Custom field deleted successfully');
    expect((await a.client.get(`/api/contacts/${c.body.id}`)).body.eavAttributeValues).toEqual([]);
  });
});
