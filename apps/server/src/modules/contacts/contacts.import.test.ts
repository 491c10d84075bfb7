/**
 * Contact import on a real server: CSV and XLSX (built with exceljs), invalid rows reported and not
 * imported, duplicates overwritten within the file and with existing contacts, groups applied,
 * progress and completion over socket.io, a malformed file (422 with the spec's message) and an
 * import that fails midway leaving zero contacts. Formats, duplicate choices and the report:
 * contacts.import-formats.test.ts.
 */
import ExcelJS from 'exceljs';
import pg from 'pg';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, startTestServer, type TestServer } from '../../../test/harness.js';
import { connectSocket, subscribe } from '../messaging/messaging.test-helpers.js';
import { importTuning } from './contacts.import.js';

let s: TestServer;
let a: Account;
let socket: Socket;
const events: Array<{ event: string; payload: any }> = [];

beforeAll(async () => {
  s = await startTestServer();
  a = await createAccount(s);
  socket = await connectSocket(s, a.client);
  expect((await subscribe(socket, `company.${a.companyId}`)).ok).toBe(true);
  socket.onAny((event, payload) => events.push({ event, payload }));
});
afterAll(async () => {
  socket?.close();
  await s?.close();
});

function form(file: Blob, filename: string, fields: Record<string, string> = {}, groupIds: number[] = []): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  for (const g of groupIds) f.append('group_ids[]', String(g));
  f.append('file', file, filename);
  return f;
}
const csvBlob = (text: string) => new Blob([text], { type: 'text/csv' });

async function finished(batchId: string): Promise<any> {
  return eventually(async () => {
    const p = await a.client.get(`/api/companies/${a.companyId}/contacts/progress/${batchId}`);
    return p.body.finishedAt ? p.body : null;
  }, 15_000);
}

describe('contact import', () => {
  it('previews a CSV with a suggested mapping', async () => {
    const r = await a.client.request(
      'POST',
      `/api/companies/${a.companyId}/contacts/import/preview`,
      form(csvBlob('First Name,Last Name,Phone,Email\nAda,L,2125550301,a@x.io\n'), 'c.csv'),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      headers: ['First Name', 'Last Name', 'Phone', 'Email'],
      rows: [['Ada', 'L', '2125550301', 'a@x.io']],
      mapping: { name: { first: 0, last: 1 }, number: 2, email: 3 },
      error: null,
    });
  });

  it('rejects a file without a number column with the spec message', async () => {
    const r = await a.client.request('POST', `/api/companies/${a.companyId}/contacts/import`, form(csvBlob('Name,Email\nAda,a@x.io\n'), 'bad.csv'));
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('The file must have valid name and number columns.');
    expect(r.body.errors.file).toEqual(['The file must have valid name and number columns.']);
  });

  it('answers 422 with a field error for malformed JSON in group_ids or mapping (not 500)', async () => {
    const bad = form(csvBlob('Name,Phone\nAda,2125550399\n'), 'c.csv');
    bad.append('group_ids', '[1,');
    const r = await a.client.request('POST', `/api/companies/${a.companyId}/contacts/import`, bad);
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect(r.body.errors.group_ids).toEqual(['The group ids must be a JSON array or a comma-separated list.']);
    const m = await a.client.request(
      'POST',
      `/api/companies/${a.companyId}/contacts/import`,
      form(csvBlob('Name,Phone\nAda,2125550399\n'), 'c.csv', { mapping: '{"name":' }),
    );
    expect(m.status, JSON.stringify(m.body)).toBe(422);
    expect(m.body.errors.mapping).toEqual(['The mapping must be valid JSON.']);
  });

  it('imports a CSV: invalid rows not imported, duplicates overwritten, groups applied, progress events', async () => {
    await a.client.post('/api/contacts', { company_id: a.companyId, name: 'Existing', number: '2125550310', email: 'old@x.io' });
    const group = await a.client.post('/api/groups', { company_id: a.companyId, name: 'Imported' });
    const csv = [
      'Phone,Full Name,Email,Gender',
      '(212) 555-0311,Alice,alice@x.io,female',
      '12345,Broken,,',
      '212-555-0311,Alice Again,alice2@x.io,',
      '2125550310,Existing Updated,,',
      '2125550312,Carol,,Other',
      ',,,',
    ].join('\n');
    importTuning.chunkSize = 2;
    const r = await a.client.request(
      'POST',
      `/api/companies/${a.companyId}/contacts/import`,
      form(csvBlob(csv), 'contacts.csv', { duplicates: 'overwrite' }, [group.body.id]),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const batchId = r.body.batchId;
    const done = await finished(batchId);
    importTuning.chunkSize = 1000;
    expect(done).toMatchObject({
      progress: 100,
      status: 'finished',
      inserted: 2,
      merged: 2,
      skipped: 0,
      invalid: 1,
      total: 5,
      duplicates: 'overwrite',
      error: null,
    });
    const list = await a.client.get(`/api/contacts?company_id=${a.companyId}&group_id=${group.body.id}&per_page=50`);
    const byName = Object.fromEntries(list.body.data.map((c: any) => [c.name, c]));
    expect(Object.keys(byName).sort()).toEqual(['Alice Again', 'Carol', 'Existing Updated']);
    expect((await a.client.get(`/api/contacts?company_id=${a.companyId}&search=Broken`)).body.data).toHaveLength(0);
    expect(byName['Alice Again']).toMatchObject({ number: '+12125550311', email: 'alice2@x.io', is_invalid: false });
    const existing = await a.client.get(`/api/contacts/${byName['Existing Updated'].id}`);
    expect(existing.body).toMatchObject({ email: 'old@x.io', source: 'Manual' });
    const alice = await a.client.get(`/api/contacts/${byName['Alice Again'].id}`);
    expect(alice.body.gender).toBe('Female');
    await eventually(async () => events.some((e) => e.event === 'contact import completed' && e.payload.batchId === batchId));
    expect(events.find((e) => e.event === 'contact import completed' && e.payload.batchId === batchId)!.payload).toMatchObject({
      inserted: 2,
      merged: 2,
      skipped: 0,
      invalid: 1,
      total: 5,
      failed: false,
    });
    expect(events.some((e) => e.event === 'contact import progress' && e.payload.batchId === batchId)).toBe(true);
    // The job's change is in the audit log under the job, started by the importer (docs/audit.md "Jobs").
    const log = await eventually(async () => {
      const r = await a.client.get(`/api/audit-log?company_id=${a.companyId}&entity_type=contacts`);
      return (r.body.data as Array<{ entity_id: string }>).find((e) => e.entity_id === batchId);
    });
    expect(log).toMatchObject({ action: 'import', actor_kind: 'system', actor_user_id: a.userId, outcome: 'success' });
    expect((log as unknown as { changes: Record<string, unknown> }).changes).toMatchObject({ job: 'contacts.import', inserted: 2, merged: 2, invalid: 1 });
  });

  it('a company with no contacts yet: a number repeated several chunks later updates, not doubles', async () => {
    const fresh = await createAccount(s);
    const rows = ['Name,Number,Email'];
    for (let i = 0; i < 30; i++) rows.push(`Person ${i},(212) 555-${String(400 + i).padStart(4, '0')},p${i}@x.io`);
    rows.push('Person 3 Again,+12125550403,again@x.io'); // duplicate of row 3, several chunks later
    rows.push('Nobody,12345,');
    importTuning.chunkSize = 4;
    try {
      const r = await fresh.client.request(
        'POST',
        `/api/companies/${fresh.companyId}/contacts/import`,
        form(csvBlob(rows.join('\n')), 'many.csv', { duplicates: 'overwrite' }),
      );
      expect(r.status, JSON.stringify(r.body)).toBe(202);
      const done = await eventually(async () => {
        const p = await fresh.client.get(`/api/companies/${fresh.companyId}/contacts/progress/${r.body.batchId}`);
        return p.body.finishedAt ? p.body : null;
      }, 15_000);
      expect(done).toMatchObject({ status: 'finished', inserted: 30, merged: 1, skipped: 0, invalid: 1, total: 32 });
    } finally {
      importTuning.chunkSize = 1000;
    }
    const list = await fresh.client.get(`/api/contacts?company_id=${fresh.companyId}&search=Person 3&per_page=50`);
    const again = list.body.data.filter((c: any) => c.number === '+12125550403');
    expect(again).toHaveLength(1);
    expect(again[0]).toMatchObject({ name: 'Person 3 Again', email: 'again@x.io' });
    expect((await fresh.client.get(`/api/contacts?company_id=${fresh.companyId}`)).body.meta.pagination.total).toBe(30);
  });

  it('imports an XLSX with a given mapping', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Contacts');
    ws.addRow(['Given', 'Family', 'Mobile', 'Town']);
    ws.addRow(['Xena', 'Warrior', 2125550321, 'Athens']);
    ws.addRow(['Yuri', 'G', 'not a number', 'Moscow']);
    ws.addRow(['Xena', 'W2', '+1 212 555 0321', '']);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    const mapping = JSON.stringify({ first_name: 0, last_name: 1, number: 2, city: 3 });
    const r = await a.client.request(
      'POST',
      `/api/companies/${a.companyId}/contacts/import`,
      form(new Blob([buf], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }), 'c.xlsx', { mapping, duplicates: 'overwrite' }),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const done = await finished(r.body.batchId);
    expect(done).toMatchObject({ status: 'finished', inserted: 1, merged: 1, invalid: 1, total: 3 });
    const list = await a.client.get(`/api/contacts?company_id=${a.companyId}&search=Xena`);
    expect(list.body.data).toHaveLength(1);
    const x = await a.client.get(`/api/contacts/${list.body.data[0].id}`);
    expect(x.body).toMatchObject({ name: 'Xena W2', first_name: 'Xena', last_name: 'W2', number: '+12125550321', city: 'Athens' });
  });

  it('a failure midway leaves zero contacts and reports the failure message; a redelivery does nothing', async () => {
    const other = await createAccount(s);
    const db = new pg.Client({ connectionString: s.dbUrl });
    await db.connect();
    await db.query(`create function explode() returns trigger language plpgsql as $$ begin if new.name = 'Explode' then raise exception 'boom'; end if; return new; end $$;
      create trigger contacts_explode before insert on contacts for each row execute function explode();`);
    try {
      importTuning.chunkSize = 2;
      const csv = ['Name,Number', 'One,2125550331', 'Two,2125550332', 'Three,2125550333', 'Explode,2125550334', 'Five,2125550335'].join('\n');
      const r = await other.client.request('POST', `/api/companies/${other.companyId}/contacts/import`, form(csvBlob(csv), 'x.csv'));
      expect(r.status).toBe(202);
      const done = await eventually(async () => {
        const p = await other.client.get(`/api/companies/${other.companyId}/contacts/progress/${r.body.batchId}`);
        return p.body.finishedAt ? p.body : null;
      }, 15_000);
      expect(done).toMatchObject({ status: 'failed', error: 'Import failure. Please try to import contacts once again' });
      const list = await other.client.get(`/api/contacts?company_id=${other.companyId}`);
      expect(list.body.meta.pagination.total).toBe(0);
      await s.ctx.queue.enqueue('contacts.import', { batchId: r.body.batchId });
      await new Promise((res) => setTimeout(res, 1200));
      expect((await other.client.get(`/api/companies/${other.companyId}/contacts/progress/${r.body.batchId}`)).body.status).toBe('failed');
      // another company cannot read the batch
      expect((await a.client.get(`/api/companies/${a.companyId}/contacts/progress/${r.body.batchId}`)).status).toBe(404);
    } finally {
      importTuning.chunkSize = 1000;
      await db.query('drop trigger contacts_explode on contacts; drop function explode();');
      await db.end();
    }
  });
});
