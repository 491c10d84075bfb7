/**
 * Tables of organizations, invitations and account status (modules/companies, modules/users;
 * docs/accounts.md).
 * - `companies.account_status` (spec 002 §3 "Account status: 0 active, 1 parked, 2 deactivated"),
 *   `status_changed_at`, `company_info` / `billing_info` (spec 002 §3 "Company creation").
 * - `organizations.updated_at`.
 * - `company_users.role_before_deactivation`: the role given back on activation (spec §4 "Users can
 *   be activated or deactivated per account").
 * - `user_numbers`: the numbers assigned to a user in a company (spec "User: ... numbers"), read by
 *   in-app calling to ring only those users.
 * - `invitations`: single-use, expiring invitation links (the token is stored hashed, sha256).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table companies
      add column account_status smallint not null default 0 check (account_status in (0, 1, 2)),
      add column status_changed_at timestamptz,
      add column company_info jsonb not null default '{}'::jsonb,
      add column billing_info jsonb not null default '{}'::jsonb;
    create index companies_organization_idx on companies (organization_id, lower(name)) where organization_id is not null;

    alter table organizations add column updated_at timestamptz not null default now();

    alter table company_users add column role_before_deactivation text;

    create table user_numbers (
      company_id bigint not null references companies(id) on delete cascade,
      user_id bigint not null references users(id) on delete cascade,
      number_id bigint not null references numbers(id) on delete cascade,
      created_at timestamptz not null default now(),
      primary key (company_id, user_id, number_id)
    );
    create index user_numbers_number_idx on user_numbers (number_id, company_id);

    create table invitations (
      id bigserial primary key,
      company_id bigint not null references companies(id) on delete cascade,
      email text not null,
      role text not null,
      first_name text not null default '',
      last_name text not null default '',
      numbers jsonb not null default '[]'::jsonb,
      token_hash text not null unique,
      invited_by bigint references users(id) on delete set null,
      expires_at timestamptz not null,
      sent_count integer not null default 1,
      last_sent_at timestamptz not null default now(),
      accepted_at timestamptz,
      accepted_user_id bigint references users(id) on delete set null,
      revoked_at timestamptz,
      created_at timestamptz not null default now()
    );
    create unique index invitations_pending_email on invitations (company_id, lower(email)) where accepted_at is null and revoked_at is null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table if exists invitations;
    drop table if exists user_numbers;
    alter table company_users drop column if exists role_before_deactivation;
    alter table organizations drop column if exists updated_at;
    drop index if exists companies_organization_idx;
    alter table companies drop column if exists account_status, drop column if exists status_changed_at,
      drop column if exists company_info, drop column if exists billing_info;
  `.execute(db);
}
