/**
 * Kysely table types of modules/alerts and report-preferences (migration 0019). Part of `DB` (schema.ts); every table
 * is listed in `modules/ownership.ts` TABLE_OWNERS under its owner.
 */
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T> = ColumnType<T, string | T, string | T>;

export interface ColumnPresetsTable {
  id: Generated<number>;
  kind: string;
  name: string;
  /** contracts `ColumnPresetData`. */
  data: Json<{ columns: string[]; sort: { column: string; dir: 'asc' | 'desc' } | null }>;
  company_id: number | null;
  business_unit_id: number | null;
  user_id: number | null;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface FavoriteReportsTable {
  id: Generated<number>;
  user_id: number;
  company_id: number;
  /** The JSON text the person saved (spec 002 "Favorite report" value). */
  value: string;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface AlertsTable {
  id: Generated<number>;
  company_id: number;
  type: string;
  severity: Generated<string>;
  state: Generated<string>;
  subject_type: string;
  subject_id: string;
  subject_label: string;
  title: string;
  message: string;
  details: Json<Record<string, unknown>>;
  reason: string | null;
  comment: string | null;
  read_at: NullableTimestamp;
  /** Who resolved or dismissed it (null: open, or closed by the monitor). */
  closed_by: number | null;
  created_at: Generated<Date>;
  updated_at: Timestamp;
  resolved_at: NullableTimestamp;
}

export interface AlertHistoryTable {
  id: Generated<number>;
  alert_id: number;
  action: string;
  from_state: string | null;
  to_state: string | null;
  reason: string | null;
  comment: string | null;
  user_id: number | null;
  created_at: Generated<Date>;
}

export interface MonitorSettingsTable {
  company_id: number;
  /** contracts `MonitorSettings`. */
  settings: Json<unknown>;
  updated_by: number | null;
  updated_at: Timestamp;
}

export interface AlertEmailPreferencesTable {
  user_id: number;
  company_id: number;
  email: boolean;
  updated_at: Timestamp;
}

export interface MonitorMessageBucketsTable {
  company_id: number;
  /** 0: not a campaign's message. */
  campaign_id: Generated<number>;
  /** The carrier's error code as text; '' for delivered or failed without a code. */
  error_code: Generated<string>;
  /** Start of the 5-minute bucket (UTC). */
  bucket_start: Date | string;
  delivered: Generated<number>;
  failed: Generated<number>;
  /** Which of the bucket's rows (0–7; the counting event's id modulo 8, so concurrent counts do not queue on one row). */
  shard: Generated<number>;
}

export interface MonitorVoicemailsTable {
  call_id: number;
  company_id: number;
  number_id: number;
  /** E.164 of the caller who left the voicemail. */
  party: string;
  voicemail_id: number;
  left_at: Date | string;
  answered_at: NullableTimestamp;
}

export interface MonitorCallCompaniesTable {
  company_id: number;
  last_call_at: Date | string;
}

export interface MonitoringTables {
  column_presets: ColumnPresetsTable;
  favorite_reports: FavoriteReportsTable;
  alerts: AlertsTable;
  alert_history: AlertHistoryTable;
  monitor_settings: MonitorSettingsTable;
  alert_email_preferences: AlertEmailPreferencesTable;
  monitor_message_buckets: MonitorMessageBucketsTable;
  monitor_voicemails: MonitorVoicemailsTable;
  monitor_call_companies: MonitorCallCompaniesTable;
}
