/**
 * GoHighLevel adapter (docs/integrations-providers.md "GoHighLevel"): API v2 at `https://services.leadconnectorhq.com`
 * with the `Version` header on every request (`2021-07-28` for contacts, locations and OAuth; `2021-04-15` for
 * conversations — the values the official OpenAPI documents, GoHighLevel/highlevel-api-docs), plain HTTP.
 *
 * - Tokens: a Sub-Account (Location) token acts on its location; an Agency (Company) token is exchanged per delivery for
 *   a location token (`POST /oauth/locationToken`, form `companyId`, `locationId`), the location chosen in the connect
 *   flow (`config.locationId`; lookup `locations` = `GET /oauth/installedLocations`).
 * - Contacts: `POST /contacts/upsert` (`locationId`, phone, email, names, `source`; GoHighLevel matches duplicates by the
 *   location's settings) → `{ new, contact }`.
 * - Calls: logged through the app's conversation provider (`GOHIGHLEVEL_CONVERSATION_PROVIDER_ID`, created in the
 *   Marketplace app): the contact's conversation is found (`GET /conversations/search`) or created (`POST
 *   /conversations/`), then `POST /conversations/messages/inbound` (inbound calls) or `/outbound` (outbound) with
 *   `type: 'Call'`, `date`, `call: { from, to, status }` (status: completed | answered | busy | no-answer | failed |
 *   canceled | voicemail) and a message body with the duration, summary and links. A message cannot be edited, so an
 *   outcome set later is recorded on the contact as a tag (`POST /contacts/{id}/tags`, `outcome:<value>`), and a retry
 *   does not log twice: the conversation's call messages are read first and one with the same `date` is the same call.
 * - Limits: 100 requests per 10 s per app per location (burst), 200,000 per day; headers `X-RateLimit-Remaining`,
 *   `X-RateLimit-Interval-Milliseconds`, `X-RateLimit-Max`, `X-RateLimit-Daily-Remaining`. A 429 waits Retry-After, else
 *   the interval, else 10 s (the day's end when the daily count is 0).
 * - Errors: 401 (expired/invalid JWT, the framework refreshed already) and 403 (token without access to the location or
 *   scope) → reconnect; 5xx → retryable; 400/404/422 → permanent.
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
  type TokenGrant,
} from '../provider.js';
import { requestJson } from '../http.js';

/** `Version` header values per API family (official OpenAPI enums). */
export const GHL_VERSION = { contacts: '2021-07-28', conversations: '2021-04-15' } as const;
export const GHL_BASE = 'https://services.leadconnectorhq.com';

/** Maps a failed GoHighLevel answer to the port's errors (see the file's notes). @returns never */
export function throwGhlError(status: number, headers: Headers, body: unknown, now: Date): never {
  const b = (body ?? {}) as { message?: string | string[]; error?: string; statusCode?: number };
  const msg = `GoHighLevel ${status}: ${Array.isArray(b.message) ? b.message.join('; ') : (b.message ?? b.error ?? 'error')}`.slice(0, 500);
  if (status === 429) {
    const daily = headers.get('x-ratelimit-daily-remaining') === '0';
    const interval = Number(headers.get('x-ratelimit-interval-milliseconds'));
    const untilTomorrow = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime();
    throw new RateLimitedError(retryAfterMs(headers, daily ? untilTomorrow : Number.isFinite(interval) && interval > 0 ? interval : 10_000, now), msg);
  }
  if (status === 401 || status === 403) throw new ReconnectNeededError(msg);
  if (status >= 500) throw new RetryableProviderError(msg, status);
  throw new PermanentProviderError(msg, status);
}

/** One request with the bearer token and the family's `Version` header. */
async function ghl(
  conn: ProviderConnection,
  token: string,
  family: keyof typeof GHL_VERSION,
  method: string,
  path: string,
  body?: unknown,
  form = false,
): Promise<Record<string, unknown>> {
  const { json } = await requestJson(
    conn,
    `${conn.baseUrl}${path}`,
    {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        version: GHL_VERSION[family],
        accept: 'application/json',
        ...(body ? { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' } : {}),
      },
      body: body ? (form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body)) : undefined,
    },
    { provider: 'GoHighLevel', onError: throwGhlError },
  );
  return json;
}

/** The location this integration writes to. */
function locationOf(conn: ProviderConnection): string {
  const id = String(conn.config.locationId ?? '');
  if (!/^[A-Za-z0-9]{6,40}$/.test(id)) throw new PermanentProviderError('Choose the GoHighLevel location (sub-account) first.');
  return id;
}

/** A token that acts on the location: the connection's own (Location token) or one exchanged from the agency token. */
export async function locationToken(conn: ProviderConnection): Promise<string> {
  if (conn.config.userType !== 'Company') return conn.accessToken;
  const json = await ghl(
    conn,
    conn.accessToken,
    'contacts',
    'POST',
    '/oauth/locationToken',
    { companyId: String(conn.config.companyId ?? ''), locationId: locationOf(conn) },
    true,
  );
  if (typeof json.access_token !== 'string') throw new RetryableProviderError('GoHighLevel gave no location token');
  return json.access_token;
}

/** The `/contacts/upsert` body of an item. */
export function upsertBody(item: DeliveryItem, locationId: string): Record<string, unknown> {
  const c = item.contact;
  const a = item.attribution;
  const b: Record<string, unknown> = { locationId };
  const phone = c.phone ?? item.call?.callerNumber ?? item.text?.from ?? null;
  if (phone) b.phone = phone;
  if (c.email) b.email = c.email.trim().toLowerCase();
  if (c.firstName) b.firstName = c.firstName;
  if (c.lastName) b.lastName = c.lastName;
  if (!c.firstName && !c.lastName && c.name) b.name = c.name;
  b.source = `Call tracking${a.source ? `: ${[a.source, a.medium, a.campaign].filter(Boolean).join(' / ')}` : ''}`.slice(0, 200);
  return b;
}

/** GoHighLevel's call status of an item. */
export function callStatusOf(item: DeliveryItem): 'completed' | 'no-answer' | 'voicemail' | 'busy' {
  const call = item.call!;
  if (item.kind === 'voicemail') return 'voicemail';
  if (call.status === 'rejected') return 'busy';
  return call.answered ? 'completed' : 'no-answer';
}

/** The call message body (duration, summary, links, source). */
export function callMessage(item: DeliveryItem): string {
  const call = item.call!;
  const a = item.attribution;
  const mins = Math.floor(call.durationS / 60);
  const secs = String(call.durationS % 60).padStart(2, '0');
  return [
    `${call.direction === 'inbound' ? 'Inbound' : 'Outbound'} call, ${mins}:${secs}${call.trackingNumberName ? ` on ${call.trackingNumberName}` : ''}`,
    call.summary ? `Summary: ${call.summary}` : null,
    a.source ? `Source: ${[a.source, a.medium, a.campaign].filter(Boolean).join(' / ')}` : null,
    `Call and transcript: ${call.url}`,
    call.recordingUrl ? `Recording: ${call.recordingUrl}` : null,
    call.transcript ? `Transcript: ${call.transcript.length > 2000 ? `${call.transcript.slice(0, 2000)}…` : call.transcript}` : null,
  ]
    .filter(Boolean)
    .join('\n');
}

/** The message body of `POST /conversations/messages/inbound|outbound` for an item. */
export function callMessageBody(item: DeliveryItem, ids: { conversationId: string; contactId: string; providerId: string }): Record<string, unknown> {
  const call = item.call!;
  const inbound = call.direction === 'inbound';
  const body: Record<string, unknown> = {
    type: 'Call',
    conversationId: ids.conversationId,
    conversationProviderId: ids.providerId,
    date: call.startedAt,
    call: { from: inbound ? call.callerNumber : call.trackingNumber, to: inbound ? call.trackingNumber : call.callerNumber, status: callStatusOf(item) },
  };
  if (inbound) Object.assign(body, { contactId: ids.contactId, direction: 'inbound', message: callMessage(item) });
  else body.altId = `switchboard-call-${call.id}`;
  return body;
}

/** Logs the call in the contact's conversation unless a call message with the same date is already there. */
async function logCall(conn: ProviderConnection, token: string, item: DeliveryItem, contactId: string): Promise<{ ref: string; duplicate: boolean }> {
  const providerId = conn.app.GOHIGHLEVEL_CONVERSATION_PROVIDER_ID ?? '';
  if (!providerId)
    throw new PermanentProviderError('GOHIGHLEVEL_CONVERSATION_PROVIDER_ID is not set: calls are logged through the app’s conversation provider.');
  const locationId = locationOf(conn);
  const search = await ghl(conn, token, 'conversations', 'GET', `/conversations/search?${new URLSearchParams({ locationId, contactId })}`);
  let conversationId = ((search.conversations ?? []) as Array<{ id: string }>)[0]?.id;
  if (!conversationId) {
    const created = await ghl(conn, token, 'conversations', 'POST', '/conversations/', { locationId, contactId });
    conversationId = String((created.conversation as { id?: string } | undefined)?.id ?? '');
  } else {
    const messages = await ghl(conn, token, 'conversations', 'GET', `/conversations/${conversationId}/messages?type=TYPE_CALL&limit=50`);
    const list = ((messages.messages as { messages?: unknown[] } | undefined)?.messages ?? messages.messages ?? []) as Array<{
      id: string;
      dateAdded?: string;
    }>;
    const same = list.find((m) => m.dateAdded && Date.parse(m.dateAdded) === Date.parse(item.call!.startedAt));
    if (same) return { ref: `message:${same.id}`, duplicate: true };
  }
  const path = item.call!.direction === 'inbound' ? '/conversations/messages/inbound' : '/conversations/messages/outbound';
  const json = await ghl(conn, token, 'conversations', 'POST', path, callMessageBody(item, { conversationId, contactId, providerId }));
  return { ref: `message:${String(json.messageId ?? '')}`, duplicate: false };
}

/** The GoHighLevel adapter (exported as `provider.adapter` from `gohighlevel/index.ts`). */
export const goHighLevelAdapter: ProviderAdapter = {
  id: 'gohighlevel',
  displayName: 'GoHighLevel',
  apiBaseUrl: GHL_BASE,
  oauth: {
    authorizationEndpoint: 'https://marketplace.gohighlevel.com/oauth/chooselocation',
    tokenEndpoint: `${GHL_BASE}/oauth/token`,
    revocationEndpoint: null,
    scopes: [
      'contacts.readonly',
      'contacts.write',
      'conversations.readonly',
      'conversations.write',
      'conversations/message.write',
      'locations.readonly',
      'oauth.readonly',
      'oauth.write',
    ],
    pkce: false,
    clientAuth: 'client_secret_post',
    extraTokenParams: { user_type: 'Location' },
    envPrefix: 'GOHIGHLEVEL',
  },
  appSettings: ['GOHIGHLEVEL_CONVERSATION_PROVIDER_ID', 'GOHIGHLEVEL_APP_ID'],
  secretFields: [],
  kinds: ['call', 'lead', 'missed-call', 'voicemail', 'outcome', 'outcome-adjustment'],
  callMedia: true,
  maxBatch: 1,
  // GoHighLevel: 100 requests per 10 s per app per location (a delivery is 3–5 requests).
  rateLimit: { requests: 100, perMs: 10_000, scope: 'integration' },
  lookups: {
    /** Locations where the app is installed (agency tokens): `GET /oauth/installedLocations`. */
    locations: async (conn) => {
      const q = new URLSearchParams({ companyId: String(conn.config.companyId ?? ''), appId: conn.app.GOHIGHLEVEL_APP_ID ?? '', isInstalled: 'true' });
      const json = await ghl(conn, conn.accessToken, 'contacts', 'GET', `/oauth/installedLocations?${q}`);
      return {
        items: ((json.locations ?? []) as Array<{ _id: string; name: string; address?: string }>).map((l) => ({
          id: l._id,
          name: l.name,
          detail: { address: l.address ?? null },
        })),
      };
    },
  },

  async identify(conn, grant: TokenGrant | null): Promise<ConnectedAccount> {
    const userType = grant?.userType === 'Company' ? 'Company' : 'Location';
    const companyId = typeof grant?.companyId === 'string' ? grant.companyId : String(conn.config.companyId ?? '');
    const locationId = typeof grant?.locationId === 'string' ? grant.locationId : String(conn.config.locationId ?? '');
    if (userType === 'Company') return { externalAccountId: companyId, accountName: `Agency ${companyId}`, config: { userType, companyId } };
    // A grant without locationId (e.g. the framework's sandbox authorization server): the location is chosen in the
    // connect flow from the `locations` lookup.
    if (!locationId)
      return { externalAccountId: companyId || `ghl-${conn.integrationId}`, accountName: 'GoHighLevel sub-account', config: { userType, companyId } };
    const json = await ghl(conn, conn.accessToken, 'contacts', 'GET', `/locations/${encodeURIComponent(locationId)}`);
    const loc = (json.location ?? {}) as { id?: string; name?: string };
    return { externalAccountId: loc.id ?? locationId, accountName: loc.name ?? locationId, config: { userType, companyId, locationId } };
  },

  async verify(conn): Promise<string> {
    const token = await locationToken(conn);
    const json = await ghl(conn, token, 'contacts', 'GET', `/locations/${locationOf(conn)}`);
    if (!conn.app.GOHIGHLEVEL_CONVERSATION_PROVIDER_ID) throw new PermanentProviderError('GOHIGHLEVEL_CONVERSATION_PROVIDER_ID is not set.');
    return `Location ${String((json.location as { name?: string } | undefined)?.name ?? locationOf(conn))} is reachable.`;
  },

  async deliver(conn, items): Promise<DeliveryAnswer> {
    const token = await locationToken(conn);
    const out: DeliveryAnswer['items'] = [];
    for (const item of items) {
      const upsert = await ghl(conn, token, 'contacts', 'POST', '/contacts/upsert', upsertBody(item, locationOf(conn)));
      const contactId = String((upsert.contact as { id?: string } | undefined)?.id ?? '');
      if ((item.kind === 'outcome' || item.kind === 'outcome-adjustment') && item.call?.outcome) {
        const tags = [`outcome:${item.call.outcome}`, ...(item.call.departmentType ? [`department:${item.call.departmentType}`] : [])];
        await ghl(conn, token, 'contacts', 'POST', `/contacts/${contactId}/tags`, { tags });
        out.push({ deliveryKey: item.deliveryKey, result: 'delivered', providerRef: `contact:${contactId}`, message: `Tagged ${tags.join(', ')}.` });
        continue;
      }
      if (!item.call) {
        out.push({ deliveryKey: item.deliveryKey, result: 'delivered', providerRef: `contact:${contactId}`, message: null });
        continue;
      }
      const logged = await logCall(conn, token, item, contactId);
      out.push({ deliveryKey: item.deliveryKey, result: logged.duplicate ? 'duplicate' : 'delivered', providerRef: logged.ref, message: null });
    }
    return { items: out };
  },

  dedupKey: (item) =>
    item.call
      ? `call:${item.call.id}@${item.call.startedAt}${item.kind.startsWith('outcome') ? `:outcome:${item.call.outcome ?? ''}` : ''}`
      : `contact:${item.contact.phone ?? item.deliveryKey}`,
};
