/** The only SQL of the fax module: the `faxes` table (docs/fax.md). */
import { sql } from 'kysely';
import type { DbOrTx } from '../../platform/db/db.js';
import type { NewRow, Row, RowUpdate } from '../../platform/db/schema.js';

export type FaxRow = Row<'faxes'>;

/** Filters of a company's fax list. */
export type FaxFilter = { direction?: string; status?: string; numberId?: number };

/** A scope of faxes for reports: companies, a UTC range [from, to), optional numbers. */
export type FaxScope = { companyIds: readonly number[]; from: Date; to: Date; numberIds?: readonly number[] };

export const faxRepository = {
  async insert(db: DbOrTx, row: NewRow<'faxes'>): Promise<FaxRow> {
    return db.insertInto('faxes').values(row).returningAll().executeTakeFirstOrThrow();
  },
  async find(db: DbOrTx, id: number, lock = false): Promise<FaxRow | undefined> {
    let q = db.selectFrom('faxes').selectAll().where('id', '=', id);
    if (lock) q = q.forUpdate();
    return q.executeTakeFirst();
  },
  async findByProviderId(db: DbOrTx, provider: string, providerFaxId: string, lock = false): Promise<FaxRow | undefined> {
    let q = db.selectFrom('faxes').selectAll().where('provider', '=', provider).where('provider_fax_id', '=', providerFaxId);
    if (lock) q = q.forUpdate();
    return q.executeTakeFirst();
  },
  async update(db: DbOrTx, id: number, patch: RowUpdate<'faxes'>): Promise<FaxRow | undefined> {
    return db
      .updateTable('faxes')
      .set({ ...patch, updated_at: sql<Date>`now()` })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  },
  /** A page of the company's faxes, newest first, and the total. */
  async listForCompany(db: DbOrTx, companyId: number, f: FaxFilter, limit: number, offset: number): Promise<{ rows: FaxRow[]; total: number }> {
    let q = db.selectFrom('faxes').where('company_id', '=', companyId);
    if (f.direction) q = q.where('direction', '=', f.direction);
    if (f.status) q = q.where('status', '=', f.status);
    if (f.numberId) q = q.where('number_id', '=', f.numberId);
    const [rows, count] = await Promise.all([
      q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  },
  /** The newest `limit` faxes of a company in [from, to) (optionally of some numbers) and their total. */
  async newestIn(
    db: DbOrTx,
    companyId: number,
    range: { from: Date; to: Date; numberIds?: readonly number[] },
    limit: number,
  ): Promise<{ rows: FaxRow[]; total: number }> {
    let q = db.selectFrom('faxes').where('company_id', '=', companyId).where('created_at', '>=', range.from).where('created_at', '<', range.to);
    if (range.numberIds?.length) q = q.where('number_id', 'in', range.numberIds);
    const [rows, count] = await Promise.all([
      q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute(),
      q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  },
  /** Faxes in the scope (sent and received, whatever their status). */
  async count(db: DbOrTx, s: FaxScope): Promise<number> {
    if (s.companyIds.length === 0) return 0;
    let q = db
      .selectFrom('faxes')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('company_id', 'in', s.companyIds)
      .where('created_at', '>=', s.from)
      .where('created_at', '<', s.to);
    if (s.numberIds?.length) q = q.where('number_id', 'in', s.numberIds);
    return Number((await q.executeTakeFirstOrThrow()).n);
  },
  /** Up to `limit` faxes in the scope with id above `afterId`, by id (exports). */
  async page(db: DbOrTx, s: FaxScope, afterId: number, limit: number): Promise<FaxRow[]> {
    if (s.companyIds.length === 0) return [];
    let q = db
      .selectFrom('faxes')
      .selectAll()
      .where('company_id', 'in', s.companyIds)
      .where('created_at', '>=', s.from)
      .where('created_at', '<', s.to)
      .where('id', '>', afterId);
    if (s.numberIds?.length) q = q.where('number_id', 'in', s.numberIds);
    return q.orderBy('id').limit(limit).execute();
  },
};
