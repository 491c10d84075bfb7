/**
 * Contact import on a real server (docs/contacts.md "Import"): the standard exports of Google Contacts
 * (both layouts, " ::: " multi-value cells), Outlook and Apple/iCloud vCards (3.0 and 4.0, folded
 * lines, several cards) import with no mapping; each duplicate choice (skip, fill, overwrite);
 * counts that add up; the per-row report as CSV; a hand mapping of several phone columns.
 */
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, startTestServer, type TestServer } from '../../../test/harness.js';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

function form(text: string, filename: string, fields: Record<string, string> = {}, type = 'text/csv'): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  f.append('file', new Blob([text], { type }), filename);
  return f;
}

async function runImport(a: Account, text: string, filename: string, fields: Record<string, string> = {}, type?: string): Promise<any> {
  const r = await a.client.request('POST', `/api/companies/${a.companyId}/contacts/import`, form(text, filename, fields, type));
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  return eventually(async () => {
    const p = await a.client.get(`/api/companies/${a.companyId}/contacts/progress/${r.body.batchId}`);
    return p.body.finishedAt ? { ...p.body, batchId: r.body.batchId } : null;
  }, 20_000);
}

async function contactByNumber(a: Account, e164: string): Promise<any> {
  const list = await a.client.get(`/api/contacts?company_id=${a.companyId}&search=${encodeURIComponent(e164.slice(2))}&per_page=50`);
  const hit = list.body.data.filter((c: any) => c.number === e164);
  expect(hit.length, `contacts with ${e164}`).toBeLessThanOrEqual(1);
  return hit[0] ? (await a.client.get(`/api/contacts/${hit[0].id}`)).body : undefined;
}

async function report(a: Account, url: string): Promise<string[][]> {
  const r = await a.client.request<string>('GET', url, undefined, { accept: 'text/csv' });
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/text\/csv/);
  const text = r.body.replace(/^\uFEFF/, '').trim();
  return Papa.parse<string[]>(text).data;
}

const addsUp = (p: any) => expect(p.inserted + p.merged + p.skipped + p.invalid).toBe(p.total);

describe('contact import formats (no mapping)', () => {
  it('Google Contacts CSV (older layout): Phone N - Type/Value, " ::: " cells, a mobile number chosen, others kept in notes', async () => {
    const a = await createAccount(s);
    const csv = [
      'Name,Given Name,Additional Name,Family Name,Notes,Group Membership,E-mail 1 - Type,E-mail 1 - Value,Phone 1 - Type,Phone 1 - Value,Phone 2 - Type,Phone 2 - Value,Organization 1 - Type,Organization 1 - Name',
      'Ada Lovelace,Ada,,Lovelace,Met at the fair,* myContacts ::: Friends,* Home,ada@example.com,Work,+1 212-555-0401,Mobile,+1 212-555-0402 ::: +1 212-555-0403,,Analytical Engines',
      ',Grace,,Hopper,,* myContacts,,,Mobile,(212) 555-0404,,,,',
      'Nobody,,,,,,,,,,,,,',
    ].join('\n');
    const p = await runImport(a, csv, 'google.csv');
    expect(p).toMatchObject({ status: 'finished', inserted: 2, merged: 0, skipped: 0, invalid: 1, total: 3 });
    addsUp(p);
    const ada = await contactByNumber(a, '+12125550402');
    expect(ada).toMatchObject({
      name: 'Ada Lovelace',
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      company_name: 'Analytical Engines',
      source: 'Import',
    });
    expect(ada.notes).toContain('Met at the fair');
    expect(ada.notes).toContain('Work +1 212-555-0401');
    expect(ada.notes).toContain('+1 212-555-0403');
    expect(await contactByNumber(a, '+12125550404')).toMatchObject({ name: 'Grace Hopper', first_name: 'Grace', last_name: 'Hopper' });
  });

  it('Google Contacts CSV (newer layout): First Name, Last Name, Phone 1 - Label, Labels', async () => {
    const a = await createAccount(s);
    const csv = [
      'First Name,Middle Name,Last Name,Phonetic First Name,Nickname,Organization Name,Organization Title,Birthday,Notes,Labels,E-mail 1 - Label,E-mail 1 - Value,Phone 1 - Label,Phone 1 - Value',
      'Linus,,Torvalds,,,Kernel Org,,,,* myContacts,Work,linus@example.org,Mobile,+44 7911 123456',
    ].join('\n');
    const preview = await a.client.request('POST', `/api/companies/${a.companyId}/contacts/import/preview`, form(csv, 'contacts.csv'));
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ mapping: { name: { first: 0, last: 2 }, number: 13, email: 11, company_name: 5, labels: 9 }, error: null });
    const p = await runImport(a, csv, 'contacts.csv');
    expect(p).toMatchObject({ inserted: 1, total: 1 });
    expect(await contactByNumber(a, '+447911123456')).toMatchObject({ name: 'Linus Torvalds', email: 'linus@example.org', company_name: 'Kernel Org' });
  });

  it('Outlook CSV: Mobile Phone preferred over Business/Home Phone, E-mail Address, Company', async () => {
    const a = await createAccount(s);
    const csv = [
      'First Name,Middle Name,Last Name,Title,Company,Business Phone,Home Phone,Mobile Phone,E-mail Address,Notes',
      'Margaret,,Hamilton,,NASA,(212) 555-0411,,(212) 555-0412,mh@example.com,Apollo',
      'Only,,Business,,,(212) 555-0413,,,,',
    ].join('\r\n');
    const p = await runImport(a, csv, 'outlook.csv');
    expect(p).toMatchObject({ inserted: 2, invalid: 0, total: 2 });
    const m = await contactByNumber(a, '+12125550412');
    expect(m).toMatchObject({ name: 'Margaret Hamilton', company_name: 'NASA', email: 'mh@example.com' });
    expect(m.notes).toBe('Apollo\nOther phones: Business Phone (212) 555-0411');
    expect(await contactByNumber(a, '+12125550413')).toMatchObject({ name: 'Only Business' });
  });

  it('Apple/iCloud vCards: 3.0 and 4.0, folded lines, TEL types, several cards, a card without a number', async () => {
    const a = await createAccount(s);
    const vcf = [
      'BEGIN:VCARD',
      'VERSION:3.0',
      'PRODID:-//Apple Inc.//iPhone OS 17.0//EN',
      'N:Appleseed;Johnny;;;',
      'FN:Johnny Appleseed',
      'ORG:Apple Inc.;',
      'item1.EMAIL;type=INTERNET;type=pref:johnny@example.com',
      'TEL;type=WORK;type=VOICE:(212) 555-0421',
      'TEL;type=CELL;type=VOICE;type=pref:+1 (212) 555-0422',
      'NOTE:A long note that is fo',
      ' lded over two lines\\, with a comma',
      'END:VCARD',
      'BEGIN:VCARD',
      'VERSION:4.0',
      'FN:Zoë Martin',
      'N:Martin;Zoë;;;',
      'TEL;VALUE=uri;TYPE="voice,cell":tel:+44-20-7946-0958',
      'EMAIL;TYPE=work:zoe@example.org',
      'END:VCARD',
      'BEGIN:VCARD',
      'VERSION:3.0',
      'FN:No Number',
      'N:Number;No;;;',
      'EMAIL:nn@example.org',
      'END:VCARD',
    ].join('\r\n');
    const p = await runImport(a, vcf, 'contacts.vcf', {}, 'text/vcard');
    expect(p).toMatchObject({ status: 'finished', inserted: 2, invalid: 1, total: 3 });
    addsUp(p);
    const j = await contactByNumber(a, '+12125550422');
    expect(j).toMatchObject({
      name: 'Johnny Appleseed',
      first_name: 'Johnny',
      last_name: 'Appleseed',
      company_name: 'Apple Inc.',
      email: 'johnny@example.com',
    });
    expect(j.notes).toBe('A long note that is folded over two lines, with a comma\nOther phones: WORK (212) 555-0421');
    expect(await contactByNumber(a, '+442079460958')).toMatchObject({ name: 'Zoë Martin', email: 'zoe@example.org' });
    const rows = await report(a, p.report_url);
    expect(rows).toEqual([
      ['Row', 'Outcome', 'Reason', 'Name', 'Number'],
      ['3', 'invalid', 'No phone number', 'No Number', ''],
    ]);
  });

  it('a hand mapping can pick any columns, several phone columns included', async () => {
    const a = await createAccount(s);
    const csv = ['Who,Desk,Cell,Misc', 'Kay,,212 555 0431,x', 'Lee,212 555 0432,,y'].join('\n');
    const p = await runImport(a, csv, 'odd.csv', { mapping: JSON.stringify({ name: 0, number: [2, 1], notes: 3 }) });
    expect(p).toMatchObject({ inserted: 2, total: 2 });
    expect(await contactByNumber(a, '+12125550431')).toMatchObject({ name: 'Kay', notes: 'x' });
    expect(await contactByNumber(a, '+12125550432')).toMatchObject({ name: 'Lee', notes: 'y' });
    const bad = await a.client.request(
      'POST',
      `/api/companies/${a.companyId}/contacts/import`,
      form(csv, 'odd.csv', { mapping: JSON.stringify({ name: 0, number: [9] }) }),
    );
    expect(bad.status).toBe(422);
    expect(bad.body.errors.file).toEqual(['The file must have valid name and number columns.']);
    const badChoice = await a.client.request('POST', `/api/companies/${a.companyId}/contacts/import`, form(csv, 'odd.csv', { duplicates: 'merge' }));
    expect(badChoice.status).toBe(422);
    expect(badChoice.body.errors.duplicates).toBeDefined();
  });
});

describe('duplicate choices, counts and the report', () => {
  // Row 2 duplicates an existing contact, row 4 duplicates row 3, row 5 is invalid, row 6 is new.
  const csv = [
    'Name,Phone,Email,City',
    'Changed Name,(212) 555-0441,new@example.com,Boston',
    'Fresh,(212) 555-0442,,',
    'Fresh Again,212-555-0442,fresh@example.com,Denver',
    'Broken,12345,,',
    'Other,(212) 555-0443,,',
  ].join('\n');

  async function setup(): Promise<Account> {
    const a = await createAccount(s);
    const c = await a.client.post('/api/contacts', { company_id: a.companyId, name: 'Kept Name', number: '2125550441', email: '' });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    return a;
  }

  it('skip (the default): duplicates stay as they were, reported', async () => {
    const a = await setup();
    const p = await runImport(a, csv, 'dups.csv');
    expect(p).toMatchObject({ duplicates: 'skip', inserted: 2, merged: 0, skipped: 2, invalid: 1, total: 5 });
    addsUp(p);
    expect(await contactByNumber(a, '+12125550441')).toMatchObject({ name: 'Kept Name', email: null, city: null, source: 'Manual' });
    expect(await contactByNumber(a, '+12125550442')).toMatchObject({ name: 'Fresh', email: null });
    expect((await a.client.get(`/api/contacts?company_id=${a.companyId}&search=Broken`)).body.data).toHaveLength(0);
    expect(await report(a, p.report_url)).toEqual([
      ['Row', 'Outcome', 'Reason', 'Name', 'Number'],
      ['2', 'skipped', 'Duplicate of an existing contact', 'Changed Name', '+12125550441'],
      ['4', 'skipped', 'Duplicate of row 3', 'Fresh Again', '+12125550442'],
      ['5', 'invalid', 'Invalid phone number: 12345', 'Broken', '12345'],
    ]);
  });

  it('fill: only empty fields take the row values', async () => {
    const a = await setup();
    const p = await runImport(a, csv, 'dups.csv', { duplicates: 'fill' });
    expect(p).toMatchObject({ inserted: 2, merged: 2, skipped: 0, invalid: 1, total: 5 });
    addsUp(p);
    expect(await contactByNumber(a, '+12125550441')).toMatchObject({ name: 'Kept Name', email: 'new@example.com', city: 'Boston' });
    expect(await contactByNumber(a, '+12125550442')).toMatchObject({ name: 'Fresh', email: 'fresh@example.com', city: 'Denver' });
    const rows = await report(a, p.report_url);
    expect(rows[1]).toEqual(['2', 'updated', 'Duplicate of an existing contact: filled email, city', 'Changed Name', '+12125550441']);
    // Again: nothing left to fill, so every duplicate is skipped and the counts still add up.
    const again = await runImport(a, csv, 'dups.csv', { duplicates: 'fill' });
    expect(again).toMatchObject({ inserted: 0, merged: 0, skipped: 4, invalid: 1, total: 5 });
  });

  it('overwrite: non-empty row values replace stored ones', async () => {
    const a = await setup();
    const p = await runImport(a, csv, 'dups.csv', { duplicates: 'overwrite' });
    expect(p).toMatchObject({ inserted: 2, merged: 2, skipped: 0, invalid: 1, total: 5 });
    expect(await contactByNumber(a, '+12125550441')).toMatchObject({ name: 'Changed Name', email: 'new@example.com', city: 'Boston', source: 'Manual' });
    expect(await contactByNumber(a, '+12125550442')).toMatchObject({ name: 'Fresh Again', email: 'fresh@example.com' });
  });

  it('the report is for the company only, and a formula-looking cell is neutralised', async () => {
    const a = await createAccount(s);
    const p = await runImport(a, 'Name,Phone\n=HYPERLINK("x"),abc\n', 'f.csv');
    const rows = await report(a, p.report_url);
    expect(rows[1]![3]).toMatch(/^'=HYPERLINK/);
    const stranger = await createAccount(s);
    const r = await stranger.client.request('GET', p.report_url, undefined, { accept: 'text/csv' });
    expect([403, 404]).toContain(r.status);
    const anon = await fetch(`${s.url}${p.report_url}`);
    expect(anon.status).toBe(401);
  });
});
