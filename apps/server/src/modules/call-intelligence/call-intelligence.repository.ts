/**
 * SQL of call intelligence (tables `call_search_docs`, `ai_attribute_rules`, `call_search_exports`; migration 0031;
 * docs/call-intelligence.md). The only place these tables are read or written.
 *
 * Search: PostgreSQL full text, configuration `english`. `websearch_to_tsquery` turns the person's words and
 * "quoted phrases" into a query; the document's vector is `tsv_all`, or `tsv_agent` / `tsv_client` for a speaker;
 * ranked by `ts_rank`, ties newest first. Passages are the page's matching segments, highlighted by `ts_headline`.
 */
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { DbOrTx } from '../../platform/db/db.js';
import type { NewRow, Row } from '../../platform/db/schema.js';
import type { SearchSegment } from '../../platform/db/schema-intelligence.js';

export type SearchDocRow = Row<'call_search_docs'>;
export type RuleRow = Row<'ai_attribute_rules'>;
export type SearchExportRow = Row<'call_search_exports'>;

/** The call facts of a search document (everything but the transcript). */
export type DocFacts = {
  company_id: number;
  number_id: number;
  started_at: Date;
  duration_s: number;
  direction: string;
  caller: string;
  answer_status: number;
  answered_by: number | null;
  qualification: number | null;
  tag_ids: number[];
};

/** Resolved search filters. Times UTC, [from, to). `scope`: per company, `all` or the number ids a `user` sees. */
export type SearchFilter = {
  scope: ReadonlyArray<{ companyId: number; numberIds: readonly number[] | 'all' }>;
  q: string | null;
  /** 0 every speaker, 1 agent, 2 client. */
  speaker: number;
  from?: Date;
  to?: Date;
  numberIds?: readonly number[];
  tagIds?: readonly number[];
  callers?: readonly string[];
  answerStatus?: readonly number[];
  answeredBy?: readonly number[];
  isQualified?: boolean;
  minDuration?: number;
};

export type SearchRow = Omit<SearchDocRow, 'tsv_all' | 'tsv_agent' | 'tsv_client' | 'segments' | 'indexed_at' | 'transcript_id'> & { rank: number };
export type PassageRow = { call_id: number; ord: number; speaker: number; start: number; end: number; text: string; marked: string };

/** With `q`, only the newest this-many matching documents are ranked (docs/call-intelligence.md "Search at scale"). */
export const SEARCH_RANK_WINDOW = 2000;
/** `total` counts at most this + 1 hits; more than the cap answers `SEARCH_COUNT_CAP + 1` ("10,000+"). */
export const SEARCH_COUNT_CAP = 10_000;

/** Highlight markers handed to `ts_headline` (replaced by `<mark>` after HTML-escaping). */
export const MARK_START = '\u0001';
export const MARK_END = '\u0002';

const vectorOf = (speaker: number): RawBuilder<unknown> =>
  speaker === 1 ? sql.ref('d.tsv_agent') : speaker === 2 ? sql.ref('d.tsv_client') : sql.ref('d.tsv_all');

function whereOf(f: SearchFilter): RawBuilder<SqlBool> {
  const parts: RawBuilder<unknown>[] = [];
  const scopes = f.scope.map((s) =>
    s.numberIds === 'all'
      ? sql`d.company_id = ${s.companyId}`
      : s.numberIds.length === 0
        ? sql`false`
        : sql`(d.company_id = ${s.companyId} and d.number_id = any(${sql.val([...s.numberIds])}::bigint[]))`,
  );
  parts.push(scopes.length ? sql`(${sql.join(scopes, sql` or `)})` : sql`false`);
  if (f.q !== null) parts.push(sql`${vectorOf(f.speaker)} @@ websearch_to_tsquery('english', ${f.q})`);
  if (f.from) parts.push(sql`d.started_at >= ${f.from}`);
  if (f.to) parts.push(sql`d.started_at < ${f.to}`);
  if (f.numberIds?.length) parts.push(sql`d.number_id = any(${sql.val([...f.numberIds])}::bigint[])`);
  if (f.tagIds?.length) parts.push(sql`d.tag_ids && ${sql.val([...f.tagIds])}::bigint[]`);
  if (f.callers?.length) parts.push(sql`d.caller = any(${sql.val([...f.callers])}::text[])`);
  if (f.answerStatus?.length) parts.push(sql`d.answer_status = any(${sql.val([...f.answerStatus])}::smallint[])`);
  if (f.answeredBy?.length) parts.push(sql`d.answered_by = any(${sql.val([...f.answeredBy])}::bigint[])`);
  if (f.isQualified === true) parts.push(sql`d.qualification in (1, 3)`);
  if (f.isQualified === false) parts.push(sql`(d.qualification is null or d.qualification not in (1, 3))`);
  if (f.minDuration !== undefined) parts.push(sql`d.duration_s >= ${f.minDuration}`);
  return sql<SqlBool>`${sql.join(parts, sql` and `)}`;
}

export const intelligenceRepository = {
  /** Inserts or replaces a call's search document; the vectors are computed from the texts by PostgreSQL. */
  async upsertDoc(
    db: DbOrTx,
    doc: DocFacts & { call_id: number; transcript_id: number; segments: SearchSegment[]; text: string; agentText: string; clientText: string },
  ): Promise<void> {
    const row = {
      call_id: doc.call_id,
      company_id: doc.company_id,
      number_id: doc.number_id,
      transcript_id: doc.transcript_id,
      started_at: doc.started_at,
      duration_s: doc.duration_s,
      direction: doc.direction,
      caller: doc.caller,
      answer_status: doc.answer_status,
      answered_by: doc.answered_by,
      qualification: doc.qualification,
      tag_ids: doc.tag_ids,
      segments: JSON.stringify(doc.segments),
      tsv_all: sql`to_tsvector('english', ${doc.text})`,
      tsv_agent: sql`to_tsvector('english', ${doc.agentText})`,
      tsv_client: sql`to_tsvector('english', ${doc.clientText})`,
      indexed_at: new Date(),
    } satisfies NewRow<'call_search_docs'>;
    await db
      .insertInto('call_search_docs')
      .values(row)
      .onConflict((oc) => oc.column('call_id').doUpdateSet({ ...row, call_id: undefined } as never))
      .execute();
  },

  /** Refreshes the call facts of existing documents (tags, qualification, status…); absent calls are skipped. */
  async updateFacts(db: DbOrTx, callId: number, facts: DocFacts): Promise<boolean> {
    const r = await db
      .updateTable('call_search_docs')
      .set({ ...facts, tag_ids: facts.tag_ids, indexed_at: new Date() })
      .where('call_id', '=', callId)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  },

  async deleteDoc(db: DbOrTx, callId: number): Promise<void> {
    await db.deleteFrom('call_search_docs').where('call_id', '=', callId).execute();
  },

  async docIdsOf(db: DbOrTx, callIds: readonly number[]): Promise<number[]> {
    if (callIds.length === 0) return [];
    const rows = await db
      .selectFrom('call_search_docs')
      .select('call_id')
      .where('call_id', 'in', [...callIds])
      .execute();
    return rows.map((r) => Number(r.call_id));
  },

  async docNumbersOf(db: DbOrTx, callIds: readonly number[]): Promise<Array<{ call_id: number; number_id: number }>> {
    if (callIds.length === 0) return [];
    const rows = await db
      .selectFrom('call_search_docs')
      .select(['call_id', 'number_id'])
      .where('call_id', 'in', [...callIds])
      .execute();
    return rows.map((r) => ({ call_id: Number(r.call_id), number_id: Number(r.number_id) }));
  },

  async segmentsOf(db: DbOrTx, callId: number): Promise<SearchSegment[] | null> {
    const r = await db.selectFrom('call_search_docs').select('segments').where('call_id', '=', callId).executeTakeFirst();
    return r ? r.segments : null;
  },

  /** `true` when the query has no searchable word (only stop words or punctuation). */
  async isEmptyQuery(db: DbOrTx, q: string): Promise<boolean> {
    const r = await sql<{ n: number }>`select numnode(websearch_to_tsquery('english', ${q})) as n`.execute(db);
    return Number(r.rows[0]?.n ?? 0) === 0;
  },

  /**
   * One page of hits, best first (without `q`: newest first), and the number of hits capped at
   * {@link SEARCH_COUNT_CAP} + 1 (docs/call-intelligence.md "Search at scale").
   *
   * Bounded work: with `q`, only the newest {@link SEARCH_RANK_WINDOW} matching documents (index
   * `call_search_docs_company_started` or the GIN index, as the planner picks) are ranked by `ts_rank`; when fewer
   * match, that is all of them, so the order is exact. Hits past the window follow, newest first. The count stops
   * at `SEARCH_COUNT_CAP + 1` rows, so a `total` above the cap means "more than SEARCH_COUNT_CAP"; when the window is
   * not full it holds every match and its size is the total (no counting statement).
   */
  async search(db: DbOrTx, f: SearchFilter, limit: number, offset: number): Promise<{ rows: SearchRow[]; total: number }> {
    const cols = sql`d.call_id, d.company_id, d.number_id, d.started_at, d.duration_s, d.direction, d.caller, d.answer_status,
             d.answered_by, d.qualification, d.tag_ids`;
    const rows: SearchRow[] = [];
    const W = SEARCH_RANK_WINDOW;
    // With `q`: the window's size comes with the page; a window not full holds every match, so it is the total.
    let windowSize: number | null = null;
    if (f.q !== null && offset < W) {
      const n = Math.min(limit, W - offset);
      const r = await sql<SearchRow & { window_n: string }>`
        select ${cols}, ts_rank(d.v, websearch_to_tsquery('english', ${f.q})) as rank, count(*) over () as window_n
        from (select ${cols}, ${vectorOf(f.speaker)} as v
              from call_search_docs d
              where ${whereOf(f)}
              order by d.started_at desc, d.call_id desc
              limit ${W}) d
        order by rank desc, d.started_at desc, d.call_id desc
        limit ${n} offset ${offset}`.execute(db);
      for (const { window_n, ...row } of r.rows) {
        windowSize = Number(window_n);
        rows.push(row);
      }
      if (r.rows.length === 0 && offset === 0) windowSize = 0;
    }
    const rest = limit - rows.length;
    const restOffset = f.q !== null ? Math.max(offset, W) : offset;
    if (rest > 0 && (f.q === null || offset + rows.length >= W)) {
      const r = await sql<SearchRow>`
        select ${cols}, 0::real as rank
        from call_search_docs d
        where ${whereOf(f)}
        order by d.started_at desc, d.call_id desc
        limit ${rest} offset ${restOffset}`.execute(db);
      rows.push(...r.rows);
    }
    const total =
      windowSize !== null && windowSize < W
        ? windowSize
        : Number(
            (
              await sql<{ n: string }>`
                select count(*) as n from (select 1 from call_search_docs d where ${whereOf(f)} limit ${SEARCH_COUNT_CAP + 1}) x`.execute(db)
            ).rows[0]?.n ?? 0,
          );
    return {
      rows: rows.map((x) => ({
        ...x,
        call_id: Number(x.call_id),
        company_id: Number(x.company_id),
        number_id: Number(x.number_id),
        answered_by: x.answered_by === null ? null : Number(x.answered_by),
        tag_ids: (x.tag_ids ?? []).map(Number),
        rank: Number(x.rank),
      })),
      total,
    };
  },

  /**
   * The segments of `callIds` that match `q` (said by `speaker` when not 0), in time order, with the matching
   * words between {@link MARK_START} and {@link MARK_END}. Without `q`: every segment of the speaker (unmarked).
   */
  async passages(db: DbOrTx, callIds: readonly number[], q: string | null, speaker: number): Promise<PassageRow[]> {
    if (callIds.length === 0) return [];
    const query = q !== null ? sql`websearch_to_tsquery('english', ${q})` : null;
    const r = await sql<PassageRow>`
      select d.call_id, s.ord::int as ord, (s.seg->>'speaker')::int as speaker, (s.seg->>'start')::float8 as start,
             (s.seg->>'end')::float8 as "end", s.seg->>'text' as text,
             ${query ? sql`ts_headline('english', s.seg->>'text', ${query}, ${`StartSel=${MARK_START}, StopSel=${MARK_END}, HighlightAll=true`})` : sql`s.seg->>'text'`} as marked
      from call_search_docs d
      cross join lateral jsonb_array_elements(d.segments) with ordinality as s(seg, ord)
      where d.call_id = any(${sql.val([...callIds])}::bigint[])
        ${speaker !== 0 ? sql`and (s.seg->>'speaker')::int = ${speaker}` : sql``}
        ${query ? sql`and to_tsvector('english', s.seg->>'text') @@ ${query}` : sql``}
      order by d.call_id, s.ord`.execute(db);
    return r.rows.map((x) => ({ ...x, call_id: Number(x.call_id) }));
  },

  // ---- AI attribute rules ----

  async listRules(db: DbOrTx, companyId: number): Promise<RuleRow[]> {
    return db.selectFrom('ai_attribute_rules').selectAll().where('company_id', '=', companyId).orderBy('position').orderBy('id').execute();
  },
  async findRule(db: DbOrTx, companyId: number, id: number): Promise<RuleRow | undefined> {
    return db.selectFrom('ai_attribute_rules').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
  },
  async insertRule(db: DbOrTx, row: NewRow<'ai_attribute_rules'>): Promise<RuleRow> {
    return db.insertInto('ai_attribute_rules').values(row).returningAll().executeTakeFirstOrThrow();
  },
  async updateRule(db: DbOrTx, companyId: number, id: number, patch: Partial<NewRow<'ai_attribute_rules'>>): Promise<RuleRow | undefined> {
    return db
      .updateTable('ai_attribute_rules')
      .set({ ...patch, updated_at: new Date() })
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  },
  async deleteRule(db: DbOrTx, companyId: number, id: number): Promise<boolean> {
    const r = await db.deleteFrom('ai_attribute_rules').where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  },

  // ---- search exports ----

  async insertExport(db: DbOrTx, row: NewRow<'call_search_exports'>): Promise<SearchExportRow> {
    return db.insertInto('call_search_exports').values(row).returningAll().executeTakeFirstOrThrow();
  },
  /** Marks a queued (or retried running) export as running; undefined when it is done or failed already. */
  async claimExport(db: DbOrTx, id: number): Promise<SearchExportRow | undefined> {
    return db
      .updateTable('call_search_exports')
      .set({ status: 'running' })
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'running'])
      .returningAll()
      .executeTakeFirst();
  },
  async finishExport(
    db: DbOrTx,
    id: number,
    patch: { status: 'done' | 'failed'; rows?: number; blob_key?: string | null; error: string | null },
  ): Promise<SearchExportRow> {
    return db
      .updateTable('call_search_exports')
      .set({ ...patch, finished_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  async findExport(db: DbOrTx, userId: number, id: number): Promise<SearchExportRow | undefined> {
    return db.selectFrom('call_search_exports').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  },
};
