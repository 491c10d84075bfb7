/**
 * HubSpot adapter (docs/integrations-providers.md "HubSpot"): date-versioned CRM APIs, version 2026-09 (shipped
 * 8 September 2026, the latest on 2026-11-29; paths `/crm/objects/2026-09/…`, `/crm/properties/2026-09/…`), plain HTTP
 * (HubSpot's Node SDK is generated from the same specs; plain fetch keeps `conn.fetch` in charge of every request).
 *
 * Per delivered call:
 * 1. the contact is found by phone (E.164) or e-mail (`POST /crm/objects/2026-09/contacts/search`, two OR-ed filter
 *    groups) and updated, else created (a 409 "Contact already exists. Existing ID: n" on the e-mail is updated);
 *    attribution goes in custom contact properties `switchboard_*` (group "Switchboard"), created when missing;
 * 2. the call is logged as a call engagement (`POST /crm/objects/2026-09/calls`) with `hs_timestamp`,
 *    `hs_call_direction` INBOUND/OUTBOUND, `hs_call_duration` in MILLISECONDS, `hs_call_disposition` (HubSpot's default
 *    outcome GUIDs), `hs_call_status`, `hs_call_from_number`, `hs_call_to_number`, `hs_call_recording_url` (HTTPS only),
 *    `hs_call_title`, `hs_call_body`, associated to the contact (HUBSPOT_DEFINED association type 194, call → contact);
 *    the call carries `switchboard_call_id` (a unique-value property), so a retry or an outcome set later finds and
 *    UPDATES the same engagement (`PATCH /crm/objects/2026-09/calls/{id}`) instead of logging a second one.
 * Rate limits: 429 `{ errorType: 'RATE_LIMIT', policyName: 'TEN_SECONDLY_ROLLING' | 'DAILY' | 'SECONDLY' }` with
 * `X-HubSpot-RateLimit-*` headers; waits Retry-After, else the interval header, else 10 s (1 h for the daily policy).
 * Auth: 401 (EXPIRED_AUTHENTICATION, INVALID_AUTHENTICATION) and 403 MISSING_SCOPES → reconnect.
 */
import {
  PermanentProviderError,
  RateLimitedError,
  ReconnectNeededError,
  RetryableProviderError,
  retryAfterMs,
  type ConnectedAccount,
  type DeliveryAnswer,
  type DeliveryItem,
  type ProviderAdapter,
  type ProviderConnection,
} from '../provider.js';
import { requestJson } from '../http.js';

/** HubSpot date version used for every call. */
export const HUBSPOT_VERSION = '2026-09';
/** Call → contact, HubSpot-defined association type id. */
export const CALL_TO_CONTACT = 194;
/** HubSpot's default call outcome GUIDs (calls guide: "default HubSpot outcome labels and their internal values"). */
export const DISPOSITIONS = {
  busy: '9d9162e7-6cf3-4944-bf63-4dff82258764',
  connected: 'f240bbac-87c9-4f6e-bf70-924b57d47db7',
  leftLiveMessage: 'a4c4c377-d246-4b32-a13b-75a56a4cd0ff',
  leftVoicemail: 'b2cf5968-551e-4856-9783-52b3da59a7d0',
  noAnswer: '73a0d17f-1163-4015-bdd5-ec830791da20',
  wrongNumber: '17b47fee-58de-441e-a44c-c6300d46f273',
} as const;

/** A custom property this integration keeps (created when missing). */
type PropertyDef = { name: string; label: string; type: 'string' | 'number'; fieldType: 'text' | 'number' | 'textarea'; hasUniqueValue?: boolean };
/** Contact properties holding the attribution (spec 002 "Attribution"). */
export const CONTACT_PROPERTIES: PropertyDef[] = [
  { name: 'switchboard_source', label: 'Call tracking source', type: 'string', fieldType: 'text' },
  { name: 'switchboard_medium', label: 'Call tracking medium', type: 'string', fieldType: 'text' },
  { name: 'switchboard_campaign', label: 'Call tracking campaign', type: 'string', fieldType: 'text' },
  { name: 'switchboard_keyword', label: 'Call tracking keyword', type: 'string', fieldType: 'text' },
  { name: 'switchboard_landing_page', label: 'Call tracking landing page', type: 'string', fieldType: 'text' },
  { name: 'switchboard_tracking_number', label: 'Call tracking number', type: 'string', fieldType: 'text' },
  { name: 'switchboard_first_touch', label: 'Call tracking first touch', type: 'string', fieldType: 'text' },
];
/** Call properties (the unique call id makes the engagement findable and updatable). */
export const CALL_PROPERTIES: PropertyDef[] = [
  { name: 'switchboard_call_id', label: 'Call tracking call id', type: 'string', fieldType: 'text', hasUniqueValue: true },
  { name: 'switchboard_outcome', label: 'Call outcome', type: 'string', fieldType: 'text' },
  { name: 'switchboard_department', label: 'Call department', type: 'string', fieldType: 'text' },
  { name: 'switchboard_source', label: 'Call tracking source', type: 'string', fieldType: 'text' },
  { name: 'switchboard_campaign', label: 'Call tracking campaign', type: 'string', fieldType: 'text' },
  { name: 'switchboard_value', label: 'Call conversion value', type: 'number', fieldType: 'number' },
];
const GROUP = 'switchboard';

type HubSpotError = { status?: string; message?: string; category?: string; errorType?: string; policyName?: string; correlationId?: string };

/** Maps a failed HubSpot answer to the port's errors (see the file's notes). @returns never */
export function throwHubSpotError(status: number, headers: Headers, body: unknown, now: Date): never {
  const b = (body ?? {}) as HubSpotError;
  const msg = `HubSpot ${status}: ${b.category ?? b.errorType ?? ''} ${b.message ?? ''}${b.correlationId ? ` (correlationId ${b.correlationId})` : ''}`.slice(
    0,
    500,
  );
  if (status === 429) {
    const interval = Number(headers.get('x-hubspot-ratelimit-interval-milliseconds'));
    const fallback = b.policyName === 'DAILY' ? 3600_000 : Number.isFinite(interval) && interval > 0 ? interval : 10_000;
    throw new RateLimitedError(retryAfterMs(headers, fallback, now), msg);
  }
  if (status === 401 || (status === 403 && /MISSING_SCOPES|scope/i.test(`${b.category ?? ''} ${b.message ?? ''}`))) throw new ReconnectNeededError(msg);
  if (status >= 500) throw new RetryableProviderError(msg, status);
  throw new PermanentProviderError(msg, status);
}

/** An answer HubSpot gave: status and JSON body (errors other than the ones a caller handles are thrown). */
type Answer = { status: number; json: Record<string, unknown> };

/** One HubSpot request. `allow` lists statuses the caller handles itself (404, 409…). */
async function hs(conn: ProviderConnection, method: string, path: string, body?: unknown, allow: number[] = []): Promise<Answer> {
  return requestJson(
    conn,
    `${conn.baseUrl}${path}`,
    {
      method,
      headers: { authorization: `Bearer ${conn.accessToken}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    },
    { provider: 'HubSpot', onError: throwHubSpotError, allow },
  );
}

/**
 * Creates the integration's custom properties that the portal does not have yet (batch read, then batch create of the
 * missing ones, in the "Switchboard" group).
 */
export async function ensureProperties(conn: ProviderConnection): Promise<string[]> {
  const created: string[] = [];
  for (const [objectType, defs] of [
    ['contacts', CONTACT_PROPERTIES],
    ['calls', CALL_PROPERTIES],
  ] as const) {
    const base = `/crm/properties/${HUBSPOT_VERSION}/${objectType}`;
    const group = await hs(conn, 'GET', `${base}/groups/${GROUP}`, undefined, [404]);
    if (group.status === 404) await hs(conn, 'POST', `${base}/groups`, { name: GROUP, label: 'Switchboard', displayOrder: -1 }, [409]);
    const read = await hs(conn, 'POST', `${base}/batch/read`, { archived: false, inputs: defs.map((d) => ({ name: d.name })) });
    const have = new Set(((read.json.results ?? []) as Array<{ name: string }>).map((p) => p.name));
    const missing = defs.filter((d) => !have.has(d.name));
    if (!missing.length) continue;
    await hs(conn, 'POST', `${base}/batch/create`, {
      inputs: missing.map((d) => ({
        name: d.name,
        label: d.label,
        type: d.type,
        fieldType: d.fieldType,
        groupName: GROUP,
        ...(d.hasUniqueValue ? { hasUniqueValue: true } : {}),
      })),
    });
    created.push(...missing.map((d) => `${objectType}.${d.name}`));
  }
  return created;
}

/** Contact properties for an item: identity (only known values) plus attribution. */
export function contactProperties(item: DeliveryItem): Record<string, string> {
  const c = item.contact;
  const a = item.attribution;
  const p: Record<string, string> = {};
  const phone = c.phone ?? item.call?.callerNumber ?? item.text?.from ?? null;
  if (phone) p.phone = phone;
  if (c.email) p.email = c.email.trim().toLowerCase();
  if (c.firstName) p.firstname = c.firstName;
  if (c.lastName) p.lastname = c.lastName;
  if (!c.firstName && !c.lastName && c.name) p.firstname = c.name;
  const put = (k: string, v: string | null | undefined) => {
    if (v) p[k] = v.slice(0, 1000);
  };
  put('switchboard_source', a.source);
  put('switchboard_medium', a.medium);
  put('switchboard_campaign', a.campaign);
  put('switchboard_keyword', a.keyword);
  put('switchboard_landing_page', a.landingPage);
  put('switchboard_tracking_number', item.call?.trackingNumber);
  if (a.firstTouch) put('switchboard_first_touch', [a.firstTouch.source, a.firstTouch.medium, a.firstTouch.campaign].filter(Boolean).join(' / '));
  return p;
}

/** HubSpot's disposition and status for a call. */
export function dispositionOf(item: DeliveryItem): { disposition: string; status: string } {
  const call = item.call!;
  if (item.kind === 'voicemail') return { disposition: DISPOSITIONS.noAnswer, status: 'NO_ANSWER' };
  if (item.kind === 'missed-call' || call.status === 'missed') return { disposition: DISPOSITIONS.noAnswer, status: 'MISSED' };
  if (call.status === 'rejected') return { disposition: DISPOSITIONS.busy, status: 'BUSY' };
  return call.answered ? { disposition: DISPOSITIONS.connected, status: 'COMPLETED' } : { disposition: DISPOSITIONS.noAnswer, status: 'NO_ANSWER' };
}

/** The call engagement's properties for an item (see the file's notes). */
export function callProperties(item: DeliveryItem): Record<string, string> {
  const call = item.call!;
  const inbound = call.direction === 'inbound';
  const { disposition, status } = dispositionOf(item);
  const a = item.attribution;
  const body = [
    call.summary ? `Summary: ${call.summary}` : null,
    `Call: ${call.url}`,
    [a.source, a.medium, a.campaign].some(Boolean) ? `Source: ${[a.source, a.medium, a.campaign].filter(Boolean).join(' / ')}` : null,
    call.outcome ? `Outcome: ${call.outcome}${call.departmentType ? ` (${call.departmentType})` : ''}` : null,
    call.recordingUrl ? `Recording: ${call.recordingUrl}` : null,
    call.transcript ? `Transcript:\n${call.transcript.length > 20_000 ? `${call.transcript.slice(0, 20_000)}…` : call.transcript}` : null,
  ]
    .filter(Boolean)
    .join('\n');
  const p: Record<string, string> = {
    hs_timestamp: call.startedAt,
    hs_call_title: `${inbound ? 'Inbound' : 'Outbound'} call ${inbound ? 'from' : 'to'} ${call.callerNumber}${call.trackingNumberName ? ` (${call.trackingNumberName})` : ''}`,
    hs_call_body: body,
    hs_call_direction: inbound ? 'INBOUND' : 'OUTBOUND',
    hs_call_duration: String(Math.max(0, Math.round(call.durationS * 1000))),
    hs_call_disposition: disposition,
    hs_call_status: status,
    hs_call_from_number: inbound ? call.callerNumber : call.trackingNumber,
    hs_call_to_number: inbound ? call.trackingNumber : call.callerNumber,
    switchboard_call_id: String(call.id),
  };
  if (call.recordingUrl?.startsWith('https://')) p.hs_call_recording_url = call.recordingUrl;
  if (call.outcome) p.switchboard_outcome = call.outcome;
  if (call.departmentType) p.switchboard_department = call.departmentType;
  if (a.source) p.switchboard_source = a.source;
  if (a.campaign) p.switchboard_campaign = a.campaign;
  const value = item.conversion?.valueCents ?? call.valueCents;
  if (value !== null && value !== undefined) p.switchboard_value = String(value / 100);
  return p;
}

/** Whether HubSpot refused a write because one of our custom properties does not exist. */
function missingProperty(e: unknown): boolean {
  return e instanceof PermanentProviderError && /PROPERTY_DOESNT_EXIST|does not exist/i.test(e.message) && /switchboard_/.test(e.message);
}

/** Finds the contact by phone or e-mail, updates it, or creates it. @returns the contact id */
async function upsertContact(conn: ProviderConnection, item: DeliveryItem): Promise<string> {
  const props = contactProperties(item);
  const groups = [
    props.phone ? { filters: [{ propertyName: 'phone', operator: 'EQ', value: props.phone }] } : null,
    props.email ? { filters: [{ propertyName: 'email', operator: 'EQ', value: props.email }] } : null,
  ].filter(Boolean);
  if (!groups.length) throw new PermanentProviderError('The contact has neither a phone number nor an e-mail address.');
  const found = await hs(conn, 'POST', `/crm/objects/${HUBSPOT_VERSION}/contacts/search`, { filterGroups: groups, properties: ['email', 'phone'], limit: 1 });
  const existing = ((found.json.results ?? []) as Array<{ id: string }>)[0]?.id;
  if (existing) {
    await hs(conn, 'PATCH', `/crm/objects/${HUBSPOT_VERSION}/contacts/${existing}`, { properties: props });
    return existing;
  }
  const created = await hs(conn, 'POST', `/crm/objects/${HUBSPOT_VERSION}/contacts`, { properties: props }, [409]);
  if (created.status === 409) {
    const id = /Existing ID:\s*(\d+)/.exec(String(created.json.message ?? ''))?.[1];
    if (!id) throw new PermanentProviderError(`HubSpot 409: ${String(created.json.message ?? 'conflict')}`.slice(0, 500), 409);
    await hs(conn, 'PATCH', `/crm/objects/${HUBSPOT_VERSION}/contacts/${id}`, { properties: props });
    return id;
  }
  return String(created.json.id);
}

/** Logs the call (or updates the engagement already logged for it). @returns the engagement id */
async function upsertCall(conn: ProviderConnection, item: DeliveryItem, contactId: string): Promise<{ id: string; updated: boolean }> {
  const props = callProperties(item);
  const path = `/crm/objects/${HUBSPOT_VERSION}/calls`;
  const found = await hs(conn, 'POST', `${path}/search`, {
    filterGroups: [{ filters: [{ propertyName: 'switchboard_call_id', operator: 'EQ', value: props.switchboard_call_id }] }],
    properties: ['switchboard_call_id'],
    limit: 1,
  });
  const existing = ((found.json.results ?? []) as Array<{ id: string }>)[0]?.id;
  if (existing) {
    await hs(conn, 'PATCH', `${path}/${existing}`, { properties: props });
    return { id: existing, updated: true };
  }
  const created = await hs(
    conn,
    'POST',
    path,
    { properties: props, associations: [{ to: { id: contactId }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: CALL_TO_CONTACT }] }] },
    [409],
  );
  if (created.status === 409) {
    // Logged meanwhile by another attempt (switchboard_call_id is unique): update that one.
    const again = await hs(conn, 'POST', `${path}/search`, {
      filterGroups: [{ filters: [{ propertyName: 'switchboard_call_id', operator: 'EQ', value: props.switchboard_call_id }] }],
      limit: 1,
    });
    const id = ((again.json.results ?? []) as Array<{ id: string }>)[0]?.id;
    if (!id) throw new RetryableProviderError('HubSpot reported the call as logged but does not find it yet', 409);
    await hs(conn, 'PATCH', `${path}/${id}`, { properties: props });
    return { id, updated: true };
  }
  return { id: String(created.json.id), updated: false };
}

/** Delivers one item (contact, then call); creates our properties once if HubSpot says one is missing. */
async function deliverOne(conn: ProviderConnection, item: DeliveryItem, retried = false): Promise<DeliveryAnswer['items'][number]> {
  try {
    const contactId = await upsertContact(conn, item);
    if (!item.call) return { deliveryKey: item.deliveryKey, result: 'delivered', providerRef: `contact:${contactId}`, message: null };
    const call = await upsertCall(conn, item, contactId);
    return {
      deliveryKey: item.deliveryKey,
      result: 'delivered',
      providerRef: `call:${call.id}`,
      message: call.updated ? 'Updated the call already logged.' : null,
    };
  } catch (e) {
    if (retried || !missingProperty(e)) throw e;
    await ensureProperties(conn);
    return deliverOne(conn, item, true);
  }
}

/** The HubSpot adapter (exported as `provider.adapter` from `hubspot/index.ts`). */
export const hubSpotAdapter: ProviderAdapter = {
  id: 'hubspot',
  displayName: 'HubSpot',
  apiBaseUrl: 'https://api.hubapi.com',
  oauth: {
    authorizationEndpoint: 'https://app.hubspot.com/oauth/authorize',
    tokenEndpoint: `https://api.hubapi.com/oauth/2026-03/token`,
    revocationEndpoint: null,
    scopes: ['oauth', 'crm.objects.contacts.read', 'crm.objects.contacts.write', 'crm.schemas.contacts.write'],
    pkce: true,
    clientAuth: 'client_secret_post',
    envPrefix: 'HUBSPOT',
  },
  appSettings: [],
  secretFields: [],
  kinds: ['call', 'lead', 'missed-call', 'voicemail', 'outcome', 'outcome-adjustment'],
  callMedia: true,
  maxBatch: 1,
  // HubSpot: public apps 110 requests / 10 s per account, search endpoints 5 requests / s per account; a delivery is
  // 4–5 requests of which 2 searches, so 5 requests per second per integration stays inside both.
  rateLimit: { requests: 5, perMs: 1000, scope: 'integration' },
  lookups: {},

  async identify(conn): Promise<ConnectedAccount> {
    const { json } = await hs(conn, 'GET', `/account-info/${HUBSPOT_VERSION}/details`);
    const portalId = String(json.portalId ?? '');
    return { externalAccountId: portalId, accountName: String(json.uiDomain ?? `HubSpot portal ${portalId}`), config: { portalId } };
  },

  async verify(conn): Promise<string> {
    const created = await ensureProperties(conn);
    return created.length ? `Created the properties ${created.join(', ')} in the "Switchboard" group.` : 'The Switchboard properties are in place.';
  },

  async deliver(conn, items): Promise<DeliveryAnswer> {
    const out: DeliveryAnswer['items'] = [];
    for (const item of items) out.push(await deliverOne(conn, item));
    return { items: out };
  },

  dedupKey: (item) => (item.call ? `switchboard_call_id=${item.call.id}` : `contact=${item.contact.phone ?? item.contact.email ?? item.deliveryKey}`),
};
