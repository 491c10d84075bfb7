/**
 * Issue 23 "audit log flooded with create token": the softphone's access token, renewed on every page load, is recorded
 * once an hour per person and company (docs/audit.md "Routine requests"); other requests are recorded every time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';

let s: TestServer;
let a: Account;

beforeAll(async () => {
  s = await startTestServer();
  a = await createAccount(s);
}, 90_000);

afterAll(async () => {
  await s?.close();
});

const tokenPath = () => `/api/companies/${a.companyId}/in-app-calling/token`;

async function entries(query: string): Promise<Array<{ path: string; action: string; entity_type: string }>> {
  const r = await a.client.get(`/api/audit-log?company_id=${a.companyId}&${query}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
}

describe('routine requests in the audit log', () => {
  it('records the softphone token once however often it is renewed', async () => {
    // Going active provisions the person's in-app line (the token needs it).
    expect((await a.client.post(`/api/companies/${a.companyId}/in-app-calling/status`, { status: 'active' })).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await a.client.post(tokenPath(), {})).status).toBe(200);
    // The hook writes after the answer: wait until the first entry is there, then check no more came.
    let tokens: Awaited<ReturnType<typeof entries>> = [];
    for (let i = 0; i < 50 && tokens.length === 0; i++) {
      tokens = (await entries('entity_type=token')).filter((e) => e.path === tokenPath());
      if (!tokens.length) await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 300));
    tokens = (await entries('entity_type=token')).filter((e) => e.path === tokenPath());
    expect(tokens).toHaveLength(1);
    expect(tokens[0]).toMatchObject({ action: 'create', entity_type: 'token' });
  });

  it('still records every other change', async () => {
    for (const name of ['Alpha', 'Beta']) expect((await a.client.post('/api/tags', { companyId: a.companyId, name })).status).toBe(201);
    let tags: Awaited<ReturnType<typeof entries>> = [];
    for (let i = 0; i < 50 && tags.length < 2; i++) {
      tags = await entries('entity_type=tags');
      if (tags.length < 2) await new Promise((r) => setTimeout(r, 100));
    }
    expect(tags).toHaveLength(2);
  });
});
