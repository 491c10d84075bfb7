/**
 * zod schemas of API keys, outbound webhooks and the audit log: HTTP payloads (docs/api-and-webhooks.md,
 * docs/audit.md).
 *
 * - API keys (spec 001 "API keys", "API key (personal access token)"): `GET /personalAccessTokens`,
 *   `POST /personalAccessTokens` (snake_cased fields, optional business unit id), `DELETE /personalAccessTokens/{id}`;
 *   the messages "API key created successfully" and "API key deleted successfully". The rest (name, scopes, the
 *   key shown once) is "not shown" in the spec: decided in docs/api-and-webhooks.md.
 * - Outbound webhooks and the audit log are beyond the spec (same document, and docs/audit.md).
 */
import { z } from 'zod';
import { Id, PageMeta, Timestamp, TimestampText } from './common.js';

// ---- API keys ----

/** Success messages of spec 001 "API keys". */
export const API_KEY_CREATED = 'API key created successfully';
export const API_KEY_DELETED = 'API key deleted successfully';

/**
 * The areas an API key's scopes name; each has a `:read` and a `:write` scope (write implies nothing about read:
 * grant both for both). A key never reaches beyond its user's role in a company.
 */
export const API_KEY_AREAS = ['calls', 'messages', 'contacts', 'numbers', 'campaigns', 'reports', 'account', 'webhooks'] as const;
export type ApiKeyArea = (typeof API_KEY_AREAS)[number];
/** Every scope, `<area>:read` and `<area>:write`. */
export const API_KEY_SCOPES = API_KEY_AREAS.flatMap((a) => [`${a}:read`, `${a}:write`] as const);
export type ApiKeyScope = `${ApiKeyArea}:${'read' | 'write'}`;
export const ApiKeyScopeSchema = z.enum(API_KEY_SCOPES as unknown as [ApiKeyScope, ...ApiKeyScope[]]);

/** What each area covers, for the scope picker and the OpenAPI description. */
export const API_KEY_AREA_LABELS: Readonly<Record<ApiKeyArea, string>> = {
  calls: 'Calls, voicemails, recordings, notes',
  messages: 'Inbox conversations and messages',
  contacts: 'Contacts, groups, labels, custom fields',
  numbers: 'Numbers, routing, schedules, greetings, call tracking',
  campaigns: 'Campaigns',
  reports: 'Dashboard, reports, exports, activity, alerts',
  account: 'Company, users, settings, tags, API keys',
  webhooks: 'Outbound webhooks and the audit log',
};

/** POST /personalAccessTokens (snake_cased fields). */
export const CreateApiKeyInput = z.object({
  name: z.string().trim().min(1, 'The name field is required.').max(100, 'The name may not be greater than 100 characters.'),
  scopes: z.array(ApiKeyScopeSchema).min(1, 'Choose at least one scope.').max(API_KEY_SCOPES.length),
  business_unit_id: Id.nullish().transform((v) => v ?? null),
  /** Days until the key expires; null or absent: never. */
  expires_in_days: z.coerce
    .number()
    .int()
    .min(1)
    .max(3650)
    .nullish()
    .transform((v) => v ?? null),
});
export type CreateApiKeyInput = z.input<typeof CreateApiKeyInput>;

/** One API key as listed (never its secret). */
export const ApiKey = z.object({
  id: z.number().int(),
  name: z.string(),
  scopes: z.array(z.string()),
  business_unit_id: z.number().int().nullable(),
  /** The first characters of the key (`sbk_xxxxxx`), to tell keys apart. */
  prefix: z.string().nullable(),
  created_at: Timestamp,
  last_used_at: Timestamp.nullable(),
  last_used_ip: z.string().nullable(),
  expires_at: Timestamp.nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;

export const ApiKeyListBody = z.object({ data: z.array(ApiKey) });
/** The create answer: the key's secret (`token`) appears here once and never again. */
export const ApiKeyCreatedBody = z.object({ message: z.string(), data: ApiKey.extend({ token: z.string() }) });
export type ApiKeyCreated = z.infer<typeof ApiKeyCreatedBody>['data'];

// ---- outbound webhooks ----

/** The event types a webhook endpoint can subscribe to (Standard Webhooks `type`). */
export const WEBHOOK_EVENT_TYPES = [
  'call.started',
  'call.completed',
  'call.missed',
  'voicemail.created',
  'call.attributed',
  'message.received',
  'message.status_updated',
  'numbers.batch_finished',
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'campaign.finished',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const WebhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);
export const WEBHOOK_EVENT_LABELS: Readonly<Record<WebhookEventType, string>> = {
  'call.started': 'Call started',
  'call.completed': 'Call completed',
  'call.missed': 'Call missed',
  'voicemail.created': 'Voicemail left',
  'call.attributed': 'Call matched to a tracking source',
  'message.received': 'Message received',
  'message.status_updated': 'Message delivery updated',
  'numbers.batch_finished': 'Number batch finished',
  'contact.created': 'Contact created',
  'contact.updated': 'Contact changed',
  'contact.deleted': 'Contact deleted',
  'campaign.finished': 'Campaign finished',
};

export const WEBHOOK_CREATED = 'Webhook created successfully';
export const WEBHOOK_UPDATED = 'Webhook updated successfully';
export const WEBHOOK_DELETED = 'Webhook deleted successfully';
export const WEBHOOK_SECRET_ROTATED = 'Webhook secret rotated successfully';
export const WEBHOOK_REPLAYED = 'Delivery queued again';
export const WEBHOOK_TEST_SENT = 'Test event queued';

const WebhookUrl = z.string().trim().min(1, 'The url field is required.').max(2000).url('The url must be a valid URL.');

export const CreateWebhookInput = z.object({
  company_id: Id,
  url: WebhookUrl,
  description: z.string().trim().max(200).optional().default(''),
  events: z.array(WebhookEventTypeSchema).min(1, 'Choose at least one event.'),
});
export type CreateWebhookInput = z.input<typeof CreateWebhookInput>;

export const UpdateWebhookInput = z.object({
  url: WebhookUrl.optional(),
  description: z.string().trim().max(200).optional(),
  events: z.array(WebhookEventTypeSchema).min(1, 'Choose at least one event.').optional(),
  /** true re-enables an endpoint disabled after failing (its failure run starts over). */
  enabled: z.boolean().optional(),
});
export type UpdateWebhookInput = z.input<typeof UpdateWebhookInput>;

export const WebhookEndpoint = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  disabled_reason: z.string().nullable(),
  disabled_at: Timestamp.nullable(),
  failing_since: Timestamp.nullable(),
  created_at: Timestamp,
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;
export const WebhookListQuery = z.object({ company_id: Id });
export const WebhookListBody = z.object({ data: z.array(WebhookEndpoint) });
export const WebhookBody = z.object({ message: z.string().optional(), data: WebhookEndpoint });
export const WebhookSecretBody = z.object({ message: z.string().optional(), data: z.object({ secret: z.string() }) });

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export const WebhookDelivery = z.object({
  id: z.number().int(),
  endpoint_id: z.number().int(),
  event_type: z.string(),
  message_id: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  next_attempt_at: Timestamp.nullable(),
  last_status_code: z.number().int().nullable(),
  last_duration_ms: z.number().int().nullable(),
  last_error: z.string().nullable(),
  replay_of: z.number().int().nullable(),
  created_at: Timestamp,
  finished_at: Timestamp.nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;
export const WebhookAttempt = z.object({
  attempt: z.number().int(),
  attempted_at: Timestamp,
  status_code: z.number().int().nullable(),
  duration_ms: z.number().int(),
  error: z.string().nullable(),
  response_body: z.string().nullable(),
});
export type WebhookAttempt = z.infer<typeof WebhookAttempt>;
export const WebhookDeliveriesQuery = z.object({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(100000).optional().default(1),
  per_page: z.coerce.number().int().min(1).max(100).optional().default(25),
});
export const WebhookDeliveriesBody = z.object({ data: z.array(WebhookDelivery), meta: PageMeta });
export const WebhookDeliveryBody = z.object({
  data: WebhookDelivery.extend({ payload: z.record(z.string(), z.unknown()), attempts_log: z.array(WebhookAttempt) }),
});
export const WebhookDeliveryParams = z.object({ id: Id, deliveryId: Id });

// ---- audit log ----

export const AUDIT_ACTOR_KINDS = ['user', 'api_key', 'operator', 'system'] as const;
export const AUDIT_OUTCOMES = ['success', 'refused', 'failed'] as const;

export const AuditEntry = z.object({
  id: z.number().int(),
  created_at: Timestamp,
  company_id: z.number().int().nullable(),
  actor_kind: z.enum(AUDIT_ACTOR_KINDS),
  actor_user_id: z.number().int().nullable(),
  actor_name: z.string().nullable(),
  api_key_id: z.number().int().nullable(),
  operator_user_id: z.number().int().nullable(),
  action: z.string(),
  entity_type: z.string(),
  entity_id: z.string().nullable(),
  method: z.string().nullable(),
  path: z.string().nullable(),
  status_code: z.number().int().nullable(),
  outcome: z.enum(AUDIT_OUTCOMES),
  changes: z.record(z.string(), z.unknown()).nullable(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditLogQuery = z.object({
  company_id: Id,
  actor_user_id: Id.optional(),
  actor_kind: z.enum(AUDIT_ACTOR_KINDS).optional(),
  entity_type: z.string().trim().max(64).optional(),
  action: z.string().trim().max(64).optional(),
  outcome: z.enum(AUDIT_OUTCOMES).optional(),
  from: TimestampText.optional(),
  to: TimestampText.optional(),
  search: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(100000).optional().default(1),
  per_page: z.coerce.number().int().min(1).max(200).optional().default(50),
});
export type AuditLogQuery = z.input<typeof AuditLogQuery>;
export const AuditLogBody = z.object({ data: z.array(AuditEntry), meta: PageMeta });
