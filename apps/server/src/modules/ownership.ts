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
  ['companies', 'tenant', 'audit'],
  ['custom-fields', 'users', 'auth', 'notes', 'blocklist', 'settings', 'tags', 'api-keys', 'support'],
  ['routing', 'numbers', 'number-templates', 'ports', 'schedules', 'greetings', 'contacts', 'data-groups', 'caller-id'],
  ['in-app-calling', 'conversations', 'sms-verification'],
  ['messaging', 'calls', 'fax'],
  ['campaigns', 'tracking', 'transcription'],
  ['analytics', 'call-intelligence'],
  ['activity', 'notifications', 'dev', 'simulator', 'health', 'alerts', 'report-preferences', 'webhooks', 'push', 'billing', 'marketplace', 'integrations'],
  ['caddy'],
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
  number_trigger_firings: 'numbers',
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
  call_tags: 'calls',
  // campaigns
  campaigns: 'campaigns',
  campaign_groups: 'campaigns',
  campaign_media: 'campaigns',
  campaign_settings: 'campaigns',
  campaign_recipients: 'campaigns',
  notification_blocks: 'notifications',
  // call tracking (DNI): pools, sources, visitor sessions, attribution, leads
  dni_settings: 'tracking',
  dni_pools: 'tracking',
  dni_pool_numbers: 'tracking',
  dni_pool_purchases: 'tracking',
  dni_exhaustions: 'tracking',
  dni_static_sources: 'tracking',
  dni_leads: 'tracking',
  dni_sessions: 'tracking',
  dni_page_views: 'tracking',
  dni_texts: 'tracking',
  dni_call_attributions: 'tracking',
  dni_sweep_schedule: 'tracking',
  // analytics: the reporting store (call facts and rollups), exports
  call_facts: 'analytics',
  call_facts_pending: 'analytics',
  call_attributions: 'analytics',
  call_rollup_hours: 'analytics',
  call_rollup_hour_numbers: 'analytics',
  call_rollup_hour_sources: 'analytics',
  call_rollup_hour_pools: 'analytics',
  call_rollup_days: 'analytics',
  call_rollup_day_numbers: 'analytics',
  call_rollup_day_sources: 'analytics',
  call_rollup_day_pools: 'analytics',
  analytics_exports: 'analytics',
  analytics_job_runs: 'analytics',
  analytics_leases: 'analytics',
  // alerts (monitors) and report preferences (favourite reports, column presets)
  alerts: 'alerts',
  alert_history: 'alerts',
  monitor_settings: 'alerts',
  alert_email_preferences: 'alerts',
  monitor_message_buckets: 'alerts',
  monitor_voicemails: 'alerts',
  monitor_call_companies: 'alerts',
  column_presets: 'report-preferences',
  favorite_reports: 'report-preferences',
  // accounts: organizations, invitations, per-company user state (companies, users)
  user_numbers: 'users',
  invitations: 'users',
  // integrations: API keys, outbound webhooks and their deliveries, the audit log
  webhook_endpoints: 'webhooks',
  webhook_deliveries: 'webhooks',
  webhook_attempts: 'webhooks',
  audit_log: 'audit',
  // sign-in extras: OIDC identities, SMS codes, admin sessions, push subscriptions (auth, push)
  admin_sessions: 'platform',
  mfa_sms: 'auth',
  oidc_identities: 'auth',
  oidc_flows: 'auth',
  oidc_link_consents: 'auth',
  // push: browser Web Push subscriptions, APNs VoIP tokens, pushed notifications and their deliveries (push)
  push_subscriptions: 'push',
  apns_voip_tokens: 'push',
  push_notifications: 'push',
  push_deliveries: 'push',
  // workspace: general settings, tags, data groups, tenant, support tickets
  general_settings: 'settings',
  tags: 'tags',
  tag_links: 'tags',
  data_groups: 'data-groups',
  data_group_entities: 'data-groups',
  tenants: 'tenant',
  tenant_domains: 'tenant',
  tenant_email_senders: 'tenant',
  support_tickets: 'support',
  // billing: plans, subscriptions, payment methods, usage, invoices, dunning (billing)
  billing_plans: 'billing',
  billing_accounts: 'billing',
  billing_subscriptions: 'billing',
  billing_usage: 'billing',
  billing_number_days: 'billing',
  billing_invoice_sequence: 'billing',
  billing_invoices: 'billing',
  billing_invoice_lines: 'billing',
  // outbound calling (in-app-calling, calls)
  caller_id_preferences: 'in-app-calling',
  sandbox_handset_calls: 'carriers',
  // caller-id (caller-id)
  caller_id_lookups: 'caller-id',
  caller_id_settings: 'caller-id',
  // sms-verification (sms-verification)
  sms_brands: 'sms-verification',
  sms_campaigns: 'sms-verification',
  sms_campaign_numbers: 'sms-verification',
  sms_verification_history: 'sms-verification',
  // fax (fax)
  faxes: 'fax',
  // transcription (transcription); call recordings (calls)
  call_recordings: 'calls',
  transcripts: 'transcription',
  transcript_segments: 'transcription',
  // call-intelligence (call-intelligence)
  call_search_docs: 'call-intelligence',
  ai_attribute_rules: 'call-intelligence',
  call_search_exports: 'call-intelligence',
  // marketplace (marketplace)
  marketplace_numbers: 'marketplace',
  marketplace_listings: 'marketplace',
  // integrations with ad platforms, analytics, CRMs and Slack (integrations)
  ad_integrations: 'integrations',
  ad_integration_oauth_states: 'integrations',
  ad_integration_deliveries: 'integrations',
  ad_integration_touches: 'integrations',
  // the consumer area (caddy)
  caddy_accounts: 'caddy',
  caddy_codes: 'caddy',
  caddy_sessions: 'caddy',
  caddy_numbers: 'caddy',
  caddy_reminders: 'caddy',
  caddy_usage: 'caddy',
  caddy_usage_events: 'caddy',
  caddy_store_events: 'caddy',
  caddy_store_sandbox: 'caddy',
  caddy_invitations: 'caddy',
  caddy_invitation_optouts: 'caddy',
  caddy_reviews: 'caddy',
  caddy_support_files: 'caddy',
  caddy_support_reports: 'caddy',
  // platform: sessions and bearer tokens (platform/auth), mail (platform/mail), webhook receipts
  // (platform/http), job bookkeeping (platform/queue.ts), the domain-event outbox (platform/events), server secrets (platform/blob)
  sessions: 'platform',
  api_tokens: 'platform',
  mail_outbox: 'platform',
  webhook_receipts: 'platform',
  queue_workers: 'platform',
  queue_active_jobs: 'platform',
  domain_events: 'platform',
  event_deliveries: 'platform',
  app_secrets: 'platform',
  // the sandbox carrier's simulated network (carriers/sandbox)
  sandbox_numbers: 'carriers',
  sandbox_messages: 'carriers',
  sandbox_calls: 'carriers',
  sandbox_call_redirects: 'carriers',
} as const satisfies Record<keyof DB, TableOwner>;
