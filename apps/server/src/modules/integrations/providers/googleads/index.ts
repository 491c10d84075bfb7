/**
 * Google Ads (spec 002 §3 OAuth provider `googleads`; docs/integrations.md "Google Ads"):
 * - Lookups through the Google Ads API REST interface, v26 (the latest active version in November 2026 per
 *   developers.google.com/google-ads/api/reference; `GOOGLE_ADS_API_VERSION` overrides): `accessible-customers`
 *   (`GET /customers:listAccessibleCustomers`), `info` / `hierarchy` / `campaigns` / `conversion-actions`
 *   (`POST /customers/{id}/googleAds:search` with GAQL). Headers `developer-token` (GOOGLE_ADS_DEVELOPER_TOKEN) and
 *   `login-customer-id` (the manager account, when one was chosen).
 * - Conversions through the Data Manager API v1 (`POST https://datamanager.googleapis.com/v1/events:ingest`): new
 *   callers can no longer upload offline click conversions through the Google Ads API (June 2026). One destination per
 *   request: `operatingAccount` GOOGLE_ADS customer, `loginAccount` the manager, `productDestinationId` the conversion
 *   action id. Each event: `transactionId` (the dedup key: Google deduplicates on it), `eventTimestamp` (RFC 3339),
 *   `conversionValue` (major units) and `currency`, `eventSource: PHONE`, `adIdentifiers.gclid|gbraid|wbraid` for click
 *   conversions, and for call conversions by caller number `userData.userIdentifiers[].phoneNumber` = SHA-256 hex of
 *   the E.164 number (`encoding: HEX`), plus the hashed e-mail when known. `validateOnly: true` on activation.
 * - Outcome set later: a RESTATEMENT of the earlier conversion's value through the Google Ads API
 *   `customers/{id}:uploadConversionAdjustments` keyed by its order id (= the earlier transactionId).
 * Quota: 429 RESOURCE_EXHAUSTED with Retry-After → RateLimitedError.
 */
import type { DeliveryItem, LookupResult, ProviderAdapter, ProviderConnection, ProviderModule, ProviderSandbox } from '../provider.js';
import { PermanentProviderError } from '../provider.js';
import { expectOk, jsonResponse, normalizeEmail, send, sha256Hex } from '../http.js';

const ADS_VERSION = 'v26';
const DATA_MANAGER = 'https://datamanager.googleapis.com/v1';

function googleMessage(b: Record<string, unknown>): string {
  const e = b.error as { message?: string; status?: string } | undefined;
  return e ? `${e.status ?? ''} ${e.message ?? ''}`.trim() : JSON.stringify(b).slice(0, 300);
}

function digits(id: unknown): string {
  return String(id ?? '').replace(/\D/g, '');
}

function adsHeaders(conn: ProviderConnection, loginCustomerId?: string): Record<string, string> {
  const login = digits(loginCustomerId ?? conn.config.loginCustomerId);
  return {
    authorization: `Bearer ${conn.accessToken}`,
    'developer-token': conn.app.GOOGLE_ADS_DEVELOPER_TOKEN || 'sandbox-developer-token',
    'content-type': 'application/json',
    ...(login ? { 'login-customer-id': login } : {}),
  };
}

/** Runs a GAQL query (googleAds:search, pageSize omitted: the API pages 10,000 rows). */
async function search(conn: ProviderConnection, customerId: string, query: string, loginCustomerId?: string): Promise<Array<Record<string, unknown>>> {
  const res = await send(conn.fetch, `${conn.baseUrl}/customers/${digits(customerId)}/googleAds:search`, {
    method: 'POST',
    headers: adsHeaders(conn, loginCustomerId),
    body: JSON.stringify({ query }),
  });
  const body = await expectOk(res, conn.now(), googleMessage);
  return (body.results as Array<Record<string, unknown>>) ?? [];
}

function need(params: Readonly<Record<string, string>>, key: string): string {
  const v = digits(params[key]);
  if (!v) throw new PermanentProviderError(`${key} is required`);
  return v;
}

/** Data Manager's base URL (tests' stand-in: INTEGRATIONS_GOOGLEADS_DATAMANAGER_URL). */
function dataManager(conn: ProviderConnection): string {
  return (conn.app.INTEGRATIONS_GOOGLEADS_DATAMANAGER_URL || DATA_MANAGER).replace(/\/+$/, '');
}

/** The Data Manager event of one item, or null when Google cannot match it (no click id, no caller number). */
export function dataManagerEvent(item: DeliveryItem, transactionId: string): Record<string, unknown> | null {
  const a = item.attribution;
  const adIdentifiers = a.gclid ? { gclid: a.gclid } : a.gbraid ? { gbraid: a.gbraid } : a.wbraid ? { wbraid: a.wbraid } : null;
  const phone = item.contact.phone ?? item.call?.callerNumber ?? null;
  const identifiers: Array<Record<string, string>> = [];
  if (phone) identifiers.push({ phoneNumber: sha256Hex(phone) });
  if (item.contact.email) identifiers.push({ emailAddress: sha256Hex(normalizeEmail(item.contact.email, true)) });
  if (!adIdentifiers && identifiers.length === 0) return null;
  const value = item.conversion?.valueCents ?? item.call?.valueCents ?? null;
  return {
    transactionId,
    eventTimestamp: item.occurredAt,
    eventSource: 'PHONE',
    ...(adIdentifiers ? { adIdentifiers } : {}),
    ...(identifiers.length ? { userData: { userIdentifiers: identifiers } } : {}),
    ...(value !== null ? { conversionValue: value / 100, currency: item.conversion?.currency ?? item.call?.currency ?? 'USD' } : {}),
  };
}

/** The conversion action id for an item: the item's conversion name when it is an id, else the integration's default. */
function conversionActionOf(conn: ProviderConnection, item: DeliveryItem): string {
  const fromItem = digits(item.conversion?.name);
  const id = fromItem || digits(conn.config.conversionActionId);
  if (!id) throw new PermanentProviderError('Choose a conversion action');
  return id;
}

function destination(conn: ProviderConnection, conversionActionId: string): Record<string, unknown> {
  const customerId = digits(conn.config.customerId);
  if (!customerId) throw new PermanentProviderError('Choose a Google Ads customer');
  const login = digits(conn.config.loginCustomerId);
  return {
    operatingAccount: { accountType: 'GOOGLE_ADS', accountId: customerId },
    ...(login ? { loginAccount: { accountType: 'GOOGLE_ADS', accountId: login } } : {}),
    productDestinationId: conversionActionId,
  };
}

async function ingest(conn: ProviderConnection, dest: Record<string, unknown>, events: unknown[], validateOnly: boolean): Promise<Record<string, unknown>> {
  const res = await send(conn.fetch, `${dataManager(conn)}/events:ingest`, {
    method: 'POST',
    headers: { authorization: `Bearer ${conn.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ destinations: [dest], events, encoding: 'HEX', validateOnly }),
  });
  return expectOk(res, conn.now(), googleMessage);
}

/** `2026-11-29 14:05:00+00:00`: the Google Ads API's date-time format for adjustments. */
function adsDateTime(iso: string): string {
  return `${iso.slice(0, 19).replace('T', ' ')}+00:00`;
}

const adapter: ProviderAdapter = {
  id: 'googleads',
  displayName: 'Google Ads',
  apiBaseUrl: `https://googleads.googleapis.com/${ADS_VERSION}`,
  oauth: {
    authorizationEndpoint: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenEndpoint: 'https://oauth2.googleapis.com/token',
    revocationEndpoint: 'https://oauth2.googleapis.com/revoke',
    scopes: ['https://www.googleapis.com/auth/adwords', 'https://www.googleapis.com/auth/datamanager', 'openid', 'email'],
    pkce: true,
    clientAuth: 'client_secret_post',
    extraAuthorizeParams: { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' },
    envPrefix: 'GOOGLE_ADS',
  },
  appSettings: ['GOOGLE_ADS_DEVELOPER_TOKEN', 'INTEGRATIONS_GOOGLEADS_DATAMANAGER_URL', 'INTEGRATIONS_GOOGLEADS_USERINFO_URL'],
  secretFields: [],
  kinds: ['call', 'lead', 'outcome', 'outcome-adjustment'],
  maxBatch: 200,
  // Data Manager: per-project quotas; keep well under them per app.
  rateLimit: { requests: 10, perMs: 1_000, scope: 'app' },
  lookups: {
    async 'accessible-customers'(conn): Promise<LookupResult> {
      const res = await send(conn.fetch, `${conn.baseUrl}/customers:listAccessibleCustomers`, { headers: adsHeaders(conn, '') });
      const body = await expectOk(res, conn.now(), googleMessage);
      const names = (body.resourceNames as string[]) ?? [];
      const items: LookupResult['items'] = [];
      for (const rn of names.slice(0, 50)) {
        const id = rn.replace('customers/', '');
        try {
          const [row] = await search(conn, id, 'SELECT customer.id, customer.descriptive_name, customer.currency_code, customer.manager FROM customer', '');
          const c = (row?.customer as Record<string, unknown>) ?? {};
          items.push({ id, name: String(c.descriptiveName || id), detail: { currency: String(c.currencyCode ?? ''), manager: Boolean(c.manager) } });
        } catch (error) {
          // A customer the user may list but not query (a cancelled account): listed by id.
          if (!(error instanceof PermanentProviderError)) throw error;
          items.push({ id, name: id });
        }
      }
      return { items };
    },
    async info(conn, params): Promise<LookupResult> {
      const id = need(params, 'customerId');
      const rows = await search(
        conn,
        id,
        'SELECT customer.id, customer.descriptive_name, customer.currency_code, customer.time_zone, customer.manager FROM customer',
        params.loginCustomerId,
      );
      return {
        items: rows.map((r) => {
          const c = r.customer as Record<string, unknown>;
          return {
            id: String(c.id),
            name: String(c.descriptiveName ?? c.id),
            detail: { currency: String(c.currencyCode ?? ''), timeZone: String(c.timeZone ?? ''), manager: Boolean(c.manager) },
          };
        }),
      };
    },
    async hierarchy(conn, params): Promise<LookupResult> {
      const id = need(params, 'customerId');
      const rows = await search(
        conn,
        id,
        'SELECT customer_client.id, customer_client.descriptive_name, customer_client.manager, customer_client.level, customer_client.currency_code FROM customer_client WHERE customer_client.level <= 2',
        id,
      );
      return {
        items: rows.map((r) => {
          const c = r.customerClient as Record<string, unknown>;
          return {
            id: String(c.id),
            name: String(c.descriptiveName ?? c.id),
            parentId: Number(c.level) === 0 ? null : id,
            detail: { manager: Boolean(c.manager), level: Number(c.level) },
          };
        }),
      };
    },
    async campaigns(conn, params): Promise<LookupResult> {
      const id = need(params, 'customerId');
      const rows = await search(
        conn,
        id,
        "SELECT campaign.id, campaign.name, campaign.status FROM campaign WHERE campaign.status != 'REMOVED' ORDER BY campaign.name LIMIT 500",
        params.loginCustomerId,
      );
      return {
        items: rows.map((r) => ({
          id: String((r.campaign as Record<string, unknown>).id),
          name: String((r.campaign as Record<string, unknown>).name),
          detail: { status: String((r.campaign as Record<string, unknown>).status) },
        })),
      };
    },
    async 'conversion-actions'(conn, params): Promise<LookupResult> {
      const id = need(params, 'customerId');
      const rows = await search(
        conn,
        id,
        "SELECT conversion_action.id, conversion_action.name, conversion_action.type, conversion_action.status FROM conversion_action WHERE conversion_action.status = 'ENABLED' AND conversion_action.type IN ('UPLOAD_CLICKS', 'UPLOAD_CALLS') LIMIT 200",
        params.loginCustomerId,
      );
      return {
        items: rows.map((r) => ({
          id: String((r.conversionAction as Record<string, unknown>).id),
          name: String((r.conversionAction as Record<string, unknown>).name),
          detail: { type: String((r.conversionAction as Record<string, unknown>).type) },
        })),
      };
    },
  },
  async identify(conn) {
    const url = conn.app.INTEGRATIONS_GOOGLEADS_USERINFO_URL || 'https://openidconnect.googleapis.com/v1/userinfo';
    const res = await send(conn.fetch, url, { headers: { authorization: `Bearer ${conn.accessToken}` } });
    const body = await expectOk(res, conn.now());
    const email = typeof body.email === 'string' ? body.email : null;
    return { externalAccountId: String(body.sub ?? email ?? 'google-user'), accountName: email ?? 'Google account' };
  },
  async verify(conn, sample) {
    const event = dataManagerEvent(sample, `verify-${conn.integrationId}`);
    await ingest(conn, destination(conn, conversionActionOf(conn, sample)), [event], true);
    return 'Google accepted a test conversion (validateOnly).';
  },
  async deliver(conn, items) {
    const out: Array<{ deliveryKey: string; result: 'delivered' | 'skipped'; providerRef: string | null; message: string | null }> = [];
    // Adjustments go through the Google Ads API one request per customer.
    const adjustments = items.filter((i) => i.kind === 'outcome-adjustment');
    if (adjustments.length) {
      const customerId = digits(conn.config.customerId);
      const body = {
        conversionAdjustments: adjustments.map((i) => ({
          conversionAction: `customers/${customerId}/conversionActions/${conversionActionOf(conn, i)}`,
          adjustmentType: 'RESTATEMENT',
          adjustmentDateTime: adsDateTime(i.occurredAt),
          orderId: i.previous?.deliveryKey ?? i.deliveryKey,
          restatementValue: { adjustedValue: (i.conversion?.valueCents ?? 0) / 100, currencyCode: i.conversion?.currency ?? 'USD' },
        })),
        partialFailure: true,
      };
      const res = await send(conn.fetch, `${conn.baseUrl}/customers/${customerId}:uploadConversionAdjustments`, {
        method: 'POST',
        headers: adsHeaders(conn),
        body: JSON.stringify(body),
      });
      await expectOk(res, conn.now(), googleMessage);
      for (const i of adjustments)
        out.push({ deliveryKey: i.deliveryKey, result: 'delivered', providerRef: i.previous?.deliveryKey ?? null, message: 'Restated' });
    }
    // Conversions: grouped by conversion action (one destination per request).
    const groups = new Map<string, Array<{ item: DeliveryItem; event: Record<string, unknown> }>>();
    for (const item of items.filter((i) => i.kind !== 'outcome-adjustment')) {
      const event = dataManagerEvent(item, adapter.dedupKey(item));
      if (!event) {
        out.push({
          deliveryKey: item.deliveryKey,
          result: 'skipped',
          providerRef: null,
          message: 'No click id (gclid/gbraid/wbraid) and no caller number to match',
        });
        continue;
      }
      const action = conversionActionOf(conn, item);
      groups.set(action, [...(groups.get(action) ?? []), { item, event }]);
    }
    for (const [action, list] of groups) {
      const body = await ingest(
        conn,
        destination(conn, action),
        list.map((l) => l.event),
        false,
      );
      const requestId = typeof body.requestId === 'string' ? body.requestId : null;
      for (const l of list) out.push({ deliveryKey: l.item.deliveryKey, result: 'delivered', providerRef: requestId, message: null });
    }
    return { items: out };
  },
  /** Google's order id (transactionId): stable per delivery, ≤ 64 chars. */
  dedupKey: (item) => `sb-${item.deliveryKey}`.slice(0, 64),
};

/** Offline Google: two customers under a manager, campaigns, conversion actions; Data Manager ingest with validation. */
function sandbox(): ProviderSandbox {
  const customers: Record<string, { name: string; manager: boolean; currency: string }> = {
    '1112223333': { name: 'Sandbox Manager (MCC)', manager: true, currency: 'USD' },
    '4445556666': { name: 'Sandbox Motors', manager: false, currency: 'USD' },
  };
  const received: Array<{ at: string; summary: string; body: unknown }> = [];
  const seen = new Set<string>();
  let window: number[] = [];
  const err = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
    jsonResponse(status, { error: { code: status, message, status: code } }, headers);
  return {
    sent: () => received,
    async fetch(request) {
      const url = new URL(request.url);
      const token = (request.headers.get('authorization') ?? '').replace(/^Bearer /, '');
      if (!token.startsWith('sandbox-')) return err(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
      const now = Date.now();
      window = window.filter((t) => now - t < 1_000);
      window.push(now);
      if (window.length > 20) return err(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded.', { 'retry-after': '1' });
      const path = url.pathname;
      if (path.endsWith('/userinfo')) return jsonResponse(200, { sub: '100000000000000000001', email: 'ads-manager@sandbox.example', email_verified: true });
      if (path.endsWith('/customers:listAccessibleCustomers'))
        return jsonResponse(200, { resourceNames: Object.keys(customers).map((id) => `customers/${id}`) });
      const searchM = /\/customers\/(\d+)\/googleAds:search$/.exec(path);
      if (searchM) {
        const id = searchM[1]!;
        const c = customers[id];
        if (!c) return err(403, 'PERMISSION_DENIED', 'The caller does not have permission (USER_PERMISSION_DENIED).');
        const q = String(((await request.json()) as { query?: string }).query ?? '');
        if (/FROM customer_client/.test(q))
          return jsonResponse(200, {
            results: Object.entries(customers).map(([cid, cc]) => ({
              customerClient: { id: cid, descriptiveName: cc.name, manager: cc.manager, level: cid === id ? 0 : 1, currencyCode: cc.currency },
            })),
          });
        if (/FROM campaign/.test(q))
          return jsonResponse(200, {
            results: [
              { campaign: { id: '20001', name: 'Brand – Search', status: 'ENABLED' } },
              { campaign: { id: '20002', name: 'Service – Performance Max', status: 'ENABLED' } },
            ],
          });
        if (/FROM conversion_action/.test(q))
          return jsonResponse(200, {
            results: [
              { conversionAction: { id: '30001', name: 'Phone call (Switchboard)', type: 'UPLOAD_CALLS', status: 'ENABLED' } },
              { conversionAction: { id: '30002', name: 'Qualified lead (Switchboard)', type: 'UPLOAD_CLICKS', status: 'ENABLED' } },
            ],
          });
        return jsonResponse(200, {
          results: [{ customer: { id, descriptiveName: c.name, currencyCode: c.currency, timeZone: 'America/New_York', manager: c.manager } }],
        });
      }
      if (path.endsWith('/events:ingest')) {
        const body = (await request.json()) as {
          destinations?: Array<Record<string, unknown>>;
          events?: Array<Record<string, unknown>>;
          validateOnly?: boolean;
        };
        const dest = body.destinations?.[0] as { operatingAccount?: { accountId?: string }; productDestinationId?: string } | undefined;
        if (!dest?.operatingAccount?.accountId || !customers[dest.operatingAccount.accountId])
          return err(400, 'INVALID_ARGUMENT', 'Invalid operating account.');
        if (!dest.productDestinationId) return err(400, 'INVALID_ARGUMENT', 'productDestinationId is required.');
        if (!body.events?.length || body.events.length > 2000) return err(400, 'INVALID_ARGUMENT', 'Between 1 and 2000 events.');
        for (const e of body.events) {
          if (!e.transactionId || !e.eventTimestamp) return err(400, 'INVALID_ARGUMENT', 'transactionId and eventTimestamp are required.');
          const ids = (e.userData as { userIdentifiers?: Array<Record<string, string>> } | undefined)?.userIdentifiers ?? [];
          if (ids.some((i) => Object.values(i).some((v) => !/^[0-9a-f]{64}$/.test(v))))
            return err(400, 'INVALID_ARGUMENT', 'User identifiers must be SHA-256 hex (encoding HEX).');
        }
        const requestId = `sandbox-req-${now}-${received.length}`;
        if (!body.validateOnly)
          for (const e of body.events) {
            const key = String(e.transactionId);
            if (seen.has(key)) continue;
            seen.add(key);
            received.push({ at: new Date(now).toISOString(), summary: `conversion ${key} → action ${dest.productDestinationId}`, body: e });
          }
        return jsonResponse(200, { requestId });
      }
      if (/\/customers\/\d+:uploadConversionAdjustments$/.test(path)) {
        const body = (await request.json()) as { conversionAdjustments?: unknown[] };
        for (const a of body.conversionAdjustments ?? []) received.push({ at: new Date(now).toISOString(), summary: 'conversion adjustment', body: a });
        return jsonResponse(200, { results: (body.conversionAdjustments ?? []).map(() => ({})) });
      }
      return err(404, 'NOT_FOUND', `No such method: ${path}`);
    },
  };
}

export const googleAdsProvider: ProviderModule = { adapter, sandbox };
