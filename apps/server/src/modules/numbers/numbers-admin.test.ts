/** Number administration through the real server (sandbox carrier): spec 002 §7 "Numbers"; docs/numbers.md. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import Papa from 'papaparse';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, startTestServer, type TestServer } from '../../../test/harness.js';
import { connectSocket, subscribe } from '../messaging/messaging.test-helpers.js';
import { runBatch } from './numbers-batches.service.js';

let s: TestServer;
let owner: Account;
let other: Account;
const sockets: Socket[] = [];

beforeAll(async () => {
  s = await startTestServer();
  [owner, other] = await Promise.all([createAccount(s), createAccount(s)]);
});
afterAll(async () => {
  for (const so of sockets) so.close();
  await s?.close();
});

async function buy(account: Account, areaCode: string, index = 0): Promise<any> {
  const search = await account.client.get(`/api/numbers/search?type=local&areaCode=${areaCode}&limit=${index + 1}`);
  const pick = search.body.data[index];
  const r = await account.client.post('/api/numbers', { company_id: account.companyId, provider_id: pick.provider_id, number: pick.number });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}

describe('locate and detail', () => {
  it('locates an owned number and a number the carrier offers; 422 for junk; other companies see nothing', async () => {
    const n = await buy(owner, '303');
    const r = await owner.client.post('/api/numbers/locate', { number: n.national_number });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      number: n.number,
      available: false,
      owned: { id: n.id, category_label: 'Voice & SMS', provider_label: s.ctx.carrier.displayName },
    });
    // The provider shown is the configured carrier's own name (the sandbox here), not the spec table's example.
    expect(r.body.owned.provider_label).toBe('Sandbox');
    const offer = (await owner.client.get('/api/numbers/search?type=local&areaCode=303&limit=3')).body.data[1].number;
    const free = await owner.client.post('/api/numbers/locate', { number: offer });
    expect(free.body).toMatchObject({ number: offer, owned: null, available: true });
    const bad = await owner.client.post('/api/numbers/locate', { number: '12' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.number).toBeDefined();
    const missing = await owner.client.post('/api/numbers/locate', {});
    expect(missing.status).toBe(422);
    const theirs = await other.client.post('/api/numbers/locate', { number: n.number });
    expect(theirs.body).toMatchObject({ owned: null, available: false });

    const bulk = await owner.client.post('/api/numbers/locate-bulk', { numbers: [n.number, offer] });
    expect(bulk.body.data.map((d: any) => [d.number, Boolean(d.owned), d.available])).toEqual([
      [n.number, true, false],
      [offer, false, true],
    ]);
    const bulkBad = await owner.client.post('/api/numbers/locate-bulk', { numbers: [n.number, 'nope'] });
    expect(bulkBad.status).toBe(422);
    expect(Object.keys(bulkBad.body.errors)).toEqual(['numbers.1']);
  });

  it('reads a number by id or number text with the sms-verification include, hidden from other companies', async () => {
    const n = await buy(owner, '720');
    const byId = await owner.client.get(`/api/numbers/list/${n.id}?include=sms-verification`);
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({ id: n.id, sms_verification: { status: 'unverified' }, triggers: [], sms_enabled: true });
    const byNumber = await owner.client.get(`/api/numbers/list/${encodeURIComponent(n.number)}`);
    expect(byNumber.body.id).toBe(n.id);
    // The spec's Number carries sms_verification in every answer (numbers.view.ts), with or without the include.
    expect(byNumber.body.sms_verification).toEqual({ status: 'unverified' });
    expect((await other.client.get(`/api/numbers/list/${n.id}`)).status).toBe(404);
    expect((await other.client.get(`/api/numbers/list/${encodeURIComponent(n.number)}`)).status).toBe(404);
  });
});

describe('prefixes, patterns, overlays, enumerations', () => {
  it('answers the toll-free prefixes, patterns and real overlays; 422 for a bad area code', async () => {
    const p = await owner.client.get('/api/numberPrefixes');
    expect(p.body.data.map((x: any) => x.value)).toEqual(['8**', '800', '888', '877', '866', '855', '844', '833']);
    const pat = await owner.client.get('/api/numbers/patterns');
    expect(pat.body.data.find((x: any) => x.pattern === 'CALL')).toMatchObject({ digits: '2255' });
    const o = await owner.client.get('/api/numbers/overlay/212');
    expect(o.status).toBe(200);
    expect(o.body.data).toEqual(expect.arrayContaining(['646', '332', '917']));
    expect(o.body.data).not.toContain('212');
    expect((await owner.client.get('/api/numbers/overlay/21')).status).toBe(422);
    expect((await owner.client.get('/api/numbers/overlay/abc')).status).toBe(422);
    const e = await owner.client.get('/api/numbers/enumerations');
    expect(e.body.number_type_labels).toEqual([
      { id: 1, label: 'Toll-Free Voice & SMS', types: [2] },
      { id: 2, label: 'Local Voice & SMS', types: [1, 3] },
      { id: 3, label: 'Fax number', types: [] },
      { id: 4, label: 'Bulk numbers', types: [] },
    ]);
    expect(e.body.categories.map((c: any) => c.label)).toEqual(['Voice & SMS', 'International', 'Fax']);
    expect(e.body.providers[0]).toEqual({ id: 1, label: 'Bandwidth' });
  });
});

describe('datatable and export', () => {
  it('pages, sorts and filters, and exports CSV', async () => {
    const acct = await createAccount(s);
    const bought = [];
    for (let i = 0; i < 3; i++) bought.push(await buy(acct, '512', i));
    await acct.client.put(`/api/numbers/${bought[0].id}`, { label: 'Alpha desk' });
    await acct.client.put(`/api/numbers/${bought[1].id}`, { label: 'Bravo desk' });
    await acct.client.put(`/api/numbers/${bought[2].id}`, {
      label: 'Charlie',
      routes: [{ type: 'sequential', forwards: [{ number: '6465550101' }, { number: '6465550102' }] }],
    });

    const page1 = await acct.client.get(`/api/companies/${acct.companyId}/numbers/datatable?perPage=2&sort=label&dir=asc`);
    expect(page1.status).toBe(200);
    expect(page1.body.meta).toEqual({ current_page: 1, per_page: 2, total: 3, last_page: 2 });
    expect(page1.body.data.map((n: any) => n.label)).toEqual(['Alpha desk', 'Bravo desk']);
    const page2 = await acct.client.get(`/api/companies/${acct.companyId}/numbers/datatable?perPage=2&page=2&sort=label&dir=asc`);
    expect(page2.body.data.map((n: any) => n.label)).toEqual(['Charlie']);
    const def = await acct.client.get(`/api/companies/${acct.companyId}/numbers/datatable`);
    expect(def.body.meta.per_page).toBe(25);
    const search = await acct.client.get(`/api/companies/${acct.companyId}/numbers/datatable?search=desk`);
    expect(search.body.meta.total).toBe(2);
    const digits = bought[2].number.slice(-6);
    const byDigits = await acct.client.get(`/api/companies/${acct.companyId}/numbers/datatable?filters[search]=${digits}`);
    expect(byDigits.body.data.map((n: any) => n.id)).toEqual([bought[2].id]);
    const byType = await acct.client.get(`/api/companies/${acct.companyId}/numbers/datatable?type=2`);
    expect(byType.body.meta.total).toBe(0);
    expect((await acct.client.get(`/api/companies/${acct.companyId}/numbers/datatable?sort=bogus`)).status).toBe(422);
    expect((await acct.client.get(`/api/companies/${acct.companyId}/numbers/datatable?perPage=0`)).status).toBe(422);
    expect((await other.client.get(`/api/companies/${acct.companyId}/numbers/datatable`)).status).toBe(403);

    const csv = await acct.client.post(`/api/companies/${acct.companyId}/numbers/export`, { sort: 'label', dir: 'asc' });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="numbers-\d{4}-\d{2}-\d{2}\.csv"$/);
    const parsed = Papa.parse<string[]>(csv.body as string, { skipEmptyLines: true }).data;
    expect(parsed[0]).toEqual(['Number', 'Label', 'Type', 'Route Type', 'Schedule', 'Created At']);
    expect(parsed.slice(1).map((r) => r[1])).toEqual(['Alpha desk', 'Bravo desk', 'Charlie']);
    expect(parsed[3]).toEqual([bought[2].number, 'Charlie', 'Local Voice & SMS', 'Sequential', '24/7', expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/)]);
    const filtered = await acct.client.post(`/api/companies/${acct.companyId}/numbers/export`, { search: 'Charlie' });
    expect(Papa.parse(filtered.body as string, { skipEmptyLines: true }).data).toHaveLength(2);
    expect((await other.client.post(`/api/companies/${acct.companyId}/numbers/export`, {})).status).toBe(403);
  });
});

describe('batches', () => {
  it('releases numbers in a job with progress events, is idempotent on re-run, and hides released numbers', async () => {
    const acct = await createAccount(s);
    const a = await buy(acct, '615', 0);
    const b = await buy(acct, '615', 1);
    const so = await connectSocket(s, acct.client);
    sockets.push(so);
    expect(await subscribe(so, `company.${acct.companyId}`)).toEqual({ ok: true });
    const progress: any[] = [];
    const completed: any[] = [];
    so.on('release progress', (e) => progress.push(e));
    so.on('release completed', (e) => completed.push(e));

    expect((await other.client.post('/api/numbers/remove-bulk', { ids: [a.id, b.id] })).status).toBe(404);
    expect((await acct.client.post('/api/numbers/remove-bulk', { ids: [] })).status).toBe(422);
    const r = await acct.client.post('/api/numbers/remove-bulk', { ids: [a.id, b.id] });
    expect(r.status).toBe(202);
    const batchId = r.body.batchId;
    expect(r.body.data).toMatchObject({ kind: 'release', total: 2, done: 0, progress: 0, finished_at: null });

    const done = await eventually(async () => completed.find((e) => e.batchId === batchId));
    expect(done).toMatchObject({ batchId, done: 2, failed: 0 });
    expect(new Date(done.finishedAt).getTime()).toBeGreaterThan(0);
    expect(progress.filter((e) => e.batchId === batchId).map((e) => e.progress)).toEqual([50, 100]);
    const poll = await acct.client.get(`/api/companies/${acct.companyId}/numbers/batches/${batchId}`);
    expect(poll.body).toMatchObject({ done: 2, failed: 0, progress: 100, finished_at: done.finishedAt });
    expect(poll.body.items.every((i: any) => i.status === 'done')).toBe(true);
    expect((await other.client.get(`/api/companies/${acct.companyId}/numbers/batches/${batchId}`)).status).toBe(403);
    expect((await acct.client.get(`/api/companies/${acct.companyId}/numbers/batches/not-a-uuid`)).status).toBe(422);
    expect((await acct.client.get(`/api/numbers/${a.id}`)).status).toBe(404);
    const limit = await acct.client.get(`/api/companies/${acct.companyId}/number-limit`);
    expect(limit.body).toEqual({ limit: 25, used: 0 });
    // The released numbers are back in the carrier's inventory.
    const again = await acct.client.post('/api/numbers/locate', { number: a.number });
    expect(again.body.available).toBe(true);

    // Re-running the batch (the queue delivers at least once) changes nothing and publishes nothing.
    const before = progress.length + completed.length;
    await runBatch(s.ctx, batchId);
    await new Promise((res) => setTimeout(res, 200));
    expect(progress.length + completed.length).toBe(before);
    expect((await acct.client.get(`/api/companies/${acct.companyId}/numbers/batches/${batchId}`)).body).toEqual(poll.body);

    // A single remove is a batch too.
    const c = await buy(acct, '615', 2);
    const single = await acct.client.post(`/api/numbers/${c.id}/remove`);
    expect(single.status).toBe(202);
    await eventually(async () => completed.find((e) => e.batchId === single.body.batchId));
    expect((await acct.client.get(`/api/numbers/${c.id}`)).status).toBe(404);
  });

  it('re-running an interrupted batch skips done items', async () => {
    const acct = await createAccount(s);
    const a = await buy(acct, '702', 0);
    const b = await buy(acct, '702', 1);
    // Simulate a crash after the first item: mark it done by hand, leave the second pending.
    const r = await acct.client.put('/api/v1/numbers', { ids: [a.id, b.id], label: 'Bulk label' });
    expect(r.status).toBe(202);
    const batchId = r.body.batchId;
    await eventually(async () => (await acct.client.get(`/api/companies/${acct.companyId}/numbers/batches/${batchId}`)).body.finished_at);
    expect((await acct.client.get(`/api/numbers/${a.id}`)).body.label).toBe('Bulk label');
    expect((await acct.client.get(`/api/numbers/${b.id}`)).body.label).toBe('Bulk label');
    await s.ctx.db
      .updateTable('number_batches')
      .set({
        finished_at: null,
        items: JSON.stringify([
          { key: String(a.id), number_id: a.id, status: 'done' },
          { key: String(b.id), number_id: b.id, status: 'pending' },
        ]),
        done: 1,
      })
      .where('id', '=', batchId)
      .execute();
    await acct.client.put(`/api/numbers/${a.id}`, { label: 'Changed since' });
    await runBatch(s.ctx, batchId);
    expect((await acct.client.get(`/api/numbers/${a.id}`)).body.label).toBe('Changed since');
    const poll = await acct.client.get(`/api/companies/${acct.companyId}/numbers/batches/${batchId}`);
    expect(poll.body).toMatchObject({ done: 2, failed: 0, progress: 100 });
  });

  it('a refused item fails alone; an unexpected error fails the job until its last attempt, then the item, so the batch finishes', async () => {
    const acct = await createAccount(s);
    const a = await buy(acct, '703', 0);
    const r = await acct.client.put('/api/v1/numbers', { ids: [a.id], label: 'Bulk label' });
    expect(r.status).toBe(202);
    const batchId = r.body.batchId;
    const url = `/api/companies/${acct.companyId}/numbers/batches/${batchId}`;
    await eventually(async () => (await acct.client.get(url)).body.finished_at);
    // One item whose number is gone (a refusal), one the database cannot even look up (bigint overflow).
    await s.ctx.db
      .updateTable('number_batches')
      .set({
        finished_at: null,
        items: JSON.stringify([
          { key: 'gone', number_id: 987654321, status: 'pending' },
          { key: 'broken', number_id: 1e20, status: 'pending' },
        ]),
        total: 2,
        done: 0,
        failed: 0,
      })
      .where('id', '=', batchId)
      .execute();
    await expect(runBatch(s.ctx, batchId)).rejects.toThrow();
    let poll = await acct.client.get(url);
    expect(poll.body.finished_at).toBeNull();
    expect(poll.body.items[0]).toMatchObject({ status: 'failed', error: 'Number not found.' });
    expect(poll.body.items[1]).toMatchObject({ status: 'pending' });
    await runBatch(s.ctx, batchId, { lastAttempt: true });
    poll = await acct.client.get(url);
    expect(poll.body.finished_at).toBeTruthy();
    expect(poll.body).toMatchObject({ done: 0, failed: 2, progress: 100 });
    expect(poll.body.items[1]).toMatchObject({ status: 'failed', error: 'Please try again later' });
  });

  it('bulk-updates routes and schedule with events; 422 for bad routes or nothing to change', async () => {
    const acct = await createAccount(s);
    const a = await buy(acct, '808', 0);
    const so = await connectSocket(s, acct.client);
    sockets.push(so);
    await subscribe(so, `company.${acct.companyId}`);
    const completed: any[] = [];
    so.on('number update completed', (e) => completed.push(e));
    expect((await acct.client.put('/api/v1/numbers', { ids: [a.id] })).status).toBe(422);
    const bad = await acct.client.put('/api/v1/numbers', { ids: [a.id], routes: [{ forwards: [{ number: '12' }] }] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors['routes.0.forwards.0.number']).toBeDefined();
    const r = await acct.client.put('/api/v1/numbers', {
      ids: [a.id],
      routes: [{ type: 'simultaneous', forwards: [{ number: '6465550101' }, { number: '6465550102' }] }],
    });
    await eventually(async () => completed.find((e) => e.batchId === r.body.batchId));
    const n = (await acct.client.get(`/api/numbers/${a.id}`)).body;
    expect(n.routes[0]).toMatchObject({ type: 'simultaneous', forwards: [{ number: '+16465550101' }, { number: '+16465550102' }] });
    expect((await other.client.put('/api/v1/numbers', { ids: [a.id], label: 'x' })).status).toBe(404);
  });

  it('bulk-purchases on the bulk-purchase channel, failing taken numbers, within the number limit', async () => {
    const acct = await createAccount(s);
    const so = await connectSocket(s, acct.client);
    sockets.push(so);
    expect(await subscribe(so, `bulk-purchase.${acct.companyId}`)).toEqual({ ok: true });
    const otherSo = await connectSocket(s, other.client);
    sockets.push(otherSo);
    expect((await subscribe(otherSo, `bulk-purchase.${acct.companyId}`)).ok).toBe(false);
    const progress: any[] = [];
    const finished: any[] = [];
    so.on('bulk purchase progress', (e) => progress.push(e));
    so.on('bulk purchase finished', (e) => finished.push(e));
    const taken = await buy(other, '206', 0);
    const offers = (await acct.client.get('/api/numbers/search?type=local&areaCode=206&limit=4')).body.data;
    const picks = offers.filter((o: any) => o.number !== taken.number).slice(0, 2);
    const r = await acct.client.post('/api/numbers/bulk', {
      company_id: acct.companyId,
      numbers: [...picks.map((p: any) => ({ number: p.number, provider_id: 1 })), { number: taken.number, provider_id: 1 }],
    });
    expect(r.status).toBe(202);
    const fin = await eventually(async () => finished.find((e) => e.batchId === r.body.batchId));
    expect(fin).toMatchObject({ done: 2, failed: 1 });
    expect(progress.map((p) => p.progress)).toEqual([33, 66, 100]);
    const poll = (await acct.client.get(`/api/companies/${acct.companyId}/numbers/batches/${r.body.batchId}`)).body;
    expect(poll.items[2]).toMatchObject({ status: 'failed', error: 'The number has already been taken.' });
    expect((await acct.client.get(`/api/companies/${acct.companyId}/number-limit`)).body).toEqual({ limit: 25, used: 2 });

    expect((await acct.client.post('/api/numbers/bulk', { company_id: acct.companyId, numbers: [{ number: 'x', provider_id: 1 }] })).status).toBe(422);
    expect((await other.client.post('/api/numbers/bulk', { company_id: acct.companyId, numbers: [{ number: picks[0].number, provider_id: 1 }] })).status).toBe(
      403,
    );
    const many = Array.from({ length: 24 }, (_, i) => ({ number: `+1206555${String(1000 + i)}`, provider_id: 1 }));
    const over = await acct.client.post('/api/numbers/bulk', { company_id: acct.companyId, numbers: many });
    expect(over.status).toBe(422);
    expect(over.body.errors.numbers[0]).toMatch(/number limit of 25/);
  });
});

describe('rotate', () => {
  it('swaps to a new number in the same area code, keeping routing, and releases the old one', async () => {
    const n = await buy(owner, '415');
    await owner.client.put(`/api/numbers/${n.id}`, { routes: [{ label: 'Desk', forwards: [{ number: '6465550111' }] }] });
    const r = await owner.client.post(`/api/numbers/${n.id}/rotate`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.previous_number).toBe(n.number);
    expect(r.body.data.id).toBe(n.id);
    expect(r.body.data.number).not.toBe(n.number);
    expect(r.body.data.number.slice(0, 5)).toBe('+1415');
    expect(r.body.data.label).toBe(r.body.data.national_number);
    expect(r.body.data.routes[0]).toMatchObject({ label: 'Desk', forwards: [{ number: '+16465550111' }] });
    expect((await owner.client.post('/api/numbers/locate', { number: n.number })).body.available).toBe(true);
    expect((await other.client.post(`/api/numbers/${n.id}/rotate`)).status).toBe(404);
  });
});

describe('forward contacts', () => {
  it('creates, lists, updates, deletes and reports usage; validates and isolates', async () => {
    const base = `/api/companies/${owner.companyId}/forward-contacts`;
    const c = await owner.client.post(base, { name: "Mike's cell", number: '(646) 555-0177' });
    expect(c.status).toBe(201);
    expect(c.body.data).toMatchObject({ name: "Mike's cell", number: '+16465550177', national_number: '(646) 555-0177' });
    expect((await owner.client.post(base, { name: 'Bad', number: '12' })).body.errors.number).toBeDefined();
    expect((await owner.client.post(base, { name: '', number: '6465550177' })).status).toBe(422);
    expect((await owner.client.get(base)).body.data.map((x: any) => x.id)).toContain(c.body.data.id);

    const n = await buy(owner, '404');
    await owner.client.put(`/api/numbers/${n.id}`, {
      routes: [
        { label: 'Sales', forwards: [{ number: '6465550177' }] },
        { extension: 2, label: 'Other', forwards: [{ number: '6465550100' }] },
      ],
    });
    const usage = await owner.client.get(`${base}/${c.body.data.id}/usage`);
    expect(usage.body.data).toEqual([{ number_id: n.id, number: n.number, label: n.label, extension: 1, route_label: 'Sales' }]);

    const u = await owner.client.put(`${base}/${c.body.data.id}`, { name: 'Mike (new)', number: '6465550178' });
    expect(u.body.data).toMatchObject({ name: 'Mike (new)', number: '+16465550178' });
    expect((await owner.client.get(`${base}/${c.body.data.id}/usage`)).body.data).toEqual([]);

    expect((await other.client.get(base)).status).toBe(403);
    const theirBase = `/api/companies/${other.companyId}/forward-contacts`;
    expect((await other.client.put(`${theirBase}/${c.body.data.id}`, { name: 'x', number: '6465550178' })).status).toBe(404);
    expect((await other.client.delete(`${theirBase}/${c.body.data.id}`)).status).toBe(404);
    expect((await other.client.get(`${theirBase}/${c.body.data.id}/usage`)).status).toBe(404);
    expect((await owner.client.delete(`${base}/${c.body.data.id}`)).status).toBe(200);
    expect((await owner.client.delete(`${base}/${c.body.data.id}`)).status).toBe(404);
  });
});

describe('number limit', () => {
  it('refuses buying beyond the limit and records and mails an increase request', async () => {
    const acct = await createAccount(s);
    await s.ctx.db.insertInto('company_number_limits').values({ company_id: acct.companyId, number_limit: 1 }).execute();
    await buy(acct, '602', 0);
    expect((await acct.client.get(`/api/companies/${acct.companyId}/number-limit`)).body).toEqual({ limit: 1, used: 1 });
    const pick = (await acct.client.get('/api/numbers/search?type=local&areaCode=602&limit=3')).body.data[2];
    const r = await acct.client.post('/api/numbers', { company_id: acct.companyId, provider_id: 1, number: pick.number });
    expect(r.status).toBe(422);
    expect(r.body.errors.number[0]).toBe('The number limit of 1 numbers has been reached (1 in use). Request a limit increase to add more numbers.');

    const inc = await acct.client.post(`/api/companies/${acct.companyId}/number-limit-increase`, { requested_limit: 50, reason: 'New branch office' });
    expect(inc.status).toBe(200);
    expect(inc.body).toEqual({ message: 'Your request to increase the number limit has been submitted.' });
    const mail = await s.ctx.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to_address', '=', s.ctx.config.supportEmail)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    expect(mail?.text_body).toContain('Requested limit: 50');
    expect(mail?.text_body).toContain('New branch office');
    const stored = await s.ctx.db.selectFrom('number_limit_requests').selectAll().where('company_id', '=', acct.companyId).execute();
    expect(stored).toHaveLength(1);
    expect((await acct.client.post(`/api/companies/${acct.companyId}/number-limit-increase`, { requested_limit: 1, reason: 'x' })).status).toBe(422);
    expect((await acct.client.post(`/api/companies/${acct.companyId}/number-limit-increase`, { requested_limit: 'many' })).status).toBe(422);
    expect((await other.client.post(`/api/companies/${acct.companyId}/number-limit-increase`, { requested_limit: 50, reason: 'x' })).status).toBe(403);
    expect((await other.client.get(`/api/companies/${acct.companyId}/number-limit`)).status).toBe(403);
  });

  it('lets the roles that may buy numbers ask for an increase (owner, administrator); billing, reporting and user get 403', async () => {
    const acct = await createAccount(s);
    const members: Record<string, Awaited<ReturnType<typeof createAccount>>> = {};
    for (const role of ['administrator', 'billing', 'reporting', 'user'] as const) {
      members[role] = await createAccount(s);
      const invited = await acct.client.post(`/api/companies/${acct.companyId}/invitations`, { email: members[role]!.email, role });
      expect(invited.status, JSON.stringify(invited.body)).toBeLessThan(300);
    }
    const url = `/api/companies/${acct.companyId}/number-limit-increase`;
    const admin = await members.administrator!.client.post(url, { requested_limit: 80, reason: 'Second location opens in May' });
    expect(admin.status, JSON.stringify(admin.body)).toBe(200);
    expect(admin.body).toEqual({ message: 'Your request to increase the number limit has been submitted.' });
    // The administrator sees the limit the refusal talks about.
    expect((await members.administrator!.client.get(`/api/companies/${acct.companyId}/number-limit`)).status).toBe(200);
    for (const role of ['billing', 'reporting', 'user'] as const)
      expect((await members[role]!.client.post(url, { requested_limit: 80, reason: 'x' })).status, role).toBe(403);
    const stored = await s.ctx.db.selectFrom('number_limit_requests').selectAll().where('company_id', '=', acct.companyId).execute();
    expect(stored.map((r) => r.requested_limit)).toEqual([80]);
  });
});

describe('extension suggestions', () => {
  it('follows the foundation rule with perPage default 10', async () => {
    const n = await buy(owner, '305');
    await owner.client.put(`/api/numbers/${n.id}`, { routes: [{ extension: 1 }, { extension: 2 }, { extension: 5 }] });
    const r = await owner.client.get(`/api/companies/${owner.companyId}/extension-suggestions?number_id=${n.id}`);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    const none = await owner.client.get(`/api/companies/${owner.companyId}/extension-suggestions?perPage=3`);
    expect(none.body.data).toEqual([0, 1, 2]);
    expect((await owner.client.get(`/api/companies/${owner.companyId}/extension-suggestions?perPage=0`)).status).toBe(422);
    expect((await other.client.get(`/api/companies/${other.companyId}/extension-suggestions?number_id=${n.id}`)).status).toBe(404);
  });
});

describe('triggers', () => {
  it('upserts, updates and removes triggers with validation and isolation', async () => {
    const n = await buy(owner, '214');
    const url = `/api/companies/${owner.companyId}/triggers`;
    const r = await owner.client.put(url, {
      upsert: [
        { number_id: n.id, event: 'call.missed', action: 'email', target: 'ops@example.test' },
        { number_id: n.id, event: 'sms.received', action: 'webhook', target: 'https://hooks.example.test/sms' },
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toHaveLength(2);
    // The same trigger again is not duplicated.
    const same = await owner.client.put(url, { upsert: [{ number_id: n.id, event: 'call.missed', action: 'email', target: 'ops@example.test' }] });
    expect(same.body.data).toHaveLength(2);
    const missed = same.body.data.find((t: any) => t.event === 'call.missed');
    const upd = await owner.client.put(url, {
      upsert: [{ id: missed.id, number_id: n.id, event: 'call.voicemail', action: 'email', target: 'vm@example.test' }],
      remove: [same.body.data.find((t: any) => t.event === 'sms.received').id],
    });
    expect(upd.body.data).toEqual([expect.objectContaining({ id: missed.id, event: 'call.voicemail', target: 'vm@example.test' })]);
    expect((await owner.client.get(`/api/numbers/list/${n.id}`)).body.triggers).toHaveLength(1);

    const bad = await owner.client.put(url, {
      upsert: [
        { number_id: n.id, event: 'call.missed', action: 'email', target: 'not-mail' },
        { number_id: n.id, event: 'call.missed', action: 'webhook', target: 'ftp://x' },
      ],
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['upsert.0.target', 'upsert.1.target']);
    expect((await owner.client.put(url, { upsert: [{ number_id: n.id, event: 'call.nope', action: 'email', target: 'a@b.co' }] })).status).toBe(422);
    const foreign = await other.client.put(`/api/companies/${other.companyId}/triggers`, {
      upsert: [{ number_id: n.id, event: 'call.missed', action: 'email', target: 'a@b.co' }],
    });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors['upsert.0.number_id']).toBeDefined();
    // Removing another company's trigger id does nothing.
    await other.client.put(`/api/companies/${other.companyId}/triggers`, { remove: [missed.id] });
    expect((await owner.client.get(url)).body.data).toHaveLength(1);
    expect((await other.client.put(url, { remove: [] })).status).toBe(403);
  });
});
