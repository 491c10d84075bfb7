/**
 * Microsoft Advertising adapter (docs/integrations-providers.md "Microsoft Ads"; spec 002 §7: Microsoft accounts,
 * managers). REST only (Bing Ads API v13 REST endpoints; SOAP ends 31 January 2027), plain HTTP with JSON.
 *
 * Checked against Microsoft's reference (MicrosoftDocs/Advertising, bingads-13): ApplyOfflineConversions (REST
 * `POST https://campaign.api.bingads.microsoft.com/CampaignManagement/v13/OfflineConversions/Apply`, body
 * `{ OfflineConversions: [{ ConversionCurrencyCode, ConversionName, ConversionTime, ConversionValue, MicrosoftClickId }] }`,
 * at most 1,000 per request, answer `{ PartialErrors: [BatchError{ Code, ErrorCode, Index, Message }] }`),
 * ApplyOfflineConversionAdjustments (`…/OfflineConversionAdjustments/Apply`, `AdjustmentType` Restate | Retract with
 * the ORIGINAL ConversionName, ConversionTime and MicrosoftClickId), OfflineConversion (ConversionTime in UTC, within
 * 90 days, after the click; "wait two hours after creating the OfflineConversionGoal"; duplicates with the same
 * MicrosoftClickId and ConversionTime are ignored), Customer Management REST `User/Query`, `CustomersInfo/Query`,
 * `Accounts/Search`. REST headers: `Authorization: Bearer <token>`, `DeveloperToken`, and for Campaign Management
 * `CustomerId` and `CustomerAccountId`.
 *
 * Choices: the ConversionTime of a call's conversion AND of its outcome is the call's start (the moment the click led
 * to), so an outcome set days later can be restated or retracted with the same (click, name, time) without storing
 * anything; the 2-hour wait after the goal is set up is answered "not yet" ({@link microsoftAdsNotBefore}; the whole
 * batch is refused with a RateLimitedError until then, so the framework retries it later and never drops it).
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

/** Production hosts (Bing Ads API v13 REST). */
export const CAMPAIGN_HOST = 'https://campaign.api.bingads.microsoft.com';
export const CUSTOMER_HOST = 'https://clientcenter.api.bingads.microsoft.com';
/** Microsoft: "After creating an OfflineConversionGoal, you'll need to wait two hours before sending offline conversions." */
export const GOAL_DELAY_MS = 2 * 3600 * 1000;
/** Microsoft: ConversionTime "must be within the last 90 days". */
export const MAX_CONVERSION_AGE_MS = 90 * 86400 * 1000;

/** One `OfflineConversion` as the REST body carries it. */
export type OfflineConversion = {
  ConversionCurrencyCode?: string;
  ConversionName: string;
  ConversionTime: string;
  ConversionValue?: number;
  MicrosoftClickId: string;
};
/** One `OfflineConversionAdjustment`. */
export type OfflineConversionAdjustment = {
  AdjustmentCurrencyCode?: string;
  AdjustmentTime: string;
  AdjustmentType: 'Restate' | 'Retract';
  AdjustmentValue?: number;
  ConversionName: string;
  ConversionTime: string;
  MicrosoftClickId: string;
};
type ApiError = { Code?: number; ErrorCode?: string; Message?: string; Index?: number };

/** ISO 8601 UTC without milliseconds (`2026-11-29T14:05:00Z`), the xs:dateTime Microsoft takes. */
export function msTime(iso: string): string {
  return new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The instant the conversion counts at: the call's start (see the file's notes), else when it happened. */
function conversionTimeOf(item: DeliveryItem): string {
  return msTime(item.call?.startedAt ?? item.occurredAt);
}

/** The goal name the settings give the previous outcome (for restating/retracting it). */
function previousGoal(item: DeliveryItem): string | null {
  const prev = item.previous?.outcome;
  return prev ? (item.settings.conversions[`outcome:${prev}`]?.name ?? null) : null;
}

/** The `OfflineConversion` of a call/lead/outcome item, or null when it has no msclkid or conversion. */
export function offlineConversionOf(item: DeliveryItem): OfflineConversion | null {
  const clickId = item.attribution.msclkid;
  if (!clickId || !item.conversion) return null;
  const c: OfflineConversion = { ConversionName: item.conversion.name, ConversionTime: conversionTimeOf(item), MicrosoftClickId: clickId };
  if (item.conversion.valueCents !== null) {
    c.ConversionValue = item.conversion.valueCents / 100;
    c.ConversionCurrencyCode = item.conversion.currency.toUpperCase();
  }
  return c;
}

/**
 * What an `outcome-adjustment` becomes: a Restate of the same goal with the new value, or — when the outcome moved to
 * another goal (or to none) — a Retract of the previous goal, plus the new goal's conversion if any.
 */
export function adjustmentOf(item: DeliveryItem, now: Date): { adjustments: OfflineConversionAdjustment[]; conversion: OfflineConversion | null } {
  const clickId = item.attribution.msclkid;
  if (!clickId) return { adjustments: [], conversion: null };
  const prevName = previousGoal(item);
  const newName = item.conversion?.name ?? null;
  const base = { ConversionTime: conversionTimeOf(item), MicrosoftClickId: clickId, AdjustmentTime: msTime(now.toISOString()) };
  if (prevName && prevName === newName) {
    const a: OfflineConversionAdjustment = { ...base, AdjustmentType: 'Restate', ConversionName: prevName };
    if (item.conversion?.valueCents != null) {
      a.AdjustmentValue = item.conversion.valueCents / 100;
      a.AdjustmentCurrencyCode = item.conversion.currency.toUpperCase();
    }
    return { adjustments: [a], conversion: null };
  }
  return {
    adjustments: prevName ? [{ ...base, AdjustmentType: 'Retract', ConversionName: prevName }] : [],
    conversion: offlineConversionOf(item),
  };
}

/**
 * When deliveries may start: two hours after the offline conversion goal was set up (`config.goalCreatedAt`, ISO), or
 * null when the goal is old enough / its age unknown. Exported as this folder's optional capability ("not yet").
 */
export function microsoftAdsNotBefore(conn: ProviderConnection): Date | null {
  const created = Date.parse(String(conn.config.goalCreatedAt ?? ''));
  if (!Number.isFinite(created)) return null;
  const ready = created + GOAL_DELAY_MS;
  return ready > conn.now().getTime() ? new Date(ready) : null;
}

/** Hosts to use: the production ones, or the overridden base URL (local stand-ins, which serve both paths). */
function hosts(conn: ProviderConnection): { campaign: string; customer: string } {
  return conn.baseUrl === CAMPAIGN_HOST ? { campaign: CAMPAIGN_HOST, customer: CUSTOMER_HOST } : { campaign: conn.baseUrl, customer: conn.baseUrl };
}

/** All error entries of a Microsoft REST fault body (`Errors`, `OperationErrors`, `BatchErrors`). */
function faultErrors(body: unknown): ApiError[] {
  const b = (body ?? {}) as Record<string, unknown>;
  return ['Errors', 'OperationErrors', 'BatchErrors'].flatMap((k) => (Array.isArray(b[k]) ? (b[k] as ApiError[]) : []));
}

/**
 * Maps a failed Microsoft REST answer to the port's errors: 105 InvalidCredentials / 109 AuthenticationTokenExpired /
 * HTTP 401 → reconnect; 117 CallRateExceeded / HTTP 429 → rate limited (Retry-After, else 60 s); 5xx → retryable;
 * the rest → permanent. @returns never
 */
export function throwMicrosoftError(status: number, headers: Headers, body: unknown, now: Date): never {
  const errors = faultErrors(body);
  const first = errors[0];
  const msg = `Microsoft Advertising ${status}: ${first ? `${first.ErrorCode ?? ''} (${first.Code ?? '-'}) ${first.Message ?? ''}` : 'error'}`.slice(0, 500);
  if (status === 429 || errors.some((e) => e.Code === 117 || e.ErrorCode === 'CallRateExceeded'))
    throw new RateLimitedError(retryAfterMs(headers, 60_000, now), msg);
  if (
    status === 401 ||
    errors.some((e) => e.Code === 105 || e.Code === 109 || e.ErrorCode === 'InvalidCredentials' || e.ErrorCode === 'AuthenticationTokenExpired')
  ) {
    throw new ReconnectNeededError(msg);
  }
  if (status >= 500) throw new RetryableProviderError(msg, status);
  throw new PermanentProviderError(msg, status);
}

/** One REST call (POST JSON) with the documented headers; maps errors. */
async function call(conn: ProviderConnection, url: string, body: unknown, account = false): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${conn.accessToken}`,
    developertoken: conn.app.MICROSOFT_ADS_DEVELOPER_TOKEN ?? '',
    'content-type': 'application/json',
    accept: 'application/json',
  };
  if (account) {
    const customerId = String(conn.config.customerId ?? '');
    const accountId = String(conn.config.accountId ?? '');
    if (!/^\d{1,20}$/.test(customerId) || !/^\d{1,20}$/.test(accountId))
      throw new PermanentProviderError('Choose the Microsoft Advertising account first (customerId, accountId).');
    headers.customerid = customerId;
    headers.customeraccountid = accountId;
  }
  const { json } = await requestJson(
    conn,
    url,
    { method: 'POST', headers, body: JSON.stringify(body) },
    { provider: 'Microsoft Advertising', onError: throwMicrosoftError },
  );
  return json;
}

/** The signed-in user (`User/Query` with no UserId). */
async function currentUser(conn: ProviderConnection): Promise<{ id: string; name: string; customerIds: string[] }> {
  const json = await call(conn, `${hosts(conn).customer}/CustomerManagement/v13/User/Query`, { UserId: null });
  const user = (json.User ?? {}) as { Id?: number; UserName?: string; ContactInfo?: { Email?: string } };
  const roles = (json.CustomerRoles ?? []) as Array<{ CustomerId?: number }>;
  return {
    id: String(user.Id ?? ''),
    name: user.ContactInfo?.Email || user.UserName || String(user.Id ?? ''),
    customerIds: [...new Set(roles.map((r) => String(r.CustomerId ?? '')).filter(Boolean))],
  };
}

/** Microsoft's dedup key of an item: click id + goal name + conversion time (Microsoft ignores repeats of it). */
export function dedupKeyOf(item: DeliveryItem): string {
  return `${item.attribution.msclkid ?? 'no-msclkid'}|${item.conversion?.name ?? previousGoal(item) ?? ''}|${conversionTimeOf(item)}`;
}

const lookups: ProviderAdapter['lookups'] = {
  /** Manager accounts (customers) the user can reach: `CustomersInfo/Query`. */
  managers: async (conn): Promise<LookupResult> => {
    const json = await call(conn, `${hosts(conn).customer}/CustomerManagement/v13/CustomersInfo/Query`, { CustomerNameFilter: '', TopN: 100 });
    const rows = (json.CustomersInfo ?? []) as Array<{ Id?: number; Name?: string }>;
    return { items: rows.map((c) => ({ id: String(c.Id), name: c.Name ?? String(c.Id) })) };
  },
  /** Ad accounts: `Accounts/Search` by the user, or by a manager (`customerId`). */
  accounts: async (conn, params): Promise<LookupResult> => {
    const customerId = params.customerId ?? '';
    if (customerId && !/^\d{1,20}$/.test(customerId)) throw new PermanentProviderError('customerId must be a number.');
    const predicate = customerId
      ? { Field: 'CustomerId', Operator: 'Equals', Value: customerId }
      : { Field: 'UserId', Operator: 'Equals', Value: (await currentUser(conn)).id };
    const json = await call(conn, `${hosts(conn).customer}/CustomerManagement/v13/Accounts/Search`, {
      Predicates: [predicate],
      Ordering: [{ Field: 'Name', Order: 'Ascending' }],
      PageInfo: { Index: 0, Size: 100 },
    });
    const rows = (json.Accounts ?? []) as Array<Record<string, unknown>>;
    return {
      items: rows.map((a) => ({
        id: String(a.Id),
        name: String(a.Name ?? a.Number ?? a.Id),
        parentId: a.ParentCustomerId == null ? null : String(a.ParentCustomerId),
        detail: { number: (a.Number as string) ?? null, currency: (a.CurrencyCode as string) ?? null, status: (a.AccountLifeCycleStatus as string) ?? null },
      })),
    };
  },
};

/** The Microsoft Advertising adapter (exported as `provider.adapter` from `microsoftads/index.ts`). */
export const microsoftAdsAdapter: ProviderAdapter = {
  id: 'microsoftads',
  displayName: 'Microsoft Advertising',
  apiBaseUrl: CAMPAIGN_HOST,
  oauth: {
    // Microsoft identity platform (v2.0 endpoints), the Microsoft Advertising API scope and a refresh token.
    authorizationEndpoint: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
    tokenEndpoint: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
    revocationEndpoint: null,
    scopes: ['https://ads.microsoft.com/msads.manage', 'offline_access'],
    pkce: true,
    clientAuth: 'client_secret_post',
    extraAuthorizeParams: { prompt: 'select_account' },
    envPrefix: 'MICROSOFT_ADS',
  },
  appSettings: ['MICROSOFT_ADS_DEVELOPER_TOKEN'],
  secretFields: [],
  kinds: ['call', 'lead', 'outcome', 'outcome-adjustment'],
  maxBatch: 1000,
  // Our pacing per app; CallRateExceeded (117) and HTTP 429 are honoured on top of it.
  rateLimit: { requests: 60, perMs: 60_000, scope: 'app' },
  lookups,

  async identify(conn): Promise<ConnectedAccount> {
    const user = await currentUser(conn);
    return { externalAccountId: user.id, accountName: user.name, config: user.customerIds.length === 1 ? { customerId: user.customerIds[0] } : {} };
  },

  async verify(conn): Promise<string> {
    const accounts = await lookups.accounts!(conn, { customerId: String(conn.config.customerId ?? '') });
    const account = accounts.items.find((a) => a.id === String(conn.config.accountId ?? ''));
    if (!account) throw new PermanentProviderError('The chosen account is not under the chosen manager (customerId).');
    const goal = microsoftAdsNotBefore(conn);
    return `Account ${account.name} is reachable.${goal ? ` Offline conversions start at ${goal.toISOString()} (two hours after the goal was set up).` : ''}`;
  },

  async deliver(conn, items): Promise<DeliveryAnswer> {
    const notBefore = microsoftAdsNotBefore(conn);
    if (notBefore)
      throw new RateLimitedError(
        notBefore.getTime() - conn.now().getTime(),
        `not yet: Microsoft applies offline conversions two hours after the goal is set up (${notBefore.toISOString()})`,
      );
    const now = conn.now();
    const results = new Map<string, DeliveryAnswer['items'][number]>();
    const conversions: Array<{ key: string; c: OfflineConversion }> = [];
    const adjustments: Array<{ key: string; a: OfflineConversionAdjustment }> = [];
    for (const item of items) {
      if (!item.attribution.msclkid) {
        results.set(item.deliveryKey, {
          deliveryKey: item.deliveryKey,
          result: 'skipped',
          providerRef: null,
          message: 'No Microsoft click id (msclkid) on this call.',
        });
        continue;
      }
      if (now.getTime() - Date.parse(item.call?.startedAt ?? item.occurredAt) > MAX_CONVERSION_AGE_MS) {
        results.set(item.deliveryKey, {
          deliveryKey: item.deliveryKey,
          result: 'skipped',
          providerRef: null,
          message: 'Older than 90 days: Microsoft refuses such conversions.',
        });
        continue;
      }
      if (item.kind === 'outcome-adjustment') {
        const adj = adjustmentOf(item, now);
        adj.adjustments.forEach((a) => adjustments.push({ key: item.deliveryKey, a }));
        if (adj.conversion) conversions.push({ key: item.deliveryKey, c: adj.conversion });
        if (!adj.adjustments.length && !adj.conversion)
          results.set(item.deliveryKey, { deliveryKey: item.deliveryKey, result: 'skipped', providerRef: null, message: 'Nothing to restate.' });
        continue;
      }
      const c = offlineConversionOf(item);
      if (c) conversions.push({ key: item.deliveryKey, c });
      else
        results.set(item.deliveryKey, {
          deliveryKey: item.deliveryKey,
          result: 'skipped',
          providerRef: null,
          message: 'No conversion goal is set for this event.',
        });
    }
    const { campaign } = hosts(conn);
    const reject = (list: Array<{ key: string }>, json: Record<string, unknown>) => {
      for (const e of (json.PartialErrors ?? []) as ApiError[]) {
        const key = e.Index != null ? list[e.Index]?.key : undefined;
        if (key)
          results.set(key, {
            deliveryKey: key,
            result: 'rejected',
            providerRef: null,
            message: `${e.ErrorCode ?? ''} (${e.Code ?? '-'}): ${e.Message ?? ''}`.slice(0, 500),
          });
      }
    };
    if (conversions.length) {
      const json = await call(conn, `${campaign}/CampaignManagement/v13/OfflineConversions/Apply`, { OfflineConversions: conversions.map((x) => x.c) }, true);
      reject(conversions, json);
    }
    if (adjustments.length) {
      const json = await call(
        conn,
        `${campaign}/CampaignManagement/v13/OfflineConversionAdjustments/Apply`,
        { OfflineConversionAdjustments: adjustments.map((x) => x.a) },
        true,
      );
      reject(adjustments, json);
    }
    return {
      items: items.map(
        (item) =>
          results.get(item.deliveryKey) ?? {
            deliveryKey: item.deliveryKey,
            result: 'delivered',
            providerRef: dedupKeyOf(item),
            message: item.kind === 'outcome-adjustment' ? 'Adjustment applied.' : null,
          },
      ),
    };
  },

  dedupKey: dedupKeyOf,
};
