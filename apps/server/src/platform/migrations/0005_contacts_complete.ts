/**
 * Contacts, complete (docs/contacts.md; spec 001 §3 "Contact", "Contact group", "Contact label",
 * "Custom field", "Batch progress"): every contact field, groups and their members, labels,
 * import batches and custom fields (EAV attributes and values). Owned by modules/contacts,
 * modules/groups and modules/custom-fields.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table contacts
      add column first_name text not null default '',
      add column last_name text not null default '',
      add column address1 text,
      add column address2 text,
      add column city text,
      add column state text,
      add column zip text,
      add column optin_type text,
      add column optin_source text,
      add column alternative_names jsonb not null default '[]',
      add column secondary_emails jsonb not null default '[]',
      add column carrier text,
      add column gender text check (gender in ('Male','Female','Other')),
      add column age_range text,
      add column type text check (type in ('Person','Business','Other')),
      add column added_at timestamptz not null default now(),
      add column custom jsonb not null default '{}';
    create index contacts_company_id on contacts (company_id, id);
    create index contacts_company_name on contacts (company_id, lower(name));

    create table contact_groups (
      id bigint generated always as identity primary key,
      company_id bigint not null references companies(id) on delete cascade,
      name text not null,
      virtual boolean not null default false,
      link text,
      user_id bigint references users(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    );
    create index contact_groups_company on contact_groups (company_id, name) where deleted_at is null;
    create table contact_group_members (
      group_id bigint not null references contact_groups(id) on delete cascade,
      contact_id bigint not null references contacts(id) on delete cascade,
      created_at timestamptz not null default now(),
      primary key (group_id, contact_id)
    );
    create index contact_group_members_contact on contact_group_members (contact_id);

    create table contact_labels (
      id bigint generated always as identity primary key,
      company_id bigint not null references companies(id) on delete cascade,
      label text not null,
      created_at timestamptz not null default now()
    );
    create unique index contact_labels_company_label on contact_labels (company_id, lower(label));
    create table contact_label_members (
      label_id bigint not null references contact_labels(id) on delete cascade,
      contact_id bigint not null references contacts(id) on delete cascade,
      primary key (label_id, contact_id)
    );
    create index contact_label_members_contact on contact_label_members (contact_id);

    create table contact_imports (
      id uuid primary key default gen_random_uuid(),
      company_id bigint not null references companies(id) on delete cascade,
      user_id bigint references users(id) on delete set null,
      status text not null default 'queued' check (status in ('queued','running','finished','failed')),
      file_key text not null,
      file_type text not null check (file_type in ('csv','xlsx')),
      mapping jsonb not null default '{}',
      group_ids jsonb not null default '[]',
      total integer not null default 0,
      processed integer not null default 0,
      progress real not null default 0,
      inserted integer not null default 0,
      merged integer not null default 0,
      invalid integer not null default 0,
      error text,
      created_at timestamptz not null default now(),
      finished_at timestamptz
    );
    create index contact_imports_company on contact_imports (company_id, created_at desc);

    create table eav_attributes (
      id bigint generated always as identity primary key,
      entity_type smallint not null check (entity_type between 1 and 7),
      company_id bigint references companies(id) on delete cascade,
      business_unit_id bigint references organizations(id) on delete cascade,
      parent_id bigint references eav_attributes(id) on delete cascade,
      name text not null,
      type text not null check (type in ('text','number','date','select','multiselect','boolean')),
      default_value jsonb,
      choices jsonb not null default '[]',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check ((company_id is null) <> (business_unit_id is null))
    );
    create index eav_attributes_company on eav_attributes (company_id, entity_type);
    create index eav_attributes_business_unit on eav_attributes (business_unit_id, entity_type);
    create index eav_attributes_parent on eav_attributes (parent_id);
    create table eav_values (
      id bigint generated always as identity primary key,
      attribute_id bigint not null references eav_attributes(id) on delete cascade,
      entity_type smallint not null,
      entity_id bigint not null,
      company_id bigint references companies(id) on delete cascade,
      value jsonb,
      updated_at timestamptz not null default now(),
      unique (attribute_id, entity_id)
    );
    create index eav_values_entity on eav_values (entity_type, entity_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table eav_values; drop table eav_attributes; drop table contact_imports;
    drop table contact_label_members; drop table contact_labels; drop table contact_group_members; drop table contact_groups;
    alter table contacts drop column first_name, drop column last_name, drop column address1, drop column address2, drop column city,
      drop column state, drop column zip, drop column optin_type, drop column optin_source, drop column alternative_names,
      drop column secondary_emails, drop column carrier, drop column gender, drop column age_range, drop column type,
      drop column added_at, drop column custom;
  `.execute(db);
}
