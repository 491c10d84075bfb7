/** Initial schema: accounts, auth, numbers, calls, conversations, contacts, sandbox carrier. */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table organizations (
      id bigint generated always as identity primary key,
      name text not null,
      owner_id bigint,
      created_at timestamptz not null default now()
    );
    create table companies (
      id bigint generated always as identity primary key,
      organization_id bigint references organizations(id) on delete set null,
      name text not null,
      timezone text not null default 'America/New_York',
      help_text text not null default '',
      quiet_hours_start text not null default '08:00',
      quiet_hours_end text not null default '21:00',
      links_enabled boolean not null default false,
      created_at timestamptz not null default now()
    );
    create table users (
      id bigint generated always as identity primary key,
      email text not null,
      first_name text not null default '',
      last_name text not null default '',
      password_hash text not null,
      timezone text not null default 'America/New_York',
      read_whats_new_at timestamptz,
      support_pins text,
      sip_address text,
      sip_user text,
      sip_password text,
      in_app_calling_status text not null default 'away',
      totp_secret text,
      totp_enabled boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index users_email_key on users (lower(email));
    create table company_users (
      company_id bigint not null references companies(id) on delete cascade,
      user_id bigint not null references users(id) on delete cascade,
      role text not null check (role in ('owner','administrator','billing','reporting','user','deactivated')),
      created_at timestamptz not null default now(),
      primary key (company_id, user_id)
    );
    create index company_users_user on company_users (user_id);
    create table organization_admins (
      organization_id bigint not null references organizations(id) on delete cascade,
      user_id bigint not null references users(id) on delete cascade,
      created_at timestamptz not null default now(),
      primary key (organization_id, user_id)
    );
    create table sessions (
      id text primary key,
      user_id bigint not null references users(id) on delete cascade,
      mfa_pending boolean not null default false,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      expires_at timestamptz not null,
      user_agent text,
      ip text
    );
    create index sessions_user on sessions (user_id);
    create table api_tokens (
      id bigint generated always as identity primary key,
      user_id bigint not null references users(id) on delete cascade,
      name text not null,
      token_hash text not null unique,
      created_at timestamptz not null default now(),
      last_used_at timestamptz,
      expires_at timestamptz
    );
    create table password_resets (
      id bigint generated always as identity primary key,
      user_id bigint not null references users(id) on delete cascade,
      token_hash text not null unique,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    );
    create table auth_throttle (
      key text primary key,
      failures integer not null,
      window_started_at timestamptz not null,
      locked_until timestamptz
    );
    create table mail_outbox (
      id bigint generated always as identity primary key,
      to_address text not null,
      subject text not null,
      text_body text not null,
      html_body text,
      transport text not null,
      created_at timestamptz not null default now(),
      delivered_at timestamptz
    );
    create table numbers (
      id bigint generated always as identity primary key,
      company_id bigint not null references companies(id) on delete cascade,
      number text not null,
      label text not null default '',
      type smallint not null,
      service_type smallint not null default 1,
      category smallint not null default 1,
      provider_id smallint not null default 1,
      carrier_sid text,
      routes jsonb not null default '[]',
      schedule jsonb not null default '{}',
      round_robin_cursor integer not null default 0,
      sms_enabled boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      released_at timestamptz
    );
    create unique index numbers_active_number on numbers (number) where released_at is null;
    create index numbers_company on numbers (company_id, id) where released_at is null;
    create table contacts (
      id bigint generated always as identity primary key,
      company_id bigint not null references companies(id) on delete cascade,
      name text not null default '',
      number text,
      email text,
      company_name text,
      notes text,
      source text not null default 'Manual',
      is_unsubscribed boolean not null default false,
      is_invalid boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index contacts_company_number on contacts (company_id, number);
    create table conversations (
      id bigint generated always as identity primary key,
      company_id bigint not null references companies(id) on delete cascade,
      number_id bigint not null references numbers(id) on delete cascade,
      recipient text not null,
      contact_id bigint references contacts(id) on delete set null,
      last_activity_at timestamptz not null default now(),
      is_archived boolean not null default false,
      created_at timestamptz not null default now(),
      unique (number_id, recipient)
    );
    create index conversations_inbox on conversations (company_id, is_archived, last_activity_at desc, id desc);
    create table calls (
      id bigint generated always as identity primary key,
      company_id bigint not null references companies(id) on delete cascade,
      number_id bigint not null references numbers(id) on delete cascade,
      carrier_sid text not null unique,
      from_number text not null,
      to_number text not null,
      from_state text,
      direction text not null,
      status smallint not null,
      extension integer,
      forwarded_to text,
      duration_s integer not null default 0,
      conversation_id bigint references conversations(id) on delete set null,
      contact_id bigint references contacts(id) on delete set null,
      started_at timestamptz not null default now(),
      answered_at timestamptz,
      ended_at timestamptz
    );
    create index calls_company_started on calls (company_id, started_at desc, id desc);
    create table call_events (
      id bigint generated always as identity primary key,
      call_id bigint not null references calls(id) on delete cascade,
      status smallint not null,
      detail jsonb not null default '{}',
      created_at timestamptz not null default now()
    );
    create index call_events_call on call_events (call_id, id);
    create table voicemails (
      id bigint generated always as identity primary key,
      company_id bigint not null references companies(id) on delete cascade,
      call_id bigint not null unique references calls(id) on delete cascade,
      number_id bigint not null references numbers(id) on delete cascade,
      recording_url text not null,
      recording_sid text,
      duration_s integer not null default 0,
      is_read boolean not null default false,
      created_at timestamptz not null default now()
    );
    create index voicemails_company on voicemails (company_id, created_at desc);
    create table conversation_items (
      id bigint generated always as identity primary key,
      company_id bigint not null references companies(id) on delete cascade,
      conversation_id bigint not null references conversations(id) on delete cascade,
      type text not null,
      is_inbound boolean not null,
      is_read boolean not null default false,
      body text,
      media jsonb not null default '[]',
      delivery_state text,
      error_code integer,
      carrier_sid text unique,
      call_id bigint references calls(id) on delete cascade,
      voicemail_id bigint references voicemails(id) on delete cascade,
      user_id bigint references users(id) on delete set null,
      should_be_sent_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index conversation_items_thread on conversation_items (conversation_id, created_at desc, id desc);
    create index conversation_items_unread on conversation_items (conversation_id) where not is_read;
    create index conversation_items_company on conversation_items (company_id, created_at desc, id desc);
    create table blocks (
      id bigint generated always as identity primary key,
      company_id bigint not null references companies(id) on delete cascade,
      number_id bigint references numbers(id) on delete cascade,
      target text not null,
      global boolean not null default false,
      action text not null default 'reject',
      created_at timestamptz not null default now()
    );
    create index blocks_company_target on blocks (company_id, target);
    create table webhook_receipts (
      key text primary key,
      status_code integer not null,
      content_type text not null,
      body text not null,
      created_at timestamptz not null default now()
    );
    create table sandbox_numbers (
      sid text primary key,
      number text not null,
      voice_url text not null,
      sms_url text not null,
      purchased_at timestamptz not null default now(),
      released_at timestamptz
    );
    create unique index sandbox_numbers_active on sandbox_numbers (number) where released_at is null;
    create table sandbox_messages (
      sid text primary key,
      direction text not null,
      from_number text not null,
      to_number text not null,
      body text not null default '',
      media jsonb not null default '[]',
      status text not null,
      error_code integer,
      status_callback text,
      created_at timestamptz not null default now()
    );
    create index sandbox_messages_handset on sandbox_messages (from_number, to_number, created_at);
    create table sandbox_calls (
      sid text primary key,
      from_number text not null,
      to_number text not null,
      status text not null,
      log jsonb not null default '[]',
      created_at timestamptz not null default now()
    );
    create table if not exists socket_io_attachments (
      id bigserial unique,
      created_at timestamptz default now(),
      payload bytea
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop schema public cascade; create schema public;`.execute(db);
}
