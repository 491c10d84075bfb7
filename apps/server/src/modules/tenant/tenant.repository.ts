/** SQL for `tenants`, `tenant_domains` and `tenant_email_senders` (migration 0023). The tenant module owns these tables. */
import type { DbOrTx } from '../../platform/db/db.js';
import type { NewRow, Row } from '../../platform/db/schema.js';

export type TenantRow = Row<'tenants'>;
export type TenantDomainRow = Row<'tenant_domains'>;
export type TenantEmailSenderRow = Row<'tenant_email_senders'>;

export const tenantRepository = {
  async byBusinessUnit(db: DbOrTx, businessUnitId: number): Promise<TenantRow | undefined> {
    return db.selectFrom('tenants').selectAll().where('business_unit_id', '=', businessUnitId).executeTakeFirst();
  },
  /** The tenant whose verified custom domain's app or API host name is `hostname` (lower case). */
  async byVerifiedHostname(db: DbOrTx, hostname: string): Promise<TenantRow | undefined> {
    return db
      .selectFrom('tenants')
      .innerJoin('tenant_domains as d', 'd.tenant_id', 'tenants.id')
      .selectAll('tenants')
      .where('d.status', '=', 'verified')
      .where((eb) => eb.or([eb('d.app_hostname', '=', hostname), eb('d.api_hostname', '=', hostname)]))
      .executeTakeFirst();
  },
  /** Creates the business unit's tenant or updates it. */
  async upsert(db: DbOrTx, row: NewRow<'tenants'>): Promise<TenantRow> {
    const { business_unit_id: _unit, ...rest } = row;
    return db
      .insertInto('tenants')
      .values(row)
      .onConflict((oc) => oc.column('business_unit_id').doUpdateSet({ ...rest, updated_at: new Date() }))
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  async domainOf(db: DbOrTx, tenantId: number): Promise<TenantDomainRow | undefined> {
    return db.selectFrom('tenant_domains').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst();
  },
  /** The tenant using `hostname` as its app or API host, if any. */
  async domainOwner(db: DbOrTx, hostname: string): Promise<number | undefined> {
    const r = await db
      .selectFrom('tenant_domains')
      .select('tenant_id')
      .where((eb) => eb.or([eb('app_hostname', '=', hostname), eb('api_hostname', '=', hostname), eb('domain', '=', hostname)]))
      .executeTakeFirst();
    return r ? Number(r.tenant_id) : undefined;
  },
  async upsertDomain(db: DbOrTx, row: NewRow<'tenant_domains'>): Promise<TenantDomainRow> {
    const { tenant_id: _t, ...rest } = row;
    return db
      .insertInto('tenant_domains')
      .values(row)
      .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ ...rest, updated_at: new Date() }))
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  async setDomainStatus(db: DbOrTx, tenantId: number, status: string, verified: boolean): Promise<TenantDomainRow> {
    const now = new Date();
    return db
      .updateTable('tenant_domains')
      .set((eb) => ({ status, checked_at: now, updated_at: now, verified_at: verified ? eb.fn.coalesce('verified_at', eb.val(now)) : null }))
      .where('tenant_id', '=', tenantId)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  async deleteDomain(db: DbOrTx, tenantId: number): Promise<void> {
    await db.deleteFrom('tenant_domains').where('tenant_id', '=', tenantId).execute();
  },
  async senderOf(db: DbOrTx, tenantId: number): Promise<TenantEmailSenderRow | undefined> {
    return db.selectFrom('tenant_email_senders').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst();
  },
  async upsertSender(db: DbOrTx, row: NewRow<'tenant_email_senders'>): Promise<TenantEmailSenderRow> {
    const { tenant_id: _t, ...rest } = row;
    return db
      .insertInto('tenant_email_senders')
      .values(row)
      .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ ...rest, last_check: null, checked_at: null, verified_at: null, updated_at: new Date() }))
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  async setSenderCheck(db: DbOrTx, tenantId: number, status: string, lastCheck: string, verified: boolean): Promise<TenantEmailSenderRow> {
    const now = new Date();
    return db
      .updateTable('tenant_email_senders')
      .set((eb) => ({
        status,
        last_check: lastCheck,
        checked_at: now,
        updated_at: now,
        verified_at: verified ? eb.fn.coalesce('verified_at', eb.val(now)) : null,
      }))
      .where('tenant_id', '=', tenantId)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
};
