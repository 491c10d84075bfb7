/**
 * The provider port (docs/integrations.md "Provider port"; spec 002 §1 "Integrations", §3 "OAuth providers",
 * §7 "Integrations"): what every integration adapter (GA4, Google Ads, Microsoft Ads, Meta Ads, Slack, Salesforce,
 * GoHighLevel, HubSpot, ADF) implements, and what the integrations framework gives it.
 *
 * Division of work:
 * - The FRAMEWORK (`modules/integrations/*`) does OAuth once for every provider (authorization code + PKCE, `state`
 *   bound to the signed-in user and company, code exchange, refresh before expiry, revoke, `invalid_grant` → the
 *   integration "needs reconnect" and the owner is told), stores tokens encrypted, keeps settings, turns domain
 *   events into {@link DeliveryItem}s, batches them (≤ {@link ProviderAdapter.maxBatch}), spaces requests inside
 *   {@link ProviderAdapter.rateLimit}, retries with backoff, records every HTTP exchange of a delivery in the delivery
 *   log (it wraps {@link ProviderConnection.fetch}), and exposes the lookups as routes.
 * - An ADAPTER (`providers/<id>/`) only speaks the provider's API: lookups, delivery payloads, answer parsing into
 *   the typed errors below, and describing who got connected. It never reads the database, the environment or the
 *   clock directly (it gets {@link ProviderConnection.now}) and never calls global `fetch` (it uses
 *   {@link ProviderConnection.fetch} so tests and the sandbox can intercept).
 *
 * Each provider folder exports (from `providers/<id>/index.ts`) a {@link ProviderModule}: the real adapter and a
 * sandbox — an in-process emulation of the provider's HTTP API ({@link ProviderSandbox.fetch}) answering in the
 * provider's own shapes, errors and rate-limit headers. With `INTEGRATIONS=sandbox` (the default, so `npm start`
 * works offline) the framework runs the SAME real adapter with `conn.fetch` routed to the sandbox, and runs OAuth
 * against the framework's own local sandbox authorization server; with `INTEGRATIONS=live` it uses the network.
 *
 * Units: durations in ms unless the name ends in `S` (seconds); money in integer minor units (`…Cents`) with an
 * ISO 4217 `currency`; instants as ISO 8601 UTC strings (`2026-11-29T14:05:00.000Z`); phone numbers E.164.
 */

/** The providers (spec 002 §3 "OAuth providers", plus the two that need no OAuth: `ga4`, `adf`). */
export const PROVIDER_IDS = ['ga4', 'googleads', 'microsoftads', 'metaads', 'slackbot', 'salesforce', 'gohighlevel', 'hubspot', 'adf'] as const;
/** One provider id: used in routes (`/oauth-integrations/{provider}/…`), the database and the registry. */
export type ProviderId = (typeof PROVIDER_IDS)[number];
/** The OAuth providers of spec 002 §3, exact values. */
export const OAUTH_PROVIDER_IDS = ['googleads', 'microsoftads', 'metaads', 'slackbot', 'salesforce', 'gohighlevel', 'hubspot'] as const;
export type OAuthProviderId = (typeof OAUTH_PROVIDER_IDS)[number];

/** Call outcomes (spec 002 §3 "Other enumerations"), exact values (same list as `@switchboard/contracts` CALL_OUTCOMES). */
export type CallOutcome = 'appt_booked' | 'vehicle_ordered' | 'parts_ordered' | 'get_back_commitment' | 'not_opportunity' | 'opportunity' | 'unknown';
/** Department types (spec 002 §3 "Other enumerations"), exact values (same list as `@switchboard/contracts` DEPARTMENT_TYPES). */
export type DepartmentType =
  'sales' | 'service' | 'parts' | 'trade' | 'credit' | 'body_shop' | 'admin' | 'accessories' | 'hr' | 'custom_shop' | 'rentals' | 'unknown' | 'quick_lube';

// ─── OAuth description (the framework runs the flow) ─────────────────────────────────────────────────────────

/**
 * How to authorize against the provider. The framework runs the flow with `oauth4webapi`; adapters only describe it.
 * Client id and secret come from the environment: `<PREFIX>_CLIENT_ID` and `<PREFIX>_CLIENT_SECRET` where PREFIX is
 * {@link OAuthServer.envPrefix} (e.g. `GOOGLE_ADS_CLIENT_ID`), read by `platform/config.ts`; other app-level values the
 * adapter needs (Google's developer token, Microsoft's developer token, Meta's app secret) are listed in
 * {@link ProviderAdapter.appSettings} and reach the adapter as {@link ProviderConnection.app}.
 */
export type OAuthServer = {
  /** Authorization endpoint (absolute https URL), e.g. `https://accounts.google.com/o/oauth2/v2/auth`. */
  authorizationEndpoint: string;
  /** Token endpoint (absolute https URL) for the code exchange and refresh. */
  tokenEndpoint: string;
  /** RFC 7009 revocation endpoint, or null when the provider has none (then {@link ProviderAdapter.revoke} if any). */
  revocationEndpoint: string | null;
  /** Scopes requested, joined with {@link scopeSeparator}. */
  scopes: readonly string[];
  /** Separator of scopes in the authorize URL: ' ' (RFC 6749) unless the provider wants ',' (Slack, Meta). Default ' '. */
  scopeSeparator?: ' ' | ',';
  /** Name of the scope parameter in the authorize URL: 'scope' (default), or e.g. Slack's bot scopes in 'scope' too. */
  scopeParam?: string;
  /** Whether PKCE (S256) is sent. The framework always sends `state`; PKCE where the provider accepts it. */
  pkce: boolean;
  /** How the client authenticates at the token endpoint. */
  clientAuth: 'client_secret_post' | 'client_secret_basic';
  /** Extra query parameters of the authorize URL, e.g. `{ access_type: 'offline', prompt: 'consent' }` (Google). */
  extraAuthorizeParams?: Readonly<Record<string, string>>;
  /** Extra form parameters of the token requests, e.g. `{ user_type: 'Location' }` (GoHighLevel). */
  extraTokenParams?: Readonly<Record<string, string>>;
  /** Environment prefix of the client credentials (see above), e.g. 'GOOGLE_ADS', 'SLACK'. */
  envPrefix: string;
  /**
   * Maps a non-standard token endpoint answer to the RFC 6749 §5.1 shape ({ access_token, token_type, expires_in?,
   * refresh_token?, scope? } plus anything else kept for {@link ProviderAdapter.identify}). E.g. Slack answers HTTP 200
   * `{ ok: false, error: 'invalid_code' }` and token_type 'bot'. Throw {@link ReconnectNeededError} for answers that
   * mean the grant is gone (`invalid_grant`, Slack `invalid_refresh_token`/`token_revoked`). Absent: the answer is standard.
   */
  normalizeTokenResponse?: (status: number, body: Record<string, unknown>) => { status: number; body: Record<string, unknown> };
  /** Seconds before expiry at which the framework refreshes (default 300). */
  refreshLeewayS?: number;
};

/** The token endpoint's answer after normalisation (RFC 6749 §5.1 plus the provider's extra fields). */
export type TokenGrant = {
  access_token: string;
  token_type?: string;
  /** Seconds from issue; absent when the token does not expire (Slack without rotation, Meta long-lived ≈ 60 days). */
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
  /** Provider extras: Slack `team`, `bot_user_id`; Salesforce `instance_url`, `id`; GoHighLevel `locationId`, `companyId`, `userType`. */
  [extra: string]: unknown;
};

/** Who got connected (the card shows "Connected as {accountName}") and the config it adds to the integration. */
export type ConnectedAccount = {
  /** The provider's stable id of the account/workspace/portal/location (Slack team id, HubSpot hub id, Salesforce org id…). */
  externalAccountId: string;
  /** Human name for the card: workspace, portal, org, user e-mail… */
  accountName: string;
  /** Merged into the integration's `config` (spec 002 §3 "OAuth integration: id, config"), e.g. `{ instanceUrl }`, `{ locationId }`. */
  config?: Record<string, unknown>;
};

// ─── What the framework gives an adapter ─────────────────────────────────────────────────────────────────────

/** A fetch-compatible function (WHATWG). The framework's wraps global fetch (live) or the sandbox (sandbox), records exchanges, and enforces a 20 s timeout. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Everything an adapter needs to talk to the provider for one integration. Immutable; built per call by the framework. */
export type ProviderConnection = {
  /** The integration (row id) and its company; for logging and dedup keys only. */
  integrationId: number;
  companyId: number;
  provider: ProviderId;
  /** Decrypted OAuth access token (refreshed by the framework before expiry), '' for non-OAuth providers (GA4, ADF). */
  accessToken: string;
  /**
   * The integration's config (spec "OAuth integration: id, config"): what {@link ProviderAdapter.identify} returned plus what
   * the person chose in the connect flow — e.g. googleads `{ customerId, loginCustomerId, conversionActions }`, metaads
   * `{ adAccountId, pixelId }`, slackbot `{ channelId, channelName, teamId }`, salesforce `{ instanceUrl }`,
   * gohighlevel `{ locationId }`, ga4 `{ measurementId }`, adf `{ leadEmail, postUrl }`. Never holds secrets.
   */
  config: Readonly<Record<string, unknown>>;
  /** Decrypted per-integration secrets that are not OAuth tokens: ga4 `{ apiSecret }`, adf `{ postPassword }`. */
  secrets: Readonly<Record<string, string>>;
  /** App-level settings declared in {@link ProviderAdapter.appSettings}, from the environment (missing → ''). */
  app: Readonly<Record<string, string>>;
  /** The HTTP function to use for every request to the provider. */
  fetch: FetchLike;
  /**
   * Base URL of the provider's API without trailing slash: {@link ProviderAdapter.apiBaseUrl} unless the environment
   * overrides it (`INTEGRATIONS_<ID>_BASE_URL`, tests' local stand-ins). Build every request URL from it.
   */
  baseUrl: string;
  /** The product's public origin, for links back to a call (e.g. `https://app.example.com`). Calls have `call.url` already. */
  appOrigin: string;
  /** Sends an e-mail through the platform's mailer (ADF's lead address). Resolves when accepted by the mailer. */
  sendMail: (message: {
    to: string[];
    subject: string;
    text: string;
    attachments?: Array<{ filename: string; contentType: string; content: string }>;
  }) => Promise<void>;
  /** The current instant (tests move it). */
  now: () => Date;
};

// ─── Delivery items ──────────────────────────────────────────────────────────────────────────────────────────

/**
 * What happened, as a delivery kind:
 * - `call`: a completed call that matched the integration's event settings (first call, qualified, over N seconds…).
 * - `lead`: the first call or text from a person the company did not know (a new contact).
 * - `text`: an inbound text message.
 * - `outcome`: a call's outcome was set (with department) — the conversion that matters.
 * - `outcome-adjustment`: the outcome/value of a call already delivered as `outcome` changed later (an adjustment, not a duplicate).
 * - `missed-call`: an inbound call nobody answered (no voicemail).
 * - `voicemail`: a voicemail was left (transcript when ready).
 */
export const DELIVERY_KINDS = ['call', 'lead', 'text', 'outcome', 'outcome-adjustment', 'missed-call', 'voicemail'] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];

/** The call a delivery is about (absent only for `text` items that are not tied to a call). */
export type DeliveryCall = {
  id: number;
  direction: 'inbound' | 'outbound';
  /** E.164 of the caller (inbound) / callee (outbound): the outside party. */
  callerNumber: string;
  /** E.164 of the company's tracking number that rang. */
  trackingNumber: string;
  /** Name of the tracking number (e.g. "Google Ads – Search"). */
  trackingNumberName: string | null;
  /** ISO UTC instant the call started ringing. */
  startedAt: string;
  /** Talk length in seconds (0 when unanswered). */
  durationS: number;
  /** Spec 002 §3 "Call result": unknown, connected, rejected, received, missed. */
  status: 'unknown' | 'connected' | 'rejected' | 'received' | 'missed';
  answered: boolean;
  /** Signed recording URL valid ~7 days, or null. Never log it. */
  recordingUrl: string | null;
  /** Transcript text (≤ 20,000 chars) or null. */
  transcript: string | null;
  /** Call-intelligence summary (≤ 2,000 chars) or null. */
  summary: string | null;
  /** Spec 002 §3 call outcome, null when not set. Set by a person, a rule or the call-intelligence attributes. */
  outcome: CallOutcome | null;
  /** Spec 002 §3 department type, null when not set. */
  departmentType: DepartmentType | null;
  /** Qualification (spec 001: 1 qualified, 2 not qualified, 3 lead), null when not set. */
  qualification: number | null;
  /** Conversion value in minor units and its currency (from the integration's settings for this kind/outcome), null when none. */
  valueCents: number | null;
  currency: string;
  /** Link back to the call in the product (absolute URL). */
  url: string;
};

/** The marketing touch the call is credited to (a missed call called back and converted keeps the original touch). */
export type DeliveryAttribution = {
  source: string | null;
  medium: string | null;
  campaign: string | null;
  keyword: string | null;
  landingPage: string | null;
  referrer: string | null;
  /** Google click ids (one at most is usually set). */
  gclid: string | null;
  gbraid: string | null;
  wbraid: string | null;
  /** Microsoft click id. */
  msclkid: string | null;
  /** Meta click id as received (`fbclid`) and the `_fbc` cookie value if the script saw one (`fb.1.<ms>.<fbclid>`). */
  fbclid: string | null;
  fbc: string | null;
  /** Meta browser id (`_fbp` cookie). */
  fbp: string | null;
  /** GA4 client id from the `_ga` cookie (`1234567890.1700000000`), captured at number assignment. */
  gaClientId: string | null;
  /** GA4 session id from the `_ga_<stream>` cookie, captured at number assignment. */
  gaSessionId: string | null;
  /** ISO UTC start of the visitor's web session (GA4 joins the call to it only within 24 h). */
  sessionStartedAt: string | null;
  /** Visitor IP and user agent of the session, when known (Meta match quality). */
  clientIp: string | null;
  userAgent: string | null;
  firstTouch: { source: string | null; medium: string | null; campaign: string | null; at: string | null } | null;
  lastTouch: { source: string | null; medium: string | null; campaign: string | null; at: string | null } | null;
};

/** The outside party as the company knows them (plain; adapters normalise/hash as their provider requires). */
export type DeliveryContact = {
  id: number | null;
  firstName: string | null;
  lastName: string | null;
  /** Display name when first/last are unknown. */
  name: string | null;
  email: string | null;
  /** E.164. */
  phone: string | null;
};

/** An inbound text (for `text` and `lead` from a text). */
export type DeliveryText = { id: number; from: string; to: string; body: string; receivedAt: string };

/** The conversion this item counts as, resolved by the framework from the integration's settings. */
export type DeliveryConversion = {
  /** Provider-side name: GA4 event name, Google conversion action resource name/id, Meta event name, Microsoft goal name… */
  name: string;
  /** Value in minor units, null = no value. */
  valueCents: number | null;
  currency: string;
};

/** One thing to send. Built by the framework; immutable; identical across retries of the same delivery. */
export type DeliveryItem = {
  kind: DeliveryKind;
  /**
   * Stable key of this delivery (same on every retry/replay): `<integrationId>:<kind>:<callId|textId>[:<revision>]`.
   * Adapters derive the provider's dedup id from it ({@link ProviderAdapter.dedupKey}).
   */
  deliveryKey: string;
  /** ISO UTC instant the event happened (call start for calls; the outcome's time for outcome/adjustment). */
  occurredAt: string;
  call: DeliveryCall | null;
  text: DeliveryText | null;
  attribution: DeliveryAttribution;
  contact: DeliveryContact;
  conversion: DeliveryConversion | null;
  /** For `outcome-adjustment`: what was delivered before (so the provider can restate/retract). */
  previous: { outcome: CallOutcome | null; valueCents: number | null; deliveryKey: string } | null;
  /** The integration's settings at the time (read-only; provider-specific part under `provider`). */
  settings: Readonly<IntegrationSettings>;
};

/** Per-integration settings (docs/integrations.md "Settings"), edited in the UI, audited. */
export type IntegrationSettings = {
  /** Which events are sent. */
  events: {
    /** Every completed call (subject to minDurationS). */
    anyCall: boolean;
    /** Only a caller's first call to the company. */
    firstCall: boolean;
    /** Calls qualified (qualification 1 or 3). */
    qualifiedCall: boolean;
    /** Only calls at least this long (seconds), null = no minimum. */
    minDurationS: number | null;
    /** Outcomes that are sent (empty = none); `outcome-adjustment` follows. */
    outcomes: CallOutcome[];
    lead: boolean;
    missedCall: boolean;
    voicemail: boolean;
    text: boolean;
  };
  /** Conversion name and value per kind or per outcome (`outcome:appt_booked`), e.g. `{ call: { name: 'Phone call', valueCents: 5000, currency: 'USD' } }`. */
  conversions: Record<string, DeliveryConversion>;
  /** Restrict to these tracking numbers / pools / sources; empty arrays = all. */
  filters: { numberIds: number[]; poolIds: number[]; sources: string[] };
  /** Provider-specific settings (e.g. Slack message format), opaque to the framework. */
  provider: Record<string, unknown>;
};

// ─── Answers and errors ──────────────────────────────────────────────────────────────────────────────────────

/** What the provider said about each item, recorded in the delivery log with the HTTP exchanges the framework saw. */
export type DeliveryAnswer = {
  items: Array<{
    deliveryKey: string;
    /** `delivered` accepted; `duplicate` the provider already had it (success); `skipped` not applicable (e.g. no click id), never retried; `rejected` refused for this item only (permanent). */
    result: 'delivered' | 'duplicate' | 'skipped' | 'rejected';
    /** The provider's id of what was created (Slack message ts, HubSpot engagement id, Salesforce Task id…), or null. */
    providerRef: string | null;
    /** Short human reason (≤ 500 chars) for skipped/rejected, or a note. */
    message: string | null;
  }>;
};

/** 429 or the provider's rate-limit answer: the framework waits `retryAfterMs` (from Retry-After / X-RateLimit-Reset…) and retries; never drops. */
export class RateLimitedError extends Error {
  constructor(
    readonly retryAfterMs: number,
    message = 'rate limited',
  ) {
    super(message);
    this.name = 'RateLimitedError';
  }
}
/** A transient failure (5xx, timeout, network): retried with exponential backoff (1 min → 6 h, up to 3 days). */
export class RetryableProviderError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'RetryableProviderError';
  }
}
/** The whole request was refused (4xx other than auth/429, invalid payload, misconfigured account): not retried; shown in the log; replayable by hand. */
export class PermanentProviderError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'PermanentProviderError';
  }
}
/** The grant is gone (401 after refresh, `invalid_grant`, revoked, missing scope): the integration becomes "needs reconnect", the owner is e-mailed, deliveries wait. */
export class ReconnectNeededError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReconnectNeededError';
  }
}

/**
 * Milliseconds to wait from a `Retry-After` header (seconds or HTTP date), or `fallbackMs`.
 * @param now the current instant (for HTTP-date values)
 */
export function retryAfterMs(headers: Headers, fallbackMs: number, now: Date = new Date()): number {
  const v = headers.get('retry-after');
  if (!v) return fallbackMs;
  const s = Number(v);
  if (Number.isFinite(s)) return Math.max(0, Math.round(s * 1000));
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - now.getTime()) : fallbackMs;
}

// ─── Lookups ─────────────────────────────────────────────────────────────────────────────────────────────────

/** One choice of a lookup (a customer, an ad account, a pixel, a channel…) as the connect-flow pickers show it. */
export type LookupOption = {
  id: string;
  name: string;
  /** For hierarchies (Google manager accounts, Microsoft managers): the parent's id. */
  parentId?: string | null;
  /** Extra facts shown as a hint (currency, time zone, is_private, is_manager…). */
  detail?: Record<string, string | number | boolean | null>;
};
/** Answer of a lookup. `raw` is never sent to the browser. */
export type LookupResult = { items: LookupOption[] };
/**
 * A named lookup. Names are the route segments (kebab-case): googleads `accessible-customers`, `hierarchy`, `info`,
 * `campaigns`; metaads `business-managers`, `ad-accounts`, `pixels`, `conversions`; microsoftads `accounts`, `managers`;
 * slackbot `channels`. `params` come from the query string (strings ≤ 200 chars, e.g. `{ customerId }`, `{ businessId }`).
 */
export type Lookup = (conn: ProviderConnection, params: Readonly<Record<string, string>>) => Promise<LookupResult>;

// ─── The adapter ─────────────────────────────────────────────────────────────────────────────────────────────

/** Requests allowed per window, and per what. */
export type RateLimit = {
  requests: number;
  perMs: number;
  /** `app`: shared by every integration of this provider; `integration`: per integration (per Slack channel, per GHL location, per ad account). */
  scope: 'app' | 'integration';
};

/** What each provider folder implements. */
export interface ProviderAdapter {
  readonly id: ProviderId;
  /** Card title, e.g. 'Google Ads'. */
  readonly displayName: string;
  /** Real API base URL (no trailing slash), e.g. `https://googleads.googleapis.com/v22`. */
  readonly apiBaseUrl: string;
  /** OAuth description, or null for GA4 / ADF (configured with secrets, see {@link secretFields}). */
  readonly oauth: OAuthServer | null;
  /** App-level env settings the adapter reads from {@link ProviderConnection.app}, e.g. `['GOOGLE_ADS_DEVELOPER_TOKEN']`. */
  readonly appSettings: readonly string[];
  /** Config keys that hold secrets (encrypted at rest, never returned by the API), e.g. GA4 `['apiSecret']`. */
  readonly secretFields: readonly string[];
  /** Delivery kinds this provider can take (e.g. Slack: missed-call, voicemail, lead, text, call; Google Ads: call, outcome, outcome-adjustment). */
  readonly kinds: readonly DeliveryKind[];
  /**
   * Whether the provider shows the call's recording link, transcript or summary ({@link DeliveryCall}): then the
   * framework holds a call's delivery while its recording is being copied or its transcript made (at most 5 minutes).
   */
  readonly callMedia?: boolean;
  /** Largest batch per {@link deliver} call (GA4 25, Microsoft 1,000, Slack 1…). */
  readonly maxBatch: number;
  readonly rateLimit: RateLimit;
  /** Named lookups (see {@link Lookup}). */
  readonly lookups: Readonly<Record<string, Lookup>>;
  /**
   * Who got connected, called once after the code exchange (and on sync). May call the API (Meta `/me`, HubSpot token
   * info). @throws ReconnectNeededError / RetryableProviderError.
   */
  identify(conn: ProviderConnection, grant: TokenGrant | null): Promise<ConnectedAccount>;
  /**
   * Checks the integration's config is usable without side effects (Google `validateOnly`, Meta `test_event_code`,
   * Slack `conversations.info` on the channel), called on activate. Resolves with a short human note.
   * @throws PermanentProviderError with the provider's message when the config is wrong.
   */
  verify(conn: ProviderConnection, sample: DeliveryItem): Promise<string>;
  /**
   * Sends a batch (1 ≤ items.length ≤ maxBatch, all of kinds in {@link kinds}). Must be idempotent for the same
   * deliveryKeys (use {@link dedupKey} as the provider's dedup id). Returns per-item results (every item once).
   * @throws RateLimitedError | RetryableProviderError | PermanentProviderError | ReconnectNeededError (whole batch).
   */
  deliver(conn: ProviderConnection, items: readonly DeliveryItem[]): Promise<DeliveryAnswer>;
  /**
   * The provider-side deduplication key for an item (GA4: none → the deliveryKey, recorded; Meta `event_id` (+ event_name);
   * Google order id or click id + time; Microsoft click id + time). Pure, stable across retries.
   */
  dedupKey(item: DeliveryItem): string;
  /** Revokes the grant when the provider has no RFC 7009 endpoint (Slack `auth.revoke`, Meta `DELETE /me/permissions`). Best effort. */
  revoke?(conn: ProviderConnection): Promise<void>;
}

/**
 * The in-process emulation of a provider's HTTP API for `INTEGRATIONS=sandbox` and demos. It receives the requests
 * the real adapter makes (same URLs under {@link ProviderAdapter.apiBaseUrl}) and answers as the provider does, incl.
 * errors and rate-limit headers (e.g. a 429 with Retry-After when its own limits are exceeded). It accepts any bearer
 * token starting with `sandbox-` (the framework's sandbox authorization server issues those) and answers 401 to others.
 * State is in memory; `sent()` lists what it received (the sandbox "inbox" the UI and e2e tests show).
 */
export interface ProviderSandbox {
  fetch(request: Request): Promise<Response>;
  /** Deliveries received so far (newest last), as the provider would show them (e.g. Slack messages per channel). */
  sent(): ReadonlyArray<{ at: string; summary: string; body: unknown }>;
}

/** What `providers/<id>/index.ts` exports as `provider`. */
export type ProviderModule = { adapter: ProviderAdapter; sandbox: () => ProviderSandbox };
