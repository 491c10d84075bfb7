/** SQL for `organizations`, `companies`, `company_users` and `organization_admins`. */
import { sql } from 'kysely';
import type { DbOrTx } from '../../platform/db/db.js';

export type CompanyRow = {
  id: number;
  organization_id: number | null;
  name: string;
  timezone: string;
  help_text: string;
  quiet_hours_start: string;
  quiet_hours_end: string;
  links_enabled: boolean;
  quiet_hours_enabled: boolean;
  created_at: Date;
  account_status: number;
  status_changed_at: Date | null;
  company_info: Record<string, unknown>;
  billing_info: Record<string, unknown>;
};
export type CompanyMessagingSettingsRow = {
  name: string;
  help_text: string;
  links_enabled: boolean;
  quiet_hours_enabled: boolean;
  quiet_hours_start: string;
  quiet_hours_end: string;
  timezone: string;
};
export type MembershipRow = CompanyRow & { role: string };
export type OrganizationRow = { id: number; name: string; owner_id: number | null; created_at: Date; updated_at: Date };

/** `text` with LIKE's wildcards escaped (backslash is PostgreSQL's default escape). */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => '\\' + c);
}

/**
 * A membership's effective role: `deactivated` when the account itself is deactivated (account
 * status 2, docs/accounts.md "Account status"), else the stored role.
 */
const EFFECTIVE_ROLE = sql<string>`case when companies.account_status = 2 then 'deactivated' else company_users.role end`;

/** The companies module's SQL (the only code that reads or writes its tables). */
export const companiesRepository = {
  /** The user's effective role in the company (see EFFECTIVE_ROLE), if a member. */
  async membership(db: DbOrTx, userId: number, companyId: number): Promise<{ role: string } | undefined> {
    return db
      .selectFrom('company_users')
      .innerJoin('companies', 'companies.id', 'company_users.company_id')
      .select(EFFECTIVE_ROLE.as('role'))
      .where('company_users.user_id', '=', userId)
      .where('company_users.company_id', '=', companyId)
      .executeTakeFirst();
  },
  /** The user's companies with their effective role, by name. */
  async listForUser(db: DbOrTx, userId: number): Promise<MembershipRow[]> {
    return db
      .selectFrom('company_users')
      .innerJoin('companies', 'companies.id', 'company_users.company_id')
      .selectAll('companies')
      .select(EFFECTIVE_ROLE.as('role'))
      .where('company_users.user_id', '=', userId)
      .orderBy('companies.name')
      .orderBy('companies.id')
      .execute();
  },
  /** The organization (business unit) of a company: null when none; undefined when the company does not exist. */
  async organizationOf(db: DbOrTx, id: number): Promise<number | null | undefined> {
    return (await db.selectFrom('companies').select('organization_id').where('id', '=', id).executeTakeFirst())?.organization_id;
  },
  async find(db: DbOrTx, id: number): Promise<CompanyRow | undefined> {
    return db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst();
  },
  /** The messaging settings columns of one company (docs/quiet-hours.md). */
  async messagingSettings(db: DbOrTx, id: number): Promise<CompanyMessagingSettingsRow | undefined> {
    return db
      .selectFrom('companies')
      .select(['name', 'help_text', 'links_enabled', 'quiet_hours_enabled', 'quiet_hours_start', 'quiet_hours_end', 'timezone'])
      .where('id', '=', id)
      .executeTakeFirst();
  },
  async updateSettings(db: DbOrTx, id: number, patch: Omit<CompanyMessagingSettingsRow, 'name'>): Promise<CompanyMessagingSettingsRow | undefined> {
    return db
      .updateTable('companies')
      .set(patch)
      .where('id', '=', id)
      .returning(['name', 'help_text', 'links_enabled', 'quiet_hours_enabled', 'quiet_hours_start', 'quiet_hours_end', 'timezone'])
      .executeTakeFirst();
  },
  async createOrganization(db: DbOrTx, name: string, ownerId: number | null): Promise<number> {
    return (await db.insertInto('organizations').values({ name, owner_id: ownerId }).returning('id').executeTakeFirstOrThrow()).id;
  },
  async create(
    db: DbOrTx,
    row: {
      name: string;
      organization_id: number | null;
      timezone: string;
      help_text?: string;
      company_info?: Record<string, unknown>;
      billing_info?: Record<string, unknown>;
    },
  ): Promise<number> {
    const { company_info, billing_info, ...rest } = row;
    return (
      await db
        .insertInto('companies')
        .values({
          help_text: '',
          quiet_hours_start: '08:00',
          quiet_hours_end: '21:00',
          ...rest,
          ...(company_info ? { company_info: JSON.stringify(company_info) } : {}),
          ...(billing_info ? { billing_info: JSON.stringify(billing_info) } : {}),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  },
  async addMember(db: DbOrTx, companyId: number, userId: number, role: string): Promise<void> {
    await db
      .insertInto('company_users')
      .values({ company_id: companyId, user_id: userId, role })
      .onConflict((oc) => oc.columns(['company_id', 'user_id']).doUpdateSet({ role }))
      .execute();
  },
  async addOrganizationAdmin(db: DbOrTx, organizationId: number, userId: number): Promise<void> {
    await db
      .insertInto('organization_admins')
      .values({ organization_id: organizationId, user_id: userId })
      .onConflict((oc) => oc.doNothing())
      .execute();
  },
  /** True when the user belongs to at least one company that sits in an organization, or administers one. */
  async hasBusinessUnits(db: DbOrTx, userId: number): Promise<boolean> {
    const admin = await db.selectFrom('organization_admins').select('user_id').where('user_id', '=', userId).executeTakeFirst();
    if (admin) return true;
    const member = await db
      .selectFrom('company_users')
      .innerJoin('companies', 'companies.id', 'company_users.company_id')
      .select('companies.id')
      .where('company_users.user_id', '=', userId)
      .where('companies.organization_id', 'is not', null)
      .executeTakeFirst();
    return Boolean(member);
  },
  /** Members of the company whose role is not `deactivated`, with their role, by user id. */
  async activeMembers(db: DbOrTx, companyId: number): Promise<Array<{ user_id: number; role: string }>> {
    return db
      .selectFrom('company_users')
      .innerJoin('companies', 'companies.id', 'company_users.company_id')
      .select(['company_users.user_id', 'company_users.role'])
      .where('company_users.company_id', '=', companyId)
      .where('company_users.role', '!=', 'deactivated')
      .where('companies.account_status', '!=', 2)
      .orderBy('company_users.user_id')
      .execute();
  },
  /** Effective roles of the user across companies (to refuse sign-in when all are `deactivated`). */
  async rolesOf(db: DbOrTx, userId: number): Promise<string[]> {
    return (
      await db
        .selectFrom('company_users')
        .innerJoin('companies', 'companies.id', 'company_users.company_id')
        .select(EFFECTIVE_ROLE.as('role'))
        .where('company_users.user_id', '=', userId)
        .execute()
    ).map((r) => r.role);
  },
  // ---------------------------------------------------------------- organizations (docs/accounts.md)

  async findOrganization(db: DbOrTx, id: number): Promise<OrganizationRow | undefined> {
    return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
  },
  async isOrganizationAdmin(db: DbOrTx, organizationId: number, userId: number): Promise<boolean> {
    const row = await db
      .selectFrom('organization_admins')
      .select('user_id')
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Boolean(row);
  },
  /** Organizations the user administers, by name then id; `search` matches the name (case-insensitive). */
  async organizationsOfAdmin(
    db: DbOrTx,
    userId: number,
    q: { search?: string; limit: number; offset: number },
  ): Promise<{ rows: OrganizationRow[]; total: number }> {
    let base = db
      .selectFrom('organizations')
      .innerJoin('organization_admins', 'organization_admins.organization_id', 'organizations.id')
      .where('organization_admins.user_id', '=', userId);
    if (q.search) base = base.where(sql<boolean>`organizations.name ilike ${'%' + escapeLike(q.search) + '%'}`);
    const [rows, count] = await Promise.all([
      base
        .selectAll('organizations')
        .orderBy(sql`lower(organizations.name)`)
        .orderBy('organizations.id')
        .limit(q.limit)
        .offset(q.offset)
        .execute(),
      base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  },
  /** Companies and administrators per organization. */
  async organizationCounts(db: DbOrTx, ids: readonly number[]): Promise<Map<number, { companies: number; admins: number }>> {
    const out = new Map<number, { companies: number; admins: number }>(ids.map((id) => [id, { companies: 0, admins: 0 }]));
    if (ids.length === 0) return out;
    const [companies, admins] = await Promise.all([
      db
        .selectFrom('companies')
        .select(['organization_id', (eb) => eb.fn.countAll<string>().as('n')])
        .where('organization_id', 'in', ids)
        .groupBy('organization_id')
        .execute(),
      db
        .selectFrom('organization_admins')
        .select(['organization_id', (eb) => eb.fn.countAll<string>().as('n')])
        .where('organization_id', 'in', ids)
        .groupBy('organization_id')
        .execute(),
    ]);
    for (const c of companies) out.get(c.organization_id!)!.companies = Number(c.n);
    for (const a of admins) out.get(a.organization_id)!.admins = Number(a.n);
    return out;
  },
  async renameOrganization(db: DbOrTx, id: number, name: string): Promise<void> {
    await db.updateTable('organizations').set({ name, updated_at: new Date() }).where('id', '=', id).execute();
  },
  async deleteOrganization(db: DbOrTx, id: number): Promise<void> {
    await db.deleteFrom('organizations').where('id', '=', id).execute();
  },
  /** The organization's companies, by name then id, with their number of members (any role). */
  async organizationCompanies(
    db: DbOrTx,
    organizationId: number,
    q: { search?: string; status?: number; limit: number; offset: number },
  ): Promise<{ rows: Array<CompanyRow & { users_count: string }>; total: number }> {
    let base = db.selectFrom('companies').where('companies.organization_id', '=', organizationId);
    if (q.search) base = base.where(sql<boolean>`companies.name ilike ${'%' + escapeLike(q.search) + '%'}`);
    if (q.status !== undefined) base = base.where('companies.account_status', '=', q.status);
    const [rows, count] = await Promise.all([
      base
        .selectAll('companies')
        .select((eb) =>
          eb.selectFrom('company_users').select(eb.fn.countAll<string>().as('c')).whereRef('company_users.company_id', '=', 'companies.id').as('users_count'),
        )
        .orderBy(sql`lower(companies.name)`)
        .orderBy('companies.id')
        .limit(q.limit)
        .offset(q.offset)
        .execute(),
      base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows: rows as Array<CompanyRow & { users_count: string }>, total: Number(count.n) };
  },
  /** Ids of the organization's companies (all, or those of `ids` that belong to it), ascending. */
  async organizationCompanyIds(db: DbOrTx, organizationId: number, ids?: readonly number[]): Promise<number[]> {
    let q = db.selectFrom('companies').select('id').where('organization_id', '=', organizationId);
    if (ids) {
      if (ids.length === 0) return [];
      q = q.where('id', 'in', ids);
    }
    return (await q.orderBy('id').execute()).map((r) => r.id);
  },
  /** Sets the account status of these companies (only those whose status differs get a new `status_changed_at`). */
  async setAccountStatus(db: DbOrTx, ids: readonly number[], status: number): Promise<number> {
    if (ids.length === 0) return 0;
    const r = await db
      .updateTable('companies')
      .set({ account_status: status, status_changed_at: new Date() })
      .where('id', 'in', ids)
      .where('account_status', '!=', status)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  },
  /** Bulk account update of settings columns (docs/accounts.md "Bulk account update"). */
  async bulkUpdateSettings(
    db: DbOrTx,
    ids: readonly number[],
    patch: { timezone?: string; links_enabled?: boolean; quiet_hours_enabled?: boolean },
  ): Promise<number> {
    if (ids.length === 0 || Object.keys(patch).length === 0) return 0;
    const r = await db.updateTable('companies').set(patch).where('id', 'in', ids).executeTakeFirst();
    return Number(r.numUpdatedRows);
  },
  async deleteCompany(db: DbOrTx, id: number): Promise<void> {
    await db.deleteFrom('companies').where('id', '=', id).execute();
  },
  /** The organization's administrators: user id and since when, oldest first. */
  async organizationAdmins(db: DbOrTx, organizationId: number): Promise<Array<{ user_id: number; created_at: Date }>> {
    return db
      .selectFrom('organization_admins')
      .select(['user_id', 'created_at'])
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .orderBy('user_id')
      .execute();
  },
  /** Removes the administrator; true when a row was removed. */
  async removeOrganizationAdmin(db: DbOrTx, organizationId: number, userId: number): Promise<boolean> {
    const r = await db.deleteFrom('organization_admins').where('organization_id', '=', organizationId).where('user_id', '=', userId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  },
  /** Gives the user `role` in every company of the organization where they have no membership yet. */
  async attachToOrganizationCompanies(db: DbOrTx, organizationId: number, userId: number, role: string): Promise<void> {
    await db
      .insertInto('company_users')
      .columns(['company_id', 'user_id', 'role'])
      .expression((eb) =>
        eb
          .selectFrom('companies')
          .select(['companies.id', eb.val(userId).as('user_id'), eb.val(role).as('role')])
          .where('companies.organization_id', '=', organizationId),
      )
      .onConflict((oc) => oc.columns(['company_id', 'user_id']).doNothing())
      .execute();
  },
  /** Removes the user's memberships in every company of the organization; the ids of those companies. */
  async detachFromOrganizationCompanies(db: DbOrTx, organizationId: number, userId: number): Promise<number[]> {
    const rows = await db
      .deleteFrom('company_users')
      .where('user_id', '=', userId)
      .where('company_id', 'in', (eb) => eb.selectFrom('companies').select('id').where('organization_id', '=', organizationId))
      .returning('company_id')
      .execute();
    return rows.map((r) => r.company_id);
  },
  /** Every membership in the organization's companies: company, its name, user, stored role. */
  async organizationMemberships(
    db: DbOrTx,
    organizationId: number,
  ): Promise<Array<{ company_id: number; company_name: string; user_id: number; role: string }>> {
    return db
      .selectFrom('company_users')
      .innerJoin('companies', 'companies.id', 'company_users.company_id')
      .select(['company_users.company_id', 'companies.name as company_name', 'company_users.user_id', 'company_users.role'])
      .where('companies.organization_id', '=', organizationId)
      .orderBy(sql`lower(companies.name)`)
      .orderBy('companies.id')
      .execute();
  },

  // ---------------------------------------------------------------- members of a company

  /** Every membership of the company (deactivated ones too), oldest first. */
  async members(db: DbOrTx, companyId: number): Promise<Array<{ user_id: number; role: string; created_at: Date }>> {
    return db
      .selectFrom('company_users')
      .select(['user_id', 'role', 'created_at'])
      .where('company_id', '=', companyId)
      .orderBy('created_at')
      .orderBy('user_id')
      .execute();
  },
  /** The stored membership (not the effective role), if any. */
  async storedMembership(
    db: DbOrTx,
    companyId: number,
    userId: number,
  ): Promise<{ role: string; role_before_deactivation: string | null; created_at: Date } | undefined> {
    return db
      .selectFrom('company_users')
      .select(['role', 'role_before_deactivation', 'created_at'])
      .where('company_id', '=', companyId)
      .where('user_id', '=', userId)
      .forUpdate()
      .executeTakeFirst();
  },
  async setMemberRole(db: DbOrTx, companyId: number, userId: number, role: string, roleBeforeDeactivation: string | null): Promise<void> {
    await db
      .updateTable('company_users')
      .set({ role, role_before_deactivation: roleBeforeDeactivation })
      .where('company_id', '=', companyId)
      .where('user_id', '=', userId)
      .execute();
  },
  async removeMember(db: DbOrTx, companyId: number, userId: number): Promise<boolean> {
    const r = await db.deleteFrom('company_users').where('company_id', '=', companyId).where('user_id', '=', userId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  },
  /** Number of `owner` memberships of the company. */
  async ownerCount(db: DbOrTx, companyId: number): Promise<number> {
    const r = await db
      .selectFrom('company_users')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('company_id', '=', companyId)
      .where('role', '=', 'owner')
      .executeTakeFirstOrThrow();
    return Number(r.n);
  },

  // ---------------------------------------------------------------- the company switcher

  /** A page of the user's companies with an active effective role, by name then id, with their organization's name. */
  async slim(
    db: DbOrTx,
    userId: number,
    q: { search?: string; limit: number; offset: number },
  ): Promise<{
    rows: Array<{ id: number; name: string; role: string; organization_id: number | null; organization_name: string | null; account_status: number }>;
    total: number;
  }> {
    let base = db
      .selectFrom('company_users')
      .innerJoin('companies', 'companies.id', 'company_users.company_id')
      .leftJoin('organizations', 'organizations.id', 'companies.organization_id')
      .where('company_users.user_id', '=', userId)
      .where('company_users.role', '!=', 'deactivated')
      .where('companies.account_status', '!=', 2);
    if (q.search) {
      const like = '%' + escapeLike(q.search) + '%';
      base = base.where(sql<boolean>`(companies.name ilike ${like} or organizations.name ilike ${like} or companies.id::text = ${q.search})`);
    }
    const [rows, count] = await Promise.all([
      base
        .select([
          'companies.id',
          'companies.name',
          'company_users.role',
          'companies.organization_id',
          'organizations.name as organization_name',
          'companies.account_status',
        ])
        .orderBy(sql`lower(companies.name)`)
        .orderBy('companies.id')
        .limit(q.limit)
        .offset(q.offset)
        .execute(),
      base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  },
};
