/**
 * Issue 23 item 9 through the real server: a company's General settings date and clock formats and its time zone
 * decide how printed times read (docs/workspace.md "Dates and times"). New companies get the specification's
 * formats; a fax cover page prints the sending time in the company's zone and formats, not the server's.
 */
import { DEFAULT_GENERAL_SETTINGS } from '@switchboard/contracts';
import { zonedDateTime } from '@switchboard/domain';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, startTestServer, type TestServer } from '../../../test/harness.js';

let s: TestServer;
let a: Account;

beforeAll(async () => {
  s = await startTestServer();
  // A half-hour zone far from the server's (UTC): any time read in the wrong zone shows.
  a = await createAccount(s, { timezone: 'Asia/Kolkata' });
}, 90_000);

afterAll(async () => {
  await s?.close();
});

/** The text of a PDF's first page (pdfjs, as a reader would extract it). */
async function firstPageText(bytes: Uint8Array): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: bytes, useSystemFonts: false }).promise;
  const page = await doc.getPage(1);
  const content = await page.getTextContent();
  return content.items.map((i) => ('str' in i ? i.str : '')).join(' ');
}

async function sendFaxWithCover(account: Account): Promise<{ text: string; createdAt: Date }> {
  const search = await account.client.get('/api/numbers/search?type=local&areaCode=646');
  const candidate = search.body.data[0];
  const bought = await account.client.post('/api/numbers', {
    company_id: account.companyId,
    provider_id: candidate.provider_id,
    number: candidate.number,
    service_type: 2,
  });
  expect(bought.status, JSON.stringify(bought.body)).toBe(201);
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]);
  const f = new FormData();
  f.append('number_id', String(bought.body.id));
  f.append('to', '+13125550142');
  f.append('cover_note', 'Dates test.');
  f.append('file', new Blob([new Uint8Array(await doc.save())], { type: 'application/pdf' }), 'x.pdf');
  const sent = await account.client.post(`/api/companies/${account.companyId}/faxes`, f);
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  const done = await eventually(async () => {
    const g = await account.client.get(`/api/faxes/${sent.body.id}`);
    return g.body.file_url ? g.body : null;
  });
  const file = await fetch(s.url + done.file_url, { headers: { cookie: `switchboard_session=${account.client.cookie('switchboard_session')}` } });
  expect(file.status).toBe(200);
  return { text: await firstPageText(new Uint8Array(await file.arrayBuffer())), createdAt: new Date(done.created_at) };
}

describe('dates and times follow the company', () => {
  it("defaults to the specification's formats", async () => {
    const r = await a.client.get(`/api/general-settings?companyId=${a.companyId}`);
    expect(r.status).toBe(200);
    expect(r.body.data.settings).toMatchObject({ date_format: 'MMM D, YYYY', time_format: '12h' });
    expect(r.body.defaults).toMatchObject({ date_format: 'MMM D, YYYY' });
  });

  it('a fax cover page prints the time in the company zone with its date and clock formats', async () => {
    const saved = await a.client.post('/api/general-settings', {
      companyId: a.companyId,
      settings: { ...DEFAULT_GENERAL_SETTINGS, date_format: 'DD/MM/YYYY', time_format: '24h' },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const { text, createdAt } = await sendFaxWithCover(a);
    const m = /Date:\s*(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2}) \(Asia\/Kolkata\)/.exec(text);
    expect(m, text).not.toBeNull();
    // The printed wall clock is Kolkata's (UTC+5:30) at the sending time, within the minute it took.
    const local = zonedDateTime(createdAt, 'Asia/Kolkata');
    const printed = Date.UTC(Number(m![3]), Number(m![2]) - 1, Number(m![1]), Number(m![4]), Number(m![5]));
    const expected = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
    expect(Math.abs(printed - expected)).toBeLessThanOrEqual(60_000);
  });

  it('a value no longer offered reads as the default, an unknown one is refused', async () => {
    const bad = await a.client.post('/api/general-settings', { companyId: a.companyId, settings: { ...DEFAULT_GENERAL_SETTINGS, date_format: 'D.M.YY' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors?.['settings.date_format']).toBeTruthy();
  });
});
