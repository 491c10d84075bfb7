/**
 * zod schemas of call tracking (spec 002 "DNI"; docs/tracking.md): HTTP payloads and live events.
 *
 * Authenticated calls (under `/api`, company members; writes need the admin or manager role):
 * - `GET, POST /companies/{companyId}/dniPools`; `GET, PUT, DELETE .../dniPools/{poolId}`
 *   (`shouldDeleteNumbers` 0 keeps the pool's numbers in the company, 1 releases them).
 * - `GET .../dniSources` (the traffic sources and the static tracking numbers); not shown in the spec,
 *   added: `POST .../dniSources`, `PUT, DELETE .../dniSources/{sourceId}` for static tracking numbers.
 * - `GET .../trackingNumbers/script`; `POST .../trackingNumbers/verifyScript` {url}; not shown, added:
 *   `PUT .../trackingNumbers/settings` (wait for consent, first-party host).
 * - `GET .../dniTimelineEvents/{sessionId}`; `GET .../dniTimelineEventsByNumber/{number}`.
 * - `GET .../dni/realTimeFeed`.
 * - `POST /dni/reports/calls` {company_id, ...}; `GET /dni/reports?company_id=` (pool health).
 * - `GET, POST /bulkAttributeUpdate/companies/{companyId}` and `/bulkAttributeUpdate/businessUnits/{id}`
 *   (CSV template download; multipart upload, field `file`).
 * - Not shown, added: `GET .../dniCallAttribution/{callId}` (the call detail's attribution and journey link).
 * - Not shown, added: `GET .../dni/leads?search=&page=&per_page=` (leads: one person's calls, texts and
 *   visits grouped) and `GET .../dni/leads/{leadId}` (a lead with its calls, texts and visits).
 *
 * Public calls of the tracking script (no sign-in, CORS open, rate-limited per visitor address):
 * - `GET /api/dni/public/{key}/script.js` (cacheable), `GET /api/dni/public/{key}/session`
 *   (one request: classify, assign a number, record the page view; sets the first-party visitor
 *   cookie), `GET /api/dni/public/{key}/pageview`, `GET /api/dni/public/{key}/heartbeat`,
 *   `GET /api/dni/public/{key}/forget` (consent withdrawn: the answer removes the visitor cookie).
 * - `GET /api/dni/demo/{key}`: the sandbox's demo website (docs/tracking.md "The demo site").
 *
 * Times are ISO-8601 strings in UTC; durations in the names' units (`_minutes`, `_s`); numbers E.164.
 */
import { z } from 'zod';
import { Id, PageMeta, TimestampText } from './common.js';
import { EavAttributeValue, EavAttributeValueOut } from './contacts.js';

// ---------------------------------------------------------------- traffic sources

/**
 * Where a visit (or a call to a static tracking number) came from (docs/tracking.md "Source rules"):
 * - `google_ads`: a gclid, gbraid or wbraid click id, or utm_source google with a paid utm_medium (cpc, ppc, paid…)
 * - `microsoft_ads`: msclkid, or utm_source bing/microsoft with a paid medium
 * - `meta_ads`: fbclid, or utm_source facebook/instagram/meta with a paid medium
 * - `email`: utm_medium email (or e-mail, newsletter)
 * - `custom`: other utm parameters (a campaign of the company's own naming)
 * - `organic`: no utm and no click id, referrer is a search engine
 * - `referral`: no utm and no click id, referrer is another site
 * - `direct`: nothing of the above (typed address, bookmark, privacy-stripped referrer)
 * - `static`: a call to a static tracking number (print, billboard, radio…): its source says which
 */
export const TRAFFIC_SOURCES = ['google_ads', 'microsoft_ads', 'meta_ads', 'organic', 'direct', 'referral', 'email', 'custom', 'static'] as const;
export const TrafficSource = z.enum(TRAFFIC_SOURCES);
export type TrafficSource = z.infer<typeof TrafficSource>;

/** The label a person sees for each traffic source. */
export const TRAFFIC_SOURCE_LABELS: Record<TrafficSource, string> = {
  google_ads: 'Google Ads',
  microsoft_ads: 'Microsoft Ads',
  meta_ads: 'Meta Ads',
  organic: 'Organic search',
  direct: 'Direct',
  referral: 'Referral',
  email: 'E-mail',
  custom: 'Custom (utm)',
  static: 'Static tracking number',
};

/** Click ids the script reads from the landing page's query (kept with the session and the call). */
export const CLICK_ID_KEYS = ['gclid', 'gbraid', 'wbraid', 'msclkid', 'fbclid'] as const;
export const ClickIds = z.object({
  gclid: z.string().nullable(),
  gbraid: z.string().nullable(),
  wbraid: z.string().nullable(),
  msclkid: z.string().nullable(),
  fbclid: z.string().nullable(),
});
export type ClickIds = z.infer<typeof ClickIds>;

/** The marketing facts of one touch (a visit's classification, or a static number's source). */
export const Touch = z.object({
  traffic_source: TrafficSource,
  source: z.string().nullable(),
  medium: z.string().nullable(),
  campaign: z.string().nullable(),
  keyword: z.string().nullable(),
});
export type Touch = z.infer<typeof Touch>;

// ---------------------------------------------------------------- pools

/** Fields a custom source rule tests (utm parameters, the landing page URL, the referrer URL). */
export const DNI_RULE_FIELDS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content', 'landing_page', 'referrer'] as const;
/** How a custom rule compares (case-insensitive). */
export const DNI_RULE_OPERATORS = ['equals', 'contains', 'starts_with', 'not_contains'] as const;

export const DniCustomRule = z.object({
  field: z.enum(DNI_RULE_FIELDS),
  operator: z.enum(DNI_RULE_OPERATORS),
  value: z.string().trim().min(1).max(500),
});
export type DniCustomRule = z.infer<typeof DniCustomRule>;

/**
 * Which visitors a pool serves: everyone (`all_visitors`), or visitors whose traffic source is in
 * `traffic_sources` OR who match any of `custom_rules`. Pools are tried by `priority` (lowest first);
 * the first that matches serves the visitor.
 */
export const DniSourceRules = z.object({
  all_visitors: z.boolean(),
  traffic_sources: z.array(TrafficSource.exclude(['static'])).max(20),
  custom_rules: z.array(DniCustomRule).max(50),
});
export type DniSourceRules = z.infer<typeof DniSourceRules>;

/** A pool number's state now: held by a live session, back from a session but cooling down, or free. */
export const DNI_NUMBER_STATES = ['in_use', 'cooling_down', 'free'] as const;

export const DniPoolNumber = z.object({
  number_id: z.number().int(),
  /** E.164. */
  number: z.string(),
  state: z.enum(DNI_NUMBER_STATES),
  /** The live session holding it (state `in_use`). */
  session_id: z.string().nullable(),
  last_assigned_at: z.string().nullable(),
  /** When it is free again (state `cooling_down`). */
  available_at: z.string().nullable(),
  /** Whether the number has routes of its own (false: flagged; its calls ring the pool's routing target). */
  has_routing: z.boolean(),
});
export type DniPoolNumber = z.infer<typeof DniPoolNumber>;

/**
 * A pool's health now (docs/tracking.md "Pool health"): `status` exhausted when every number is
 * held or cooling down, warning at 80 % utilisation or an exhaustion in the last 7 days.
 * `recommended_size`: the numbers the last 7 days' peak of concurrent sessions needed, plus the
 * cool-down's share and 20 % headroom.
 */
export const DniPoolHealth = z.object({
  size: z.number().int(),
  in_use: z.number().int(),
  cooling_down: z.number().int(),
  free: z.number().int(),
  /** (in_use + cooling_down) / size, 0..1 (0 for an empty pool). */
  utilisation: z.number(),
  status: z.enum(['healthy', 'warning', 'exhausted']),
  /** Exhaustion episodes (a visitor got the fallback number) in the last 7 days. */
  exhaustion_count_7d: z.number().int(),
  /** Sessions served the fallback number in the last 7 days. */
  fallback_sessions_7d: z.number().int(),
  last_exhausted_at: z.string().nullable(),
  peak_concurrent_7d: z.number().int(),
  recommended_size: z.number().int(),
});
export type DniPoolHealth = z.infer<typeof DniPoolHealth>;

/** The kinds of a pool's routing target (docs/tracking.md "Routing target"; not shown in the spec: decision). */
export const DNI_ROUTING_TYPES = ['number', 'template', 'forward'] as const;
export type DniRoutingType = (typeof DNI_ROUTING_TYPES)[number];

/**
 * Where a pool's calls ring, as the API answers it: a copy of a company number's routing
 * (`number_id`; `number` its E.164, `label` its label), a number template (`template_id`; `label` its
 * name), or a forward to a phone number (`number`, E.164). The ids become null when the number is
 * released or the template deleted; the pool keeps the routing it was given (`label` as last saved).
 */
export const DniPoolRouting = z.object({
  type: z.enum(DNI_ROUTING_TYPES),
  number_id: z.number().int().nullable(),
  template_id: z.number().int().nullable(),
  number: z.string().nullable(),
  label: z.string(),
});
export type DniPoolRouting = z.infer<typeof DniPoolRouting>;

export const DniPool = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  name: z.string(),
  active: z.boolean(),
  /** Lower first among the company's pools. */
  priority: z.number().int(),
  source_rules: DniSourceRules,
  /** The company's numbers written on its website that this pool's numbers replace (E.164). */
  target_numbers: z.array(z.string()),
  /** Minutes without a page view or heartbeat after which a session ends. */
  session_duration_minutes: z.number().int(),
  /** Minutes a number rests after its session ended before another visitor gets it. */
  cool_down_minutes: z.number().int(),
  /** Shown when every number is held or cooling down; null: the target number stays as written. */
  fallback_number_id: z.number().int().nullable(),
  fallback_number: z.string().nullable(),
  /** Where the pool's calls ring; null only for a pool saved before targets existed (flagged until one is chosen). */
  routing: DniPoolRouting.nullable(),
  numbers: z.array(DniPoolNumber),
  health: DniPoolHealth,
  /** A bulk purchase of numbers for this pool still running (progress on `bulk-purchase.{companyId}`). */
  pending_purchase_batch_id: z.string().nullable(),
  eavAttributeValues: z.array(EavAttributeValueOut),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DniPool = z.infer<typeof DniPool>;

export const DniPoolParams = z.object({ companyId: Id, poolId: Id });
export const DniPoolListQuery = z.object({ search: z.string().trim().max(100).optional() });
export const DniPoolListBody = z.object({ data: z.array(DniPool) });
export const DniPoolBody = z.object({ data: DniPool });
/** POST/PUT answers: a message, the pool, and the bulk purchase started for it (if any). */
export const DniPoolSavedBody = z.object({ message: z.string(), data: DniPool, batchId: z.string().nullable() });

const phoneText = z.string().trim().min(1).max(40);

/** The routing target of a pool being saved: `{type: 'number', number_id}`, `{type: 'template', template_id}` or `{type: 'forward', number}`. */
export const DniPoolRoutingInput = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('number'), number_id: Id }),
    z.object({ type: z.literal('template'), template_id: Id }),
    z.object({ type: z.literal('forward'), number: phoneText }),
  ],
  { error: "Choose where the pool's calls ring." },
);
export type DniPoolRoutingInput = z.infer<typeof DniPoolRoutingInput>;

const purchaseList = z.array(z.object({ number: phoneText, provider_id: z.coerce.number().int().min(1).max(4) })).max(100);
/** A pool's fields without defaults (the PUT body: only what is sent changes). */
const poolFields = {
  name: z.string().trim().min(1).max(100),
  active: z.boolean(),
  priority: z.coerce.number().int().min(0).max(1000),
  source_rules: DniSourceRules,
  target_numbers: z.array(phoneText).min(1).max(20),
  session_duration_minutes: z.coerce.number().int().min(5).max(1440),
  cool_down_minutes: z.coerce.number().int().min(0).max(1440),
  fallback_number_id: Id.nullable(),
  /** Where the pool's calls ring: required when a pool is created; its numbers (bought or added later) get that routing. */
  routing: DniPoolRoutingInput,
  number_ids: z.array(Id).max(1000),
  purchase: purchaseList,
  eavAttributeValues: z.array(EavAttributeValue).max(500).optional(),
};
/**
 * POST body of a pool. `number_ids`: company numbers (not in another pool, not a static tracking
 * number) that make up the pool. `purchase`: numbers to buy for it through the bulk purchase (as
 * `POST /numbers/bulk-purchase`); they join the pool when the purchase completes (and on reads of the pool meanwhile).
 */
export const DniPoolInput = z.object({
  ...poolFields,
  active: poolFields.active.default(true),
  priority: poolFields.priority.default(100),
  source_rules: DniSourceRules.default({ all_visitors: true, traffic_sources: [], custom_rules: [] }),
  session_duration_minutes: poolFields.session_duration_minutes.default(30),
  cool_down_minutes: poolFields.cool_down_minutes.default(10),
  fallback_number_id: poolFields.fallback_number_id.default(null),
  number_ids: poolFields.number_ids.default([]),
  purchase: purchaseList.default([]),
});
export type DniPoolInput = z.infer<typeof DniPoolInput>;
/** PUT body: any field of the POST body, no defaults (what is not sent stays); `number_ids` given replaces the pool's numbers (removed ones stay in the company); `purchase` adds bought numbers. */
export const DniPoolUpdateInput = z.object(poolFields).partial();
export type DniPoolUpdateInput = z.infer<typeof DniPoolUpdateInput>;
export const DniPoolDeleteQuery = z.object({ shouldDeleteNumbers: z.enum(['0', '1']).default('0') });

// ---------------------------------------------------------------- sources

/** A static tracking number: one number for one offline or fixed source (print, billboard, GBP listing). */
export const DniStaticSource = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  name: z.string(),
  number_id: z.number().int(),
  number: z.string(),
  traffic_source: TrafficSource,
  source: z.string().nullable(),
  medium: z.string().nullable(),
  campaign: z.string().nullable(),
  keyword: z.string().nullable(),
  calls_30d: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DniStaticSource = z.infer<typeof DniStaticSource>;

/** `GET .../dniSources`: the traffic sources a pool rule can name (with 30-day session counts) and the static tracking numbers. */
export const DniSourcesBody = z.object({
  traffic_sources: z.array(z.object({ value: TrafficSource, label: z.string(), sessions_30d: z.number().int(), calls_30d: z.number().int() })),
  data: z.array(DniStaticSource),
});
const staticFields = {
  name: z.string().trim().min(1).max(100),
  number_id: Id,
  /** Defaults to `static`; a static number may also stand for e.g. `organic` (a Google Business Profile listing). */
  traffic_source: TrafficSource,
  source: z.string().trim().max(100).nullable(),
  medium: z.string().trim().max(100).nullable(),
  campaign: z.string().trim().max(200).nullable(),
  keyword: z.string().trim().max(200).nullable(),
};
export const DniStaticSourceInput = z.object({
  ...staticFields,
  traffic_source: TrafficSource.default('static'),
  source: staticFields.source.default(null),
  medium: staticFields.medium.default(null),
  campaign: staticFields.campaign.default(null),
  keyword: staticFields.keyword.default(null),
});
/** PUT body: any field, no defaults (what is not sent stays). */
export const DniStaticSourceUpdateInput = z.object(staticFields).partial();
export const DniSourceParams = z.object({ companyId: Id, sourceId: Id });
export const DniStaticSourceSavedBody = z.object({ message: z.string(), data: DniStaticSource });

// ---------------------------------------------------------------- script, settings, verification

/** The company's tracking settings (docs/tracking.md "Consent", "First-party cookie"). */
export const DniSettings = z.object({
  /** The public company key in the script URL (not a secret: it only identifies the company's pools). */
  key: z.string(),
  /** Swap nothing and store nothing until the page calls `window.switchboardDni.consent(true)`. */
  wait_for_consent: z.boolean(),
  /** The company's own subdomain pointed (CNAME) at the product, e.g. `calls.example.com`: script and cookie are then first-party. */
  first_party_host: z.string().nullable(),
});
export type DniSettings = z.infer<typeof DniSettings>;
export const DniSettingsInput = z.object({
  wait_for_consent: z.boolean().optional(),
  first_party_host: z
    .string()
    .trim()
    .toLowerCase()
    .max(253)
    .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'The host must be a domain name such as calls.example.com.')
    .nullable()
    .optional(),
});

/** `GET .../trackingNumbers/script`: what a person pastes, and where it stands. */
export const DniScriptBody = z.object({
  settings: DniSettings,
  /** The script's URL on the product (or on the first-party host when set). */
  script_url: z.string(),
  /** The `<script>` tag to paste before `</head>`. */
  snippet: z.string(),
  /** The call a page (or a consent platform's callback) makes once the visitor consented. */
  consent_snippet: z.string(),
  /** The last page view the product received from the script, null when never. */
  last_seen_at: z.string().nullable(),
  last_seen_url: z.string().nullable(),
  /** The product's demo site for this company, when the sandbox carrier is on (else null). */
  demo_url: z.string().nullable(),
});
export type DniScriptBody = z.infer<typeof DniScriptBody>;

export const VerifyScriptInput = z.object({ url: z.string().trim().min(1).max(2000) });
/**
 * `POST .../trackingNumbers/verifyScript`: the page was fetched server-side (10 s, 2 MB, public
 * addresses only; a non-HTTP(S) or private-network URL is a 422 on `url`).
 * `result`: `installed` (this company's key), `other_key` (a snippet of another company key),
 * `not_found`, `timeout`, `too_large`, `http_error` (status ≥ 400), `unreachable` (DNS, TLS, refused).
 */
export const VerifyScriptBody = z.object({
  url: z.string(),
  result: z.enum(['installed', 'other_key', 'not_found', 'timeout', 'too_large', 'http_error', 'unreachable']),
  installed: z.boolean(),
  /** The company key found in the page, if any. */
  key_found: z.string().nullable(),
  http_status: z.number().int().nullable(),
  /** A sentence for the person. */
  message: z.string(),
  checked_at: z.string(),
});
export type VerifyScriptBody = z.infer<typeof VerifyScriptBody>;

// ---------------------------------------------------------------- sessions and timelines

export const DniSession = z.object({
  /** A UUID. */
  id: z.string(),
  company_id: z.number().int(),
  pool_id: z.number().int().nullable(),
  pool_name: z.string().nullable(),
  visitor_id: z.string(),
  lead_id: z.number().int().nullable(),
  /** The number shown (E.164), null when no pool matched. */
  number: z.string().nullable(),
  /** True when the pool was exhausted and the fallback number was shown. */
  fallback: z.boolean(),
  traffic_source: TrafficSource,
  source: z.string().nullable(),
  medium: z.string().nullable(),
  campaign: z.string().nullable(),
  keyword: z.string().nullable(),
  content: z.string().nullable(),
  landing_page: z.string().nullable(),
  referrer: z.string().nullable(),
  click_ids: ClickIds,
  /** The visitor's first session's touch (first-touch model); equals this session's on a first visit. */
  first_touch: Touch,
  started_at: z.string(),
  last_seen_at: z.string(),
  ended_at: z.string().nullable(),
  active: z.boolean(),
  page_views: z.number().int(),
  calls: z.number().int(),
  /** A short label of the browser/device from the user agent, e.g. "Chrome on Android". */
  device: z.string().nullable(),
});
export type DniSession = z.infer<typeof DniSession>;

export const DNI_TIMELINE_KINDS = ['session_started', 'page_view', 'number_assigned', 'fallback_shown', 'call', 'text', 'session_ended'] as const;
export const DniTimelineEvent = z.object({
  at: z.string(),
  kind: z.enum(DNI_TIMELINE_KINDS),
  session_id: z.string(),
  page_url: z.string().nullable(),
  page_title: z.string().nullable(),
  /** The number shown at that moment (page views, assignment, call's dialled number). */
  number: z.string().nullable(),
  call_id: z.number().int().nullable(),
  /** The caller or texter (E.164), for `call` and `text`. */
  from: z.string().nullable(),
  duration_s: z.number().nullable(),
  /** CALL_STATUS code of a `call`. */
  status: z.number().int().nullable(),
});
export type DniTimelineEvent = z.infer<typeof DniTimelineEvent>;

export const DniTimelineParams = z.object({ companyId: Id, sessionId: z.string().uuid('The session id must be a UUID.') });
/** `GET .../dniTimelineEvents/{sessionId}`: the session and its events, oldest first. */
export const DniTimelineBody = z.object({ session: DniSession, events: z.array(DniTimelineEvent) });
export const DniTimelineByNumberParams = z.object({ companyId: Id, number: phoneText });
export const DniTimelineByNumberQuery = z.object({
  from: TimestampText.optional(),
  to: TimestampText.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
/** `GET .../dniTimelineEventsByNumber/{number}`: the sessions that were shown this number (newest first), each with its events. */
export const DniTimelineByNumberBody = z.object({
  number: z.string(),
  data: z.array(z.object({ session: DniSession, events: z.array(DniTimelineEvent) })),
});

// ---------------------------------------------------------------- attribution of a call

/** How one call was attributed (stored once on first sight of an inbound call). */
export const DniCallAttribution = z.object({
  call_id: z.number().int(),
  company_id: z.number().int(),
  started_at: z.string(),
  /** No earlier call from this caller to this company. */
  is_first_contact: z.boolean(),
  lead_id: z.number().int().nullable(),
  /** `pool`: a pool number held by a session; `static`: a static tracking number; `none`: neither. */
  method: z.enum(['pool', 'static', 'none']),
  pool_id: z.number().int().nullable(),
  pool_name: z.string().nullable(),
  static_source_id: z.number().int().nullable(),
  session_id: z.string().nullable(),
  /** Last touch (this session's or static source's facts); null when unattributed. */
  last_touch: Touch.nullable(),
  first_touch: Touch.nullable(),
  landing_page: z.string().nullable(),
  referrer: z.string().nullable(),
  click_ids: ClickIds,
});
export type DniCallAttribution = z.infer<typeof DniCallAttribution>;
export const DniCallAttributionParams = z.object({ companyId: Id, callId: Id });
export const DniCallAttributionBody = z.object({ data: DniCallAttribution });

// ---------------------------------------------------------------- leads

/**
 * A lead: one person of the company, keyed by phone number, with their calls, texts and website
 * visits grouped (docs/tracking.md "Leads"). `sessions` counts every visit of the visitors (browser
 * cookies) whose visit a call of this person matched.
 */
export const DniLead = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  /** The person's phone number (E.164 as the carrier gave it). */
  phone: z.string(),
  /** The name of the company's contact with that number, when there is one (the list and lead page show it first). */
  contact_name: z.string().nullable(),
  /** The first and latest call or text (UTC). */
  first_seen_at: z.string(),
  last_seen_at: z.string(),
  calls: z.number().int(),
  texts: z.number().int(),
  sessions: z.number().int(),
  /** Where the person first came from: the first touch of their earliest visit or tracked call; null when never tracked. */
  first_touch: Touch.nullable(),
  /** Where their latest tracked visit or call came from; null when never tracked. */
  last_touch: Touch.nullable(),
});
export type DniLead = z.infer<typeof DniLead>;

/**
 * `GET .../dni/leads`: the company's leads, latest contact first, page-numbered. `search`: digits of
 * the phone number in any format (`(415) 55`), or else text found in the traffic source, source,
 * medium, campaign or keyword of the lead's visits or calls.
 */
export const DniLeadListQuery = z.object({
  search: z.string().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(25),
});
export type DniLeadListQuery = z.infer<typeof DniLeadListQuery>;
export const DniLeadListBody = z.object({ data: z.array(DniLead), meta: PageMeta });
export const DniLeadParams = z.object({ companyId: Id, leadId: Id });

/** A call of a lead: its attribution with the dialled number, the caller, status and length. */
export const DniLeadCall = DniCallAttribution.extend({
  /** The dialled number (E.164). */
  number: z.string(),
  from: z.string(),
  /** CALL_STATUS code. */
  status: z.number().int(),
  duration_s: z.number().int(),
});
export type DniLeadCall = z.infer<typeof DniLeadCall>;
/** An inbound text of a lead. */
export const DniLeadText = z.object({
  at: z.string(),
  from: z.string(),
  number_id: z.number().int(),
  /** The company number texted (E.164), null when it is gone. */
  number: z.string().nullable(),
});
export type DniLeadText = z.infer<typeof DniLeadText>;
/** Most calls, texts and visits a lead's answer lists (each newest first; the lead's counts give the totals). */
export const DNI_LEAD_DETAIL_LIMIT = 100;
/** `GET .../dni/leads/{leadId}`: the lead, its calls, texts and visits (each newest first, up to DNI_LEAD_DETAIL_LIMIT). */
export const DniLeadBody = z.object({
  data: DniLead,
  calls: z.array(DniLeadCall),
  texts: z.array(DniLeadText),
  sessions: z.array(DniSession),
});
export type DniLeadBody = z.infer<typeof DniLeadBody>;

// ---------------------------------------------------------------- real-time feed

/** A visitor on the site now (a live session). */
export const DniFeedVisitor = z.object({
  session_id: z.string(),
  traffic_source: TrafficSource,
  source: z.string().nullable(),
  medium: z.string().nullable(),
  campaign: z.string().nullable(),
  keyword: z.string().nullable(),
  page_url: z.string().nullable(),
  page_title: z.string().nullable(),
  number: z.string().nullable(),
  fallback: z.boolean(),
  pool_id: z.number().int().nullable(),
  pool_name: z.string().nullable(),
  started_at: z.string(),
  last_seen_at: z.string(),
  page_views: z.number().int(),
  device: z.string().nullable(),
});
export type DniFeedVisitor = z.infer<typeof DniFeedVisitor>;

/** A call as it arrived, with its attribution. */
export const DniFeedCall = z.object({
  call_id: z.number().int(),
  at: z.string(),
  from: z.string(),
  /** The dialled number (E.164). */
  number: z.string(),
  method: z.enum(['pool', 'static', 'none']),
  session_id: z.string().nullable(),
  pool_id: z.number().int().nullable(),
  pool_name: z.string().nullable(),
  traffic_source: TrafficSource.nullable(),
  source: z.string().nullable(),
  campaign: z.string().nullable(),
  keyword: z.string().nullable(),
  landing_page: z.string().nullable(),
  is_first_contact: z.boolean(),
});
export type DniFeedCall = z.infer<typeof DniFeedCall>;

export const DniRealTimeFeedQuery = z.object({ calls_limit: z.coerce.number().int().min(1).max(100).default(25) });
/** `GET .../dni/realTimeFeed`: live visitors (most recent activity first) and the latest calls (newest first). */
export const DniRealTimeFeedBody = z.object({
  visitors: z.array(DniFeedVisitor),
  calls: z.array(DniFeedCall),
  generated_at: z.string(),
});
export type DniRealTimeFeedBody = z.infer<typeof DniRealTimeFeedBody>;

// ---------------------------------------------------------------- reports

export const DNI_ATTRIBUTION_MODELS = ['first_touch', 'last_touch'] as const;
export const DNI_REPORT_GROUPS = ['traffic_source', 'source', 'medium', 'campaign', 'keyword', 'landing_page', 'pool', 'day'] as const;

/** `POST /dni/reports/calls`: calls and sessions grouped by a marketing dimension. `from`/`to` are local dates or timestamps in `tz`. */
export const DniCallsReportInput = z.object({
  company_id: Id,
  from: TimestampText,
  to: TimestampText,
  tz: z.string().max(64).default('UTC'),
  group_by: z.enum(DNI_REPORT_GROUPS).default('traffic_source'),
  attribution_model: z.enum(DNI_ATTRIBUTION_MODELS).default('last_touch'),
  pool_ids: z.array(Id).max(200).optional(),
  traffic_sources: z.array(TrafficSource).max(20).optional(),
});
export type DniCallsReportInput = z.infer<typeof DniCallsReportInput>;
export const DniCallsReportRow = z.object({
  key: z.string(),
  label: z.string(),
  sessions: z.number().int(),
  calls: z.number().int(),
  first_time_callers: z.number().int(),
  answered: z.number().int(),
  missed: z.number().int(),
  /** Average length of answered calls, seconds (null without any). */
  avg_duration_s: z.number().nullable(),
  /** calls / sessions (0..∞; null when there were no sessions, e.g. static numbers). */
  conversion_rate: z.number().nullable(),
});
export type DniCallsReportRow = z.infer<typeof DniCallsReportRow>;
export const DniCallsReportBody = z.object({
  group_by: z.enum(DNI_REPORT_GROUPS),
  attribution_model: z.enum(DNI_ATTRIBUTION_MODELS),
  data: z.array(DniCallsReportRow),
  totals: DniCallsReportRow.omit({ key: true, label: true }),
});
export type DniCallsReportBody = z.infer<typeof DniCallsReportBody>;

/** `GET /dni/reports`: pool health over a period (default the last 7 days), buckets of an hour (≤ 3 days) or a day. */
export const DniPoolReportQuery = z.object({
  company_id: Id,
  from: TimestampText.optional(),
  to: TimestampText.optional(),
  tz: z.string().max(64).default('UTC'),
  pool_id: Id.optional(),
});
export const DniPoolUtilisationPoint = z.object({
  /** Bucket start (UTC). */
  at: z.string(),
  /** Most numbers held at once in the bucket (sessions that overlapped). */
  peak_in_use: z.number().int(),
  sessions: z.number().int(),
  fallback_sessions: z.number().int(),
});
export const DniPoolReport = z.object({
  pool_id: z.number().int(),
  pool_name: z.string(),
  size: z.number().int(),
  sessions: z.number().int(),
  calls: z.number().int(),
  peak_concurrent: z.number().int(),
  exhaustion_count: z.number().int(),
  fallback_sessions: z.number().int(),
  /** The pool size the period's traffic needs (peak concurrent + cool-down share + 20 %). */
  recommended_size: z.number().int(),
  bucket: z.enum(['hour', 'day']),
  utilisation: z.array(DniPoolUtilisationPoint),
});
export type DniPoolReport = z.infer<typeof DniPoolReport>;
export const DniPoolReportBody = z.object({ from: z.string(), to: z.string(), data: z.array(DniPoolReport) });

// ---------------------------------------------------------------- bulk attribute update

/**
 * Bulk attribute update (docs/tracking.md "Bulk attribute update"): one CSV row per tracking number
 * sets the marketing attributes of its static source (creating it when the number has none).
 * Columns of the template: company_id, number, name, traffic_source, source, medium, campaign, keyword.
 * A company upload ignores a blank company_id; a business-unit upload needs it on every row.
 */
export const BULK_ATTRIBUTE_COLUMNS = ['company_id', 'number', 'name', 'traffic_source', 'source', 'medium', 'campaign', 'keyword'] as const;
export const BulkAttributeCompanyParams = z.object({ companyId: Id });
export const BulkAttributeBusinessUnitParams = z.object({ id: Id });
export const BulkAttributeRowError = z.object({
  /** 1-based row of the file, header excluded (row 1 is the first data line). */
  row: z.number().int(),
  column: z.string().nullable(),
  message: z.string(),
});
export type BulkAttributeRowError = z.infer<typeof BulkAttributeRowError>;
/**
 * Upload answer. 200: every row applied. 422: nothing applied; `row_errors` lists each bad row and
 * `errors` has them keyed `row.{n}` (the foundation's error shape).
 */
export const BulkAttributeUpdateResult = z.object({
  message: z.string(),
  rows: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  row_errors: z.array(BulkAttributeRowError),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type BulkAttributeUpdateResult = z.infer<typeof BulkAttributeUpdateResult>;

// ---------------------------------------------------------------- public endpoints of the script

const urlText = z.string().max(2000);
/**
 * `GET /api/dni/public/{key}/session?url=&referrer=&title=&session_id=&visitor_id=`: the visit as
 * the script read it (page URL with its query, document.referrer, title). GET, so that the
 * browser's cookies on the product's host never make it a cross-site form post (no CSRF token on
 * a customer's website); answered `Cache-Control: no-store`.
 */
export const DniPublicSessionInput = z.object({
  /** The page's full URL (utm parameters and click ids are read from it). */
  url: urlText.min(1),
  referrer: urlText.optional(),
  title: z.string().max(300).optional(),
  /** The session the script kept, reused while active. */
  session_id: z.string().uuid().optional(),
  /** The visitor id the script kept, when the server's first-party cookie could not be read. */
  visitor_id: z.string().uuid().optional(),
  /** The page's `_ga` cookie (GA4 client id inside; docs/tracking.md "Ad platform ids"). The script cuts each cookie at 500 characters. */
  ga: z.string().max(600).optional(),
  /** The page's `_ga_<stream>` cookies as `<stream>:<value>`, several joined by `!` (GA4 session id inside). */
  gs: z.string().max(600).optional(),
  /** The page's `_fbp` cookie (Meta browser id). */
  fbp: z.string().max(600).optional(),
  /** The page's `_fbc` cookie (Meta click id). */
  fbc: z.string().max(600).optional(),
});
export type DniPublicSessionInput = z.infer<typeof DniPublicSessionInput>;
/** One swap: every appearance of `target` (E.164) becomes `number` (E.164), in the target's own format. */
export const DniSwap = z.object({ target: z.string(), number: z.string() });
export const DniPublicSessionBody = z.object({
  session_id: z.string(),
  visitor_id: z.string(),
  swaps: z.array(DniSwap),
  /** Seconds between heartbeats while the page is open. */
  heartbeat_s: z.number().int(),
});
export type DniPublicSessionBody = z.infer<typeof DniPublicSessionBody>;
/** `GET .../pageview?session_id=&url=&title=`: a page of a single-page site (history navigation). */
export const DniPublicPageViewInput = z.object({
  session_id: z.string().uuid(),
  url: urlText.min(1),
  title: z.string().max(300).optional(),
});
/** `GET .../heartbeat?session_id=`: the page is still open and visible. */
export const DniPublicHeartbeatInput = z.object({ session_id: z.string().uuid() });
/** Page view and heartbeat answer: `active` false when the session had ended (the script then asks for a new one). */
export const DniPublicAckBody = z.object({ active: z.boolean() });
export const DniPublicKeyParams = z.object({ key: z.string().regex(/^[a-z0-9]{8,40}$/, 'The key is not a tracking key.') });

// ---------------------------------------------------------------- live events

/** `dni visitor` on `company.{companyId}`: a session started, moved to another page, or ended. */
export const DniVisitorEvent = z.object({
  type: z.enum(['started', 'moved', 'ended']),
  visitor: DniFeedVisitor,
});
export type DniVisitorEvent = z.infer<typeof DniVisitorEvent>;
/** `dni call matched` on `company.{companyId}`: an inbound call arrived and was attributed (or not). */
export const DniCallMatchedEvent = DniFeedCall;
export type DniCallMatchedEvent = z.infer<typeof DniCallMatchedEvent>;
/** `dni pool exhausted` on `company.{companyId}`: a visitor got the fallback number (once per episode). */
export const DniPoolExhaustedEvent = z.object({ pool_id: z.number().int(), pool_name: z.string(), at: z.string() });

/** Live events of this area on `company.{companyId}` (event name → payload schema); merged into LIVE_EVENTS. */
export const TRACKING_COMPANY_EVENTS = {
  'dni visitor': DniVisitorEvent,
  'dni call matched': DniCallMatchedEvent,
  'dni pool exhausted': DniPoolExhaustedEvent,
} as const;
