/**
 * SQL for `contacts`, `contact_imports` and `contact_import_rows` (the contacts module owns them,
 * with the group and label tables of groups.repository.ts). Filters read the membership tables so
 * a filtered bulk action stays one statement.
 */
import { type Expression, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { DbOrTx } from '../../platform/db/db.js';
import type { DB, NewRow, Row, RowUpdate } from '../../platform/db/schema.js';

export type ContactRow = Row<'contacts'>;
export type ImportRow = Row<'contact_imports'>;

/** List / bulk filters (spec 001 §7 "GET /contacts: filters and page"). */
export type ContactFilterInput = {
  search?: string;
  group_id?: number;
  label_id?: number;
  is_unsubscribed?: boolean;
  is_invalid?: boolean;
  source?: string;
};
/** Either chosen ids or all contacts matching the filters. */
export type ContactSelectionInput = { contacts?: number[]; all?: boolean; filters?: ContactFilterInput };

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Applies the filters to a `contacts as c` query of one company. */
function applyFilters<O>(
  db: DbOrTx,
  q: SelectQueryBuilder<DB & { c: DB['contacts'] }, 'c', O>,
  f: ContactFilterInput,
): SelectQueryBuilder<DB & { c: DB['contacts'] }, 'c', O> {
  if (f.search) {
    const pattern = `%${escapeLike(f.search)}%`;
    const digits = f.search.replace(/[\s\-().+]/g, '');
    q = q.where((eb) =>
      eb.or([
        eb('c.name', 'ilike', pattern),
        eb('c.email', 'ilike', pattern),
        eb('c.number', 'ilike', pattern),
        ...(/^\d{3,}$/.test(digits) ? [eb('c.number', 'like', `%${digits}%`)] : []),
      ]),
    );
  }
  if (f.group_id !== undefined) {
    const gid = f.group_id;
    q = q.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('contact_group_members as gm')
          .innerJoin('contact_groups as g', 'g.id', 'gm.group_id')
          .select(sql`1`.as('one'))
          .whereRef('gm.contact_id', '=', 'c.id')
          .where('gm.group_id', '=', gid)
          .where('g.deleted_at', 'is', null),
      ),
    );
  }
  if (f.label_id !== undefined) {
    const lid = f.label_id;
    q = q.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('contact_label_members as lm')
          .select(sql`1`.as('one'))
          .whereRef('lm.contact_id', '=', 'c.id')
          .where('lm.label_id', '=', lid),
      ),
    );
  }
  if (f.is_unsubscribed !== undefined) q = q.where('c.is_unsubscribed', '=', f.is_unsubscribed);
  if (f.is_invalid !== undefined) q = q.where('c.is_invalid', '=', f.is_invalid);
  if (f.source) q = q.where('c.source', '=', f.source);
  void db;
  return q;
}

/** Columns an import or upsert writes (text, in this order, for the unnest statements). */
export const IMPORT_COLUMNS = [
  'name',
  'first_name',
  'last_name',
  'number',
  'email',
  'company_name',
  'address1',
  'address2',
  'city',
  'state',
  'zip',
  'notes',
  'gender',
  'age_range',
  'type',
] as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number];
export type ImportRecord = Record<ImportColumn, string | null> & { is_invalid: boolean };
/** A contact's import columns (what a duplicate row may fill or overwrite) and its id. */
export type ImportValues = Record<ImportColumn, string | null> & { id: number };
/** One row of an import's report (`contact_import_rows`). */
export type ImportReportRow = {
  import_id: string;
  row_number: number;
  outcome: 'updated' | 'skipped' | 'invalid';
  reason: string;
  name: string | null;
  number: string | null;
};

/** SQL for contacts and contact imports (the only code that reads or writes those tables). */
export const contactsRepository = {
  /** The company's oldest contact with exactly this E.164 number (index contacts_company_number). */
  async findByNumber(db: DbOrTx, companyId: number, e164: string): Promise<ContactRow | undefined> {
    return db.selectFrom('contacts').selectAll().where('company_id', '=', companyId).where('number', '=', e164).orderBy('id').limit(1).executeTakeFirst();
  },
  /**
   * SQL (a scalar subquery) for the id of the company's oldest contact whose number is `number`
   * (null when none), for another module's statement to embed: `companyId` and `number` are SQL
   * expressions of that statement (e.g. `sql.ref('p.company_id')`). Uses contacts_company_number.
   */
  contactIdByNumberSql(companyId: RawBuilder<unknown> | Expression<unknown>, number: RawBuilder<unknown> | Expression<unknown>): RawBuilder<number | null> {
    return sql<number | null>`(select ct.id from contacts ct where ct.company_id = ${companyId} and ct.number = ${number} order by ct.id limit 1)`;
  },
  /**
   * Batch form of `findByNumber`: for each `(companyId, number)` key, the company's oldest contact
   * with that exact E.164 number, in ONE statement (`unnest` joined on contacts_company_number).
   * @returns rows keyed by `${companyId}:${number}`; keys without a contact are absent.
   */
  async findByNumbers(db: DbOrTx, keys: Array<{ companyId: number; number: string }>): Promise<Map<string, ContactRow>> {
    if (keys.length === 0) return new Map();
    const r = await sql<ContactRow>`
      select distinct on (c.company_id, c.number) c.*
      from unnest(${keys.map((k) => k.companyId)}::bigint[], ${keys.map((k) => k.number)}::text[]) as k(company_id, number)
      join contacts c on c.company_id = k.company_id and c.number = k.number
      order by c.company_id, c.number, c.id`.execute(db);
    return new Map(r.rows.map((c) => [`${c.company_id}:${c.number}`, c]));
  },
  async findByIds(db: DbOrTx, companyId: number, ids: number[]): Promise<ContactRow[]> {
    if (ids.length === 0) return [];
    return db
      .selectFrom('contacts')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('id', '=', (eb) => eb.fn.any(eb.val(ids)))
      .execute();
  },
  async findById(db: DbOrTx, companyId: number, id: number): Promise<ContactRow | undefined> {
    return db.selectFrom('contacts').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
  },
  /** The company that owns contact `id`, if any. */
  async companyOf(db: DbOrTx, id: number): Promise<number | undefined> {
    return (await db.selectFrom('contacts').select('company_id').where('id', '=', id).executeTakeFirst())?.company_id;
  },
  /** Ids of the company's contacts whose name contains `text` (case-insensitive), at most `limit`. */
  async idsByName(db: DbOrTx, companyId: number, text: string, limit: number): Promise<number[]> {
    const pattern = `%${escapeLike(text)}%`;
    const rows = await db.selectFrom('contacts').select('id').where('company_id', '=', companyId).where('name', 'ilike', pattern).limit(limit).execute();
    return rows.map((r) => r.id);
  },
  async insert(db: DbOrTx, row: NewRow<'contacts'>): Promise<ContactRow> {
    return db.insertInto('contacts').values(row).returningAll().executeTakeFirstOrThrow();
  },
  async update(db: DbOrTx, companyId: number, id: number, patch: RowUpdate<'contacts'>): Promise<void> {
    await db
      .updateTable('contacts')
      .set({ ...patch, updated_at: new Date() })
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .execute();
  },
  async setUnsubscribed(db: DbOrTx, companyId: number, id: number, unsubscribed: boolean): Promise<void> {
    await db
      .updateTable('contacts')
      .set({ is_unsubscribed: unsubscribed, updated_at: new Date() })
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .execute();
  },

  /** `select c.id from contacts c where company and (ids | filters)` as a subquery for bulk statements. */
  idsQuery(db: DbOrTx, companyId: number, sel: ContactSelectionInput) {
    let q = db.selectFrom('contacts as c').select('c.id').where('c.company_id', '=', companyId);
    if (sel.all) q = applyFilters(db, q, sel.filters ?? {});
    else q = q.where('c.id', 'in', sel.contacts && sel.contacts.length ? sel.contacts : [-1]);
    return q;
  },
  /** One page of the filtered list (newest first) and the total. */
  async list(db: DbOrTx, companyId: number, f: ContactFilterInput, page: number, perPage: number): Promise<{ rows: ContactRow[]; total: number }> {
    const base = applyFilters(db, db.selectFrom('contacts as c').where('c.company_id', '=', companyId), f);
    const [rows, count] = await Promise.all([
      base
        .selectAll('c')
        .orderBy('c.id', 'desc')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute(),
      base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: count.n };
  },
  /** Selected contacts, by id ascending after `afterId` (export pages). */
  async selectedPage(db: DbOrTx, companyId: number, sel: ContactSelectionInput, afterId: number, limit: number): Promise<ContactRow[]> {
    const ids = contactsRepository.idsQuery(db, companyId, sel);
    return db
      .selectFrom('contacts')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('id', 'in', ids)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
  },
  /** Deletes the selected contacts. @returns their ids. */
  async deleteSelected(db: DbOrTx, companyId: number, sel: ContactSelectionInput): Promise<number[]> {
    const r = await db
      .deleteFrom('contacts')
      .where('company_id', '=', companyId)
      .where('id', 'in', contactsRepository.idsQuery(db, companyId, sel))
      .returning('id')
      .execute();
    return r.map((x) => x.id);
  },

  /** Whether the company has any contact with a number (index contacts_company_number). */
  async hasNumberedContacts(db: DbOrTx, companyId: number): Promise<boolean> {
    const r = await db.selectFrom('contacts').select('id').where('company_id', '=', companyId).where('number', 'is not', null).limit(1).executeTakeFirst();
    return r !== undefined;
  },
  /**
   * number → oldest contact id among `numbers` (exact match). A join with the unnested list, so each
   * number is one probe of index contacts_company_number whatever the planner's row estimates (an
   * import grows the table inside one transaction, where statistics lag behind).
   */
  async idsByNumbers(db: DbOrTx, companyId: number, numbers: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (numbers.length === 0) return out;
    const r = await sql<{
      id: number;
      number: string;
    }>`select u.number, (select c.id from contacts c where c.company_id = ${companyId} and c.number = u.number order by c.id limit 1) as id
      from unnest(${numbers}::text[]) as u(number)`.execute(db);
    for (const row of r.rows) if (row.id !== null) out.set(row.number, Number(row.id));
    return out;
  },
  /**
   * Multi-row insert through unnest (one statement per chunk). Columns that are empty in every
   * record are left out (they take their defaults), so a 3-column file sends 3 arrays, not 15.
   * @returns the new ids in input order when `returnIds` (else an empty list: nothing is returned).
   */
  async insertMany(db: DbOrTx, companyId: number, source: string, records: ImportRecord[], returnIds = true): Promise<number[]> {
    if (records.length === 0) return [];
    const used = IMPORT_COLUMNS.filter((c) => c === 'name' || c === 'first_name' || c === 'last_name' || records.some((r) => r[c] !== null));
    const cols = used.map((c) => sql`${records.map((r) => r[c])}::text[]`);
    const names = sql.join(used.map((c) => sql.ref(c)));
    const values = sql.join(used.map((c) => sql.ref(`u.${c}`)));
    const arrays = sql`${records.map((r) => r.is_invalid)}::boolean[], ${sql.join(cols)}`;
    if (!returnIds) {
      await sql`insert into contacts (company_id, source, is_invalid, ${names})
        select ${companyId}::bigint, ${source}::text, u.is_invalid, ${values} from unnest(${arrays}) as u(is_invalid, ${names})`.execute(db);
      return [];
    }
    const r = await sql<{ id: number }>`insert into contacts (company_id, source, is_invalid, ${names})
      select ${companyId}::bigint, ${source}::text, u.is_invalid, ${values}
      from unnest(${arrays}) with ordinality as u(is_invalid, ${names}, ord)
      order by u.ord
      returning id`.execute(db);
    return r.rows.map((x) => x.id);
  },

  /**
   * For each of `numbers`, the company's oldest contact with that exact number: its id and import
   * columns (a scalar probe of contacts_company_number per number, then primary-key reads).
   */
  async importValuesByNumbers(db: DbOrTx, companyId: number, numbers: string[]): Promise<Map<string, ImportValues>> {
    const out = new Map<string, ImportValues>();
    if (numbers.length === 0) return out;
    const ids = await contactsRepository.idsByNumbers(db, companyId, numbers);
    if (ids.size === 0) return out;
    const rows = await db
      .selectFrom('contacts')
      .select(['id', ...IMPORT_COLUMNS])
      .where('company_id', '=', companyId)
      .where('id', '=', (eb) => eb.fn.any(eb.val([...ids.values()])))
      .execute();
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    for (const [n, id] of ids) {
      const r = byId.get(id);
      if (r) out.set(n, { ...(r as unknown as ImportValues), id });
    }
    return out;
  },
  /** Sets the import columns (all but the number) of contacts `ids` to `values` (same order), one statement. */
  async updateImportValues(db: DbOrTx, companyId: number, ids: number[], values: Array<Record<ImportColumn, string | null>>): Promise<void> {
    if (ids.length === 0) return;
    const cols = IMPORT_COLUMNS.filter((c) => c !== 'number');
    const arrays = cols.map((c) => sql`${values.map((v) => v[c] ?? null)}::text[]`);
    const sets = cols.map((c) => sql`${sql.ref(c)} = u.${sql.ref(c)}`);
    await sql`update contacts c set ${sql.join(sets)}, updated_at = now()
      from unnest(${ids}::bigint[], ${sql.join(arrays)}) as u(id, ${sql.join(cols.map((c) => sql.ref(c)))})
      where c.id = u.id and c.id = any(${ids}::bigint[]) and c.company_id = ${companyId}`.execute(db);
  },
  /** Stores report rows (idempotent per import and row). */
  async insertImportRows(db: DbOrTx, rows: ImportReportRow[]): Promise<void> {
    if (rows.length === 0) return;
    await sql`insert into contact_import_rows (import_id, row_number, outcome, reason, name, number)
      select u.import_id, u.row_number, u.outcome, u.reason, u.name, u.number
      from unnest(${rows.map((r) => r.import_id)}::uuid[], ${rows.map((r) => r.row_number)}::int[], ${rows.map((r) => r.outcome)}::text[],
        ${rows.map((r) => r.reason)}::text[], ${rows.map((r) => r.name)}::text[], ${rows.map((r) => r.number)}::text[])
        as u(import_id, row_number, outcome, reason, name, number)
      on conflict (import_id, row_number) do nothing`.execute(db);
  },
  /** The report of an import, in row order. */
  async importReport(db: DbOrTx, importId: string): Promise<ImportReportRow[]> {
    return db.selectFrom('contact_import_rows').selectAll().where('import_id', '=', importId).orderBy('row_number').execute() as Promise<ImportReportRow[]>;
  },

  // ---- imports ----
  /** Waits for the transaction-scoped lock of an import batch (two deliveries never run one batch at once). */
  async lockImport(tx: DbOrTx, id: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`contacts.import:${id}`}, 0))`.execute(tx);
  },
  /** Marks a batch running with its counters reset, unless it finished or failed meanwhile. */
  async markImportRunning(db: DbOrTx, id: string): Promise<void> {
    await db
      .updateTable('contact_imports')
      .set({ status: 'running', processed: 0, progress: 0, inserted: 0, merged: 0, skipped: 0, invalid: 0 })
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'running'])
      .execute();
  },
  /** Progress of a running batch (ignored once it finished: a late write never lowers a finished batch). */
  async updateImportProgress(db: DbOrTx, id: string, processed: number, progress: number): Promise<void> {
    await db.updateTable('contact_imports').set({ processed, progress }).where('id', '=', id).where('status', '=', 'running').execute();
  },
  async insertImport(db: DbOrTx, row: NewRow<'contact_imports'>): Promise<ImportRow> {
    return db.insertInto('contact_imports').values(row).returningAll().executeTakeFirstOrThrow();
  },
  async findImport(db: DbOrTx, id: string): Promise<ImportRow | undefined> {
    return db.selectFrom('contact_imports').selectAll().where('id', '=', id).executeTakeFirst();
  },
  async updateImport(db: DbOrTx, id: string, patch: RowUpdate<'contact_imports'>): Promise<void> {
    await db.updateTable('contact_imports').set(patch).where('id', '=', id).execute();
  },
};
