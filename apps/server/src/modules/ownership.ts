/**
 * The module map (docs/architecture.md "Module map" and "Table ownership"): which module owns each
 * table, and the levels modules depend along. Read by the boundary checks in `eslint-rules/`
 * (`switchboard/table-ownership`, `switchboard/module-layers`) with the TypeScript parser, so keep
 * both as plain literals. A table is read and written only by its owner's repository; other
 * modules go through the owner's service or a read-only query function it publishes.
 *
 * `platform` owns the infrastructure tables (`platform/auth`, `platform/mail`, `platform/http`,
 * `platform/queue.ts`, `platform/blob`); `carriers` owns the sandbox carrier's simulated network.
 * A read-only view a module publishes for reporting is listed here like a table, under that
 * module. Migrations create every table and are exempt.
 */
import type { DB } from '../platform/db/schema.js';

/**
 * Module levels, lowest first: a module may import modules of its own level or below, never above;
 * within a level imports stay one-way (no cycles).
 */
export const MODULE_LAYERS = [
  ['companies'],
  ['custom-fields', 'users', 'auth', 'notes', 'blocklist'],
  ['routing', 'numbers', 'number-templates', 'ports', 'schedules', 'greetings', 'contacts'],
  ['in-app-calling', 'conversations'],
  ['messaging', 'calls'],
  ['campaigns'],
  ['activity', 'notifications', 'dev', 'simulator', 'health'],
] as const;

/** A module named in the map. */
export type ModuleName = (typeof MODULE_LAYERS)[number][number];

/** Who may own a table: a module, the platform, or the carriers' adapters. */
export type TableOwner = ModuleName | 'platform' | 'carriers';

/** Every table of the `DB` schema (`platform/db/schema.ts`) and its owner; the type check fails if one is missing. */
export const TABLE_OWNERS = {
  // companies: tenancy, membership, organizations
  organizations: 'companies',
  organization_admins: 'companies',
  companies: 'companies',
  company_users: 'companies',
  // users and sign-in
  users: 'users',
  password_resets: 'auth',
  auth_throttle: 'auth',
  auth_totp_steps: 'auth',
  // custom fields (EAV)
  eav_attributes: 'custom-fields',
  eav_values: 'custom-fields',
  notes: 'notes',
  blocks: 'blocklist',
  // numbers and what hangs on a number
  numbers: 'numbers',
  number_batches: 'numbers',
  forward_contacts: 'numbers',
  company_number_limits: 'numbers',
  number_limit_requests: 'numbers',
  number_triggers: 'numbers',
  number_templates: 'number-templates',
  port_requests: 'ports',
  company_schedules: 'schedules',
  user_schedules: 'schedules',
  number_overrides: 'schedules',
  greetings: 'greetings',
  greeting_assignments: 'greetings',
  // the contact book, its groups and labels, imports
  contacts: 'contacts',
  contact_groups: 'contacts',
  contact_group_members: 'contacts',
  contact_labels: 'contacts',
  contact_label_members: 'contacts',
  contact_imports: 'contacts',
  contact_import_rows: 'contacts',
  // the inbox
  conversations: 'conversations',
  conversation_items: 'conversations',
  in_app_calls: 'in-app-calling',
  // calls
  calls: 'calls',
  call_events: 'calls',
  voicemails: 'calls',
  tags: 'calls',
  call_tags: 'calls',
  // campaigns
  campaigns: 'campaigns',
  campaign_groups: 'campaigns',
  campaign_media: 'campaigns',
  campaign_settings: 'campaigns',
  campaign_recipients: 'campaigns',
  notification_blocks: 'notifications',
  // platform: sessions and bearer tokens (platform/auth), mail (platform/mail), webhook receipts
  // (platform/http), job bookkeeping (platform/queue.ts), server secrets (platform/blob)
  sessions: 'platform',
  api_tokens: 'platform',
  mail_outbox: 'platform',
  webhook_receipts: 'platform',
  queue_workers: 'platform',
  queue_active_jobs: 'platform',
  app_secrets: 'platform',
  // the sandbox carrier's simulated network (carriers/sandbox)
  sandbox_numbers: 'carriers',
  sandbox_messages: 'carriers',
  sandbox_calls: 'carriers',
} as const satisfies Record<keyof DB, TableOwner>;
