/**
 * Kysely table types of modules/tracking (call tracking, DNI; migration 0017). Part of `DB` (schema.ts); every table
 * is listed in `modules/ownership.ts` TABLE_OWNERS under its owner.
 */
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T> = ColumnType<T, string | T, string | T>;

/** A touch as stored (contracts `Touch`). */
export type StoredTouch = { traffic_source: string; source: string | null; medium: string | null; campaign: string | null; keyword: string | null };
/** Source rules as stored (contracts `DniSourceRules`). */
export type StoredSourceRules = {
  all_visitors: boolean;
  traffic_sources: string[];
  custom_rules: Array<{ field: string; operator: string; value: string }>;
};

export interface DniSettingsTable {
  company_id: number;
  key: string;
  wait_for_consent: Generated<boolean>;
  first_party_host: string | null;
  last_seen_at: NullableTimestamp;
  last_seen_url: string | null;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

/**
 * A pool's routing as saved (dni_pools.routing): the routes and schedule its target stood for, a
 * template's call settings, and what the pool editor shows (`label`, `number` E.164) as last saved.
 */
export type StoredPoolRouting = {
  routes: unknown[];
  schedule: unknown;
  label?: string;
  number?: string | null;
  record?: boolean;
  call_transcription_enabled?: boolean;
  ai_eav_enabled?: boolean;
};

export interface DniPoolsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  active: Generated<boolean>;
  priority: Generated<number>;
  source_rules: Json<StoredSourceRules>;
  /** E.164 numbers written on the website that the pool's numbers replace. */
  target_numbers: Json<string[]>;
  session_duration_minutes: Generated<number>;
  cool_down_minutes: Generated<number>;
  fallback_number_id: number | null;
  /** Start of the current exhaustion episode, null when the pool had a free number last time. */
  exhausted_since: NullableTimestamp;
  /** Where the pool's calls ring (migration 0052): a number's routing, a number template, or a forward; null: none chosen yet. */
  routing_type: 'number' | 'template' | 'forward' | null;
  routing_number_id: number | null;
  routing_template_id: number | null;
  /** E.164 of a `forward` target. */
  routing_forward: string | null;
  /** The routes and schedule the target stood for when saved (given to the pool's numbers; rung by a pool number without routes). */
  routing: ColumnType<StoredPoolRouting | null, string | null, string | null>;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface DniPoolNumbersTable {
  number_id: number;
  pool_id: number;
  company_id: number;
  number: string;
  /** The session holding the number (or that held it last). */
  session_id: string | null;
  /** When that session ends unless seen again; the number is free after this plus the pool's cool-down. */
  held_until: NullableTimestamp;
  last_assigned_at: NullableTimestamp;
  added_at: Generated<Date>;
}

export interface DniPoolPurchasesTable {
  batch_id: string;
  pool_id: number;
  company_id: number;
  created_at: Generated<Date>;
  finished_at: NullableTimestamp;
}

export interface DniExhaustionsTable {
  id: Generated<number>;
  company_id: number;
  pool_id: number;
  started_at: Generated<Date>;
  ended_at: NullableTimestamp;
  fallback_sessions: Generated<number>;
}

export interface DniStaticSourcesTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  number_id: number;
  number: string;
  traffic_source: Generated<string>;
  source: string | null;
  medium: string | null;
  campaign: string | null;
  keyword: string | null;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface DniLeadsTable {
  id: Generated<number>;
  company_id: number;
  phone: string;
  first_seen_at: Timestamp;
  last_seen_at: Timestamp;
  calls: Generated<number>;
  texts: Generated<number>;
}

export interface DniSessionsTable {
  id: string;
  company_id: number;
  pool_id: number | null;
  visitor_id: string;
  lead_id: number | null;
  number_id: number | null;
  number: string | null;
  fallback: Generated<boolean>;
  traffic_source: string;
  source: string | null;
  medium: string | null;
  campaign: string | null;
  keyword: string | null;
  content: string | null;
  landing_page: string | null;
  referrer: string | null;
  gclid: string | null;
  gbraid: string | null;
  wbraid: string | null;
  msclkid: string | null;
  fbclid: string | null;
  first_touch: Json<StoredTouch>;
  started_at: Timestamp;
  last_seen_at: Timestamp;
  /** The session ends at this time unless seen again (last seen + the pool's session duration). */
  expires_at: Timestamp;
  /** The pool's cool-down when the number was given (a call in it still belongs to this session). */
  cool_down_minutes: Generated<number>;
  /** Set once the end was noticed (the expiry job). */
  ended_at: NullableTimestamp;
  page_views: Generated<number>;
  calls: Generated<number>;
  last_page_url: string | null;
  last_page_title: string | null;
  device: string | null;
  /** GA4 `client_id` from the `_ga` cookie at number assignment (migration 0071; docs/tracking.md "Ad platform ids"). */
  ga_client_id: Generated<string | null>;
  /** GA4 `session_id` from the `_ga_<stream>` cookie. */
  ga_session_id: Generated<string | null>;
  /** Meta browser id (`_fbp` cookie). */
  fbp: Generated<string | null>;
  /** Meta click id cookie (`_fbc`), or one built from the landing page's `fbclid`. */
  fbc: Generated<string | null>;
}

export interface DniPageViewsTable {
  id: Generated<number>;
  session_id: string;
  company_id: number;
  at: Timestamp;
  url: string;
  title: string | null;
  number: string | null;
}

export interface DniTextsTable {
  carrier_sid: string;
  company_id: number;
  lead_id: number | null;
  from_number: string;
  number_id: number;
  at: Timestamp;
}

export interface DniCallAttributionsTable {
  call_id: number;
  company_id: number;
  number_id: number;
  number: string;
  from_number: string;
  started_at: Timestamp;
  is_first_contact: boolean;
  lead_id: number | null;
  /** pool | static | none */
  method: string;
  pool_id: number | null;
  static_source_id: number | null;
  session_id: string | null;
  traffic_source: string | null;
  source: string | null;
  medium: string | null;
  campaign: string | null;
  keyword: string | null;
  landing_page: string | null;
  referrer: string | null;
  gclid: string | null;
  gbraid: string | null;
  wbraid: string | null;
  msclkid: string | null;
  fbclid: string | null;
  first_touch: Json<StoredTouch | null>;
  /** CALL_STATUS code, kept current from `call.changed`. */
  status: Generated<number>;
  duration_s: Generated<number>;
  created_at: Generated<Date>;
}

/** One row (id 1): when the session sweep job is due (null: none pending). */
export interface DniSweepScheduleTable {
  id: Generated<number>;
  next_at: NullableTimestamp;
}

export interface TrackingTables {
  dni_settings: DniSettingsTable;
  dni_pools: DniPoolsTable;
  dni_pool_numbers: DniPoolNumbersTable;
  dni_pool_purchases: DniPoolPurchasesTable;
  dni_exhaustions: DniExhaustionsTable;
  dni_static_sources: DniStaticSourcesTable;
  dni_leads: DniLeadsTable;
  dni_sessions: DniSessionsTable;
  dni_page_views: DniPageViewsTable;
  dni_texts: DniTextsTable;
  dni_call_attributions: DniCallAttributionsTable;
  dni_sweep_schedule: DniSweepScheduleTable;
}
