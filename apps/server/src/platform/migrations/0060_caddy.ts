/**
 * The consumer area (modules/caddy; spec 002 "Consumer area", "Consumer account", "Consumer number";
 * docs/consumer-area.md). Every table belongs to the caddy module:
 * - `caddy_accounts`: a person of the consumer app (e-mail and/or phone, password hash, store link `iap_id`, plan and
 *   subscription status), with the hidden company that holds their numbers and inbox (`company_id`);
 * - `caddy_codes`: the one-time codes of sign-up, sign-in and password reset (hashed, expiry, attempts);
 * - `caddy_sessions`: consumer bearer tokens (hashed), separate from the business product's sessions;
 * - `caddy_numbers`: the account's numbers (active, or inactive until `will_be_removed_at`, then released);
 * - `caddy_reminders`: the removal reminders sent (7 and 1 days before), once each;
 * - `caddy_usage`, `caddy_usage_events`: minutes and texts per account and month, counted once per domain event;
 * - `caddy_store_events`: store server notifications taken (idempotent on the notification id);
 * - `caddy_invitations`, `caddy_invitation_optouts`: invitations by SMS and the numbers that opted out;
 * - `caddy_reviews`: one review per account;
 * - `caddy_support_files`, `caddy_support_reports`: support uploads and customer reports.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table caddy_accounts (
      id bigserial primary key,
      email text,
      phone text,
      name text not null default '',
      password_hash text,
      iap_id uuid not null unique default gen_random_uuid(),
      plan text not null default 'starter',
      subscription_status text not null default 'not_subscribed',
      subscription_store text check (subscription_store in ('apple', 'google', 'sandbox')),
      subscription_product_id text,
      subscription_expires_at timestamptz,
      subscription_changed_at timestamptz,
      company_id bigint not null references companies(id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check (email is not null or phone is not null)
    );
    create unique index caddy_accounts_email on caddy_accounts (lower(email)) where email is not null;
    create unique index caddy_accounts_phone on caddy_accounts (phone) where phone is not null;
    create unique index caddy_accounts_company on caddy_accounts (company_id);

    create table caddy_codes (
      id bigserial primary key,
      purpose text not null check (purpose in ('register', 'login', 'reset')),
      channel text not null check (channel in ('email', 'phone')),
      target text not null,
      code_hash text not null,
      pending jsonb not null default '{}'::jsonb,
      attempts integer not null default 0,
      expires_at timestamptz not null,
      consumed_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index caddy_codes_target on caddy_codes (purpose, target, created_at desc);

    create table caddy_sessions (
      id text primary key,
      account_id bigint not null references caddy_accounts(id) on delete cascade,
      expires_at timestamptz not null,
      created_at timestamptz not null default now(),
      last_used_at timestamptz not null default now()
    );
    create index caddy_sessions_account on caddy_sessions (account_id);

    create table caddy_numbers (
      id bigserial primary key,
      account_id bigint references caddy_accounts(id) on delete set null,
      number_id bigint not null,
      number text not null,
      is_active boolean not null default true,
      will_be_removed_at timestamptz,
      released_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index caddy_numbers_account on caddy_numbers (account_id) where released_at is null;
    create index caddy_numbers_due on caddy_numbers (will_be_removed_at) where released_at is null and will_be_removed_at is not null;
    create unique index caddy_numbers_number_id on caddy_numbers (number_id) where released_at is null;

    create table caddy_reminders (
      caddy_number_id bigint not null references caddy_numbers(id) on delete cascade,
      kind text not null check (kind in ('7d', '1d')),
      removal_at timestamptz not null,
      sent_at timestamptz not null default now(),
      primary key (caddy_number_id, kind, removal_at)
    );

    create table caddy_usage (
      account_id bigint not null references caddy_accounts(id) on delete cascade,
      period date not null,
      call_seconds bigint not null default 0,
      texts_in integer not null default 0,
      texts_out integer not null default 0,
      primary key (account_id, period)
    );
    create table caddy_usage_events (
      key text primary key,
      account_id bigint not null references caddy_accounts(id) on delete cascade,
      created_at timestamptz not null default now()
    );

    create table caddy_store_events (
      notification_id text primary key,
      store text not null,
      type text not null,
      subtype text,
      account_id bigint references caddy_accounts(id) on delete set null,
      signed_at timestamptz not null,
      status text,
      applied boolean not null default false,
      received_at timestamptz not null default now()
    );

    create table caddy_invitations (
      id bigserial primary key,
      account_id bigint not null references caddy_accounts(id) on delete cascade,
      phone_number text not null,
      joined_account_id bigint references caddy_accounts(id) on delete set null,
      joined_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index caddy_invitations_account on caddy_invitations (account_id, created_at desc);
    create index caddy_invitations_phone on caddy_invitations (phone_number, created_at desc);
    create table caddy_invitation_optouts (
      phone_number text primary key,
      created_at timestamptz not null default now()
    );

    create table caddy_reviews (
      account_id bigint primary key references caddy_accounts(id) on delete cascade,
      rating smallint not null check (rating between 1 and 5),
      comment text not null default '',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    create table caddy_support_files (
      id uuid primary key default gen_random_uuid(),
      account_id bigint references caddy_accounts(id) on delete cascade,
      blob_key text not null,
      filename text not null,
      content_type text not null,
      size integer not null,
      report_id bigint,
      created_at timestamptz not null default now()
    );
    create table caddy_support_reports (
      id bigserial primary key,
      account_id bigint references caddy_accounts(id) on delete set null,
      email text,
      subject text not null,
      message text not null,
      created_at timestamptz not null default now()
    );
  `.execute(db);
}
