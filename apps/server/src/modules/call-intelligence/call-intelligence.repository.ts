/**
 * SQL of call intelligence (tables `call_search_docs`, `ai_attribute_rules`, `call_search_exports`; migration 0031;
 * docs/call-intelligence.md). The only place these tables are read or written.
 *
 * Search: PostgreSQL full text, configuration `english`. `websearch_to_tsquery` turns the person's words and
 * "quoted phrases" into a query; the document's vector is `tsv_all`, or `tsv_agent` / `tsv_client` for a speaker;
 * ranked by `ts_rank`, ties newest first. Passages are the page's matching segments, highlighted by `ts_headline`.
 */
import { CALL_SEARCH_COUNT_CAP } from '@switchboard/contracts';
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

/**
 * `total` counts at most this + 1 hits: more than the cap answers `SEARCH_COUNT_CAP + 1` ("2,000+"; the contract's
 * `CALL_SEARCH_COUNT_CAP`). docs/call-intelligence.md "Search at scale".
 */
export const SEARCH_COUNT_CAP = CALL_SEARCH_COUNT_CAP;
/** With `q`, the newest this-many matching documents (the cap + 1, so the window also tells "more") are ranked. */
export const SEARCH_RANK_WINDOW = SEARCH_COUNT_CAP + 1;
/** Newest documents of the scope read to estimate how often `q` matches before the window is looked for. */
export const SEARCH_PROBE_DOCS = 1000;
/** Probe matches from which the window is found by walking the newest documents (`q` in ≥ 10 % of them). */
const WALK_MIN_PROBE_MATCHES = 100;
/** Probe matches from which the window is looked for in the newest weeks only (`q` in ≥ 1 %). */
const SINCE_MIN_PROBE_MATCHES = 10;

/**
 * How the window (the newest {@link SEARCH_RANK_WINDOW} matches) is looked for, from the probe:
 * - `walk`: the newest `docs` documents of the scope newest first, `q` checked on each (a common `q`);
 * - `since`: the matches started at or after `since` (GIN index with the weeks, migration 0042): a `q` in 1–10 % of
 *   the newest calls, when that is at most a year back;
 * - `all`: every match (GIN index), newest kept: a rare `q` or a small scope;
 * - `planner`: one ordered, limited statement whose plan PostgreSQL picks: a scope of several companies (no single
 *   newest-first index order to walk), or when a bounded plan fell short.
 */
type WindowPlan = { kind: 'walk'; docs: number } | { kind: 'since'; since: Date; weeks: number[] } | { kind: 'all' } | { kind: 'planner' };

/** Highlight markers handed to `ts_headline` (replaced by `<mark>` after HTML-escaping). */
export const MARK_START = '\u0001';
export const MARK_END = '\u0002';

const vectorOf = (speaker: number): RawBuilder<unknown> =>
  speaker === 1 ? sql.ref('d.tsv_agent') : speaker === 2 ? sql.ref('d.tsv_client') : sql.ref('d.tsv_all');

/** The filters of `f` as SQL over `call_search_docs d`; `withQuery` false leaves out the match on `q`. */
function whereOf(f: SearchFilter, withQuery = true): RawBuilder<SqlBool> {
  const parts: RawBuilder<unknown>[] = [];
  const scopes = f.scope.map((s) =>
    s.numberIds === 'all'
      ? sql`d.company_id = ${s.companyId}`
      : s.numberIds.length === 0
        ? sql`false`
        : sql`(d.company_id = ${s.companyId} and d.number_id = any(${sql.val([...s.numberIds])}::bigint[]))`,
  );
  parts.push(scopes.length ? sql`(${sql.join(scopes, sql` or `)})` : sql`false`);
  if (f.q !== null && withQuery) parts.push(sql`${vectorOf(f.speaker)} @@ websearch_to_tsquery('english', ${f.q})`);
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

const SEARCH_COLS = sql`d.call_id, d.company_id, d.number_id, d.started_at, d.duration_s, d.direction, d.caller, d.answer_status,
  d.answered_by, d.qualification, d.tag_ids`;
const tsQuery = (q: string) => sql`websearch_to_tsquery('english', ${q})`;

const WEEK_MS = 7 * 86_400_000;
/**
 * The weeks (`call_search_week`, migration 0042: whole weeks since 1970-01-01 UTC) from the one holding `since` to
 * the one after the later of `newest` and now: the GIN indexes intersect a word's matches with them.
 */
function weeksBetween(since: number, newest: number): number[] {
  const out: number[] = [];
  for (let w = Math.floor(since / WEEK_MS); w <= Math.floor(Math.max(newest, Date.now()) / WEEK_MS) + 1; w++) out.push(w);
  return out;
}

/**
 * The probe: how many of the newest {@link SEARCH_PROBE_DOCS} documents of the scope match `q` (one index walk),
 * and the plan it suggests. A scope of several companies has no single newest-first index order: `planner`.
 */
async function windowPlan(db: DbOrTx, f: SearchFilter & { q: string }): Promise<WindowPlan> {
  if (f.scope.length !== 1) return { kind: 'planner' };
  const P = SEARCH_PROBE_DOCS;
  const r = await sql<{ m: string; n: string; newest: Date | null; oldest: Date | null }>`
    select count(*) filter (where x.v @@ ${tsQuery(f.q)}) as m, count(*) as n, max(x.started_at) as newest, min(x.started_at) as oldest
    from (select ${vectorOf(f.speaker)} as v, d.started_at from call_search_docs d where ${whereOf(f, false)}
          order by d.started_at desc, d.call_id desc limit ${P}) x`.execute(db);
  const m = Number(r.rows[0]?.m ?? 0);
  const n = Number(r.rows[0]?.n ?? 0);
  // A scope of fewer documents than the probe: every match is few.
  if (n < P) return { kind: 'all' };
  const W = SEARCH_RANK_WINDOW;
  // Twice the documents the probe's rate says hold a window: a common `q` ends the walk well before.
  if (m >= WALK_MIN_PROBE_MATCHES) return { kind: 'walk', docs: Math.ceil((2 * W * P) / m) };
  // Under 1 %: the matches are few enough to read them all.
  if (m < SINCE_MIN_PROBE_MATCHES) return { kind: 'all' };
  // The time that 1.5 windows of matches take at the probe's rate of matches per second.
  const newest = new Date(r.rows[0]!.newest!).getTime();
  const span = newest - new Date(r.rows[0]!.oldest!).getTime();
  const since = newest - (span * 1.5 * W) / m;
  // A slice of more than a year: the weeks' lists cost more than they narrow.
  if (newest - since > 52 * WEEK_MS) return { kind: 'all' };
  return { kind: 'since', since: new Date(since), weeks: weeksBetween(since, newest) };
}

/**
 * One page of the window (`n` rows from `offset`, best first) and the window's size, the window found by `plan`.
 * The rows of `walk` and `since` are the newest matches only when the plan found a full window (size W).
 */
async function windowPage(
  db: DbOrTx,
  f: SearchFilter & { q: string },
  plan: WindowPlan,
  n: number,
  offset: number,
): Promise<{ rows: SearchRow[]; size: number }> {
  const W = SEARCH_RANK_WINDOW;
  const v = vectorOf(f.speaker);
  // The window's documents, newest first; `materialized` keeps the GIN plans from turning into a walk.
  const source =
    plan.kind === 'walk'
      ? sql`select * from (select ${SEARCH_COLS}, ${v} as v from call_search_docs d where ${whereOf(f, false)}
                           order by d.started_at desc, d.call_id desc limit ${plan.docs}) d
            where d.v @@ ${tsQuery(f.q)} order by d.started_at desc, d.call_id desc limit ${W}`
      : plan.kind === 'planner'
        ? sql`select ${SEARCH_COLS}, ${v} as v from call_search_docs d where ${whereOf(f)}
              order by d.started_at desc, d.call_id desc limit ${W}`
        : sql`select * from m order by m.started_at desc, m.call_id desc limit ${W}`;
  const matches =
    plan.kind === 'walk' || plan.kind === 'planner'
      ? sql``
      : sql`m as materialized (select ${SEARCH_COLS}, ${v} as v from call_search_docs d where ${whereOf(f)}
            ${plan.kind === 'since' ? sql`and call_search_week(d.started_at) && ${sql.val(plan.weeks)}::int[] and d.started_at >= ${plan.since}` : sql``}),`;
  const r = await sql<SearchRow & { window_n: string }>`
    with ${matches} w as materialized (${source})
    select s.window_n, p.* from (select count(*) as window_n from w) s
    left join lateral (
      select d.call_id, d.company_id, d.number_id, d.started_at, d.duration_s, d.direction, d.caller, d.answer_status,
             d.answered_by, d.qualification, d.tag_ids, ts_rank(d.v, ${tsQuery(f.q)}) as rank
      from w d order by rank desc, d.started_at desc, d.call_id desc limit ${n} offset ${offset}) p on true`.execute(db);
  const size = Number(r.rows[0]?.window_n ?? 0);
  return { rows: r.rows.filter((x) => x.call_id !== null).map(({ window_n: _, ...row }) => row), size };
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
   * Bounded work: with `q`, only the window — the newest {@link SEARCH_RANK_WINDOW} matching documents — is ranked
   * by `ts_rank` (best first, ties newest first); when fewer match, the window is all of them, so the order is exact.
   * The window's size is `total` (no counting statement): `SEARCH_COUNT_CAP + 1` means "more than the cap". Hits
   * past the window follow, newest first, with rank 0. How the window is found depends on how often `q` matches
   * among the newest {@link SEARCH_PROBE_DOCS} documents of the scope (see `WindowPlan`); a bounded plan that falls
   * short is run again without bounds, so the window is always the newest matches.
   */
  async search(db: DbOrTx, f: SearchFilter, limit: number, offset: number): Promise<{ rows: SearchRow[]; total: number }> {
    const rows: SearchRow[] = [];
    let total: number;
    if (f.q === null) {
      const r = await sql<SearchRow>`
        select ${SEARCH_COLS}, 0::real as rank from call_search_docs d where ${whereOf(f)}
        order by d.started_at desc, d.call_id desc limit ${limit} offset ${offset}`.execute(db);
      rows.push(...r.rows);
      total =
        offset === 0 && rows.length < limit
          ? rows.length
          : Number(
              (
                await sql<{ n: string }>`
                  select count(*) as n from (select 1 from call_search_docs d where ${whereOf(f)} limit ${SEARCH_COUNT_CAP + 1}) x`.execute(db)
              ).rows[0]?.n ?? 0,
            );
    } else {
      const fq = { ...f, q: f.q };
      const W = SEARCH_RANK_WINDOW;
      let plan = await windowPlan(db, fq);
      let page = await windowPage(db, fq, plan, Math.max(0, Math.min(limit, W - offset)), Math.min(offset, W));
      if ((plan.kind === 'walk' || plan.kind === 'since') && page.size < W) {
        // The estimate fell short (the bounded plan found fewer than a full window): over every match, then.
        plan = { kind: 'planner' };
        page = await windowPage(db, fq, plan, Math.max(0, Math.min(limit, W - offset)), Math.min(offset, W));
      }
      rows.push(...page.rows);
      total = page.size;
      const rest = limit - rows.length;
      if (rest > 0 && page.size === W) {
        const r = await sql<SearchRow>`
          select ${SEARCH_COLS}, 0::real as rank from call_search_docs d where ${whereOf(f)}
          order by d.started_at desc, d.call_id desc limit ${rest} offset ${Math.max(offset, W)}`.execute(db);
        rows.push(...r.rows);
      }
    }
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
