/**
 * Kysely table types of the integrations module (ad platforms, analytics, CRMs, Slack); migration 0070_ad_integrations
 * (docs/integrations.md). Part of `DB` (schema.ts); owner `integrations` in `modules/ownership.ts`. Times UTC.
 */
import type { ColumnType, Generated } from 'kysely';

type TimeOrNull = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Time = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string | T, string | T>;
type JsonOrNull<T> = ColumnType<T | null, string | T | null | undefined, string | T | null>;

/** One connection of a company to a provider (docs/integrations.md "States"). */
export interface AdIntegrationsTable {
  id: Generated<number>;
  company_id: number;
  provider: string;
  state: 'pending' | 'connected' | 'active' | 'needs_reconnect' | 'inactive';
  name: Generated<string>;
  external_account_id: string | null;
  account_name: string | null;
  config: Json<Record<string, unknown>>;
  settings: Json<Record<string, unknown>>;
  /** AES-256-GCM sealed JSON of non-OAuth secrets (GA4 apiSecret). */
  secrets_sealed: string | null;
  access_token_sealed: string | null;
  refresh_token_sealed: string | null;
  token_expires_at: TimeOrNull;
  scopes: string | null;
  connected_by: number | null;
  connected_at: TimeOrNull;
  last_delivery_at: TimeOrNull;
  last_delivery_result: string | null;
  last_error: string | null;
  backfill_days: Generated<number>;
  reconnect_notified_at: TimeOrNull;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** A pending OAuth authorization (state hash → user, company, sealed PKCE verifier). */
export interface AdIntegrationOauthStatesTable {
  state_hash: string;
  company_id: number;
  user_id: number;
  provider: string;
  code_verifier_sealed: string;
  redirect_uri: string;
  created_at: Generated<Date>;
  expires_at: Time;
}

/** One delivery (the log and the outbox of deliveries). */
export interface AdIntegrationDeliveriesTable {
  id: Generated<number>;
  integration_id: number;
  company_id: number;
  delivery_key: string;
  kind: string;
  call_id: number | null;
  text_id: number | null;
  item: JsonOrNull<Record<string, unknown>>;
  dedup_key: string | null;
  state: Generated<'pending' | 'delivered' | 'duplicate' | 'skipped' | 'rejected' | 'failed' | 'waiting'>;
  attempts: Generated<number>;
  next_at: Generated<Date>;
  leased_until: TimeOrNull;
  provider_ref: string | null;
  message: string | null;
  exchanges: JsonOrNull<unknown[]>;
  source: Generated<'event' | 'backfill' | 'replay' | 'setup'>;
  created_at: Generated<Date>;
  sent_at: TimeOrNull;
  updated_at: Generated<Date>;
}

/** The attribution of a call as `call.attributed` said it. */
export interface AdIntegrationTouchesTable {
  call_id: number;
  company_id: number;
  touch: Json<Record<string, unknown>>;
  created_at: Generated<Date>;
}

export interface AdIntegrationsTables {
  ad_integrations: AdIntegrationsTable;
  ad_integration_oauth_states: AdIntegrationOauthStatesTable;
  ad_integration_deliveries: AdIntegrationDeliveriesTable;
  ad_integration_touches: AdIntegrationTouchesTable;
}
