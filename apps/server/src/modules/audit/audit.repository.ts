/** SQL for `audit_log` (modules/audit owns it): append and read only; the table's trigger refuses UPDATE and DELETE. */
import type { Insertable, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { DbOrTx } from '../../platform/db/db.js';
import type { AuditLogTable } from '../../platform/db/schema-integrations.js';

export type AuditRow = Selectable<AuditLogTable>;
export type AuditInsert = Insertable<AuditLogTable>;

/** Filters of the audit screen; times are UTC instants (inclusive `from`, exclusive `to`). */
export type AuditFilter = {
  companyId: number;
  actorUserId?: number;
  actorKind?: AuditRow['actor_kind'];
  entityType?: string;
  action?: string;
  outcome?: AuditRow['outcome'];
  from?: string;
  to?: string;
  search?: string;
};

function filtered(db: DbOrTx, f: AuditFilter) {
  let q = db.selectFrom('audit_log').where('company_id', '=', f.companyId);
  if (f.actorUserId !== undefined) q = q.where((eb) => eb.or([eb('actor_user_id', '=', f.actorUserId!), eb('operator_user_id', '=', f.actorUserId!)]));
  if (f.actorKind) q = q.where('actor_kind', '=', f.actorKind);
  if (f.entityType) q = q.where('entity_type', '=', f.entityType);
  if (f.action) q = q.where('action', '=', f.action);
  if (f.outcome) q = q.where('outcome', '=', f.outcome);
  if (f.from) q = q.where(sql<boolean>`created_at >= ${f.from}::timestamptz`);
  if (f.to) q = q.where(sql<boolean>`created_at < ${f.to}::timestamptz`);
  if (f.search) {
    const like = `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([eb('path', 'ilike', like), eb('entity_id', 'ilike', like), eb('action', 'ilike', like), eb(sql<string>`changes::text`, 'ilike', like)]),
    );
  }
  return q;
}

export const auditRepository = {
  /** Whether the company's log already holds an entry of this action on this entity (jobs recording a change once). */
  async hasEntry(db: DbOrTx, companyId: number | null, entityType: string, entityId: string, action: string): Promise<boolean> {
    let q = db.selectFrom('audit_log').select('id').where('entity_type', '=', entityType).where('entity_id', '=', entityId).where('action', '=', action);
    q = companyId === null ? q.where('company_id', 'is', null) : q.where('company_id', '=', companyId);
    return (await q.limit(1).executeTakeFirst()) !== undefined;
  },
  /** Whether an entry of the person on `path` with `outcome` exists since `since` (the routine-request window). */
  async hasRecent(db: DbOrTx, q: { companyId: number | null; actorUserId: number | null; path: string; outcome: string; since: Date }): Promise<boolean> {
    let sel = db
      .selectFrom('audit_log')
      .select('id')
      .where('path', '=', q.path)
      .where('outcome', '=', q.outcome as AuditRow['outcome'])
      .where('created_at', '>=', q.since);
    sel = q.companyId === null ? sel.where('company_id', 'is', null) : sel.where('company_id', '=', q.companyId);
    sel = q.actorUserId === null ? sel.where('actor_user_id', 'is', null) : sel.where('actor_user_id', '=', q.actorUserId);
    return (await sel.limit(1).executeTakeFirst()) !== undefined;
  },
  /** Takes a transaction-scoped advisory lock on `key` (released at commit): serializes routine-entry checks. */
  async lockRoutine(tx: DbOrTx, key: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtext(${`audit-routine:${key}`}))`.execute(tx);
  },
  async insert(db: DbOrTx, row: AuditInsert): Promise<void> {
    await db.insertInto('audit_log').values(row).execute();
  },
  /** One page, newest first. */
  async page(db: DbOrTx, f: AuditFilter, limit: number, offset: number): Promise<{ rows: AuditRow[]; total: number }> {
    const [rows, count] = await Promise.all([
      filtered(db, f).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      filtered(db, f)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  },
  /** Up to `limit` entries for an export, newest first. */
  async all(db: DbOrTx, f: AuditFilter, limit: number): Promise<AuditRow[]> {
    return filtered(db, f).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  },
};
