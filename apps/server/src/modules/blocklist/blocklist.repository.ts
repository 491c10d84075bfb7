/** SQL for `blocks` (blocked callers; migration 0001). The blocklist module owns this table. */
import { sql } from 'kysely';
import type { DbOrTx } from '../../platform/db/db.js';
import type { NewRow, Row } from '../../platform/db/schema.js';

export type BlockRow = Row<'blocks'>;

export const blocklistRepository = {
  /** True when `target` is blocked for the company globally or on this number. */
  async isBlocked(db: DbOrTx, companyId: number, numberId: number, target: string): Promise<boolean> {
    const r = await db
      .selectFrom('blocks')
      .select('id')
      .where('company_id', '=', companyId)
      .where('target', '=', target)
      .where((eb) => eb.or([eb('global', '=', true), eb('number_id', '=', numberId)]))
      .executeTakeFirst();
    return Boolean(r);
  },
  /**
   * Which of the (number id, target) pairs are blocked for the company (globally or on that
   * number), in one statement. @returns the blocked pairs as `${numberId}:${target}`.
   */
  async blockedAmong(db: DbOrTx, companyId: number, pairs: Array<{ numberId: number; party: string }>): Promise<string[]> {
    if (pairs.length === 0) return [];
    const rows = await sql<{ k: string }>`
      select distinct p.number_id::text || ':' || p.party as k
      from unnest(${pairs.map((p) => p.numberId)}::bigint[], ${pairs.map((p) => p.party)}::text[]) as p(number_id, party)
      where exists (
        select 1 from blocks b
        where b.company_id = ${companyId} and b.target = p.party and (b.global or b.number_id = p.number_id)
      )`.execute(db);
    return rows.rows.map((r) => r.k);
  },
  /** The company's blocks (target, global, number), at most `limit`, for the call flow's cache. */
  async companyBlocks(db: DbOrTx, companyId: number, limit: number): Promise<Array<{ target: string; global: boolean; number_id: number | null }>> {
    return db.selectFrom('blocks').select(['target', 'global', 'number_id']).where('company_id', '=', companyId).limit(limit).execute();
  },
  /** A page of the company's blocks, newest first, and how many there are. */
  async list(db: DbOrTx, companyId: number, limit: number, offset: number): Promise<{ rows: BlockRow[]; total: number }> {
    const rows = await db.selectFrom('blocks').selectAll().where('company_id', '=', companyId).orderBy('id', 'desc').limit(limit).offset(offset).execute();
    const { n } = await db
      .selectFrom('blocks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', companyId)
      .executeTakeFirstOrThrow();
    return { rows, total: Number(n) };
  },
  async insert(db: DbOrTx, row: NewRow<'blocks'>): Promise<BlockRow> {
    return db.insertInto('blocks').values(row).returningAll().executeTakeFirstOrThrow();
  },
  async find(db: DbOrTx, id: number): Promise<BlockRow | undefined> {
    return db.selectFrom('blocks').selectAll().where('id', '=', id).executeTakeFirst();
  },
  async delete(db: DbOrTx, id: number): Promise<void> {
    await db.deleteFrom('blocks').where('id', '=', id).execute();
  },
};
