/**
 * Exports with formula cells through the real API (platform/csv.ts, docs/contacts.md "Exports
 * and formulas"): the contact export and the numbers export neutralise `=`, `+`, `-`, `@`
 * cells with a leading quote and keep E.164 numbers as they are.
 */
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let s: TestServer;
let a: Account;

beforeAll(async () => {
  s = await startTestServer();
  a = await createAccount(s);
});
afterAll(async () => {
  await s?.close();
});

const rowsOf = (csv: string) => Papa.parse<Record<string, string>>(csv.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;

describe('CSV exports with formula cells', () => {
  it('the contact export quotes formula cells and keeps the E.164 number', async () => {
    const evil = { name: '=HYPERLINK("http://evil.test","Click")', company_name: '+SUM(1,2)', notes: '@cmd', city: '-1+cmd', address1: '\t=1+1' };
    const r = await a.client.post('/api/contacts', { company_id: a.companyId, number: '(212) 555-0177', ...evil });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const exp = await a.client.post(`/api/companies/${a.companyId}/contacts/bulkExport`, { contacts: [r.body.id] });
    expect(exp.status, JSON.stringify(exp.body)).toBe(200);
    const csv = (await a.client.get(new URL(exp.body.url).pathname)).body as string;
    const [row] = rowsOf(csv);
    expect(row).toMatchObject({
      name: `'${evil.name}`,
      company_name: `'${evil.company_name}`,
      notes: `'${evil.notes}`,
      city: `'${evil.city}`,
      number: '+12125550177',
    });
    expect(row!.address1).toBe("'=1+1"); // stored trimmed, still neutralised
    // Nothing in the file starts a cell with a formula trigger, except the plain phone number.
    for (const [k, v] of Object.entries(row!)) if (k !== 'number') expect(v, k).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('the numbers export quotes a formula label and keeps the E.164 number', async () => {
    const pick = (await a.client.get('/api/numbers/search?type=local&areaCode=212&limit=1')).body.data[0];
    const n = (await a.client.post('/api/numbers', { company_id: a.companyId, provider_id: pick.provider_id, number: pick.number })).body;
    const put = await a.client.put(`/api/numbers/${n.id}`, { label: '=cmd|" /C calc"!A0' });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const r = await a.client.post(`/api/companies/${a.companyId}/numbers/export`, {});
    expect(r.status).toBe(200);
    const [row] = rowsOf(r.body as string);
    expect(row).toMatchObject({ Number: n.number, Label: `'=cmd|" /C calc"!A0` });
  });
});
