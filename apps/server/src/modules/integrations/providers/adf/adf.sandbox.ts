/**
 * ADF sandbox (docs/integrations-providers.md "ADF"): an in-process stand-in of a dealer CRM's ADF lead endpoint. It
 * accepts `POST` of an ADF/XML document on any path (`Content-Type: application/xml`), answers 400 with the parser's
 * message when the body is not well-formed XML or has no `<adf><prospect>`, 415 for another content type, 429 with
 * Retry-After past 60 leads a minute (its own number), else 201 with a `Location` of the stored lead. Leads sent by
 * e-mail go through the platform's mailer (the sandbox mailer shows them), not here. State is per instance.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { ProviderSandbox } from '../provider.js';

/** Creates a fresh dealer-CRM stand-in. */
export function adfSandbox(): ProviderSandbox {
  const received: Array<{ at: string; summary: string; body: unknown }> = [];
  const times: number[] = [];
  let seq = 1;

  async function handle(request: Request): Promise<Response> {
    if (request.method !== 'POST') return new Response('Method Not Allowed', { status: 405, headers: { allow: 'POST' } });
    if (!(request.headers.get('content-type') ?? '').includes('xml')) return new Response('Unsupported Media Type: send application/xml', { status: 415 });
    const now = Date.now();
    while (times.length && now - times[0]! > 60_000) times.shift();
    times.push(now);
    if (times.length > 60) return new Response('Too Many Requests', { status: 429, headers: { 'retry-after': '30' } });
    const xml = await request.text();
    const valid = XMLValidator.validate(xml);
    if (valid !== true) return new Response(`Bad Request: ${valid.err.msg} (line ${valid.err.line})`, { status: 400 });
    const doc = new XMLParser({ ignoreAttributes: false }).parse(xml) as { adf?: { prospect?: unknown } };
    if (!doc.adf?.prospect) return new Response('Bad Request: no <adf><prospect>', { status: 400 });
    const id = `lead-${seq++}`;
    const p = doc.adf.prospect as { customer?: { contact?: { phone?: unknown } } };
    received.push({ at: new Date(now).toISOString(), summary: `ADF lead ${id} (${JSON.stringify(p.customer?.contact?.phone ?? '')})`, body: xml });
    return new Response('Created', { status: 201, headers: { location: `/leads/${id}` } });
  }

  return { fetch: handle, sent: () => received.slice() };
}
