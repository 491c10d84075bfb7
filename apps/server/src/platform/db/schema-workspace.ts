/**
 * Kysely table types added for modules settings, tags, data-groups, tenant, support (migration 0023; docs/workspace.md).
 * Part of `DB` (schema.ts); every table is listed in `modules/ownership.ts` TABLE_OWNERS under its owner.
 * The company `tags` table itself (migration 0003, owner `tags`) is typed in schema.ts.
 */
import type { ColumnType, Generated } from 'kysely';

type Json<T> = ColumnType<T, string, string>;

/** modules/settings: a company's general settings (absent row = the defaults) and its feature toggles. */
export interface GeneralSettingsTable {
  company_id: number;
  /** JSON of contracts `GeneralSettings` (every field present once saved). */
  settings: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  /** `feature/ai-eav` (spec 002 "Organizations and tenant"): AI custom-field extraction on the company's calls. */
  ai_eav_enabled: Generated<boolean>;
  updated_by: number | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** modules/tags: a tag on a contact or a number (calls keep their own `call_tags`). */
export interface TagLinksTable {
  tag_id: number;
  company_id: number;
  entity_type: string;
  entity_id: number;
  created_at: Generated<Date>;
}

/** modules/data-groups: spec 002 "Data group" (id, entities). */
export interface DataGroupsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  description: Generated<string>;
  created_by: number | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** modules/data-groups: one entity (number, contact, user, tag) of a data group. */
export interface DataGroupEntitiesTable {
  data_group_id: number;
  entity_type: string;
  entity_id: number;
  created_at: Generated<Date>;
}

/** modules/tenant: a white-label tenant, one per business unit (organization). */
export interface TenantsTable {
  id: Generated<number>;
  business_unit_id: number;
  name: string;
  logo_url: string | null;
  favicon_url: string | null;
  primary_color: string;
  secondary_color: string;
  support_email: string | null;
  support_phone: string | null;
  website_url: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** modules/tenant: a tenant's custom domain (app and API host names) and its verification. */
export interface TenantDomainsTable {
  tenant_id: number;
  domain: string;
  app_subdomain: string;
  api_subdomain: string;
  /** `{app}.{domain}`, lower case, unique across tenants: what `GET /tenant-config` matches. */
  app_hostname: string;
  api_hostname: string;
  verification_token: string;
  /** The last four characters of the DNS provider token given, never the token. */
  auth_token_hint: string | null;
  /** `pending` | `verified` | `failed`. */
  status: string;
  checked_at: Date | null;
  verified_at: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** modules/tenant: the tenant's e-mail sender (address, domain) and its DNS verification (DKIM, SPF, return path). */
export interface TenantEmailSendersTable {
  tenant_id: number;
  email: string;
  domain: string;
  dkim_selector: string;
  verification_token: string;
  /** `pending` | `verified` | `failed`. */
  status: string;
  /** JSON array of the last check, per record: `{name, type, ok}`. */
  last_check: ColumnType<Array<{ name: string; type: string; ok: boolean }> | null, string | null | undefined, string | null>;
  checked_at: Date | null;
  verified_at: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** modules/support: spec 002 "Support" ticket. */
export interface SupportTicketsTable {
  id: Generated<number>;
  company_id: number;
  user_id: number | null;
  message: string;
  callback_number: string | null;
  callback_requested: boolean;
  page_url: string | null;
  /** JSON array of `{key, name, contentType, size}` (blob keys under the company's space). */
  attachments: Json<Array<{ key: string; name: string; contentType: string; size: number }>>;
  /** Where the ticket was mailed (the tenant's support address). */
  sent_to: string;
  user_agent: string | null;
  created_at: Generated<Date>;
}

export interface WorkspaceTables {
  general_settings: GeneralSettingsTable;
  tag_links: TagLinksTable;
  data_groups: DataGroupsTable;
  data_group_entities: DataGroupEntitiesTable;
  tenants: TenantsTable;
  tenant_domains: TenantDomainsTable;
  tenant_email_senders: TenantEmailSendersTable;
  support_tickets: SupportTicketsTable;
}
