/**
 * ADF/XML 1.0 lead export for car dealers (docs/integrations-providers.md "ADF"; spec 002 §1 "ADF lead export", shape
 * not shown). One `<prospect>` per qualifying call or text, sent by e-mail to the dealer CRM's lead address
 * (`config.leadEmail`, comma-separated, through the platform's mailer: {@link ProviderConnection.sendMail}, the
 * document as the plain-text body — what dealer CRMs parse) and/or by HTTP POST (`config.postUrl`,
 * `Content-Type: application/xml`, Basic auth with `config.postUser` and the secret `postPassword` when set).
 *
 * The document (ADF/XML 1.0 specification, May 2000; DTD transcribed in `adf-1.0.dtd`, which the tests validate
 * against): `<?xml version="1.0" encoding="UTF-8"?><?adf version="1.0"?><adf><prospect status="new|resend">` with
 * `<id sequence="1" source="Switchboard">call-<id></id>`, `<requestdate>` (ISO 8601), `<vehicle interest=…>` (interest
 * from the outcome and department: vehicle_ordered → buy, appt_booked in sales → test-drive, trade → trade-in; year,
 * make, model from `settings.provider.vehicle` or empty as the DTD allows), `<customer>` (contact: name, e-mail, phone;
 * comments: the call summary and the transcript/recording links, or the text), `<vendor>` (the company:
 * `config.vendorName`), `<provider>` (this product and the tracking source). An outcome set later is sent again as the
 * same prospect id with `status="resend"`. XML is built with fast-xml-parser's builder (entities escaped); characters
 * XML 1.0 forbids are removed first.
 */
import { XMLBuilder } from 'fast-xml-parser';
import {
  PermanentProviderError,
  RateLimitedError,
  RetryableProviderError,
  retryAfterMs,
  type DeliveryAnswer,
  type DeliveryItem,
  type ProviderAdapter,
  type ProviderConnection,
} from '../provider.js';

/** Nominal base URL: the POST target is each dealer's (`config.postUrl`); overridden base URLs (tests) are used as is. */
export const ADF_BASE = 'https://adf-leads.invalid';
/** Product name in `<provider>`. */
export const PRODUCT_NAME = 'Switchboard';

type VehicleInterest = 'buy' | 'lease' | 'sell' | 'trade-in' | 'test-drive';

/** Removes characters XML 1.0 does not allow (C0 controls other than tab, LF, CR; lone surrogates; U+FFFE/FFFF). */
export function xmlSafe(value: string): string {
  return value.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '');
}

/** Vehicle interest from the outcome and department (see the file's notes). */
export function vehicleInterest(item: DeliveryItem): VehicleInterest {
  const call = item.call;
  if (call?.departmentType === 'trade') return 'trade-in';
  if (call?.outcome === 'vehicle_ordered') return 'buy';
  if (call?.outcome === 'appt_booked' && (call.departmentType === 'sales' || call.departmentType === null)) return 'test-drive';
  return 'buy';
}

/** The lead's subject identifier: `call-<id>` or `text-<id>`. */
export function prospectId(item: DeliveryItem): string {
  return item.call ? `call-${item.call.id}` : item.text ? `text-${item.text.id}` : item.deliveryKey.replace(/[^\w:-]/g, '');
}

/** `2026-11-29T14:05:00+00:00` (ISO 8601 with offset, as the ADF examples write it). */
function isoWithOffset(iso: string): string {
  return new Date(iso).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** The first `max` characters of a text, cut at a word with "…". */
function excerpt(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max).replace(/\s+\S*$/, '')}…`;
}

/** The customer's `<comments>`: summary, outcome, links (call) or the message (text). */
function customerComments(item: DeliveryItem): string {
  if (!item.call && item.text) return `Text message: ${item.text.body}`;
  const call = item.call!;
  const mins = Math.floor(call.durationS / 60);
  const secs = String(call.durationS % 60).padStart(2, '0');
  return [
    `${call.direction === 'inbound' ? 'Inbound' : 'Outbound'} call on ${call.trackingNumberName ?? call.trackingNumber}, ${call.answered ? `talked ${mins}:${secs}` : 'not answered'}.`,
    call.summary ? `Summary: ${call.summary}` : null,
    call.outcome ? `Outcome: ${call.outcome}${call.departmentType ? ` (${call.departmentType})` : ''}.` : null,
    `Call and transcript: ${call.url}`,
    call.recordingUrl ? `Recording: ${call.recordingUrl}` : null,
    call.transcript ? `Transcript: ${excerpt(call.transcript, 2000)}` : null,
  ]
    .filter(Boolean)
    .join('\n');
}

/** The `<contact>` of the customer (names, then e-mail and/or phone). */
function customerContact(item: DeliveryItem): Record<string, unknown> {
  const c = item.contact;
  const phone = c.phone ?? item.call?.callerNumber ?? item.text?.from ?? null;
  const names: Array<Record<string, string>> = [];
  if (c.firstName) names.push({ '@_part': 'first', '#text': c.firstName });
  if (c.lastName) names.push({ '@_part': 'last', '#text': c.lastName });
  if (!names.length) names.push({ '@_part': 'full', '#text': c.name ?? phone ?? 'Unknown caller' });
  const contact: Record<string, unknown> = { name: names };
  if (c.email) contact.email = c.email.trim();
  if (phone) contact.phone = { '@_type': 'voice', '#text': phone };
  if (!c.email && !phone) throw new PermanentProviderError('The lead has neither a phone number nor an e-mail address (ADF requires one).');
  return contact;
}

/** Recursively makes every string XML-safe (forbidden characters removed). */
function clean(node: unknown): unknown {
  if (typeof node === 'string') return xmlSafe(node);
  if (Array.isArray(node)) return node.map(clean);
  if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, clean(v)]));
  return node;
}

/**
 * The ADF/XML 1.0 document of an item, and where it goes. Pure.
 * @returns `{ xml, recipients, postUrl }` (recipients: the lead e-mail addresses; postUrl or null)
 */
export function buildAdfDocument(
  item: DeliveryItem,
  conn: Pick<ProviderConnection, 'config' | 'appOrigin'>,
): { xml: string; recipients: string[]; postUrl: string | null } {
  const config = conn.config;
  const vendorName = String(config.vendorName ?? '') || 'Dealer';
  const vehicle = (item.settings.provider.vehicle ?? {}) as { year?: string; make?: string; model?: string };
  const a = item.attribution;
  const source = [a.source, a.medium, a.campaign].filter(Boolean).join(' / ');
  const resend = item.kind === 'outcome' || item.kind === 'outcome-adjustment';
  const vendorContact: Record<string, unknown> = { name: { '@_part': 'full', '#text': vendorName } };
  if (item.call?.trackingNumber ?? item.text?.to) vendorContact.phone = { '@_type': 'voice', '#text': item.call?.trackingNumber ?? item.text!.to };
  else
    vendorContact.email =
      String(config.leadEmail ?? '')
        .split(',')[0]
        ?.trim() || 'leads@invalid';
  const prospect = {
    '@_status': resend ? 'resend' : 'new',
    id: { '@_sequence': '1', '@_source': PRODUCT_NAME, '#text': prospectId(item) },
    requestdate: isoWithOffset(item.call?.startedAt ?? item.text?.receivedAt ?? item.occurredAt),
    vehicle: { '@_interest': vehicleInterest(item), year: vehicle.year ?? '', make: vehicle.make ?? '', model: vehicle.model ?? '' },
    customer: { contact: customerContact(item), comments: customerComments(item) },
    vendor: { vendorname: vendorName, contact: vendorContact },
    provider: {
      name: { '@_part': 'full', '#text': PRODUCT_NAME },
      service: `${item.call ? 'Call tracking' : 'Text messaging'}${source ? `: ${source}` : ''}${item.call?.trackingNumberName ? ` (${item.call.trackingNumberName})` : ''}`,
      url: conn.appOrigin,
    },
  };
  const builder = new XMLBuilder({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    textNodeName: '#text',
    format: true,
    suppressEmptyNode: false,
    processEntities: true,
  });
  const xml = builder.build({
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    '?adf': { '@_version': '1.0' },
    adf: { prospect: clean(prospect) },
  }) as string;
  const recipients = String(config.leadEmail ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s));
  const postUrl = typeof config.postUrl === 'string' && /^https?:\/\//.test(config.postUrl) ? config.postUrl : null;
  return { xml, recipients, postUrl };
}

/** POSTs the document to the dealer's endpoint; maps its answer. */
async function post(conn: ProviderConnection, url: string, xml: string): Promise<string | null> {
  const headers: Record<string, string> = { 'content-type': 'application/xml; charset=utf-8', accept: '*/*' };
  const user = String(conn.config.postUser ?? '');
  const password = conn.secrets.postPassword ?? '';
  if (user || password) headers.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const target = conn.baseUrl === ADF_BASE ? url : `${conn.baseUrl}${new URL(url).pathname}`;
  let res: Response;
  try {
    res = await conn.fetch(target, { method: 'POST', headers, body: xml });
  } catch (e) {
    throw new RetryableProviderError(`The lead endpoint is unreachable: ${(e as Error).message}`);
  }
  const text = (await res.text()).slice(0, 300);
  if (res.status === 429) throw new RateLimitedError(retryAfterMs(res.headers, 60_000, conn.now()), `ADF endpoint 429: ${text}`);
  if (res.status >= 500 || res.status === 408) throw new RetryableProviderError(`ADF endpoint ${res.status}: ${text}`, res.status);
  if (!res.ok) throw new PermanentProviderError(`ADF endpoint ${res.status}: ${text}`, res.status);
  return res.headers.get('location') ?? null;
}

/** The ADF adapter (exported as `provider.adapter` from `adf/index.ts`). */
export const adfAdapter: ProviderAdapter = {
  id: 'adf',
  displayName: 'ADF lead export',
  apiBaseUrl: ADF_BASE,
  oauth: null,
  appSettings: [],
  secretFields: ['postPassword'],
  kinds: ['call', 'lead', 'text', 'outcome', 'outcome-adjustment'],
  callMedia: true,
  maxBatch: 1,
  // Dealer CRMs publish no limits; one lead per second per integration.
  rateLimit: { requests: 1, perMs: 1000, scope: 'integration' },
  lookups: {},

  identify(conn) {
    const to = String(conn.config.leadEmail ?? conn.config.postUrl ?? '');
    return Promise.resolve({ externalAccountId: to || `adf-${conn.integrationId}`, accountName: to || 'ADF lead export' });
  },

  verify(conn, sample) {
    const { recipients, postUrl } = buildAdfDocument(sample, conn);
    if (!recipients.length && !postUrl)
      return Promise.reject(new PermanentProviderError('Give the CRM lead e-mail address (leadEmail) or an HTTP POST URL (postUrl).'));
    return Promise.resolve(`Leads go to ${[...recipients, ...(postUrl ? [postUrl] : [])].join(', ')}.`);
  },

  async deliver(conn, items): Promise<DeliveryAnswer> {
    const out: DeliveryAnswer['items'] = [];
    for (const item of items) {
      const { xml, recipients, postUrl } = buildAdfDocument(item, conn);
      if (!recipients.length && !postUrl) throw new PermanentProviderError('The ADF integration has no lead e-mail address and no POST URL.');
      let ref: string | null = null;
      if (postUrl) ref = await post(conn, postUrl, xml);
      if (recipients.length) {
        const who =
          [item.contact.firstName, item.contact.lastName].filter(Boolean).join(' ') ||
          item.contact.name ||
          item.call?.callerNumber ||
          item.text?.from ||
          'caller';
        await conn.sendMail({ to: recipients, subject: `${item.call ? 'Phone' : 'Text'} lead: ${who}`.slice(0, 200), text: xml });
      }
      out.push({ deliveryKey: item.deliveryKey, result: 'delivered', providerRef: ref ?? `${PRODUCT_NAME}:${prospectId(item)}`, message: null });
    }
    return { items: out };
  },

  dedupKey: (item) => `${PRODUCT_NAME}:${prospectId(item)}${item.kind.startsWith('outcome') ? `:resend:${item.call?.outcome ?? ''}` : ''}`,
};
