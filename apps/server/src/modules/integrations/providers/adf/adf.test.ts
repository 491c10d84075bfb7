/**
 * ADF/XML 1.0 adapter: documents validated against the ADF 1.0 DTD (libxml2 compiled to WebAssembly), XML escaping of
 * hostile input, vehicle interest from the outcome, e-mail to the lead address through the platform mailer, HTTP POST
 * to a local stand-in of a dealer CRM (Basic auth, 201, 429 honoured, 5xx retried), outcome as `status="resend"`.
 */
import fs from 'node:fs';
import { DtdValidator, XmlDocument, XmlDtd } from 'libxml2-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermanentProviderError, RateLimitedError, RetryableProviderError } from '../provider.js';
import { sampleItem, startStandIn, testConnection, type StandIn } from '../metaads/standin-http.js';
import { adfAdapter as adapter, buildAdfDocument, xmlSafe } from './adf.adapter.js';
import { adfSandbox } from './adf.sandbox.js';

const dtd = XmlDtd.fromString(fs.readFileSync(new URL('./adf-1.0.dtd', import.meta.url), 'utf8'));
const validator = new DtdValidator(dtd);
/** Throws libxml2's validation error when the document does not follow the ADF 1.0 DTD. */
function validate(xml: string): void {
  const doc = XmlDocument.fromString(xml);
  try {
    validator.validate(doc);
  } finally {
    doc.dispose();
  }
}

describe('ADF adapter', () => {
  const sandbox = adfSandbox();
  let standIn: StandIn;
  let next: Response | null = null;
  beforeAll(async () => {
    standIn = await startStandIn(sandbox, () => {
      const r = next;
      next = null;
      return r ?? undefined;
    });
  });
  afterAll(async () => {
    validator.dispose();
    await standIn.close();
  });
  const config = {
    vendorName: 'Sandbox Motors',
    leadEmail: 'leads@crm.example.com, bdc@crm.example.com',
    postUrl: 'https://crm.example.com/adf/inbound',
    postUser: 'switchboard',
  };
  const conn = (over: Parameters<typeof testConnection>[2] = {}) =>
    testConnection('adf', standIn.baseUrl, { config, secrets: { postPassword: 'p4ss' }, ...over });

  it('builds one prospect per call, valid against the ADF 1.0 DTD, with the documented parts', () => {
    const { xml, recipients, postUrl } = buildAdfDocument(sampleItem({ call: { outcome: 'appt_booked' } }), conn());
    validate(xml);
    expect(recipients).toEqual(['leads@crm.example.com', 'bdc@crm.example.com']);
    expect(postUrl).toBe('https://crm.example.com/adf/inbound');
    expect(xml).toBe(`<?xml version="1.0" encoding="UTF-8"?>
<?adf version="1.0"?>
<adf>
  <prospect status="new">
    <id sequence="1" source="Switchboard">call-4242</id>
    <requestdate>2026-11-29T14:05:00+00:00</requestdate>
    <vehicle interest="test-drive">
      <year></year>
      <make></make>
      <model></model>
    </vehicle>
    <customer>
      <contact>
        <name part="first">Jane</name>
        <name part="last">O&apos;Neil</name>
        <email>Jane.ONeil@Example.COM</email>
        <phone type="voice">+15550102030</phone>
      </contact>
      <comments>Inbound call on Meta – Spring sale, talked 1:35.
Summary: Asked about the blue SUV; booked a test drive for Saturday.
Outcome: appt_booked (sales).
Call and transcript: https://app.example.com/calls/4242
Recording: https://app.example.com/files/recordings/4242.mp3?sig=abc
Transcript: Caller: Hi, is the blue SUV still available? Agent: Yes, it is.</comments>
    </customer>
    <vendor>
      <vendorname>Sandbox Motors</vendorname>
      <contact>
        <name part="full">Sandbox Motors</name>
        <phone type="voice">+15550009999</phone>
      </contact>
    </vendor>
    <provider>
      <name part="full">Switchboard</name>
      <service>Call tracking: facebook / cpc / spring-sale (Meta – Spring sale)</service>
      <url>https://app.example.com</url>
    </provider>
  </prospect>
</adf>
`);
  });

  it('escapes hostile input and drops characters XML 1.0 forbids; texts and vehicle interest validate too', () => {
    const hostile = sampleItem({
      contact: { firstName: '<script>&"Bob"', lastName: "O'Brien\u0001\u0008", email: null },
      call: { summary: 'Wants </comments><x> & a "deal"\u000b', departmentType: 'trade' },
      settings: { ...sampleItem().settings, provider: { vehicle: { year: '2024', make: 'Ford', model: 'F-150 <XL>' } } },
    });
    const { xml } = buildAdfDocument(hostile, conn());
    validate(xml);
    expect(xml).toContain('<name part="first">&lt;script&gt;&amp;&quot;Bob&quot;</name>');
    expect(xml).toContain('<name part="last">O&apos;Brien</name>');
    expect(xml).toContain('Wants &lt;/comments&gt;&lt;x&gt; &amp; a &quot;deal&quot;');
    expect(xml).toContain('<vehicle interest="trade-in">');
    expect(xml).toContain('<model>F-150 &lt;XL&gt;</model>');
    expect(xmlSafe('a\u0000b\u001fc\td')).toBe('abc\td');
    const text = sampleItem({
      kind: 'lead',
      deliveryKey: '9:lead:t5',
      call: null,
      text: { id: 5, from: '+15550104040', to: '+15550009999', body: 'Is the Civic available?', receivedAt: '2026-11-29T09:00:00.000Z' },
      contact: { email: null, phone: null },
    });
    const t = buildAdfDocument(text, conn()).xml;
    validate(t);
    expect(t).toContain('<id sequence="1" source="Switchboard">text-5</id>');
    expect(t).toContain('<comments>Text message: Is the Civic available?</comments>');
    expect(() => validate(t.replace('<requestdate>', '<requestdate>x</requestdate><requestdate>'))).toThrow();
  });

  it('sends by e-mail through the mailer and POSTs to the CRM with Basic auth', async () => {
    const c = conn();
    const answer = await adapter.deliver(c, [sampleItem()]);
    expect(answer.items[0]).toEqual({ deliveryKey: '9:call:4242', result: 'delivered', providerRef: '/leads/lead-1', message: null });
    const req = standIn.requests.at(-1)!;
    expect([req.method, req.path, req.headers['content-type']]).toEqual(['POST', '/adf/inbound', 'application/xml; charset=utf-8']);
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from('switchboard:p4ss').toString('base64')}`);
    validate(req.body);
    expect(c.mails).toEqual([{ to: ['leads@crm.example.com', 'bdc@crm.example.com'], subject: "Phone lead: Jane O'Neil", text: req.body }]);
    expect(adapter.dedupKey(sampleItem())).toBe('Switchboard:call-4242');
  });

  it('sends an outcome set later as the same prospect with status="resend"', async () => {
    const outcome = sampleItem({ kind: 'outcome', deliveryKey: '9:outcome:4242', call: { outcome: 'vehicle_ordered' } });
    await adapter.deliver(conn(), [outcome]);
    const xml = standIn.requests.at(-1)!.body;
    validate(xml);
    expect(xml).toContain('<prospect status="resend">');
    expect(xml).toContain('<id sequence="1" source="Switchboard">call-4242</id>');
    expect(xml).toContain('<vehicle interest="buy">');
    expect(adapter.dedupKey(outcome)).toBe('Switchboard:call-4242:resend:vehicle_ordered');
  });

  it('honours 429, retries 5xx, refuses a wrong password, and needs a destination', async () => {
    next = new Response('slow down', { status: 429, headers: { 'retry-after': '12' } });
    expect(((await adapter.deliver(conn(), [sampleItem()]).catch((e: unknown) => e)) as RateLimitedError).retryAfterMs).toBe(12_000);
    next = new Response('down', { status: 503 });
    await expect(adapter.deliver(conn(), [sampleItem()])).rejects.toBeInstanceOf(RetryableProviderError);
    next = new Response('bad credentials', { status: 401 });
    await expect(adapter.deliver(conn(), [sampleItem()])).rejects.toBeInstanceOf(PermanentProviderError);
    await expect(adapter.verify(conn({ config: { vendorName: 'x' } }), sampleItem())).rejects.toBeInstanceOf(PermanentProviderError);
    expect(await adapter.verify(conn(), sampleItem())).toBe('Leads go to leads@crm.example.com, bdc@crm.example.com, https://crm.example.com/adf/inbound.');
  });
});
