/**
 * Kysely table types of the consumer area (modules/caddy; migration 0060_caddy; docs/consumer-area.md). Part of `DB`
 * (schema.ts); every table is listed in `modules/ownership.ts` TABLE_OWNERS under `caddy`. Times UTC.
 */
import type { ColumnType, Generated } from 'kysely';

type TimeOrNull = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json = ColumnType<Record<string, unknown>, string | undefined, string>;

/** A person of the consumer app. */
export interface CaddyAccountsTable {
  id: Generated<number>;
  email: string | null;
  /** E.164. */
  phone: string | null;
  name: Generated<string>;
  password_hash: string | null;
  /** The app-store link (appAccountToken / obfuscatedExternalAccountId). */
  iap_id: Generated<string>;
  plan: Generated<string>;
  subscription_status: Generated<string>;
  subscription_store: 'apple' | 'google' | 'sandbox' | null;
  subscription_product_id: string | null;
  subscription_expires_at: TimeOrNull;
  /** Signing time of the store notification the status was taken from (never regressed by an older one). */
  subscription_changed_at: TimeOrNull;
  /** The store purchase the status comes from: Apple `originalTransactionId` / Google `purchaseToken` (0062). */
  subscription_purchase_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The hidden company holding the account's numbers and inbox. */
  company_id: number;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** A one-time code of sign-up, sign-in or password reset. */
export interface CaddyCodesTable {
  id: Generated<number>;
  purpose: 'register' | 'login' | 'reset';
  channel: 'email' | 'phone';
  /** Lower-case e-mail or E.164. */
  target: string;
  code_hash: string;
  /** Sign-up: what the first step asked for (name, password hash). */
  pending: Json;
  attempts: Generated<number>;
  expires_at: Date;
  consumed_at: TimeOrNull;
  created_at: Generated<Date>;
}

/** A consumer bearer token (its SHA-256 is the id). */
export interface CaddySessionsTable {
  id: string;
  account_id: number;
  expires_at: Date;
  created_at: Generated<Date>;
  last_used_at: Generated<Date>;
}

/** A number of an account (numbers module's row `number_id`). */
export interface CaddyNumbersTable {
  id: Generated<number>;
  account_id: number | null;
  number_id: number;
  number: string;
  is_active: Generated<boolean>;
  will_be_removed_at: TimeOrNull;
  released_at: TimeOrNull;
  /** `subscription`: made inactive by the store subscription's end (restored by a renewal; migration 0061). */
  inactive_reason: ColumnType<'subscription' | null, 'subscription' | null | undefined, 'subscription' | null>;
  created_at: Generated<Date>;
}

/** A removal reminder sent. */
export interface CaddyRemindersTable {
  caddy_number_id: number;
  kind: '7d' | '1d';
  removal_at: Date;
  sent_at: Generated<Date>;
}

/** Usage of one account in one month (UTC). */
export interface CaddyUsageTable {
  account_id: number;
  /** First day of the month. */
  period: ColumnType<Date, string, string>;
  call_seconds: ColumnType<string, number | undefined, never>;
  texts_in: Generated<number>;
  texts_out: Generated<number>;
}

/** A domain event already counted (idempotency key). */
export interface CaddyUsageEventsTable {
  key: string;
  account_id: number;
  created_at: Generated<Date>;
}

/** A store server notification taken. */
export interface CaddyStoreEventsTable {
  notification_id: string;
  store: string;
  type: string;
  subtype: string | null;
  account_id: number | null;
  signed_at: Date;
  status: string | null;
  applied: Generated<boolean>;
  received_at: Generated<Date>;
  /** The store's product id and expiry the notification carried (migration 0061). */
  product_id: ColumnType<string | null, string | null | undefined, string | null>;
  expires_at: TimeOrNull;
  /** Apple `originalTransactionId` / Google `purchaseToken` (0062). */
  purchase_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** The sandbox store's own subscription records (offline stand-in for the App Store and Google Play; 0061). */
export interface CaddyStoreSandboxTable {
  /** Apple `originalTransactionId` / Google `purchaseToken`. */
  purchase_id: string;
  store: 'apple' | 'google';
  iap_id: string;
  product_id: string;
  /** Google Play's `subscriptionState` names (SUBSCRIPTION_STATE_ACTIVE, …), used for both stores. */
  state: string;
  auto_renew: Generated<boolean>;
  expires_at: Date;
  /** The last notification's time (ms), so each new one is strictly newer. */
  last_event_ms: ColumnType<string | number, number | undefined, number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** An invitation texted to a phone number. */
export interface CaddyInvitationsTable {
  id: Generated<number>;
  account_id: number;
  phone_number: string;
  joined_account_id: number | null;
  joined_at: TimeOrNull;
  created_at: Generated<Date>;
}

/** A phone number that asked for no more invitations. */
export interface CaddyInvitationOptoutsTable {
  phone_number: string;
  created_at: Generated<Date>;
}

/** The one review of an account. */
export interface CaddyReviewsTable {
  account_id: number;
  rating: number;
  comment: Generated<string>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** A file uploaded for support. */
export interface CaddySupportFilesTable {
  id: Generated<string>;
  account_id: number | null;
  blob_key: string;
  filename: string;
  content_type: string;
  size: number;
  report_id: number | null;
  created_at: Generated<Date>;
}

/** A customer report. */
export interface CaddySupportReportsTable {
  id: Generated<number>;
  account_id: number | null;
  email: string | null;
  subject: string;
  message: string;
  created_at: Generated<Date>;
}

/** The consumer area's tables. */
export interface CaddyTables {
  caddy_accounts: CaddyAccountsTable;
  caddy_codes: CaddyCodesTable;
  caddy_sessions: CaddySessionsTable;
  caddy_numbers: CaddyNumbersTable;
  caddy_reminders: CaddyRemindersTable;
  caddy_usage: CaddyUsageTable;
  caddy_usage_events: CaddyUsageEventsTable;
  caddy_store_events: CaddyStoreEventsTable;
  caddy_store_sandbox: CaddyStoreSandboxTable;
  caddy_invitations: CaddyInvitationsTable;
  caddy_invitation_optouts: CaddyInvitationOptoutsTable;
  caddy_reviews: CaddyReviewsTable;
  caddy_support_files: CaddySupportFilesTable;
  caddy_support_reports: CaddySupportReportsTable;
}
