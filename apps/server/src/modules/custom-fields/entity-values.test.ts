/**
 * Custom-field values on numbers, calls (see calls.complete.test.ts), companies and users through
 * the real server (spec 001 §7 "Custom fields"), and GET /api/numbers/{id}/override (spec 002 "Schedule"): typed validation (422 with
 * field errors), the shared EAV store, tenant isolation and roles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { addCompanyMember } from '../companies/companies.service.js';
import { getEavValues } from './custom-fields.service.js';

let s: TestServer;
let a: Account;
let b: Account;
let agent: Account;

beforeAll(async () => {
  s = await startTestServer();
  [a, b, agent] = await Promise.all([createAccount(s), createAccount(s), createAccount(s)]);
  await addCompanyMember(s.ctx, a.companyId, agent.userId, 'user');
});
afterAll(async () => {
  await s?.close();
});

async function attribute(owner: Account, entityType: number, body: Record<string, unknown>) {
  const r = await owner.client.post(`/api/eavEntityTypes/${entityType}/eavAttributes`, { companyId: owner.companyId, ...body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data as { id: number; choices: Array<{ id: number; value: string }> };
}

async function buyNumber(owner: Account) {
  const found = await owner.client.get('/api/numbers/search?type=local&areaCode=312&limit=20');
  for (const n of found.body.data) {
    const r = await owner.client.post('/api/numbers', { company_id: owner.companyId, provider_id: n.provider_id, number: n.number });
    if (r.status === 201) return r.body as { id: number; number: string };
  }
  throw new Error('no number bought');
}

describe('custom-field values on numbers', () => {
  it('reads and writes eavAttributeValues on GET/PUT /api/numbers/{id}, typed, isolated', async () => {
    const region = await attribute(a, 1, { name: 'Region', type: 'select', choices: [{ value: 'North' }, { value: 'South' }] });
    const launched = await attribute(a, 1, { name: 'Launched', type: 'date' });
    const contactOnly = await attribute(a, 7, { name: 'Tier', type: 'text' });
    const n = await buyNumber(a);
    expect((await a.client.get(`/api/numbers/${n.id}`)).body.eavAttributeValues).toEqual([]);

    const put = await a.client.put(`/api/numbers/${n.id}`, {
      label: 'Sales',
      eavAttributeValues: [
        { attribute_id: region.id, value: 'South' },
        { attribute_id: launched.id, value: '2026-01-15' },
      ],
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.data.label).toBe('Sales');
    const south = region.choices.find((c) => c.value === 'South')!.id;
    expect(put.body.data.eavAttributeValues).toEqual(
      expect.arrayContaining([
        { attribute_id: region.id, value: south, name: 'Region', type: 'select' },
        { attribute_id: launched.id, value: '2026-01-15', name: 'Launched', type: 'date' },
      ]),
    );
    // stored in the shared EAV store under entity type Number 1
    expect((await getEavValues(s.ctx, 1, n.id)).map((v) => v.attribute_id).sort()).toEqual([region.id, launched.id].sort());

    const bad = await a.client.put(`/api/numbers/${n.id}`, { label: 'Changed', eavAttributeValues: [{ attribute_id: launched.id, value: 'soon' }] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors['eavAttributeValues.0.value']).toEqual(['The Launched is not a valid date.']);
    const wrong = await a.client.put(`/api/numbers/${n.id}`, { eavAttributeValues: [{ attribute_id: contactOnly.id, value: 'x' }] });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors['eavAttributeValues.0.attribute_id']).toBeDefined();
    // the failed PUT changed nothing (label and values in one transaction)
    const after = (await a.client.get(`/api/numbers/${n.id}`)).body;
    expect(after.label).toBe('Sales');
    expect(after.eavAttributeValues).toHaveLength(2);

    const cleared = await a.client.put(`/api/numbers/${n.id}`, { eavAttributeValues: [{ attribute_id: launched.id, value: null }] });
    expect(cleared.body.data.eavAttributeValues).toEqual([{ attribute_id: region.id, value: south, name: 'Region', type: 'select' }]);

    // another company's attribute is refused; another company cannot read or write the number
    const foreign = await attribute(b, 1, { name: 'Foreign', type: 'text' });
    expect((await a.client.put(`/api/numbers/${n.id}`, { eavAttributeValues: [{ attribute_id: foreign.id, value: 'x' }] })).status).toBe(422);
    expect((await b.client.get(`/api/numbers/${n.id}`)).status).toBe(404);
    expect((await b.client.put(`/api/numbers/${n.id}`, { eavAttributeValues: [{ attribute_id: foreign.id, value: 'x' }] })).status).toBe(404);
    // an agent (role user) assigned the number reads but cannot write
    expect((await a.client.put(`/api/companies/${a.companyId}/users/${agent.userId}`, { numbers: [n.id] })).status).toBe(200);
    expect((await agent.client.get(`/api/numbers/${n.id}`)).body.eavAttributeValues).toHaveLength(1);
    expect((await agent.client.put(`/api/numbers/${n.id}`, { eavAttributeValues: [{ attribute_id: region.id, value: null }] })).status).toBe(403);
  });
});

describe('custom-field values on companies', () => {
  it('GET /api/companies/{id} carries eav_attribute_values; PUT /custom-fields validates and checks roles', async () => {
    const size = await attribute(a, 2, { name: 'Employees', type: 'number' });
    const vip = await attribute(a, 2, { name: 'VIP', type: 'boolean' });
    expect((await a.client.get(`/api/companies/${a.companyId}`)).body).toMatchObject({ id: a.companyId, eav_attribute_values: [] });
    const put = await a.client.put(`/api/companies/${a.companyId}/custom-fields`, {
      eavAttributeValues: [
        { attribute_id: size.id, value: '120' },
        { attribute_id: vip.id, value: 'true' },
      ],
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.message).toBe('Settings were successfully updated');
    expect(put.body.data).toEqual([
      { attribute_id: size.id, value: 120, name: 'Employees', type: 'number' },
      { attribute_id: vip.id, value: true, name: 'VIP', type: 'boolean' },
    ]);
    const snake = await a.client.put(`/api/companies/${a.companyId}/custom-fields`, { eav_attribute_values: [{ attribute_id: vip.id, value: false }] });
    expect(snake.body.data.find((v: { attribute_id: number }) => v.attribute_id === vip.id).value).toBe(false);
    expect((await a.client.get(`/api/companies/${a.companyId}`)).body.eav_attribute_values).toHaveLength(2);

    const bad = await a.client.put(`/api/companies/${a.companyId}/custom-fields`, { eavAttributeValues: [{ attribute_id: vip.id, value: 'maybe' }] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors['eavAttributeValues.0.value']).toEqual(['The VIP field must be true or false.']);
    expect((await agent.client.get(`/api/companies/${a.companyId}`)).body.eav_attribute_values).toHaveLength(2);
    expect((await agent.client.put(`/api/companies/${a.companyId}/custom-fields`, { eavAttributeValues: [{ attribute_id: size.id, value: 1 }] })).status).toBe(
      403,
    );
    expect((await b.client.get(`/api/companies/${a.companyId}`)).status).toBe(403);
    expect((await b.client.put(`/api/companies/${a.companyId}/custom-fields`, { eavAttributeValues: [] })).status).toBe(403);
    // b cannot write a's attribute onto its own company
    expect((await b.client.put(`/api/companies/${b.companyId}/custom-fields`, { eavAttributeValues: [{ attribute_id: size.id, value: 1 }] })).status).toBe(422);
  });
});

describe('custom-field values on users', () => {
  it('own values per company, managers edit members, 403/404/422 as designed', async () => {
    const shirt = await attribute(a, 5, { name: 'Shirt size', type: 'select', choices: [{ value: 'M' }, { value: 'L' }] });
    const large = shirt.choices.find((c) => c.value === 'L')!.id;
    expect((await agent.client.get(`/api/user/custom-fields?company_id=${a.companyId}`)).body.data).toEqual([]);
    const own = await agent.client.put('/api/user/custom-fields', { company_id: a.companyId, eavAttributeValues: [{ attribute_id: shirt.id, value: 'L' }] });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.data).toEqual([{ attribute_id: shirt.id, value: large, name: 'Shirt size', type: 'select' }]);
    // the agent's own company has no such field: nothing shows there, and it cannot be written there
    expect((await agent.client.get(`/api/user/custom-fields?company_id=${agent.companyId}`)).body.data).toEqual([]);
    expect(
      (await agent.client.put('/api/user/custom-fields', { company_id: agent.companyId, eavAttributeValues: [{ attribute_id: shirt.id, value: 'L' }] })).status,
    ).toBe(422);
    const badChoice = await agent.client.put('/api/user/custom-fields', {
      company_id: a.companyId,
      eavAttributeValues: [{ attribute_id: shirt.id, value: 'XXL' }],
    });
    expect(badChoice.status).toBe(422);
    expect(badChoice.body.errors['eavAttributeValues.0.value']).toEqual(['The selected Shirt size is invalid.']);
    expect((await b.client.get(`/api/user/custom-fields?company_id=${a.companyId}`)).status).toBe(403);

    // the owner reads and edits the agent's values; the agent cannot edit the owner's
    const seen = await a.client.get(`/api/companies/${a.companyId}/users/${agent.userId}/custom-fields`);
    expect(seen.body.data).toEqual([{ attribute_id: shirt.id, value: large, name: 'Shirt size', type: 'select' }]);
    const m = shirt.choices.find((c) => c.value === 'M')!.id;
    const edited = await a.client.put(`/api/companies/${a.companyId}/users/${agent.userId}/custom-fields`, {
      eavAttributeValues: [{ attribute_id: shirt.id, value: m }],
    });
    expect(edited.body.data[0].value).toBe(m);
    expect((await agent.client.get(`/api/user/custom-fields?company_id=${a.companyId}`)).body.data[0].value).toBe(m);
    expect((await agent.client.put(`/api/companies/${a.companyId}/users/${a.userId}/custom-fields`, { eavAttributeValues: [] })).status).toBe(403);
    // b is no member of a's company: 403 for the company, 404 for a user outside the company
    expect((await b.client.get(`/api/companies/${a.companyId}/users/${agent.userId}/custom-fields`)).status).toBe(403);
    expect((await a.client.get(`/api/companies/${a.companyId}/users/${b.userId}/custom-fields`)).status).toBe(404);
    expect((await a.client.put(`/api/companies/${a.companyId}/users/${b.userId}/custom-fields`, { eavAttributeValues: [] })).status).toBe(404);
  });
});

describe('number override read', () => {
  it('GET /api/numbers/{id}/override answers auto by default, then the stored override; expired counts as auto', async () => {
    const n = await buyNumber(a);
    const first = await a.client.get(`/api/numbers/${n.id}/override`);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ number_id: n.id, mode: 'auto', until: null, is_open: true });
    const until = new Date(Date.now() + 3_600_000).toISOString();
    expect((await a.client.put(`/api/numbers/${n.id}/override`, { mode: 'closed', until })).status).toBe(200);
    // a user (role user) reads the override of a number assigned to them only
    expect((await agent.client.get(`/api/numbers/${n.id}/override`)).status).toBe(404);
    expect((await a.client.put(`/api/companies/${a.companyId}/users/${agent.userId}`, { numbers: [n.id] })).status).toBe(200);
    const now = await agent.client.get(`/api/numbers/${n.id}/override`);
    expect(now.body.data).toEqual({ number_id: n.id, mode: 'closed', until, is_open: false });
    expect((await b.client.get(`/api/numbers/${n.id}/override`)).status).toBe(404);
    expect((await a.client.get('/api/numbers/999999999/override')).status).toBe(404);
    // an override whose end has passed reads as auto
    await s.ctx.db
      .updateTable('number_overrides')
      .set({ until: new Date(Date.now() - 1000) })
      .where('number_id', '=', n.id)
      .execute();
    expect((await a.client.get(`/api/numbers/${n.id}/override`)).body.data).toMatchObject({ mode: 'auto', until: null, is_open: true });
  });
});
