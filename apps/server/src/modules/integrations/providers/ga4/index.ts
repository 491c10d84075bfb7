/**
 * Google Analytics 4 (spec 002 §7 "GA4 integrations"; docs/integrations.md "GA4") through the Measurement Protocol
 * (developers.google.com/analytics/devguides/collection/protocol/ga4, read 2026-11): `POST /mp/collect?measurement_id=
 * &api_secret=` with `{ client_id, timestamp_micros, events: [{ name, params }] }`, at most 25 events per request, events
 * backdated at most 72 hours. A call joins the visitor's web session only with the `client_id` of the `_ga` cookie and
 * the `session_id` of `_ga_<stream>` (captured by the tracking script at number assignment) and when sent within 24 h
 * of the session start; otherwise the call is an event of a pseudonymous client (`sb.<hash of the caller>`), without
 * a session. Event names are GA4's recommended lead events: `generate_lead` (a call or lead), and by outcome
 * `qualify_lead` (opportunity), `working_lead` (appt_booked, get_back_commitment), `close_convert_lead`
 * (vehicle_ordered, parts_ordered), `disqualify_lead` (not_opportunity); a conversion name in the settings wins.
 * The Measurement Protocol answers 2xx to everything (no dedup key): each delivery is sent once and recorded;
 * activation validates a sample at `/debug/mp/collect`, which answers `validationMessages`.
 */
import type { CallOutcome, DeliveryItem, ProviderAdapter, ProviderConnection, ProviderModule, ProviderSandbox } from '../provider.js';
import { PermanentProviderError } from '../provider.js';
import { expectOk, jsonResponse, send, sha256Hex } from '../http.js';

const MAX_BACKDATE_MS = 72 * 3600_000;
const SESSION_JOIN_MS = 24 * 3600_000;

const OUTCOME_EVENTS: Record<CallOutcome, string | null> = {
  opportunity: 'qualify_lead',
  appt_booked: 'working_lead',
  get_back_commitment: 'working_lead',
  vehicle_ordered: 'close_convert_lead',
  parts_ordered: 'close_convert_lead',
  not_opportunity: 'disqualify_lead',
  unknown: null,
};

/** The GA4 event name of an item. */
export function ga4EventName(item: DeliveryItem): string | null {
  if (item.conversion?.name && /^[a-zA-Z][a-zA-Z0-9_]{0,39}$/.test(item.conversion.name)) return item.conversion.name;
  if (item.kind === 'outcome' || item.kind === 'outcome-adjustment') return item.call?.outcome ? OUTCOME_EVENTS[item.call.outcome] : null;
  return 'generate_lead';
}

/** The client id of an item: the `_ga` one, else a stable pseudonymous id of the caller. */
export function ga4ClientId(item: DeliveryItem): string {
  if (item.attribution.gaClientId) return item.attribution.gaClientId;
  const who = item.contact.phone ?? item.call?.callerNumber ?? item.deliveryKey;
  return `sb.${parseInt(sha256Hex(who).slice(0, 8), 16)}`;
}

/** The Measurement Protocol event of one item. */
export function ga4Event(item: DeliveryItem, now: Date): { name: string; params: Record<string, unknown> } | null {
  const name = ga4EventName(item);
  if (!name) return null;
  const a = item.attribution;
  const sessionStart = a.sessionStartedAt ? Date.parse(a.sessionStartedAt) : NaN;
  const joins = a.gaSessionId && Number.isFinite(sessionStart) && now.getTime() - sessionStart <= SESSION_JOIN_MS;
  const value = item.conversion?.valueCents ?? item.call?.valueCents ?? null;
  const params: Record<string, unknown> = {
    engagement_time_msec: 1,
    lead_source: 'phone_call',
    call_id: item.call?.id ?? null,
    call_duration: item.call?.durationS ?? null,
    call_outcome: item.call?.outcome ?? null,
    department: item.call?.departmentType ?? null,
    tracking_number: item.call?.trackingNumberName ?? item.call?.trackingNumber ?? null,
    ...(joins ? { session_id: a.gaSessionId } : {}),
    ...(a.source && !joins ? { source: a.source, medium: a.medium, campaign: a.campaign, term: a.keyword } : {}),
    ...(value !== null ? { value: value / 100, currency: item.conversion?.currency ?? item.call?.currency ?? 'USD' } : {}),
  };
  for (const k of Object.keys(params)) if (params[k] === null || params[k] === undefined) delete params[k];
  return { name, params };
}

function collectUrl(conn: ProviderConnection, debug: boolean): string {
  const measurementId = String(conn.config.measurementId ?? '');
  const apiSecret = conn.secrets.apiSecret ?? '';
  if (!measurementId || !apiSecret) throw new PermanentProviderError('The measurement id and API secret are required');
  const u = new URL(`${conn.baseUrl}/${debug ? 'debug/mp/collect' : 'mp/collect'}`);
  u.searchParams.set('measurement_id', measurementId);
  u.searchParams.set('api_secret', apiSecret);
  return u.href;
}

const adapter: ProviderAdapter = {
  id: 'ga4',
  displayName: 'Google Analytics 4',
  apiBaseUrl: 'https://www.google-analytics.com',
  oauth: null,
  appSettings: [],
  secretFields: ['apiSecret'],
  kinds: ['call', 'lead', 'outcome', 'outcome-adjustment', 'missed-call'],
  maxBatch: 25,
  rateLimit: { requests: 20, perMs: 1_000, scope: 'integration' },
  lookups: {},
  async identify(conn) {
    const id = String(conn.config.measurementId ?? '');
    return { externalAccountId: id, accountName: id };
  },
  async verify(conn, sample) {
    const event = ga4Event(sample, conn.now()) ?? { name: 'generate_lead', params: {} };
    const res = await send(conn.fetch, collectUrl(conn, true), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: ga4ClientId(sample), events: [event], validation_behavior: 'ENFORCE_RECOMMENDATIONS' }),
    });
    const body = await expectOk(res, conn.now());
    const msgs = (body.validationMessages as Array<{ description?: string }>) ?? [];
    if (msgs.length) throw new PermanentProviderError(`GA4 refused the test event: ${msgs.map((m) => m.description).join('; ')}`);
    return 'GA4 validated a test event.';
  },
  async deliver(conn, items) {
    const now = conn.now();
    const out: Awaited<ReturnType<ProviderAdapter['deliver']>>['items'] = [];
    const byClient = new Map<string, Array<{ item: DeliveryItem; event: { name: string; params: Record<string, unknown> } }>>();
    for (const item of items) {
      const at = Date.parse(item.occurredAt);
      if (now.getTime() - at > MAX_BACKDATE_MS) {
        out.push({ deliveryKey: item.deliveryKey, result: 'skipped', providerRef: null, message: 'Older than 72 hours: GA4 does not take it' });
        continue;
      }
      const event = ga4Event(item, now);
      if (!event) {
        out.push({ deliveryKey: item.deliveryKey, result: 'skipped', providerRef: null, message: 'No GA4 event for this outcome' });
        continue;
      }
      const cid = ga4ClientId(item);
      byClient.set(cid, [...(byClient.get(cid) ?? []), { item, event }]);
    }
    for (const [clientId, list] of byClient) {
      // One request per client (all events of a request share its client_id); ≤ 25 events (maxBatch).
      const res = await send(conn.fetch, collectUrl(conn, false), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_id: clientId,
          timestamp_micros: Date.parse(list[0]!.item.occurredAt) * 1000,
          events: list.map((l) => ({ ...l.event, params: { ...l.event.params, timestamp_micros: Date.parse(l.item.occurredAt) * 1000 } })),
        }),
      });
      await expectOk(res, now);
      for (const l of list) out.push({ deliveryKey: l.item.deliveryKey, result: 'delivered', providerRef: null, message: null });
    }
    return { items: out };
  },
  dedupKey: (item) => item.deliveryKey,
};

/** Offline GA4: accepts like the real endpoint (204), validates on /debug/mp/collect. */
function sandbox(): ProviderSandbox {
  const received: Array<{ at: string; summary: string; body: unknown }> = [];
  return {
    sent: () => received,
    async fetch(request) {
      const url = new URL(request.url);
      if (!url.searchParams.get('measurement_id') || !url.searchParams.get('api_secret')) return new Response(null, { status: 204 });
      const body = (await request.json().catch(() => ({}))) as { client_id?: string; events?: Array<{ name?: string }> };
      const messages: Array<{ fieldPath: string; description: string; validationCode: string }> = [];
      if (!body.client_id) messages.push({ fieldPath: 'client_id', description: 'client_id is required.', validationCode: 'VALUE_REQUIRED' });
      if (!body.events?.length || body.events.length > 25)
        messages.push({ fieldPath: 'events', description: 'Between 1 and 25 events.', validationCode: 'VALUE_INVALID' });
      if (url.pathname.startsWith('/debug/')) return jsonResponse(200, { validationMessages: messages });
      if (!messages.length)
        for (const e of body.events ?? []) received.push({ at: new Date().toISOString(), summary: `${e.name} for ${body.client_id}`, body: e });
      return new Response(null, { status: 204 });
    },
  };
}

export const ga4Provider: ProviderModule = { adapter, sandbox };
