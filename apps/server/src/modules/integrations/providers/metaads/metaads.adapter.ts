/**
 * Meta Ads adapter (docs/integrations-providers.md "Meta Ads"; spec 002 §7 "Integrations": Meta business managers, ad
 * accounts, pixels, conversions): the Conversions API and the Graph API over plain HTTP (Meta's Business SDK is not
 * under an open-source licence). Graph API / Marketing API v27.0 (the current version on 2026-11-29).
 *
 * - Deliveries: `POST /{pixel-id}/events` with `{ data: [server events], test_event_code? }` (payloads in
 *   metaads.payload.ts); answer `{ events_received, messages, fbtrace_id }`.
 * - Lookups: `business-managers` (`GET /me/businesses`), `ad-accounts` (`GET /{business-id}/owned_ad_accounts` +
 *   `client_ad_accounts`, or `GET /me/adaccounts` without a business), `pixels` (`GET /act_{id}/adspixels`, or
 *   `GET /{business-id}/owned_pixels`), `conversions` (`GET /act_{id}/customconversions`).
 * - Errors (Graph API "Handling Errors", Marketing API "Rate Limiting"): `{ error: { message, type, code,
 *   error_subcode, fbtrace_id } }`. Code 190 (invalid/expired token), 102 (session), 10 and 200–299 (permission) →
 *   reconnect; 4, 17, 32, 613, 80000–80014 and HTTP 429 → rate limited, waiting the longest
 *   `estimated_time_to_regain_access` (minutes) of `X-Business-Use-Case-Usage` / `X-Ad-Account-Usage`, else
 *   Retry-After, else 60 s; 1, 2, HTTP 5xx → retryable; anything else → permanent.
 * - Requests carry `appsecret_proof` when the app secret is configured (Graph API "Securing Requests").
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
  type LookupResult,
  type ProviderAdapter,
  type ProviderConnection,
} from '../provider.js';
import { requestJson } from '../http.js';
import { appSecretProof, buildServerEvent, GRAPH_VERSION, MAX_EVENTS_PER_REQUEST, metaEventId, tooOld, type MetaServerEvent } from './metaads.payload.js';

type GraphError = { message?: string; type?: string; code?: number; error_subcode?: number; fbtrace_id?: string };
const RATE_CODES = new Set([4, 17, 32, 613]);
const AUTH_CODES = new Set([102, 190, 10]);

/** Longest `estimated_time_to_regain_access` (minutes) in Meta's usage headers, in ms; null when none. */
export function regainAccessMs(headers: Headers): number | null {
  let best: number | null = null;
  for (const name of ['x-business-use-case-usage', 'x-ad-account-usage', 'x-app-usage']) {
    const raw = headers.get(name);
    if (!raw) continue;
    const found = raw.match(/"estimated_time_to_regain_access"\s*:\s*(\d+)/g) ?? [];
    for (const f of found) {
      const minutes = Number(f.replace(/\D+/g, ''));
      if (minutes > 0 && (best === null || minutes * 60_000 > best)) best = minutes * 60_000;
    }
  }
  return best;
}

/**
 * Maps a Graph API error answer to the port's typed errors (see the file's notes).
 * @returns never; always throws
 */
export function throwGraphError(status: number, headers: Headers, body: unknown, now: Date): never {
  const err: GraphError = (body as { error?: GraphError } | null)?.error ?? {};
  const code = err.code ?? 0;
  const msg =
    `Meta ${status}: ${err.message ?? 'error'}${code ? ` (code ${code}${err.error_subcode ? `/${err.error_subcode}` : ''}, fbtrace_id ${err.fbtrace_id ?? '-'})` : ''}`.slice(
      0,
      500,
    );
  if (status === 429 || RATE_CODES.has(code) || (code >= 80000 && code <= 80014)) {
    throw new RateLimitedError(regainAccessMs(headers) ?? retryAfterMs(headers, 60_000, now), msg);
  }
  if (status === 401 || AUTH_CODES.has(code) || (code >= 200 && code <= 299)) throw new ReconnectNeededError(msg);
  if (status >= 500 || code === 1 || code === 2) throw new RetryableProviderError(msg, status);
  throw new PermanentProviderError(msg, status);
}

/** Performs one Graph request (JSON in, JSON out) with the token and `appsecret_proof`; maps errors. */
async function graph(
  conn: ProviderConnection,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  query: Record<string, string> = {},
  body?: unknown,
): Promise<Record<string, unknown>> {
  const url = new URL(`${conn.baseUrl}${path}`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const proof = appSecretProof(conn.accessToken, conn.app.META_ADS_CLIENT_SECRET ?? '');
  if (proof) url.searchParams.set('appsecret_proof', proof);
  const { json } = await requestJson(
    conn,
    url,
    {
      method,
      headers: { authorization: `Bearer ${conn.accessToken}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    },
    { provider: 'Meta', onError: throwGraphError, isError: (j) => Boolean((j as { error?: unknown }).error) },
  );
  return json;
}

/** Reads every page of a Graph edge (cursor `paging.cursors.after`), up to `maxPages` pages of 100. */
async function edge(conn: ProviderConnection, path: string, fields: string, maxPages = 5): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  let after: string | null = null;
  for (let page = 0; page < maxPages; page++) {
    const q: Record<string, string> = { fields, limit: '100' };
    if (after) q.after = after;
    const json = await graph(conn, 'GET', path, q);
    out.push(...((json.data as Array<Record<string, unknown>>) ?? []));
    const paging = json.paging as { cursors?: { after?: string }; next?: string } | undefined;
    if (!paging?.next || !paging.cursors?.after) break;
    after = paging.cursors.after;
  }
  return out;
}

const str = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
/** `act_123` from `123` or `act_123`. */
const actId = (id: string): string => (id.startsWith('act_') ? id : `act_${id}`);

/** Ad account id from the lookup params or the integration's config. */
function adAccountOf(conn: ProviderConnection, params: Readonly<Record<string, string>>): string {
  const id = params.adAccountId || str(conn.config.adAccountId);
  if (!/^(act_)?\d{1,30}$/.test(id)) throw new PermanentProviderError('Choose an ad account first (adAccountId).');
  return actId(id);
}

/** Lookups (spec 002 §7: Meta business managers, ad accounts, pixels, conversions). */
const lookups: ProviderAdapter['lookups'] = {
  'business-managers': async (conn): Promise<LookupResult> => {
    const rows = await edge(conn, '/me/businesses', 'id,name,verification_status');
    return { items: rows.map((b) => ({ id: str(b.id), name: str(b.name), detail: { verification: str(b.verification_status) || null } })) };
  },
  'ad-accounts': async (conn, params): Promise<LookupResult> => {
    const fields = 'id,account_id,name,currency,timezone_name,account_status';
    const businessId = params.businessId ?? '';
    if (businessId && !/^\d{1,30}$/.test(businessId)) throw new PermanentProviderError('businessId must be a number.');
    const rows = businessId
      ? [...(await edge(conn, `/${businessId}/owned_ad_accounts`, fields)), ...(await edge(conn, `/${businessId}/client_ad_accounts`, fields))]
      : await edge(conn, '/me/adaccounts', fields);
    const seen = new Set<string>();
    return {
      items: rows
        .filter((a) => !seen.has(str(a.id)) && seen.add(str(a.id)))
        .map((a) => ({
          id: str(a.id),
          name: str(a.name) || str(a.account_id),
          parentId: businessId || null,
          detail: {
            currency: str(a.currency) || null,
            timeZone: str(a.timezone_name) || null,
            status: typeof a.account_status === 'number' ? a.account_status : null,
          },
        })),
    };
  },
  pixels: async (conn, params): Promise<LookupResult> => {
    const fields = 'id,name,last_fired_time,is_unavailable';
    const rows =
      params.businessId && !params.adAccountId && !conn.config.adAccountId
        ? await edge(conn, `/${params.businessId.replace(/\D/g, '')}/owned_pixels`, fields)
        : await edge(conn, `/${adAccountOf(conn, params)}/adspixels`, fields);
    return { items: rows.map((p) => ({ id: str(p.id), name: str(p.name), detail: { lastFiredAt: str(p.last_fired_time) || null } })) };
  },
  conversions: async (conn, params): Promise<LookupResult> => {
    const rows = await edge(conn, `/${adAccountOf(conn, params)}/customconversions`, 'id,name,custom_event_type,event_source_type,is_archived');
    return {
      items: rows
        .filter((c) => c.is_archived !== true)
        .map((c) => ({ id: str(c.id), name: str(c.name), detail: { eventType: str(c.custom_event_type) || null, source: str(c.event_source_type) || null } })),
    };
  },
};

/** The pixel (dataset) id events go to, from the integration's config. */
function pixelOf(conn: ProviderConnection): string {
  const id = str(conn.config.pixelId);
  if (!/^\d{1,30}$/.test(id)) throw new PermanentProviderError('Choose a pixel (dataset) first: the integration has no pixelId.');
  return id;
}

/** Sends events to the pixel; returns Meta's `events_received`. */
async function sendEvents(conn: ProviderConnection, events: MetaServerEvent[], testEventCode: string | null): Promise<number> {
  const body: Record<string, unknown> = { data: events };
  if (testEventCode) body.test_event_code = testEventCode;
  const json = await graph(conn, 'POST', `/${pixelOf(conn)}/events`, {}, body);
  return typeof json.events_received === 'number' ? json.events_received : 0;
}

/** The Meta Ads adapter (exported as `provider.adapter` from `metaads/index.ts`). */
export const metaAdsAdapter: ProviderAdapter = {
  id: 'metaads',
  displayName: 'Meta Ads',
  apiBaseUrl: `https://graph.facebook.com/${GRAPH_VERSION}`,
  oauth: {
    authorizationEndpoint: `https://www.facebook.com/${GRAPH_VERSION}/dialog/oauth`,
    tokenEndpoint: `https://graph.facebook.com/${GRAPH_VERSION}/oauth/access_token`,
    revocationEndpoint: null,
    scopes: ['ads_management', 'ads_read', 'business_management'],
    scopeSeparator: ',',
    pkce: true,
    clientAuth: 'client_secret_post',
    envPrefix: 'META_ADS',
    normalizeTokenResponse: (status, body) => {
      const err = body.error as GraphError | undefined;
      if (err && (err.code === 190 || err.code === 100)) throw new ReconnectNeededError(`Meta refused the grant: ${err.message ?? 'invalid'}`);
      return { status, body };
    },
  },
  appSettings: ['META_ADS_CLIENT_SECRET'],
  secretFields: [],
  kinds: ['call', 'lead', 'outcome', 'outcome-adjustment'],
  maxBatch: MAX_EVENTS_PER_REQUEST,
  // Meta publishes no fixed request count for the Conversions API (Business Use Case limits, answered in headers);
  // this pacing is ours, per ad account, and every throttling answer is honoured on top of it.
  rateLimit: { requests: 60, perMs: 60_000, scope: 'integration' },
  lookups,

  async identify(conn): Promise<ConnectedAccount> {
    const me = await graph(conn, 'GET', '/me', { fields: 'id,name' });
    return { externalAccountId: str(me.id), accountName: str(me.name) || str(me.id) };
  },

  async verify(conn, sample): Promise<string> {
    const pixel = await graph(conn, 'GET', `/${pixelOf(conn)}`, { fields: 'id,name' });
    const code = str(conn.config.testEventCode) || str(sample.settings.provider.testEventCode);
    if (!code) return `Pixel ${str(pixel.name) || str(pixel.id)} is reachable (no test event code set, so no test event was sent).`;
    const received = await sendEvents(conn, [{ ...buildServerEvent(sample), event_time: Math.floor(conn.now().getTime() / 1000) }], code);
    return `Sent ${received} test event to ${str(pixel.name) || str(pixel.id)} with test_event_code ${code}: see Events Manager → Test events.`;
  },

  async deliver(conn, items): Promise<DeliveryAnswer> {
    const now = conn.now();
    const answer: DeliveryAnswer['items'] = [];
    const send: Array<{ item: DeliveryItem; event: MetaServerEvent }> = [];
    for (const item of items) {
      if (tooOld(item, now)) {
        answer.push({
          deliveryKey: item.deliveryKey,
          result: 'skipped',
          providerRef: null,
          message: 'Older than 7 days: Meta accepts events up to 7 days old.',
        });
      } else if (item.kind === 'outcome-adjustment' && item.previous?.outcome === item.call?.outcome) {
        // Meta has no restatement: a resend with the same event_id + event_name is dropped as a duplicate.
        answer.push({
          deliveryKey: item.deliveryKey,
          result: 'skipped',
          providerRef: metaEventId(item),
          message: 'Meta cannot restate a value; the outcome is unchanged.',
        });
      } else {
        send.push({ item, event: buildServerEvent(item) });
      }
    }
    if (send.length) {
      const code = str(conn.config.testEventCode) && conn.config.testMode === true ? str(conn.config.testEventCode) : null;
      const received = await sendEvents(
        conn,
        send.map((s) => s.event),
        code,
      );
      if (received < send.length) throw new RetryableProviderError(`Meta received ${received} of ${send.length} events`);
      for (const s of send) answer.push({ deliveryKey: s.item.deliveryKey, result: 'delivered', providerRef: s.event.event_id, message: null });
    }
    return { items: answer };
  },

  dedupKey: (item) => {
    const e = buildServerEvent(item);
    return `${e.event_id}:${e.event_name}`;
  },

  async revoke(conn): Promise<void> {
    await graph(conn, 'DELETE', '/me/permissions');
  },
};
