/**
 * Input hygiene (input-hygiene.ts; docs/domain-decisions.md "Input hygiene"): NUL characters and
 * lone surrogates answer 422 naming the field (before sign-in too), a signed inbound SMS keeps its
 * text without the NUL, malformed multipart, impossible cursors, non-ids and over-long text are
 * 422 — never a 500 — against the real server and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, uniqueEmail, type Account } from '../../../test/fixtures.js';
import { ApiClient, postWebhook, startTestServer, type TestServer } from '../../../test/harness.js';
import { MAX_TEXT_LENGTH } from './input-hygiene.js';

let s: TestServer;
let a: Account;
let number: { id: number; number: string };

beforeAll(async () => {
  s = await startTestServer();
  a = await createAccount(s);
  // A sandbox number bought through the API, as a person would.
  const search = await a.client.get('/api/numbers/search?type=local&areaCode=212');
  const bought = await a.client.post('/api/numbers', {
    company_id: a.companyId,
    provider_id: search.body.data[0].provider_id,
    number: search.body.data[0].number,
  });
  if (bought.status !== 201) throw new Error(`number purchase failed: ${bought.status} ${JSON.stringify(bought.body)}`);
  number = { id: bought.body.id, number: bought.body.number };
});
afterAll(async () => {
  await s?.close();
});

const NUL = 'before\u0000after';

function multipart(fields: Record<string, string>, file?: { name: string; filename: string; type: string; data: string }): { body: string; type: string } {
  const b = '----hygiene';
  let body = '';
  for (const [k, v] of Object.entries(fields)) body += `--${b}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  if (file)
    body += `--${b}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n${file.data}\r\n`;
  return { body: `${body}--${b}--\r\n`, type: `multipart/form-data; boundary=${b}` };
}

/** Sends a pre-encoded body with the client's cookies and XSRF header. */
async function rawPost(client: ApiClient, url: string, body: string, type: string): Promise<{ status: number; body: any }> {
  const csrf = client.cookie('XSRF-TOKEN');
  const cookies = ['switchboard_session', 'XSRF-TOKEN']
    .filter((n) => client.cookie(n))
    .map((n) => `${n}=${client.cookie(n)}`)
    .join('; ');
  const res = await fetch(s.url + url, {
    method: 'POST',
    headers: { 'content-type': type, accept: 'application/json', cookie: cookies, ...(csrf ? { 'x-xsrf-token': decodeURIComponent(csrf) } : {}) },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

describe('NUL characters and lone surrogates', () => {
  it('answers 422 naming the field before sign-in (sign-in, sign-up, password reset)', async () => {
    const stranger = new ApiClient(s.url);
    await stranger.get('/api/csrf-cookie');
    const login = await stranger.post('/api/sanctum/login', { email: `x${NUL}@example.test`, password: NUL });
    expect(login.status).toBe(422);
    expect(Object.keys(login.body.errors).sort()).toEqual(['email', 'password']);
    expect(login.body.errors.password[0]).toMatch(/NUL/);

    const signup = await stranger.post('/api/client/signup/create', {
      first_name: NUL,
      last_name: 'Doe',
      email: uniqueEmail(),
      password: 'correct-horse-battery',
      company_name: 'Acme',
    });
    expect(signup.status).toBe(422);
    expect(signup.body.errors).toHaveProperty('first_name');

    const forgot = await stranger.post('/api/password/forgot', { email: NUL });
    expect(forgot.status).toBe(422);
    expect(forgot.body.errors).toHaveProperty('email');
  });

  it('answers 422 with the field for contacts, campaigns, number labels and query parameters', async () => {
    const contact = await a.client.post('/api/contacts', { company_id: a.companyId, first_name: NUL, last_name: 'Ok', number: '+13125550100' });
    expect(contact.status).toBe(422);
    expect(contact.body).toMatchObject({ errors: { first_name: [expect.stringMatching(/first_name/)] } });

    const campaign = await a.client.post('/api/campaigns', { company_id: a.companyId, title: NUL, state: 'draft' });
    expect(campaign.status).toBe(422);
    expect(campaign.body.errors).toHaveProperty('title');

    const label = await a.client.put(`/api/numbers/${number.id}`, { label: NUL });
    expect(label.status).toBe(422);
    expect(label.body.errors).toHaveProperty('label');

    const search = await a.client.get(`/api/contacts?company_id=${a.companyId}&search=a%00b`);
    expect(search.status).toBe(422);
    expect(search.body.errors).toHaveProperty('search');

    // Nested fields are named by their path.
    const nested = await a.client.post('/api/contacts', { company_id: a.companyId, first_name: 'Ok', number: '+13125550101', custom: { title: NUL } });
    expect(nested.status).toBe(422);
    expect(nested.body.errors).toHaveProperty(['custom.title']);

    // The same fields without the NUL are accepted (the hook refuses only the character).
    const ok = await a.client.post('/api/campaigns', { company_id: a.companyId, title: 'before after', state: 'draft' });
    expect(ok.status).toBe(201);
  });

  it('answers 422 for a lone surrogate in a label; a proper pair (emoji) is kept', async () => {
    const lone = await a.client.put(`/api/numbers/${number.id}`, { label: 'Front \ud800 desk' });
    expect(lone.status).toBe(422);
    expect(lone.body.errors.label[0]).toMatch(/Unicode/);
    const emoji = await a.client.put(`/api/numbers/${number.id}`, { label: 'Front desk \ud83d\udcde' });
    expect(emoji.status).toBe(200);
    expect((await a.client.get(`/api/numbers/${number.id}`)).body.label ?? emoji.body.label).toContain('\ud83d\udcde');
  });

  it('answers 422 for NUL in a multipart text field or file name', async () => {
    const m = multipart({ company_id: String(a.companyId), title: NUL, state: 'draft' });
    const r = await rawPost(a.client, '/api/campaigns', m.body, m.type);
    expect(r.status).toBe(422);
    expect(r.body.errors).toHaveProperty('title');
    const f = multipart({}, { name: 'file', filename: 'con\u0000tacts.csv', type: 'text/csv', data: 'phone\n+13125550102\n' });
    const preview = await rawPost(a.client, `/api/companies/${a.companyId}/contacts/import/preview`, f.body, f.type);
    expect(preview.status).toBe(422);
    expect(preview.body.errors).toHaveProperty('file');
  });

  it('stores a signed inbound SMS with the NUL removed (answered 200, not lost)', async () => {
    const r = await postWebhook(s, '/webhooks/twilio/messaging', {
      MessageSid: `SM${'7'.repeat(32)}`,
      AccountSid: 'ACtest',
      From: '+13125557777',
      To: number.number,
      Body: 'Open\u0000 today?',
      NumMedia: '0',
    });
    expect(r.status).toBe(200);
    const list = await a.client.get(`/api/companies/${a.companyId}/conversations?search=3125557777`);
    expect(list.status).toBe(200);
    expect(list.body.data[0].latestItem.details.content).toBe('Open today?');
  });
});

describe('other malformed input', () => {
  it('answers 422 for malformed multipart bodies', async () => {
    const b = '----cut';
    const truncated = `--${b}\r\nContent-Disposition: form-data; name="company_id"\r\n\r\n${a.companyId}\r\n--${b}\r\nContent-Disp`;
    const r1 = await rawPost(a.client, `/api/companies/${a.companyId}/contacts/import/preview`, truncated, `multipart/form-data; boundary=${b}`);
    expect(r1.status).toBe(422);
    expect(r1.body.errors).toHaveProperty('body');
    const r2 = await rawPost(a.client, '/api/message', `--${b}\r\n\r\n`, 'multipart/form-data');
    expect(r2.status).toBe(422);
    // Malformed JSON in the import's group_ids field.
    const m = multipart({ group_ids: '[1,', mapping: '{}' }, { name: 'file', filename: 'c.csv', type: 'text/csv', data: 'phone\n+13125550103\n' });
    const r3 = await rawPost(a.client, `/api/companies/${a.companyId}/contacts/import`, m.body, m.type);
    expect(r3.status).toBe(422);
    expect(r3.body.errors).toHaveProperty('group_ids');
  });

  it('answers 422 for a cursor carrying an impossible date', async () => {
    for (const ts of ['2024-02-30 10:00:00+00', '2023-02-29 10:00:00+00', '2024-13-01 10:00:00+00', '2024-01-01 25:00:00+00', '0000-01-01 00:00:00+00']) {
      const cursor = Buffer.from(JSON.stringify([ts, 5])).toString('base64url');
      const r = await a.client.get(`/api/companies/${a.companyId}/conversations?cursor=${cursor}`);
      expect(r.status, ts).toBe(422);
      expect(r.body.errors).toHaveProperty('cursor');
    }
    // A real leap day is a valid position.
    const leap = Buffer.from(JSON.stringify(['2024-02-29 10:00:00.123456+00', 5])).toString('base64url');
    expect((await a.client.get(`/api/companies/${a.companyId}/conversations?cursor=${leap}`)).status).toBe(200);
  });

  it('answers 422 for ids that are not positive safe integers', async () => {
    for (const bad of ['1.5', '1e308', '9223372036854775808', '-1', '0', 'abc']) {
      const q = await a.client.get(`/api/greetings?company_id=${bad}`);
      expect(q.status, bad).toBe(422);
      expect(q.body.errors).toHaveProperty('company_id');
      const p = await a.client.get(`/api/contacts/${bad}`);
      expect(p.status, bad).toBe(422);
    }
    for (const bad of [1.5, 1e308, 2 ** 63, -1]) {
      const body = await a.client.post('/api/contacts', { company_id: bad, first_name: 'X', number: '+13125550104' });
      expect(body.status, String(bad)).toBe(422);
      expect(body.body.errors).toHaveProperty('company_id');
    }
  });

  it(`answers 422 for text longer than ${MAX_TEXT_LENGTH} characters in any field`, async () => {
    const r = await a.client.post('/api/campaigns', { company_id: a.companyId, title: 'x'.repeat(MAX_TEXT_LENGTH + 1), state: 'draft' });
    expect(r.status).toBe(422);
    expect(r.body.errors.title[0]).toMatch(/10000 characters/);
  });
});
