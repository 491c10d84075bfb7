/**
 * Kysely table types added for modules api-keys, webhooks and audit (migration 0021). Part of `DB` (schema.ts); every
 * table is listed in `modules/ownership.ts` TABLE_OWNERS under its owner. Times are `timestamptz` (UTC); durations ms.
 *
 * The personal-access-token columns that 0021 adds to `api_tokens` (owned by platform/auth) are declared here by
 * interface merging into `ApiTokensTable`, so this migration's columns live beside its tables.
 */
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T> = ColumnType<T, string | T, string | T>;

declare module './schema.js' {
  interface ApiTokensTable {
    /** 'session': a device sign-in (createTokenSession); 'personal': an API key. */
    kind: Generated<'session' | 'personal'>;
    /** API key scopes (contracts `API_KEY_SCOPES`); empty for session tokens. */
    scopes: ColumnType<string[], string[] | undefined, string[]>;
    /** The business unit an API key is limited to (spec 001: optional business unit id). */
    organization_id: number | null;
    /** The first characters of an API key, shown in lists (never the secret). */
    token_prefix: string | null;
    last_used_ip: string | null;
  }
}

/** modules/webhooks: a company's subscribed URL. */
export interface WebhookEndpointsTable {
  id: Generated<number>;
  company_id: number;
  url: string;
  description: Generated<string>;
  events: ColumnType<string[], string[], string[]>;
  /** Standard Webhooks signing secret, `whsec_` + base64 of 24 random bytes. */
  secret: string;
  enabled: Generated<boolean>;
  disabled_reason: string | null;
  disabled_at: NullableTimestamp;
  /** Start of the current run of failed attempts (null after a success). */
  failing_since: NullableTimestamp;
  created_by: number | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** modules/webhooks: one message for one endpoint. */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  endpoint_id: number;
  company_id: number;
  event_type: string;
  /** Unique per endpoint: what made the delivery (e.g. `call.completed:42`, `test:<uuid>`, `replay:<id>:<n>`). */
  event_key: string;
  /** Standard Webhooks `webhook-id` (`msg_…`), the same on every retry. */
  message_id: string;
  payload: Json<Record<string, unknown>>;
  status: Generated<'pending' | 'succeeded' | 'failed'>;
  attempts: Generated<number>;
  next_attempt_at: NullableTimestamp;
  /** A worker holds the delivery until then (a crashed attempt is retried after it). */
  claimed_until: NullableTimestamp;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  replay_of: number | null;
  created_at: Generated<Date>;
  finished_at: NullableTimestamp;
}

/** modules/webhooks: one HTTP attempt. */
export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  attempt: number;
  attempted_at: Generated<Date>;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  /** The first 1 000 characters of the answer. */
  response_body: string | null;
}

/** modules/audit: append-only (a trigger refuses UPDATE and DELETE). */
export interface AuditLogTable {
  id: Generated<number>;
  created_at: Timestamp;
  company_id: number | null;
  actor_kind: 'user' | 'api_key' | 'operator' | 'system';
  actor_user_id: number | null;
  actor_name: string | null;
  api_key_id: number | null;
  operator_user_id: number | null;
  action: string;
  entity_type: string;
  entity_id: string | null;
  method: string | null;
  path: string | null;
  status_code: number | null;
  outcome: Generated<'success' | 'refused' | 'failed'>;
  changes: Json<Record<string, unknown>> | null;
  ip: string | null;
  user_agent: string | null;
}

export interface IntegrationsTables {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  audit_log: AuditLogTable;
}
