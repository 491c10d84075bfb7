/**
 * Kysely table types for the whole database. Each table is owned by one module (named in the
 * comment); only that module's repository reads or writes it. Times are `timestamptz` (UTC).
 * Migrations: `platform/migrations/`.
 */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { AccountsTables } from './schema-accounts.js';
import type { AnalyticsTables } from './schema-analytics.js';
import type { IntegrationsTables } from './schema-integrations.js';
import type { SignInTables } from './schema-signin.js';
import type { WorkspaceTables } from './schema-workspace.js';
import type { MonitoringTables } from './schema-monitoring.js';
import type { TrackingTables } from './schema-tracking.js';
import type { BillingTables } from './schema-billing.js';
import type { PushTables } from './schema-push.js';
import type { CallingTables } from './schema-calling.js';
import type { TranscriptionTables } from './schema-transcription.js';
import type { IntelligenceTables } from './schema-intelligence.js';
import type { CallerIdTables } from './schema-caller-id.js';
import type { FaxTables } from './schema-fax.js';
import type { SmsVerificationTables } from './schema-sms-verification.js';
import type { MarketplaceTables } from './schema-marketplace.js';
import type { AdIntegrationsTables } from './schema-ad-integrations.js';
import type { CaddyTables } from './schema-caddy.js';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T> = ColumnType<T, string | T, string | T>;

/** modules/companies */
export interface OrganizationsTable {
  id: Generated<number>;
  name: string;
  owner_id: number | null;
  created_at: Generated<Date>;
  /** Migration 0020 (docs/accounts.md). */
  updated_at: Generated<Date>;
}
/** modules/companies */
export interface CompaniesTable {
  id: Generated<number>;
  organization_id: number | null;
  name: string;
  timezone: string;
  help_text: string;
  quiet_hours_start: string;
  quiet_hours_end: string;
  links_enabled: Generated<boolean>;
  created_at: Generated<Date>;
  /** Migration 0008: campaign quiet hours on/off (docs/quiet-hours.md). */
  quiet_hours_enabled: Generated<boolean>;
  /** Migration 0020: 0 active, 1 parked, 2 deactivated (spec 002 §3; docs/accounts.md). */
  account_status: Generated<number>;
  status_changed_at: NullableTimestamp;
  /** Migration 0020: the `company_info` / `billing_info` given at creation (spec 002 §3 "Company creation"). */
  company_info: ColumnType<Record<string, unknown>, string | Record<string, unknown> | undefined, string | Record<string, unknown>>;
  billing_info: ColumnType<Record<string, unknown>, string | Record<string, unknown> | undefined, string | Record<string, unknown>>;
}
/** modules/companies: membership and role per company (spec foundation §6). */
export interface CompanyUsersTable {
  company_id: number;
  user_id: number;
  role: string;
  created_at: Generated<Date>;
  /** Migration 0020: the role given back when a deactivated member is activated again. */
  role_before_deactivation: string | null;
}
/** modules/companies */
export interface OrganizationAdminsTable {
  organization_id: number;
  user_id: number;
  created_at: Generated<Date>;
}

/** modules/users */
export interface UsersTable {
  id: Generated<number>;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  timezone: string;
  read_whats_new_at: NullableTimestamp;
  support_pins: string | null;
  sip_address: string | null;
  sip_user: string | null;
  sip_password: string | null;
  in_app_calling_status: Generated<string>;
  totp_secret: string | null;
  totp_enabled: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  /** Migration 0009: the deployment's operator (docs/auth.md "Operators"). */
  is_operator: Generated<boolean>;
}

/** platform/auth */
export interface SessionsTable {
  id: string; // sha256 of the cookie value
  user_id: number;
  mfa_pending: Generated<boolean>;
  created_at: Generated<Date>;
  last_seen_at: Generated<Date>;
  expires_at: Timestamp;
  user_agent: string | null;
  ip: string | null;
  /** Migration 0009: persistent cookie and 14 days (true) or browser-session cookie and 12 h idle (false). */
  remember: Generated<boolean>;
}
/** platform/auth: bearer tokens (stored hashed). */
export interface ApiTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  token_hash: string;
  created_at: Generated<Date>;
  last_used_at: NullableTimestamp;
  expires_at: NullableTimestamp;
}
/** modules/auth */
export interface PasswordResetsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  created_at: Generated<Date>;
}
/** modules/auth: failed sign-in counters per account and per address. */
export interface AuthThrottleTable {
  key: string;
  failures: number;
  window_started_at: Timestamp;
  locked_until: NullableTimestamp;
}
/** modules/auth (0009): the last TOTP time step accepted per user (a code is accepted once). */
export interface AuthTotpStepsTable {
  user_id: number;
  last_step: number;
  updated_at: Generated<Date>;
}

/** platform/mail: development outbox and delivery log. */
export interface MailOutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  transport: string;
  created_at: Generated<Date>;
  delivered_at: NullableTimestamp;
}

/** modules/numbers */
export interface NumbersTable {
  id: Generated<number>;
  company_id: number;
  number: string; // E.164
  label: string;
  type: number; // 1 local, 2 toll free, 3 Canadian
  service_type: number; // 1 voice and SMS, 2 fax
  category: number; // 1 Voice & SMS, 2 International, 3 Fax
  provider_id: number;
  carrier_sid: string | null;
  routes: Json<unknown[]>;
  schedule: Json<unknown>;
  round_robin_cursor: Generated<number>;
  sms_enabled: Generated<boolean>;
  /** 0013: menu replays after an invalid or missing choice (0-5) and then the fallback: first | voicemail | hangup. */
  menu_replays: Generated<number>;
  menu_fallback: Generated<string>;
  /** 0016: call settings of spec 002 §3 "Number" (record, transcribe, AI custom fields). */
  record: Generated<boolean>;
  call_transcription_enabled: Generated<boolean>;
  ai_eav_enabled: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  released_at: NullableTimestamp;
}

/** modules/contacts */
export interface ContactsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  number: string | null;
  email: string | null;
  company_name: string | null;
  notes: string | null;
  source: Generated<string>;
  is_unsubscribed: Generated<boolean>;
  is_invalid: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  // 0005_contacts_complete
  first_name: Generated<string>;
  last_name: Generated<string>;
  address1: string | null;
  address2: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  optin_type: string | null;
  optin_source: string | null;
  alternative_names: ColumnType<string[], string | string[] | undefined, string | string[]>;
  secondary_emails: ColumnType<string[], string | string[] | undefined, string | string[]>;
  carrier: string | null;
  gender: string | null;
  age_range: string | null;
  type: string | null;
  added_at: Timestamp;
  custom: ColumnType<Record<string, unknown>, string | Record<string, unknown> | undefined, string | Record<string, unknown>>;
}

/** modules/groups (0005) */
export interface ContactGroupsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  virtual: Generated<boolean>;
  link: string | null;
  user_id: number | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  deleted_at: NullableTimestamp;
}
/** modules/groups (0005) */
export interface ContactGroupMembersTable {
  group_id: number;
  contact_id: number;
  created_at: Generated<Date>;
}
/** modules/groups (0005) */
export interface ContactLabelsTable {
  id: Generated<number>;
  company_id: number;
  label: string;
  created_at: Generated<Date>;
}
/** modules/groups (0005) */
export interface ContactLabelMembersTable {
  label_id: number;
  contact_id: number;
}
/** modules/contacts (0005): one contact import batch. */
export interface ContactImportsTable {
  id: Generated<string>;
  company_id: number;
  user_id: number | null;
  status: Generated<string>; // queued | running | finished | failed
  file_key: string;
  file_type: string; // csv | xlsx
  mapping: Json<Record<string, unknown>>;
  group_ids: Json<number[]>;
  total: Generated<number>;
  processed: Generated<number>;
  progress: Generated<number>; // 0-100
  inserted: Generated<number>;
  merged: Generated<number>;
  invalid: Generated<number>;
  error: string | null;
  created_at: Generated<Date>;
  finished_at: NullableTimestamp;
  /** 0011: what a duplicate row does (skip | fill | overwrite) and how many were skipped. */
  duplicates: Generated<string>;
  skipped: Generated<number>;
}
/** modules/contacts (0011): the per-row report of an import (rows that did not simply add a contact). */
export interface ContactImportRowsTable {
  import_id: string;
  row_number: number;
  outcome: string; // updated | skipped | invalid
  reason: string;
  name: string | null;
  number: string | null;
}
/** platform/queue (0011): running processes with workers (heartbeat) and the resumable jobs each runs. */
export interface QueueWorkersTable {
  id: string;
  pid: number;
  host: string;
  started_at: Generated<Date>;
  heartbeat_at: Generated<Date>;
}
export interface QueueActiveJobsTable {
  job_id: string;
  queue: string;
  worker_id: string;
  started_at: Generated<Date>;
}
/** platform/events (0047): the transactional outbox of domain events (docs/architecture.md "Domain events"). */
export interface DomainEventsTable {
  id: Generated<number>;
  name: string;
  aggregate_type: string;
  aggregate_id: string;
  /** Position of the event among its aggregate's events (1, 2, …). */
  seq: number;
  payload: Json<unknown>;
  created_at: Generated<Date>;
}
/** platform/events (0047): one row per (consumer, event); `pending` rows are due at `next_at`, leased until `locked_until`. */
export interface EventDeliveriesTable {
  consumer: string;
  event_id: number;
  aggregate_key: string;
  status: Generated<'pending' | 'done' | 'dead'>;
  attempts: Generated<number>;
  next_at: Generated<Date>;
  locked_until: Date | null;
  locked_by: string | null;
  last_error: string | null;
  done_at: Date | null;
  /** When a counting consumer applied this event's effect (`events.claimEffect`). */
  effect_at: Date | null;
  created_at: Generated<Date>;
}
/** modules/custom-fields (0005) */
export interface EavAttributesTable {
  id: Generated<number>;
  entity_type: number;
  company_id: number | null;
  business_unit_id: number | null;
  parent_id: number | null;
  name: string;
  type: string;
  default_value: ColumnType<unknown, string | null, string | null>;
  choices: ColumnType<Array<{ id: number; value: string; sort_order: number; description: string | null }>, string | undefined, string>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
/** modules/custom-fields (0005) */
export interface EavValuesTable {
  id: Generated<number>;
  attribute_id: number;
  entity_type: number;
  entity_id: number;
  company_id: number | null;
  value: ColumnType<unknown, string | null, string | null>;
  updated_at: Generated<Date>;
}

/** modules/conversations: one per (business number, outside party). */
export interface ConversationsTable {
  id: Generated<number>;
  company_id: number;
  number_id: number;
  recipient: string; // E.164 of the outside party
  contact_id: number | null;
  last_activity_at: Generated<Date>;
  is_archived: Generated<boolean>;
  created_at: Generated<Date>;
}
/** modules/conversations: messages, calls, voicemails, faxes and notes of a thread. */
export interface ConversationItemsTable {
  id: Generated<number>;
  company_id: number;
  conversation_id: number;
  type: string; // message | call | voicemail | fax | note | scheduledmessage
  is_inbound: boolean;
  is_read: Generated<boolean>;
  body: string | null;
  media: Json<{ url: string; contentType: string }[]>;
  delivery_state: string | null; // queued | sending | sent | delivered | undelivered | failed | received
  error_code: number | null;
  carrier_sid: string | null;
  call_id: number | null;
  voicemail_id: number | null;
  user_id: number | null;
  should_be_sent_at: NullableTimestamp;
  /** 0004: call items: CALL_STATUS code and length in seconds. */
  call_status: number | null;
  duration_s: number | null;
  created_at: Generated<Date>;
  /** 0050: an inbound body cut to the carrier's limit, and the characters received (null when whole). */
  body_truncated: Generated<boolean>;
  body_original_length: number | null;
}

/** modules/calls */
export interface CallsTable {
  id: Generated<number>;
  company_id: number;
  number_id: number;
  carrier_sid: string;
  from_number: string;
  to_number: string;
  from_state: string | null;
  direction: string; // inbound | outbound
  status: number; // CALL_STATUS code
  extension: number | null;
  forwarded_to: string | null;
  duration_s: Generated<number>;
  conversation_id: number | null;
  contact_id: number | null;
  started_at: Generated<Date>;
  answered_at: NullableTimestamp;
  ended_at: NullableTimestamp;
  /** 0003: qualified 1, not qualified 2, lead 3 (spec 001). */
  qualification: number | null;
  /** 0003: custom-field values. */
  eav_attribute_values: ColumnType<Record<string, unknown>, string | undefined, string>;
}
/** modules/calls: the status history of a call. */
export interface CallEventsTable {
  id: Generated<number>;
  call_id: number;
  status: number;
  detail: Json<Record<string, unknown>>;
  created_at: Generated<Date>;
}
/** modules/calls */
export interface VoicemailsTable {
  id: Generated<number>;
  company_id: number;
  call_id: number;
  number_id: number;
  recording_url: string;
  recording_sid: string | null;
  duration_s: number;
  is_read: Generated<boolean>;
  created_at: Generated<Date>;
}
/** modules/calls: blocked callers (spec 001 Blocked caller). */
export interface BlocksTable {
  id: Generated<number>;
  company_id: number;
  number_id: number | null;
  target: string;
  global: boolean;
  action: string;
  created_at: Generated<Date>;
}

/** platform/http: responses to carrier webhooks by delivery key, so a repeated delivery has the effect of one. */
export interface WebhookReceiptsTable {
  key: string;
  status_code: number;
  content_type: string;
  body: string;
  created_at: Generated<Date>;
}

/** carriers/sandbox: numbers the simulated carrier has sold. */
export interface SandboxNumbersTable {
  sid: string;
  number: string;
  voice_url: string;
  sms_url: string;
  purchased_at: Generated<Date>;
  released_at: NullableTimestamp;
}
/** carriers/sandbox: the simulated handsets' messages (both directions). */
export interface SandboxMessagesTable {
  sid: string;
  direction: string; // inbound (handset → business) | outbound (business → handset)
  from_number: string;
  to_number: string;
  body: string;
  media: Json<string[]>;
  status: string;
  error_code: number | null;
  status_callback: string | null;
  created_at: Generated<Date>;
}
/** carriers/sandbox: simulated calls and what happened in them. */
/** carriers/sandbox (0046): a pending mid-call redirect of a simulated call's own leg. */
export interface SandboxCallRedirectsTable {
  sid: string;
  twiml: string;
  created_at: Generated<Date>;
}
export interface SandboxCallsTable {
  sid: string;
  from_number: string;
  to_number: string;
  status: string;
  log: Json<unknown[]>;
  created_at: Generated<Date>;
}

/** modules/schedules (0003): the company schedule and holiday dates "YYYY-MM-DD". */
export interface CompanySchedulesTable {
  company_id: number;
  schedule: Json<unknown>;
  holidays: Json<string[]>;
  updated_at: Generated<Date>;
}
/** modules/schedules (0003) */
export interface UserSchedulesTable {
  user_id: number;
  schedule: Json<unknown>;
  updated_at: Generated<Date>;
}
/** modules/schedules (0003): manual open/closed override of a number (auto = follow the schedule). */
export interface NumberOverridesTable {
  number_id: number;
  mode: string;
  until: NullableTimestamp;
  updated_at: Generated<Date>;
}
/** modules/greetings (0003) */
export interface GreetingsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  content: string;
  voice: string;
  source: string; // tts | upload
  audio_key: string;
  content_type: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
/** modules/greetings (0003): greeting per (number, extension, kind menu|voicemail|whisper). */
export interface GreetingAssignmentsTable {
  number_id: number;
  extension: number;
  kind: string;
  greeting_id: number;
}
/** modules/tags (0003; colour and update time 0023): company tags, used on calls, contacts and numbers. */
export interface TagsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  color: Generated<string>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
/** modules/calls (0003) */
export interface CallTagsTable {
  call_id: number;
  tag_id: number;
  created_at: Generated<Date>;
}
/** modules/notes (0003) */
export interface NotesTable {
  id: Generated<number>;
  company_id: number;
  model_type: string;
  model_id: number;
  user_id: number | null;
  body: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** modules/numbers: a background batch (release, bulk update, bulk purchase) with per-item state. */
export interface NumberBatchesTable {
  id: Generated<string>; // uuid
  company_id: number;
  user_id: number | null;
  kind: string; // release | update | purchase
  total: number;
  done: Generated<number>;
  failed: Generated<number>;
  params: Json<Record<string, unknown>>;
  items: Json<unknown[]>;
  created_at: Generated<Date>;
  finished_at: NullableTimestamp;
}
/** modules/numbers: named forward destinations of a company ("Mike's cell"). */
export interface ForwardContactsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  number: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
/** modules/numbers: a company's number limit when it differs from the default. */
export interface CompanyNumberLimitsTable {
  company_id: number;
  number_limit: number;
  updated_at: Generated<Date>;
}
/** modules/numbers: number limit increase requests. */
export interface NumberLimitRequestsTable {
  id: Generated<number>;
  company_id: number;
  user_id: number | null;
  current_limit: number;
  requested_limit: number;
  reason: string;
  status: Generated<string>;
  created_at: Generated<Date>;
}
/** modules/numbers: per-number triggers (event → e-mail or webhook). */
export interface NumberTriggersTable {
  id: Generated<number>;
  company_id: number;
  number_id: number;
  event: string;
  action: string;
  target: string;
  /** Standard Webhooks secret (`whsec_…`) of a webhook trigger; null for e-mail. */
  signing_secret: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
/** modules/numbers: one firing of a trigger per event (docs/numbers.md "Triggers"). */
export interface NumberTriggerFiringsTable {
  id: Generated<number>;
  trigger_id: number;
  company_id: number;
  event_key: string;
  payload: Json<Record<string, unknown>>;
  state: Generated<string>;
  attempts: Generated<number>;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Generated<Date>;
  finished_at: Date | null;
}
/** modules/number-templates */
export interface NumberTemplatesTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  routes: Json<unknown[]>;
  schedule: Json<unknown>;
  record: Generated<boolean>;
  call_transcription_enabled: Generated<boolean>;
  ai_eav_enabled: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
/** modules/ports: port-in requests. */
export interface PortRequestsTable {
  id: Generated<number>;
  company_id: number;
  user_id: number | null;
  numbers: Json<string[]>;
  carrier_name: string;
  account_number: string;
  pin: string;
  authorized_name: string;
  service_address: string;
  bill_copy: string | null;
  state: Generated<string>; // submitted | in_progress | completed | rejected
  reason: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  completed_at: NullableTimestamp;
}

/** modules/notifications (0004): a user's muted notifications per number and channel type (sms | call | voicemail | fax). */
export interface NotificationBlocksTable {
  id: Generated<number>;
  company_id: number;
  user_id: number;
  number_id: number;
  channel_type: string;
  created_at: Generated<Date>;
}

/** modules/campaigns (0006): a campaign (spec 001 §3 Campaign) with its counters. */
export interface CampaignsTable {
  id: Generated<number>;
  user_id: number | null;
  company_id: number;
  type: Generated<string>; // sms
  title: string;
  text: Generated<string>;
  unsubscribe_text: Generated<string>;
  should_be_sent_at: NullableTimestamp;
  state: Generated<string>; // pending | draft | queued | sending | canceled | paused | sent | failed
  sent_count: Generated<number>;
  delivered_count: Generated<number>;
  undelivered_count: Generated<number>;
  responded_count: Generated<number>;
  unsubscriber_count: Generated<number>;
  skipped_unsubscribed_count: Generated<number>;
  skipped_invalid_count: Generated<number>;
  recipients_count: Generated<number>;
  number_id: number | null;
  preview_count: Generated<number>;
  preview_credits: Generated<number>;
  started: Generated<boolean>; // recipients resolved
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  dynamic_fields: Json<unknown[]>;
  skip_inbox: Generated<boolean>;
  rate_per_second: number | null; // messages/s per number; 0 = unlimited; null = company setting
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
/** modules/campaigns (0006) */
export interface CampaignGroupsTable {
  campaign_id: number;
  group_id: number;
}
/** modules/campaigns (0006): MMS media of a campaign (blob store). */
export interface CampaignMediaTable {
  id: Generated<number>;
  campaign_id: number;
  position: number;
  name: string;
  url: string;
  blob_key: string | null;
  content_type: string;
  created_at: Generated<Date>;
}
/** modules/campaigns (0006): company campaign settings (sending rate per number, messages/s; 0 = unlimited). */
export interface CampaignSettingsTable {
  company_id: number;
  rate_per_second: number | null;
  updated_at: Generated<Date>;
}
/** modules/campaigns (0006): one recipient of a campaign; the at-most-once send ledger. */
export interface CampaignRecipientsTable {
  id: Generated<number>;
  campaign_id: number;
  company_id: number;
  contact_id: number;
  number: string;
  merge: Json<Record<string, string | null>>;
  state: Generated<string>; // pending | sending | sent | delivered | undelivered | failed | unknown | skipped_unsubscribed | skipped_invalid | responded
  not_before: NullableTimestamp;
  claimed_at: NullableTimestamp;
  /** 0011: the queue worker (platform/queue `workerId`) that claimed the row. */
  claimed_by: string | null;
  carrier_sid: string | null;
  item_id: number | null;
  error_code: number | null;
  sent_at: NullableTimestamp;
  delivered_at: NullableTimestamp;
  responded_at: NullableTimestamp;
  unsubscribed_at: NullableTimestamp;
  created_at: Generated<Date>;
}

export interface DB
  extends
    TrackingTables,
    AnalyticsTables,
    MonitoringTables,
    AccountsTables,
    IntegrationsTables,
    SignInTables,
    WorkspaceTables,
    BillingTables,
    PushTables,
    CallingTables,
    TranscriptionTables,
    IntelligenceTables,
    CallerIdTables,
    FaxTables,
    SmsVerificationTables,
    MarketplaceTables,
    AdIntegrationsTables,
    CaddyTables {
  organizations: OrganizationsTable;
  companies: CompaniesTable;
  company_users: CompanyUsersTable;
  organization_admins: OrganizationAdminsTable;
  users: UsersTable;
  sessions: SessionsTable;
  api_tokens: ApiTokensTable;
  password_resets: PasswordResetsTable;
  auth_throttle: AuthThrottleTable;
  mail_outbox: MailOutboxTable;
  auth_totp_steps: AuthTotpStepsTable;
  numbers: NumbersTable;
  contacts: ContactsTable;
  contact_groups: ContactGroupsTable;
  contact_group_members: ContactGroupMembersTable;
  contact_labels: ContactLabelsTable;
  contact_label_members: ContactLabelMembersTable;
  contact_imports: ContactImportsTable;
  contact_import_rows: ContactImportRowsTable;
  queue_workers: QueueWorkersTable;
  queue_active_jobs: QueueActiveJobsTable;
  domain_events: DomainEventsTable;
  event_deliveries: EventDeliveriesTable;
  eav_attributes: EavAttributesTable;
  eav_values: EavValuesTable;
  conversations: ConversationsTable;
  conversation_items: ConversationItemsTable;
  notification_blocks: NotificationBlocksTable;
  calls: CallsTable;
  call_events: CallEventsTable;
  voicemails: VoicemailsTable;
  blocks: BlocksTable;
  webhook_receipts: WebhookReceiptsTable;
  sandbox_numbers: SandboxNumbersTable;
  sandbox_messages: SandboxMessagesTable;
  sandbox_calls: SandboxCallsTable;
  sandbox_call_redirects: SandboxCallRedirectsTable;
  number_batches: NumberBatchesTable;
  forward_contacts: ForwardContactsTable;
  company_number_limits: CompanyNumberLimitsTable;
  number_limit_requests: NumberLimitRequestsTable;
  number_triggers: NumberTriggersTable;
  number_trigger_firings: NumberTriggerFiringsTable;
  number_templates: NumberTemplatesTable;
  port_requests: PortRequestsTable;
  company_schedules: CompanySchedulesTable;
  user_schedules: UserSchedulesTable;
  number_overrides: NumberOverridesTable;
  greetings: GreetingsTable;
  greeting_assignments: GreetingAssignmentsTable;
  tags: TagsTable;
  call_tags: CallTagsTable;
  notes: NotesTable;
  campaigns: CampaignsTable;
  campaign_groups: CampaignGroupsTable;
  campaign_media: CampaignMediaTable;
  campaign_settings: CampaignSettingsTable;
  campaign_recipients: CampaignRecipientsTable;
  in_app_calls: InAppCallsTable;
  app_secrets: AppSecretsTable;
}

/** platform/blob (0010): server secrets generated once and shared by every node. */
export interface AppSecretsTable {
  name: string;
  value: string;
  created_at: Generated<Date>;
}

/** modules/in-app-calling (0007): a call that rang in-app users or was placed from the browser. */
export interface InAppCallsTable {
  call_id: number;
  company_id: number;
  carrier_sid: string;
  direction: Generated<string>; // inbound | outbound
  join_token: string;
  rung_user_ids: ColumnType<number[], number[] | undefined, number[]>;
  rejected_by: ColumnType<number[], number[] | undefined, number[]>;
  answered_by: number | null;
  answered_at: NullableTimestamp;
  ended_at: NullableTimestamp;
  end_reason: string | null;
  placed_by: number | null;
  created_at: Generated<Date>;
}

export type Row<T extends keyof DB> = Selectable<DB[T]>;
export type NewRow<T extends keyof DB> = Insertable<DB[T]>;
export type RowUpdate<T extends keyof DB> = Updateable<DB[T]>;
