/**
 * Tables of general settings, tags, data groups, tenant, support tickets (modules/settings, tags, data-groups, tenant,
 * support; docs/workspace.md). The company `tags` table (0003) gains a colour and an update time; contacts and
 * numbers are tagged through `tag_links` (calls keep `call_tags`).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table tags add column color text not null default '#228be6';
    alter table tags add column updated_at timestamptz not null default now();

    create table general_settings (
      company_id bigint primary key references companies(id) on delete cascade,
      settings jsonb,
      ai_eav_enabled boolean not null default false,
      updated_by bigint references users(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    create table tag_links (
      tag_id bigint not null references tags(id) on delete cascade,
      company_id bigint not null references companies(id) on delete cascade,
      entity_type text not null check (entity_type in ('contact', 'number')),
      entity_id bigint not null,
      created_at timestamptz not null default now(),
      primary key (tag_id, entity_type, entity_id)
    );
    create index tag_links_entity on tag_links (entity_type, entity_id);

    create table data_groups (
      id bigserial primary key,
      company_id bigint not null references companies(id) on delete cascade,
      name text not null,
      description text not null default '',
      created_by bigint references users(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index data_groups_company_name on data_groups (company_id, lower(name));
    create table data_group_entities (
      data_group_id bigint not null references data_groups(id) on delete cascade,
      entity_type text not null check (entity_type in ('number', 'contact', 'user', 'tag')),
      entity_id bigint not null,
      created_at timestamptz not null default now(),
      primary key (data_group_id, entity_type, entity_id)
    );

    create table tenants (
      id bigserial primary key,
      business_unit_id bigint not null unique references organizations(id) on delete cascade,
      name text not null,
      logo_url text,
      favicon_url text,
      primary_color text not null default '#228be6',
      secondary_color text not null default '#15aabf',
      support_email text,
      support_phone text,
      website_url text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create table tenant_domains (
      tenant_id bigint primary key references tenants(id) on delete cascade,
      domain text not null,
      app_subdomain text not null,
      api_subdomain text not null,
      app_hostname text not null unique,
      api_hostname text not null unique,
      verification_token text not null,
      auth_token_hint text,
      status text not null default 'pending' check (status in ('pending', 'verified', 'failed')),
      checked_at timestamptz,
      verified_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create table tenant_email_senders (
      tenant_id bigint primary key references tenants(id) on delete cascade,
      email text not null,
      domain text not null,
      dkim_selector text not null,
      verification_token text not null,
      status text not null default 'pending' check (status in ('pending', 'verified', 'failed')),
      last_check jsonb,
      checked_at timestamptz,
      verified_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    create table support_tickets (
      id bigserial primary key,
      company_id bigint not null references companies(id) on delete cascade,
      user_id bigint references users(id) on delete set null,
      message text not null,
      callback_number text,
      callback_requested boolean not null default false,
      page_url text,
      attachments jsonb not null default '[]',
      sent_to text not null,
      user_agent text,
      created_at timestamptz not null default now()
    );
    create index support_tickets_company on support_tickets (company_id, id desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table support_tickets; drop table tenant_email_senders; drop table tenant_domains; drop table tenants;
    drop table data_group_entities; drop table data_groups; drop table tag_links; drop table general_settings;
    alter table tags drop column updated_at; alter table tags drop column color;
  `.execute(db);
}
