/**
 * Tables of alerts (modules/alerts) and report preferences (modules/report-preferences); docs/alerts.md.
 *
 * - `column_presets`: spec 001 "Column preset" (id, data) per report kind, scoped to a company or a business unit
 *   (organization); exactly one of the two is set.
 * - `favorite_reports`: spec 002 "Favorite report" (id, value: a JSON string), per user and company.
 * - `alerts`: what the monitors raised; the partial unique index `alerts_one_active_per_subject` is what makes a
 *   subject carry at most ONE active (open or acknowledged) alert, whatever the number of nodes running the monitors.
 * - `alert_history`: every change of an alert (who: null = the monitor; when), never deleted with a change.
 * - `monitor_settings`: a company's thresholds (JSON of contracts `MonitorSettings`; absent row = defaults).
 * - `alert_email_preferences`: a member's choice of alert e-mails in a company (absent row = no e-mail).
 * - `monitor_message_buckets`: the monitors' own counters of outbound message outcomes per company, campaign (0 = not
 *   a campaign's) and carrier error code ('' = no error) in 5-minute buckets, fed by `message.status-changed`.
 * - `monitor_voicemails`: voicemails the unanswered-voicemail monitor watches (fed by `call.changed`).
 * - `monitor_call_companies`: companies that had calls, with the latest (the number-silence monitor's list).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table column_presets (
      id bigserial primary key,
      kind text not null,
      name text not null,
      data jsonb not null,
      company_id bigint references companies(id) on delete cascade,
      business_unit_id bigint references organizations(id) on delete cascade,
      user_id bigint references users(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint column_presets_one_scope check ((company_id is null) <> (business_unit_id is null))
    )`.execute(db);
  await sql`create index column_presets_company on column_presets (company_id, kind) where company_id is not null`.execute(db);
  await sql`create index column_presets_business_unit on column_presets (business_unit_id, kind) where business_unit_id is not null`.execute(db);

  await sql`
    create table favorite_reports (
      id bigserial primary key,
      user_id bigint not null references users(id) on delete cascade,
      company_id bigint not null references companies(id) on delete cascade,
      value text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index favorite_reports_owner on favorite_reports (user_id, company_id, id)`.execute(db);

  await sql`
    create table alerts (
      id bigserial primary key,
      company_id bigint not null references companies(id) on delete cascade,
      type text not null,
      severity text not null default 'warning',
      state text not null default 'open',
      subject_type text not null,
      subject_id text not null,
      subject_label text not null,
      title text not null,
      message text not null,
      details jsonb not null default '{}',
      reason text,
      comment text,
      read_at timestamptz,
      closed_by bigint references users(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      resolved_at timestamptz
    )`.execute(db);
  await sql`create unique index alerts_one_active_per_subject on alerts (company_id, type, subject_id) where state in ('open', 'acknowledged')`.execute(db);
  await sql`create index alerts_company_created on alerts (company_id, created_at desc, id desc)`.execute(db);
  await sql`create index alerts_subject on alerts (company_id, type, subject_id, updated_at desc)`.execute(db);

  await sql`
    create table alert_history (
      id bigserial primary key,
      alert_id bigint not null references alerts(id) on delete cascade,
      action text not null,
      from_state text,
      to_state text,
      reason text,
      comment text,
      user_id bigint references users(id) on delete set null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index alert_history_alert on alert_history (alert_id, id)`.execute(db);

  await sql`
    create table monitor_settings (
      company_id bigint primary key references companies(id) on delete cascade,
      settings jsonb not null,
      updated_by bigint references users(id) on delete set null,
      updated_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table alert_email_preferences (
      user_id bigint not null references users(id) on delete cascade,
      company_id bigint not null references companies(id) on delete cascade,
      email boolean not null,
      updated_at timestamptz not null default now(),
      primary key (company_id, user_id)
    )`.execute(db);

  await sql`
    create table monitor_message_buckets (
      company_id bigint not null references companies(id) on delete cascade,
      campaign_id bigint not null default 0,
      error_code text not null default '',
      bucket_start timestamptz not null,
      delivered integer not null default 0,
      failed integer not null default 0,
      primary key (company_id, bucket_start, campaign_id, error_code)
    )`.execute(db);

  await sql`
    create table monitor_voicemails (
      call_id bigint primary key,
      company_id bigint not null references companies(id) on delete cascade,
      number_id bigint not null,
      party text not null,
      voicemail_id bigint not null,
      left_at timestamptz not null,
      answered_at timestamptz
    )`.execute(db);
  await sql`create index monitor_voicemails_open on monitor_voicemails (company_id, party) where answered_at is null`.execute(db);

  await sql`
    create table monitor_call_companies (
      company_id bigint primary key references companies(id) on delete cascade,
      last_call_at timestamptz not null
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'monitor_call_companies',
    'monitor_voicemails',
    'monitor_message_buckets',
    'alert_email_preferences',
    'monitor_settings',
    'alert_history',
    'alerts',
    'favorite_reports',
    'column_presets',
  ])
    await sql`drop table if exists ${sql.table(t)}`.execute(db);
}
