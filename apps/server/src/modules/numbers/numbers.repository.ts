/** SQL for the `numbers` table. Company-scoped reads take the company id in the WHERE clause. */
import { sql } from 'kysely';
import type { DbOrTx } from '../../platform/db/db.js';
import type { DeliveryCondition } from '../../platform/events/index.js';
import type { NewRow, Row, RowUpdate } from '../../platform/db/schema.js';

export type NumberRow = Row<'numbers'>;

/** SQL for `numbers` as the call flow and the number screens read and write them. */
export const numbersRepository = {
  /** Whether the company holds any number (not released): the account-deletion check (spec 002 "Organizations"). */
  async companyHasNumbers(db: DbOrTx, companyId: number): Promise<boolean> {
    return !!(await db.selectFrom('numbers').select('id').where('company_id', '=', companyId).where('released_at', 'is', null).limit(1).executeTakeFirst());
  },
  /** Of `ids`, those that are numbers of the company (released or not). */
  async idsOfCompany(db: DbOrTx, companyId: number, ids: readonly number[]): Promise<number[]> {
    if (!ids.length) return [];
    const rows = await db
      .selectFrom('numbers')
      .select('id')
      .where('company_id', '=', companyId)
      .where('id', 'in', [...ids])
      .execute();
    return rows.map((r) => Number(r.id));
  },
  async insert(db: DbOrTx, row: NewRow<'numbers'>): Promise<NumberRow> {
    return db.insertInto('numbers').values(row).returningAll().executeTakeFirstOrThrow();
  },
  /** Active numbers of a company, oldest first. */
  async listForCompany(db: DbOrTx, companyId: number): Promise<NumberRow[]> {
    return db.selectFrom('numbers').selectAll().where('company_id', '=', companyId).where('released_at', 'is', null).orderBy('id').execute();
  },
  async find(db: DbOrTx, id: number): Promise<NumberRow | undefined> {
    return db.selectFrom('numbers').selectAll().where('id', '=', id).where('released_at', 'is', null).executeTakeFirst();
  },
  /** Advances the active number's round-robin cursor by one; returns the cursor before (undefined when no such number). */
  async takeRoundRobinCursor(db: DbOrTx, id: number): Promise<number | undefined> {
    const r = await db
      .updateTable('numbers')
      .set((eb) => ({ round_robin_cursor: eb('round_robin_cursor', '+', 1), updated_at: new Date() }))
      .where('id', '=', id)
      .where('released_at', 'is', null)
      .returning((eb) => eb('round_robin_cursor', '-', 1).as('cursor'))
      .executeTakeFirst();
    return r ? Number(r.cursor) : undefined;
  },
  /** The active numbers among `e164s` (one statement, index numbers_active_number), keyed by E.164. */
  async findActiveByNumbers(db: DbOrTx, e164s: string[]): Promise<Map<string, NumberRow>> {
    if (e164s.length === 0) return new Map();
    const rows = await db
      .selectFrom('numbers')
      .selectAll()
      .where('number', '=', (eb) => eb.fn.any(eb.val(e164s)))
      .where('released_at', 'is', null)
      .execute();
    return new Map(rows.map((r) => [r.number, r]));
  },
  /** Id and E.164 of the company's active numbers among `ids` (one statement). */
  async findManyForCompany(
    db: DbOrTx,
    companyId: number,
    ids: number[],
    includeReleased = false,
  ): Promise<Array<{ id: number; number: string; label: string }>> {
    if (ids.length === 0) return [];
    let q = db
      .selectFrom('numbers')
      .select(['id', 'number', 'label'])
      .where('company_id', '=', companyId)
      .where('id', '=', (eb) => eb.fn.any(eb.val(ids)));
    if (!includeReleased) q = q.where('released_at', 'is', null);
    return q.execute();
  },
  async findForCompany(db: DbOrTx, companyId: number, id: number): Promise<NumberRow | undefined> {
    return db.selectFrom('numbers').selectAll().where('id', '=', id).where('company_id', '=', companyId).where('released_at', 'is', null).executeTakeFirst();
  },
  async findActiveByNumber(db: DbOrTx, e164: string): Promise<NumberRow | undefined> {
    return db.selectFrom('numbers').selectAll().where('number', '=', e164).where('released_at', 'is', null).executeTakeFirst();
  },
  async update(db: DbOrTx, id: number, patch: RowUpdate<'numbers'>): Promise<NumberRow> {
    return db
      .updateTable('numbers')
      .set({ ...patch, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
};

export type BatchRow = Row<'number_batches'>;
export type ForwardContactRow = Row<'forward_contacts'>;
export type TriggerRow = Row<'number_triggers'>;

/** Filters and order of the numbers datatable and export. */
export type NumberTableQuery = {
  search?: string;
  type?: number;
  label?: string;
  sort: 'number' | 'label' | 'created_at' | 'type';
  dir: 'asc' | 'desc';
  /** Only these ids (the caller's number scope, docs/permissions.md "Numbers a user sees"); undefined: all. */
  ids?: readonly number[];
};

function tableQuery(db: DbOrTx, companyId: number, q: NumberTableQuery) {
  let query = db.selectFrom('numbers').where('company_id', '=', companyId).where('released_at', 'is', null);
  const search = q.search?.trim();
  if (search) {
    const digits = search.replace(/\D/g, '');
    const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) => eb.or([eb('label', 'ilike', like), ...(digits ? [eb('number', 'like', `%${digits}%`)] : [])]));
  }
  if (q.type !== undefined) query = query.where('type', '=', q.type);
  if (q.ids) query = q.ids.length ? query.where('id', 'in', [...q.ids]) : query.where(sql<boolean>`false`);
  if (q.label?.trim()) query = query.where('label', 'ilike', `%${q.label.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  return query;
}

/** SQL for number administration: batches, forward contacts, limits, triggers, datatable. */
export const numbersAdminRepository = {
  /** Active numbers of a company with `ids` (any not found are simply missing). */
  async findManyForCompany(db: DbOrTx, companyId: number, ids: number[]): Promise<NumberRow[]> {
    if (!ids.length) return [];
    return db
      .selectFrom('numbers')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('id', 'in', ids)
      .where('released_at', 'is', null)
      .orderBy('id')
      .execute();
  },
  /** Active numbers with `ids` in any company. */
  async findMany(db: DbOrTx, ids: number[]): Promise<NumberRow[]> {
    if (!ids.length) return [];
    return db.selectFrom('numbers').selectAll().where('id', 'in', ids).where('released_at', 'is', null).orderBy('id').execute();
  },
  /** Active numbers of any of `companyIds` with this E.164. */
  async findByNumberInCompanies(db: DbOrTx, companyIds: number[], e164: string): Promise<NumberRow | undefined> {
    if (!companyIds.length) return undefined;
    return db
      .selectFrom('numbers')
      .selectAll()
      .where('company_id', 'in', companyIds)
      .where('number', '=', e164)
      .where('released_at', 'is', null)
      .executeTakeFirst();
  },
  async countActive(db: DbOrTx, companyId: number): Promise<number> {
    const r = await db
      .selectFrom('numbers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', companyId)
      .where('released_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  },
  /** One page of the datatable plus the total count. */
  async page(db: DbOrTx, companyId: number, q: NumberTableQuery, page: number, perPage: number): Promise<{ rows: NumberRow[]; total: number }> {
    const totalRow = await tableQuery(db, companyId, q)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await tableQuery(db, companyId, q)
      .selectAll()
      .orderBy(q.sort, q.dir)
      .orderBy('id', q.dir)
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute();
    return { rows, total: Number(totalRow.n) };
  },
  /** Every row matching the datatable filters (export). */
  async all(db: DbOrTx, companyId: number, q: NumberTableQuery): Promise<NumberRow[]> {
    return tableQuery(db, companyId, q).selectAll().orderBy(q.sort, q.dir).orderBy('id', q.dir).execute();
  },
  async release(db: DbOrTx, id: number): Promise<void> {
    await db.updateTable('numbers').set({ released_at: new Date(), updated_at: new Date() }).where('id', '=', id).where('released_at', 'is', null).execute();
  },
  /** A number row regardless of release (batch items report on released numbers too). */
  async findAny(db: DbOrTx, id: number): Promise<NumberRow | undefined> {
    return db.selectFrom('numbers').selectAll().where('id', '=', id).executeTakeFirst();
  },

  // -------------------------------------------------------------- batches
  async insertBatch(db: DbOrTx, row: NewRow<'number_batches'>): Promise<BatchRow> {
    return db.insertInto('number_batches').values(row).returningAll().executeTakeFirstOrThrow();
  },
  async findBatch(db: DbOrTx, id: string): Promise<BatchRow | undefined> {
    return db.selectFrom('number_batches').selectAll().where('id', '=', id).executeTakeFirst();
  },
  /** Locks the batch row for the rest of the transaction. */
  async lockBatch(db: DbOrTx, id: string): Promise<BatchRow | undefined> {
    return db.selectFrom('number_batches').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  },
  async findBatchForCompany(db: DbOrTx, companyId: number, id: string): Promise<BatchRow | undefined> {
    return db.selectFrom('number_batches').selectAll().where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
  },
  async updateBatch(db: DbOrTx, id: string, patch: RowUpdate<'number_batches'>): Promise<BatchRow> {
    return db.updateTable('number_batches').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  },

  // -------------------------------------------------------------- forward contacts
  async listForwardContacts(db: DbOrTx, companyId: number): Promise<ForwardContactRow[]> {
    return db.selectFrom('forward_contacts').selectAll().where('company_id', '=', companyId).orderBy('name').orderBy('id').execute();
  },
  async findForwardContact(db: DbOrTx, companyId: number, id: number): Promise<ForwardContactRow | undefined> {
    return db.selectFrom('forward_contacts').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
  },
  async insertForwardContact(db: DbOrTx, row: NewRow<'forward_contacts'>): Promise<ForwardContactRow> {
    return db.insertInto('forward_contacts').values(row).returningAll().executeTakeFirstOrThrow();
  },
  async updateForwardContact(db: DbOrTx, companyId: number, id: number, patch: { name: string; number: string }): Promise<ForwardContactRow | undefined> {
    return db
      .updateTable('forward_contacts')
      .set({ ...patch, updated_at: new Date() })
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  },
  async deleteForwardContact(db: DbOrTx, companyId: number, id: number): Promise<boolean> {
    const r = await db.deleteFrom('forward_contacts').where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  },

  // -------------------------------------------------------------- number limit
  async getLimit(db: DbOrTx, companyId: number): Promise<number | undefined> {
    return (await db.selectFrom('company_number_limits').select('number_limit').where('company_id', '=', companyId).executeTakeFirst())?.number_limit;
  },
  async insertLimitRequest(db: DbOrTx, row: NewRow<'number_limit_requests'>): Promise<void> {
    await db.insertInto('number_limit_requests').values(row).execute();
  },

  // -------------------------------------------------------------- triggers
  async listTriggers(db: DbOrTx, companyId: number, numberId?: number): Promise<TriggerRow[]> {
    let q = db.selectFrom('number_triggers').selectAll().where('company_id', '=', companyId);
    if (numberId !== undefined) q = q.where('number_id', '=', numberId);
    return q.orderBy('number_id').orderBy('id').execute();
  },
  /** Triggers of the numbers `ids` (any company), by number then id. */
  async listTriggersOfNumbers(db: DbOrTx, ids: number[]): Promise<TriggerRow[]> {
    if (!ids.length) return [];
    return db.selectFrom('number_triggers').selectAll().where('number_id', 'in', ids).orderBy('number_id').orderBy('id').execute();
  },
  async updateTrigger(
    db: DbOrTx,
    companyId: number,
    id: number,
    patch: { number_id: number; event: string; action: string; target: string },
    newSecret: string,
  ): Promise<TriggerRow | undefined> {
    return (
      db
        .updateTable('number_triggers')
        // A webhook trigger keeps its signing secret across edits; an e-mail trigger has none.
        .set({ ...patch, updated_at: new Date(), signing_secret: patch.action === 'webhook' ? sql<string>`coalesce(signing_secret, ${newSecret})` : null })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst()
    );
  },
  /** Inserts, or returns the existing identical trigger. */
  async upsertTrigger(db: DbOrTx, row: NewRow<'number_triggers'>): Promise<void> {
    await db
      .insertInto('number_triggers')
      .values(row)
      .onConflict((oc) => oc.columns(['number_id', 'event', 'action', 'target']).doUpdateSet({ updated_at: new Date() }))
      .execute();
  },
  async removeTriggers(db: DbOrTx, companyId: number, ids: number[]): Promise<void> {
    if (!ids.length) return;
    await db.deleteFrom('number_triggers').where('company_id', '=', companyId).where('id', 'in', ids).execute();
  },
  /** The signing secret of a webhook trigger of the company (undefined: no such webhook trigger). */
  async triggerSecret(db: DbOrTx, companyId: number, id: number): Promise<string | undefined> {
    const row = await db
      .selectFrom('number_triggers')
      .select('signing_secret')
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .where('action', '=', 'webhook')
      .executeTakeFirst();
    return row?.signing_secret ?? undefined;
  },
  /** The triggers of one number for one event. */
  async triggersFor(db: DbOrTx, numberId: number, event: string): Promise<TriggerRow[]> {
    return db.selectFrom('number_triggers').selectAll().where('number_id', '=', numberId).where('event', '=', event).orderBy('id').execute();
  },
  /** Records firings; @returns the ids of the new ones (a trigger already fired for its event key is skipped). */
  async insertFirings(db: DbOrTx, rows: NewRow<'number_trigger_firings'>[]): Promise<number[]> {
    if (!rows.length) return [];
    const out = await db
      .insertInto('number_trigger_firings')
      .values(rows)
      .onConflict((oc) => oc.columns(['trigger_id', 'event_key']).doNothing())
      .returning('id')
      .execute();
    return out.map((r) => r.id);
  },
  /** A pending firing with its trigger (undefined: gone, or already settled). */
  async findPendingFiring(db: DbOrTx, id: number) {
    return db
      .selectFrom('number_trigger_firings as f')
      .innerJoin('number_triggers as t', 't.id', 'f.trigger_id')
      .select(['f.id', 'f.company_id', 'f.payload', 'f.attempts', 't.id as trigger_id', 't.number_id', 't.event', 't.action', 't.target', 't.signing_secret'])
      .where('f.id', '=', id)
      .where('f.state', '=', 'pending')
      .executeTakeFirst();
  },
  async settleFiring(db: DbOrTx, id: number, patch: RowUpdate<'number_trigger_firings'>): Promise<void> {
    await db.updateTable('number_trigger_firings').set(patch).where('id', '=', id).execute();
  },
  /** The latest firing of each of the company's triggers (one index probe per trigger). */
  async lastFirings(db: DbOrTx, companyId: number): Promise<Array<Row<'number_trigger_firings'>>> {
    const rows = await sql<Row<'number_trigger_firings'>>`
      select f.* from number_triggers t
      cross join lateral (select * from number_trigger_firings f where f.trigger_id = t.id order by f.id desc limit 1) f
      where t.company_id = ${companyId}`.execute(db);
    return rows.rows;
  },
};

/**
 * The triggers consumer's condition on a domain event (see `DeliveryCondition`): its number has a trigger (index
 * `number_triggers_unique`, number first); events of other numbers get no delivery for that consumer.
 */
export const hasTrigger: DeliveryCondition = (p) => sql`exists (select 1 from number_triggers t where t.number_id = (${p}->>'numberId')::bigint)`;
