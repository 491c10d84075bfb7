/**
 * Faxes through the real server (docs/fax.md): buying a fax number, sending with and without a
 * cover page through the sandbox provider (statuses, pages, failure), receiving from the Phone
 * simulator (stored PDF, thread item, activity item, `fax.changed`), the file route's company
 * check, signed-URL expiry, bad input, other companies and roles, the fax export and the KPI.
 */
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, startTestServer, type TestServer } from '../../../test/harness.js';
import { events } from '../../platform/events/index.js';
import { addCompanyMember } from '../companies/companies.service.js';

let s: TestServer;
let a: Account;
let b: Account;
let reader: Account;
let faxNumber: { id: number; number: string };
let voiceNumber: { id: number; number: string };
const changed: Array<{ faxId: number; status: string; direction: string; pages: number | null }> = [];

async function pdf(pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([612, 792]).drawText(`Page ${i + 1}`, { x: 72, y: 700, size: 24 });
  return Buffer.from(await doc.save());
}

function form(fields: Record<string, string>, file?: { data: Buffer; type: string; name: string }): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  if (file) f.append('file', new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
  return f;
}

async function buy(account: Account, serviceType: number, index: number): Promise<{ id: number; number: string; category: number; type_label: string }> {
  const search = await account.client.get('/api/numbers/search?type=local&areaCode=646');
  const candidate = search.body.data[index];
  const r = await account.client.post('/api/numbers', {
    company_id: account.companyId,
    provider_id: candidate.provider_id,
    number: candidate.number,
    service_type: serviceType,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}

beforeAll(async () => {
  s = await startTestServer();
  a = await createAccount(s);
  b = await createAccount(s);
  reader = await createAccount(s);
  await addCompanyMember(s.ctx, a.companyId, reader.userId, 'reporting');
  events.consume('test.fax-1', 'fax.changed', async (_ctx, p) => {
    changed.push({ faxId: p.faxId, status: p.status, direction: p.direction, pages: p.pages });
  });
  const bought = await buy(a, 2, 0);
  expect(bought.type_label).toBe('Fax number');
  expect(bought.category).toBe(3);
  faxNumber = bought;
  voiceNumber = await buy(a, 1, 1);
}, 90_000);

afterAll(async () => {
  await s?.close();
});

const faxes = (acc: Account) => `/api/companies/${acc.companyId}/faxes`;

describe('sending a fax', () => {
  it('sends a PDF with a cover note: pages = 1 + the PDF, queued → sending → delivered, in the thread', async () => {
    const r = await a.client.post(
      faxes(a),
      form(
        { number_id: String(faxNumber.id), to: '(312) 555-0142', cover_note: 'Signed contract attached.' },
        { data: await pdf(3), type: 'application/pdf', name: 'contract.pdf' },
      ),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({
      direction: 'outbound',
      from: faxNumber.number,
      to: '+13125550142',
      status: 'queued',
      pages: 4,
      cover_note: 'Signed contract attached.',
    });
    const id = r.body.id;
    const done = await eventually(async () => {
      const g = await a.client.get(`/api/faxes/${id}`);
      return g.body.status === 'delivered' ? g.body : null;
    });
    expect(done.pages).toBe(4);
    expect(done.completed_at).not.toBeNull();
    // The consumers see the fax's changes in order (the outbox delivers one fax's events in turn, right after each commit).
    await eventually(async () => changed.filter((c) => c.faxId === id).length >= 3);
    expect(changed.filter((c) => c.faxId === id).map((c) => c.status)).toEqual(['queued', 'sending', 'delivered']);
    // The stored PDF is the cover page followed by the 3 pages.
    const file = await fetch(s.url + done.file_url, { headers: { cookie: `switchboard_session=${a.client.cookie('switchboard_session')}` } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect((await PDFDocument.load(new Uint8Array(await file.arrayBuffer()))).getPageCount()).toBe(4);
    // The thread item follows the fax.
    const items = await a.client.get(`/api/companies/${a.companyId}/conversations/${done.conversation_id}/items`);
    expect(items.status, JSON.stringify(items.body)).toBe(200);
    const item = items.body.data.find((i: any) => i.details.type === 'fax');
    expect(item).toMatchObject({ isInbound: false, details: { type: 'fax', content: 'Signed contract attached.', deliveryState: 'delivered' } });
    expect(item.details.media[0].contentType).toBe('application/pdf');
  });

  it("without a cover note the pages are the PDF's; a recipient ending in 0000 fails with the reason", async () => {
    const r = await a.client.post(
      faxes(a),
      form({ number_id: String(faxNumber.id), to: '+13125550000' }, { data: await pdf(2), type: 'application/pdf', name: 'a.pdf' }),
    );
    expect(r.status).toBe(201);
    expect(r.body.pages).toBe(2);
    const failed = await eventually(async () => {
      const g = await a.client.get(`/api/faxes/${r.body.id}`);
      return g.body.status === 'failed' ? g.body : null;
    });
    expect(failed.error).toBe('receiver_no_answer');
  });

  it('bad input is a 422 on the field', async () => {
    const two = await pdf(2);
    const cases: Array<[FormData, string]> = [
      [form({ number_id: String(faxNumber.id), to: '+13125550142' }), 'file'],
      [
        form({ number_id: String(faxNumber.id), to: '+13125550142' }, { data: Buffer.from('hello, not a pdf'), type: 'application/pdf', name: 'x.pdf' }),
        'file',
      ],
      [form({ number_id: String(faxNumber.id), to: '+13125550142' }, { data: two, type: 'image/png', name: 'x.png' }), 'file'],
      [
        form(
          { number_id: String(faxNumber.id), to: '+13125550142' },
          { data: Buffer.concat([two, Buffer.alloc(10 * 1024 * 1024)]), type: 'application/pdf', name: 'big.pdf' },
        ),
        'file',
      ],
      [form({ number_id: String(faxNumber.id), to: 'not a number' }, { data: two, type: 'application/pdf', name: 'x.pdf' }), 'to'],
      [form({ number_id: String(voiceNumber.id), to: '+13125550142' }, { data: two, type: 'application/pdf', name: 'x.pdf' }), 'number_id'],
      [form({ number_id: 'abc', to: '+13125550142' }, { data: two, type: 'application/pdf', name: 'x.pdf' }), 'number_id'],
      [
        form({ number_id: String(faxNumber.id), to: '+13125550142', cover_note: 'x'.repeat(2001) }, { data: two, type: 'application/pdf', name: 'x.pdf' }),
        'cover_note',
      ],
    ];
    for (const [body, field] of cases) {
      const r = await a.client.post(faxes(a), body);
      expect(r.status, `${field}: ${JSON.stringify(r.body)}`).toBe(422);
      expect(Object.keys(r.body.errors)).toContain(field);
    }
  });

  it("another company's number, fax and file are refused; roles", async () => {
    const two = await pdf(1);
    const r = await b.client.post(
      faxes(b),
      form({ number_id: String(faxNumber.id), to: '+13125550142' }, { data: two, type: 'application/pdf', name: 'x.pdf' }),
    );
    expect(r.status).toBe(422);
    expect(
      (await b.client.post(faxes(a), form({ number_id: String(faxNumber.id), to: '+13125550142' }, { data: two, type: 'application/pdf', name: 'x.pdf' })))
        .status,
    ).toBe(403);
    expect((await b.client.get(faxes(a))).status).toBe(403);
    const list = await a.client.get(faxes(a));
    const id = list.body.data[0].id;
    expect((await b.client.get(`/api/faxes/${id}`)).status).toBe(404);
    expect((await b.client.get(`/api/faxes/${id}/file`)).status).toBe(404);
    const key = (await s.ctx.db.selectFrom('faxes').select('file_key').where('id', '=', id).executeTakeFirstOrThrow()).file_key!;
    expect((await b.client.get(`/files/${key}`)).status).toBe(404);
    // A reporting member reads no inbox, and sends nothing.
    expect((await reader.client.get(faxes(a))).status).toBe(403);
    expect(
      (await reader.client.post(faxes(a), form({ number_id: String(faxNumber.id), to: '+13125550142' }, { data: two, type: 'application/pdf', name: 'x.pdf' })))
        .status,
    ).toBe(403);
    // The provider's signed URL of the PDF works until it expires.
    const fresh = s.ctx.blobs.signedUrl(key, 60_000);
    expect((await fetch(fresh.replace(s.ctx.config.publicUrl, s.url))).status).toBe(200);
    const expired = s.ctx.blobs.signedUrl(key, -120_000);
    expect((await fetch(expired.replace(s.ctx.config.publicUrl, s.url))).status).toBe(403);
  });
});

describe('receiving a fax', () => {
  it('the simulator sends a PDF: stored under the company, in the thread, in activity, fax.changed', async () => {
    const r = await a.client.post(
      '/api/simulator/faxes',
      form({ from: '+14155550199', to: faxNumber.number }, { data: await pdf(2), type: 'application/pdf', name: 'in.pdf' }),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.webhook_status).toBe(200);
    const received = await eventually(async () => {
      const l = await a.client.get(`${faxes(a)}?direction=inbound`);
      return l.body.data[0]?.status === 'received' ? l.body.data[0] : null;
    });
    expect(received).toMatchObject({ direction: 'inbound', from: '+14155550199', to: faxNumber.number, pages: 2, status: 'received' });
    const file = await fetch(s.url + received.file_url, { headers: { cookie: `switchboard_session=${a.client.cookie('switchboard_session')}` } });
    expect((await PDFDocument.load(new Uint8Array(await file.arrayBuffer()))).getPageCount()).toBe(2);
    const key = (await s.ctx.db.selectFrom('faxes').select('file_key').where('id', '=', received.id).executeTakeFirstOrThrow()).file_key!;
    expect(key.startsWith(`c/${a.companyId}/fax/`)).toBe(true);
    expect(changed.filter((c) => c.faxId === received.id).map((c) => c.status)).toEqual(['receiving', 'received']);
    const items = await a.client.get(`/api/companies/${a.companyId}/conversations/${received.conversation_id}/items`);
    expect(items.body.data.find((i: any) => i.details.type === 'fax')).toMatchObject({
      isInbound: true,
      isRead: false,
      details: { content: 'Fax, 2 pages', deliveryState: 'received' },
    });
    const act = await eventually(async () => {
      const res = await a.client.get(`/api/activity?company=${a.companyId}&per_page=50`);
      return res.body.data?.find((x: any) => x.id === `fax-${received.id}`);
    });
    expect(act).toMatchObject({ kind: 'fax', direction: 'inbound', from: '+14155550199', delivery_state: 'received', content: '2 pages' });
  });

  it("the simulator refuses a voice number, another company's number and a non-PDF", async () => {
    const p = await pdf(1);
    expect(
      (await a.client.post('/api/simulator/faxes', form({ from: '+14155550199', to: voiceNumber.number }, { data: p, type: 'application/pdf', name: 'x.pdf' })))
        .status,
    ).toBe(422);
    expect(
      (await b.client.post('/api/simulator/faxes', form({ from: '+14155550199', to: faxNumber.number }, { data: p, type: 'application/pdf', name: 'x.pdf' })))
        .status,
    ).toBe(422);
    expect(
      (
        await a.client.post(
          '/api/simulator/faxes',
          form({ from: '+14155550199', to: faxNumber.number }, { data: Buffer.from('nope'), type: 'application/pdf', name: 'x.pdf' }),
        )
      ).status,
    ).toBe(422);
  });
});

describe('reports', () => {
  it('the fax export writes one row per fax and the KPI counts them', async () => {
    const total = (await a.client.get(faxes(a))).body.meta.total;
    expect(total).toBeGreaterThanOrEqual(3);
    const r = await a.client.post('/api/fax/export', { company_id: a.companyId, async: false, columns: ['id', 'direction', 'pages', 'status'] });
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    const csv =
      typeof r.body === 'string'
        ? r.body
        : await (await fetch(s.url + r.body.url, { headers: { cookie: `switchboard_session=${a.client.cookie('switchboard_session')}` } })).text();
    const lines = csv.trim().split(/\r?\n/);
    expect(lines.length).toBe(1 + total);
    expect(lines.slice(1).some((l: string) => /,outbound,4,delivered$/.test(l))).toBe(true);
    expect(lines.slice(1).some((l: string) => /,inbound,2,received$/.test(l))).toBe(true);
    const d = await a.client.get(`/api/dashboard?company_id=${a.companyId}`);
    expect(d.status, JSON.stringify(d.body)).toBe(200);
    expect(d.body.data.kpis.faxes.value).toBe(total);
  });
});
