/**
 * The Telnyx fax adapter through the real server (docs/fax.md "Telnyx"): a local stand-in for
 * Telnyx's REST API (`POST /v2/faxes`, a media URL), webhooks signed with a real Ed25519 key pair
 * generated here; a bad or stale signature is refused, a repeated event is applied once.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, startTestServer, type TestServer } from '../../../test/harness.js';
import { rawPublicKeyBase64, signTelnyxWebhook, telnyxFaxEventBody } from '../../carriers/telnyx/telnyx.fax-dialect.js';
import { events } from '../../platform/events/index.js';

let s: TestServer;
let a: Account;
let api: http.Server;
let apiUrl: string;
let pdfBytes: Buffer;
const created: Array<Record<string, unknown>> = [];
const changed: Array<{ faxId: number; status: string }> = [];
const { privateKey, publicKey } = crypto.generateKeyPairSync('ed25519');

beforeAll(async () => {
  const doc = await PDFDocument.create();
  for (let i = 0; i < 3; i++) doc.addPage();
  pdfBytes = Buffer.from(await doc.save());
  api = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v2/faxes') {
        created.push({ ...JSON.parse(body), authorization: req.headers.authorization });
        res
          .writeHead(202, { 'content-type': 'application/json' })
          .end(JSON.stringify({ data: { id: `fax-${created.length}`, status: 'queued', record_type: 'fax' } }));
      } else if (req.url === '/media/in.pdf') res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdfBytes);
      else res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  s = await startTestServer({
    faxProvider: 'telnyx',
    telnyxApiKey: 'KEY-test',
    telnyxFaxConnectionId: '1234567',
    telnyxPublicKey: rawPublicKeyBase64(publicKey),
    telnyxApiUrl: `${apiUrl}/v2`,
  });
  a = await createAccount(s);
  events.consume('test.fax.telnyx-1', 'fax.changed', async (_ctx, p) => {
    changed.push({ faxId: p.faxId, status: p.status });
  });
}, 90_000);

afterAll(async () => {
  await s?.close();
  await new Promise((r) => api?.close(r));
});

async function post(body: string, headers: Record<string, string>) {
  const res = await fetch(`${s.url}/webhooks/telnyx/fax`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: res.status, text: await res.text() };
}

describe('Telnyx Programmable Fax', () => {
  let faxNumber: string;
  let faxId: number;

  it('sends through POST /v2/faxes with a signed media URL and our webhook URL', async () => {
    const search = await a.client.get('/api/numbers/search?type=local&areaCode=646');
    const bought = await a.client.post('/api/numbers', {
      company_id: a.companyId,
      provider_id: search.body.data[0].provider_id,
      number: search.body.data[0].number,
      service_type: 2,
    });
    expect(bought.status).toBe(201);
    faxNumber = bought.body.number;
    const f = new FormData();
    f.append('number_id', String(bought.body.id));
    f.append('to', '+13125550142');
    f.append('file', new Blob([new Uint8Array(pdfBytes)], { type: 'application/pdf' }), 'doc.pdf');
    const r = await a.client.post(`/api/companies/${a.companyId}/faxes`, f);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    faxId = r.body.id;
    const sent = await eventually(async () => created[0]);
    expect(sent).toMatchObject({ connection_id: '1234567', from: faxNumber, to: '+13125550142', authorization: 'Bearer KEY-test' });
    expect(String(sent.media_url)).toMatch(/\/files\/c\/\d+\/fax\/[0-9a-f]{32}\.pdf\?expires=\d+&signature=/);
    expect(String(sent.webhook_url)).toBe(`${s.ctx.config.publicUrl}/webhooks/telnyx/fax`);
    await eventually(
      async () => (await s.ctx.db.selectFrom('faxes').select('provider_fax_id').where('id', '=', faxId).executeTakeFirst())?.provider_fax_id === 'fax-1',
    );
  });

  it('refuses a bad, missing or stale signature', async () => {
    const body = telnyxFaxEventBody('fax.delivered', {
      fax_id: 'fax-1',
      direction: 'outbound',
      from: faxNumber,
      to: '+13125550142',
      page_count: 3,
      status: 'delivered',
    });
    const other = crypto.generateKeyPairSync('ed25519').privateKey;
    expect((await post(body, signTelnyxWebhook(other, body))).status).toBe(403);
    expect((await post(body, {})).status).toBe(403);
    expect((await post(body, signTelnyxWebhook(privateKey, body, Math.floor(Date.now() / 1000) - 600))).status).toBe(403);
    const tampered = signTelnyxWebhook(privateKey, body);
    expect((await post(body.replace('"page_count":3', '"page_count":9'), tampered)).status).toBe(403);
    expect((await a.client.get(`/api/faxes/${faxId}`)).body.status).toBe('queued');
  });

  it('applies a signed event once, however often it is delivered', async () => {
    const sending = telnyxFaxEventBody('fax.sending.started', {
      fax_id: 'fax-1',
      direction: 'outbound',
      from: faxNumber,
      to: '+13125550142',
      status: 'sending',
    });
    expect((await post(sending, signTelnyxWebhook(privateKey, sending))).status).toBe(200);
    const body = telnyxFaxEventBody('fax.delivered', {
      fax_id: 'fax-1',
      direction: 'outbound',
      from: faxNumber,
      to: '+13125550142',
      page_count: 3,
      status: 'delivered',
    });
    for (let i = 0; i < 3; i++) expect((await post(body, signTelnyxWebhook(privateKey, body))).status).toBe(200);
    const fax = (await a.client.get(`/api/faxes/${faxId}`)).body;
    expect(fax).toMatchObject({ status: 'delivered', pages: 3 });
    await new Promise((r) => setTimeout(r, 100));
    expect(changed.filter((c) => c.faxId === faxId).map((c) => c.status)).toEqual(['queued', 'sending', 'delivered']);
    // A late `sending` never moves a delivered fax back.
    const late = telnyxFaxEventBody('fax.sending.started', { fax_id: 'fax-1', direction: 'outbound', from: faxNumber, to: '+13125550142', status: 'sending' });
    expect((await post(late, signTelnyxWebhook(privateKey, late))).status).toBe(200);
    expect((await a.client.get(`/api/faxes/${faxId}`)).body.status).toBe('delivered');
  });

  it('receives a fax: the PDF is fetched from the media URL and stored', async () => {
    const body = telnyxFaxEventBody('fax.received', {
      fax_id: 'in-1',
      direction: 'inbound',
      from: '+14155550100',
      to: faxNumber,
      page_count: 3,
      media_url: `${apiUrl}/media/in.pdf`,
      status: 'received',
    });
    expect((await post(body, signTelnyxWebhook(privateKey, body))).status).toBe(200);
    const received = await eventually(async () => {
      const l = await a.client.get(`/api/companies/${a.companyId}/faxes?direction=inbound`);
      return l.body.data[0]?.status === 'received' ? l.body.data[0] : null;
    });
    expect(received).toMatchObject({ from: '+14155550100', to: faxNumber, pages: 3 });
    expect(received.file_url).toBe(`/api/faxes/${received.id}/file`);
  });
});
