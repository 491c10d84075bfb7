/** SQL for `organizations`, `companies`, `company_users` and `organization_admins`. */
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

/** The companies module's SQL (the only code that reads or writes its tables). */
export const companiesRepository = {
  async membership(db: DbOrTx, userId: number, companyId: number): Promise<{ role: string } | undefined> {
    return db.selectFrom('company_users').select('role').where('user_id', '=', userId).where('company_id', '=', companyId).executeTakeFirst();
  },
  /** The user's companies with their role, by name. */
  async listForUser(db: DbOrTx, userId: number): Promise<MembershipRow[]> {
    return db
      .selectFrom('company_users')
      .innerJoin('companies', 'companies.id', 'company_users.company_id')
      .selectAll('companies')
      .select('company_users.role')
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
  async create(db: DbOrTx, row: { name: string; organization_id: number | null; timezone: string; help_text?: string }): Promise<number> {
    return (
      await db
        .insertInto('companies')
        .values({ help_text: '', quiet_hours_start: '08:00', quiet_hours_end: '21:00', ...row })
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
      .select(['user_id', 'role'])
      .where('company_id', '=', companyId)
      .where('role', '!=', 'deactivated')
      .orderBy('user_id')
      .execute();
  },
  /** Roles of the user across companies (to refuse sign-in when all are `deactivated`). */
  async rolesOf(db: DbOrTx, userId: number): Promise<string[]> {
    return (await db.selectFrom('company_users').select('role').where('user_id', '=', userId).execute()).map((r) => r.role);
  },
};
