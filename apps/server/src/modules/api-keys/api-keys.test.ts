/**
 * API keys limited to one business unit (spec 001 "API keys": "an optional business unit id"; docs/api-and-webhooks.md
 * "Business unit"): the key reaches the companies of its unit and is refused (403) on any other company of the same
 * person — named in the path (`companyId`, `/companies/{id}/…`), the query or the body (`company_id`), or resolved
 * by the service from an entity's id — while a key without a unit reaches them all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { ApiClient, startTestServer, type TestServer } from '../../../test/harness.js';

let s: TestServer;
let owner: Account;
/** Business units of the owner with one account each: `own` (the key's), `other`. */
let own: { unit: number; company: number };
let other: { unit: number; company: number };

/** A client calling with `Authorization: Bearer <key>` only (no cookies). */
function keyClient(token: string): ApiClient {
  const c = new ApiClient(s.url);
  c.bearer = token;
  return c;
}

async function unitWithAccount(name: string): Promise<{ unit: number; company: number }> {
  const org = await owner.client.post('/api/business-units', { name });
  expect(org.status, JSON.stringify(org.body)).toBe(201);
  const unit = org.body.data.id as number;
  const c = await owner.client.post(`/api/business-units/${unit}/companies`, {
    company_info: { name: `${name} client`, business_unit_id: unit, skip_number: true },
  });
  expect(c.status, JSON.stringify(c.body)).toBe(201);
  return { unit, company: c.body.data.id as number };
}

async function createKey(businessUnitId: number | null): Promise<ApiClient> {
  const r = await owner.client.post('/api/personalAccessTokens', {
    name: businessUnitId ? 'Unit key' : 'Every company',
    scopes: ['calls:read', 'calls:write', 'contacts:read', 'account:read'],
    ...(businessUnitId ? { business_unit_id: businessUnitId } : {}),
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return keyClient(r.body.data.token);
}

beforeAll(async () => {
  s = await startTestServer();
  owner = await createAccount(s, { companyName: 'Owner HQ' });
  own = await unitWithAccount('Unit East');
  other = await unitWithAccount('Unit West');
}, 60_000);
afterAll(async () => {
  await s?.close();
});

describe('an API key limited to one business unit', () => {
  it('is allowed in its own unit and refused (403) on a company of another unit or of none, wherever the company is named', async () => {
    const key = await createKey(own.unit);
    const refusal = { message: 'This API key is limited to another business unit.' };

    // The company in the path (`companyId`).
    expect((await key.get(`/api/companies/${own.company}`)).status).toBe(200);
    const path = await key.get(`/api/companies/${other.company}`);
    expect(path.status).toBe(403);
    expect(path.body).toEqual(refusal);
    expect((await key.get(`/api/companies/${owner.companyId}`)).status).toBe(403); // an account in no unit

    // The company in the query (`company_id`).
    expect((await key.get(`/api/contacts?company_id=${own.company}`)).status).toBe(200);
    expect((await key.get(`/api/contacts?company_id=${other.company}`)).status).toBe(403);

    // The company in the body (`company_id`): nothing is created in the other unit.
    const created = await key.post('/api/blocks', { company_id: own.company, target: '7735550161', global: true, action: 'reject' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const refused = await key.post('/api/blocks', { company_id: other.company, target: '7735550162', global: true, action: 'reject' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(refusal);
    const otherBlocks = await owner.client.get(`/api/blocks/${other.company}`);
    expect(JSON.stringify(otherBlocks.body)).not.toContain('7735550162');

    // An entity of the other unit (the company resolved by the service from the block's id): not reachable, kept.
    const foreign = await owner.client.post('/api/blocks', { company_id: other.company, target: '7735550163', global: true, action: 'reject' });
    expect(foreign.status).toBe(201);
    const foreignId = foreign.body.data?.id ?? foreign.body.id;
    expect([403, 404]).toContain((await key.delete(`/api/blocks/${foreignId}`)).status);
    expect(JSON.stringify((await owner.client.get(`/api/blocks/${other.company}`)).body)).toContain('7735550163');
    // Its own unit's block: deleted.
    const ownId = created.body.data?.id ?? created.body.id;
    expect((await key.delete(`/api/blocks/${ownId}`)).status).toBe(200);
  });

  it('a key without a business unit reaches every company of the person', async () => {
    const key = await createKey(null);
    for (const company of [own.company, other.company, owner.companyId]) {
      expect((await key.get(`/api/companies/${company}`)).status).toBe(200);
    }
  });
});
