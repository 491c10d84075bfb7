/**
 * Integrations with ad platforms, analytics, CRMs and Slack (spec 002 §1 "Integrations", §3 "OAuth integration: id,
 * config", "OAuth providers", department types and call outcomes, §7 "Integrations"; docs/integrations.md). Not to be
 * confused with `integrations.ts` (API keys, outbound webhooks, audit).
 *
 * Routes (under `/api`; docs/integrations.md "Routes"):
 * - GA4 (spec): `GET, POST /companies/{companyId}/ga4integrations`, `PUT, DELETE …/{id}`.
 * - OAuth (spec): `GET /companies/{companyId}/oauth-integrations`, `GET, DELETE …/{id}`; per provider
 *   `POST …/{provider}/redirect` (Slack: `GET …/slackbot/redirect`), `PUT …/{provider}/activate|sync|deactivate|update`,
 *   lookups `GET …/{provider}/{lookup}` (googleads accessible-customers, hierarchy, info, campaigns; metaads
 *   business-managers, ad-accounts, pixels, conversions; microsoftads accounts, managers; slackbot channels), Slack
 *   `PUT …/slackbot/configure`; the providers come back to `GET /oauth-integrations/{provider}/callback`.
 * - ADF (shape not shown; designed): `GET, POST /companies/{companyId}/adf-integrations`, `PUT, DELETE …/{id}`.
 * - Delivery log: `GET /companies/{companyId}/integrations/{id}/deliveries`, `POST …/deliveries/{deliveryId}/retry`,
 *   `POST /companies/{companyId}/integrations/{id}/replay`; a call's deliveries `GET /companies/{companyId}/calls/{callId}/integration-deliveries`;
 *   the cards `GET /companies/{companyId}/integration-providers`.
 * Times are ISO 8601 UTC; money integer minor units (`valueCents`) with an ISO 4217 currency.
 */
import { z } from 'zod';
import { CompanyParams, Id, PageMeta } from './common.js';
import { CALL_OUTCOMES } from './calls.js';

/** Every provider (spec 002 §3 OAuth providers, plus GA4 and ADF). */
export const AD_PROVIDERS = ['ga4', 'googleads', 'microsoftads', 'metaads', 'slackbot', 'salesforce', 'gohighlevel', 'hubspot', 'adf'] as const;
export type AdProvider = (typeof AD_PROVIDERS)[number];
/** The OAuth providers of spec 002 §3, exact values. */
export const OAUTH_PROVIDERS = ['googleads', 'microsoftads', 'metaads', 'slackbot', 'salesforce', 'gohighlevel', 'hubspot'] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];
/** Names shown on the cards. */
export const AD_PROVIDER_NAMES: Record<AdProvider, string> = {
  ga4: 'Google Analytics 4',
  googleads: 'Google Ads',
  microsoftads: 'Microsoft Advertising',
  metaads: 'Meta Ads',
  slackbot: 'Slack',
  salesforce: 'Salesforce',
  gohighlevel: 'HighLevel',
  hubspot: 'HubSpot',
  adf: 'ADF lead export',
};

/**
 * States of an integration (docs/integrations.md "States"): `pending` authorization started; `connected` authorized,
 * account not chosen yet; `active` sending; `needs_reconnect` the provider refused the grant (`invalid_grant`,
 * revoked): deliveries wait; `inactive` deactivated (tokens revoked).
 */
export const AD_INTEGRATION_STATES = ['pending', 'connected', 'active', 'needs_reconnect', 'inactive'] as const;
export type AdIntegrationState = (typeof AD_INTEGRATION_STATES)[number];

/** Delivery kinds (the provider port's `DeliveryKind`). */
export const AD_DELIVERY_KINDS = ['call', 'lead', 'text', 'outcome', 'outcome-adjustment', 'missed-call', 'voicemail'] as const;
export type AdDeliveryKind = (typeof AD_DELIVERY_KINDS)[number];
/** States of a delivery in the log. */
export const AD_DELIVERY_STATES = ['pending', 'delivered', 'duplicate', 'skipped', 'rejected', 'failed', 'waiting'] as const;
export type AdDeliveryState = (typeof AD_DELIVERY_STATES)[number];

const Currency = z
  .string()
  .trim()
  .regex(/^[A-Z]{3}$/, 'Use a three-letter currency code such as USD.');
/** A conversion's name and value (minor units). */
export const AdConversion = z.object({
  name: z.string().trim().min(1, 'Enter a conversion name.').max(200),
  valueCents: z.number().int().min(0).max(100_000_000).nullable(),
  currency: Currency,
});

/** Per-integration settings (docs/integrations.md "Settings"); changes are audited. */
export const AdIntegrationSettings = z.object({
  events: z.object({
    anyCall: z.boolean(),
    firstCall: z.boolean(),
    qualifiedCall: z.boolean(),
    minDurationS: z.number().int().min(0).max(86_400).nullable(),
    outcomes: z.array(z.enum(CALL_OUTCOMES)).max(CALL_OUTCOMES.length),
    lead: z.boolean(),
    missedCall: z.boolean(),
    voicemail: z.boolean(),
    text: z.boolean(),
  }),
  /** Keyed by delivery kind or `outcome:<outcome>`. */
  conversions: z
    .record(z.string().regex(/^(call|lead|text|missed-call|voicemail|outcome(:[a-z_]+)?)$/, 'Unknown conversion key.'), AdConversion)
    .refine((r) => Object.keys(r).length <= 20, 'At most 20 conversions.'),
  filters: z.object({
    numberIds: z.array(Id).max(500),
    poolIds: z.array(Id).max(200),
    sources: z.array(z.string().trim().min(1).max(100)).max(50),
  }),
  provider: z.record(z.string().max(60), z.union([z.string().max(500), z.number(), z.boolean(), z.null()])).default({}),
});
export type AdIntegrationSettings = z.infer<typeof AdIntegrationSettings>;

/** One integration as the API shows it (secrets and tokens never leave the server). */
export const AdIntegration = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  provider: z.enum(AD_PROVIDERS),
  name: z.string(),
  state: z.enum(AD_INTEGRATION_STATES),
  /** "Connected as": the workspace, portal, org or account name. */
  account_name: z.string().nullable(),
  external_account_id: z.string().nullable(),
  /** Spec 002 §3 "OAuth integration: id, config": the chosen customer, pixel, channel…; secrets shown as `hasApiSecret`-style flags. */
  config: z.record(z.string(), z.unknown()),
  settings: AdIntegrationSettings,
  backfill_days: z.number().int(),
  connected_at: z.string().nullable(),
  connected_by_name: z.string().nullable(),
  last_delivery_at: z.string().nullable(),
  last_delivery_result: z.string().nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AdIntegration = z.infer<typeof AdIntegration>;
export const AdIntegrationAnswer = z.object({ data: AdIntegration });
export const AdIntegrationList = z.object({ data: z.array(AdIntegration) });

/** A provider card (GET /companies/{companyId}/integration-providers). */
export const AdProviderCard = z.object({
  provider: z.enum(AD_PROVIDERS),
  name: z.string(),
  /** `oauth` connect through the provider; `secret` a form (GA4); `email` an address (ADF). */
  auth: z.enum(['oauth', 'secret', 'email']),
  kinds: z.array(z.enum(AD_DELIVERY_KINDS)),
  lookups: z.array(z.string()),
  /** Whether the server has the provider's adapter (the providers engineer's adapters appear as they land). */
  available: z.boolean(),
  integrations: z.array(AdIntegration),
});
export const AdProviderCardList = z.object({ data: z.array(AdProviderCard), mode: z.enum(['sandbox', 'live']) });

export const AdProviderParams = CompanyParams.extend({ provider: z.enum(OAUTH_PROVIDERS) });
export const AdLookupParams = AdProviderParams.extend({ lookup: z.string().regex(/^[a-z][a-z-]{1,40}$/, 'Unknown lookup.') });
export const AdIntegrationParams = CompanyParams.extend({ id: Id });
export const AdDeliveryParams = AdIntegrationParams.extend({ deliveryId: Id });
export const AdCallParams = CompanyParams.extend({ callId: Id });

/** Lookup query: provider ids the lookup narrows by (e.g. `customerId`, `businessId`). */
export const AdLookupQuery = z.object({
  customerId: z.string().trim().max(40).optional(),
  loginCustomerId: z.string().trim().max(40).optional(),
  businessId: z.string().trim().max(40).optional(),
  adAccountId: z.string().trim().max(60).optional(),
  accountId: z.string().trim().max(40).optional(),
  cursor: z.string().trim().max(200).optional(),
});
export const AdLookupOption = z.object({
  id: z.string(),
  name: z.string(),
  parentId: z.string().nullable().optional(),
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
});
export const AdLookupAnswer = z.object({ data: z.array(AdLookupOption) });

/** POST …/{provider}/redirect: where the browser goes next (the provider's consent screen). */
export const AdRedirectInput = z
  .object({
    returnTo: z
      .string()
      .max(200)
      .regex(/^\/[^/]/, 'A path of this app.')
      .optional(),
  })
  .default({});
export const AdRedirectAnswer = z.object({ url: z.string() });

const ConfigRecord = z.record(z.string().max(60), z.union([z.string().max(500), z.number(), z.boolean(), z.null(), z.array(z.string().max(200)).max(50)]));
/** PUT …/{provider}/activate and …/slackbot/configure: the choices of the connect flow; runs the provider's check (validateOnly…). */
export const AdActivateInput = z.object({
  config: ConfigRecord.refine((r) => Object.keys(r).length <= 30, 'Too many settings.'),
  settings: AdIntegrationSettings.optional(),
  backfillDays: z.number().int().min(0).max(90).optional(),
});
/** PUT …/{provider}/update and the GA4/ADF PUT: any of these. */
export const AdUpdateInput = z.object({
  name: z.string().trim().min(1).max(100).optional(),
  config: ConfigRecord.optional(),
  settings: AdIntegrationSettings.optional(),
  backfillDays: z.number().int().min(0).max(90).optional(),
});

/** POST /ga4integrations: a GA4 web stream's measurement id and Measurement Protocol API secret. */
export const Ga4IntegrationInput = z.object({
  name: z.string().trim().min(1).max(100).default('Google Analytics 4'),
  measurementId: z
    .string()
    .trim()
    .regex(/^G-[A-Z0-9]{4,20}$/, 'A measurement id looks like G-XXXXXXXXXX.'),
  apiSecret: z.string().trim().min(8, 'Paste the API secret from the data stream.').max(100),
  settings: AdIntegrationSettings.optional(),
  backfillDays: z.number().int().min(0).max(3).optional(),
});
export const Ga4IntegrationUpdate = Ga4IntegrationInput.partial();

/** POST /adf-integrations (designed): the dealer CRM's lead address, an optional HTTP POST endpoint. */
export const AdfIntegrationInput = z.object({
  name: z.string().trim().min(1).max(100).default('ADF lead export'),
  leadEmail: z.string().trim().toLowerCase().email('Enter the CRM lead e-mail address.').max(200),
  postUrl: z.string().trim().url().startsWith('https://', 'Use an https:// address.').max(500).nullable().optional(),
  vendorName: z.string().trim().max(100).optional(),
  settings: AdIntegrationSettings.optional(),
});
export const AdfIntegrationUpdate = AdfIntegrationInput.partial();

/** One recorded HTTP exchange of a delivery (secrets removed, bodies cut at 8 KB). */
export const AdExchange = z.object({
  method: z.string(),
  url: z.string(),
  requestBody: z.unknown(),
  status: z.number().int(),
  responseBody: z.unknown(),
  at: z.string(),
  ms: z.number(),
});
/** One delivery of the log. */
export const AdDelivery = z.object({
  id: z.number().int(),
  integration_id: z.number().int(),
  provider: z.enum(AD_PROVIDERS),
  kind: z.enum(AD_DELIVERY_KINDS),
  delivery_key: z.string(),
  dedup_key: z.string().nullable(),
  call_id: z.number().int().nullable(),
  state: z.enum(AD_DELIVERY_STATES),
  attempts: z.number().int(),
  next_at: z.string().nullable(),
  sent_at: z.string().nullable(),
  provider_ref: z.string().nullable(),
  message: z.string().nullable(),
  source: z.enum(['event', 'backfill', 'replay', 'setup']),
  created_at: z.string(),
  exchanges: z.array(AdExchange),
});
export type AdDelivery = z.infer<typeof AdDelivery>;
export const AdDeliveryQuery = z.object({
  state: z.enum(AD_DELIVERY_STATES).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(25),
});
export const AdDeliveryList = z.object({ data: z.array(AdDelivery), meta: PageMeta });
export const AdDeliveryAnswer = z.object({ data: AdDelivery });
/** POST …/replay: send again every delivery since `since` (at most 30 days back). */
export const AdReplayInput = z.object({ since: z.string().datetime({ offset: true, message: 'Use an ISO 8601 date-time.' }) });
export const AdReplayAnswer = z.object({ message: z.string(), count: z.number().int() });
export const AdMessageAnswer = z.object({ message: z.string() });
/** A call's deliveries (call detail: "Sent to"). */
export const AdCallDeliveryList = z.object({ data: z.array(AdDelivery.extend({ integration_name: z.string() })) });

/** Messages of the integration calls. */
export const AD_INTEGRATION_MESSAGES = {
  deleted: 'The integration was removed.',
  deactivated: 'The integration was deactivated and its access revoked.',
  retried: 'The delivery will be sent again.',
  replayQueued: 'The deliveries will be sent again.',
  stateRefused: 'The sign-in with the provider could not be verified. Start connecting again.',
  notConnected: 'Connect this integration first.',
  notAvailable: 'This integration is not available yet.',
} as const;
