/**
 * Narrow per-dimension rollups of the reporting store (modules/analytics; docs/analytics.md "Rollups").
 *
 * Replaces `call_hourly_rollups` (keyed by company, UTC hour, number, traffic source, pool, answer
 * status and first contact: at a busy company's volume it held nearly one row per call) with four
 * rollups per UTC hour, each keyed by at most one dimension, the answer statuses and first contacts
 * as measure columns instead of key columns:
 *
 * - `call_rollup_hours` (company, hour): totals, series by local day or hour, hour of the week;
 * - `call_rollup_hour_numbers` (company, hour, number);
 * - `call_rollup_hour_sources` (company, hour, last-touch traffic source, '' = untracked);
 * - `call_rollup_hour_pools` (company, hour, DNI pool, 0 = none).
 *
 * Each key is a covering index (the measures INCLUDEd): a company's range is an index-only scan,
 * not one heap page per row (rows of many companies interleave in the heap as calls arrive; measured
 * at 13,659 rows over 4,483 heap pages for one company's 30 days by number).
 *
 * One trigger on `call_facts` keeps all four in the same statement as the fact's change (subtract the
 * old row's share, add the new one's; rows reaching zero calls are deleted). Existing facts are rolled
 * up here once.
 */
import { type Kysely, sql } from 'kysely';

/** Measure columns of every rollup (counts and sums in seconds). */
const MEASURES = [
  'calls',
  'answered',
  'missed',
  'voicemails',
  'blocked',
  'first_time',
  'qualified',
  'leads',
  'duration_s',
  'answered_duration_s',
  'answer_time_s',
  'answer_time_n',
] as const;

/** A fact row's share of each measure, over the record `r` (`new`/`old` in the trigger, `f` in the backfill). */
const share = (r: string): string[] => [
  '1',
  `(${r}.answer_status = 1)::int`,
  `(${r}.answer_status = 2)::int`,
  `(${r}.answer_status = 3)::int`,
  `(${r}.answer_status = 4)::int`,
  `${r}.is_first_contact::int`,
  `${r}.is_qualified::int`,
  `${r}.is_lead::int`,
  `${r}.duration_s`,
  `case when ${r}.answer_status = 1 then ${r}.duration_s else 0 end`,
  `case when ${r}.answer_status = 1 and ${r}.answer_time_s is not null then ${r}.answer_time_s else 0 end`,
  `(${r}.answer_status = 1 and ${r}.answer_time_s is not null)::int`,
];

/** The rollups: table, its dimension column (none for the totals) and that column's expression over a fact record. */
const ROLLUPS: ReadonlyArray<{ table: string; dim: null | { column: string; type: string; of: (r: string) => string } }> = [
  { table: 'call_rollup_hours', dim: null },
  { table: 'call_rollup_hour_numbers', dim: { column: 'number_id', type: 'bigint', of: (r) => `${r}.number_id` } },
  { table: 'call_rollup_hour_sources', dim: { column: 'traffic_source', type: 'text', of: (r) => `${r}.traffic_source` } },
  { table: 'call_rollup_hour_pools', dim: { column: 'dni_pool_id', type: 'bigint', of: (r) => `coalesce(${r}.dni_pool_id, 0)` } },
];

function keyColumns(t: (typeof ROLLUPS)[number]): string[] {
  return ['company_id', 'hour', ...(t.dim ? [t.dim.column] : [])];
}

function keyValues(t: (typeof ROLLUPS)[number], r: string): string[] {
  return [`${r}.company_id`, `date_trunc('hour', ${r}.started_at)`, ...(t.dim ? [t.dim.of(r)] : [])];
}

/** plpgsql: subtract the old fact's share from its rollup row (deleting it at zero calls). */
function subtractOld(t: (typeof ROLLUPS)[number]): string {
  const shares = share('old');
  const where = keyColumns(t)
    .map((c, i) => `r.${c} = ${keyValues(t, 'old')[i]}`)
    .join(' and ');
  return `update ${t.table} r set ${MEASURES.map((m, i) => `${m} = r.${m} - ${shares[i]}`).join(', ')}
      where ${where} returning r.calls into n;
    if n is not null and n <= 0 then delete from ${t.table} r where ${where}; end if;`;
}

/** plpgsql: add the new fact's share to its rollup row. */
function addNew(t: (typeof ROLLUPS)[number]): string {
  const keys = keyColumns(t);
  return `insert into ${t.table} as r (${[...keys, ...MEASURES].join(', ')})
      values (${[...keyValues(t, 'new'), ...share('new')].join(', ')})
      on conflict (${keys.join(', ')}) do update set ${MEASURES.map((m) => `${m} = r.${m} + excluded.${m}`).join(', ')};`;
}

/** The rolled-up columns of a fact: only a change of one of them touches the rollups. */
const ROLLED =
  '(%.company_id, %.started_at, %.number_id, %.traffic_source, coalesce(%.dni_pool_id, 0), %.answer_status, %.is_first_contact, %.duration_s, %.answer_time_s, %.is_qualified, %.is_lead)';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists call_facts_rollup_upd on call_facts`.execute(db);
  await sql`drop trigger if exists call_facts_rollup_ins on call_facts`.execute(db);
  await sql`drop function if exists call_facts_rollup()`.execute(db);
  await sql`drop table if exists call_hourly_rollups`.execute(db);

  for (const t of ROLLUPS) {
    const dimColumn = t.dim ? `${t.dim.column} ${t.dim.type} not null,` : '';
    const measures = MEASURES.map((m) => `${m} ${m.endsWith('_s') ? 'bigint' : 'integer'} not null`).join(', ');
    await sql
      .raw(
        `create table if not exists ${t.table} (company_id bigint not null, hour timestamptz not null, ${dimColumn} ${measures},
         primary key (${keyColumns(t).join(', ')}) include (${MEASURES.join(', ')}))`,
      )
      .execute(db);
  }

  await sql
    .raw(
      `create or replace function call_facts_rollups() returns trigger language plpgsql as $$
    declare n integer;
    begin
      if tg_op in ('UPDATE', 'DELETE') then
        ${ROLLUPS.map(subtractOld).join('\n        ')}
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        ${ROLLUPS.map(addNew).join('\n        ')}
      end if;
      return null;
    end $$`,
    )
    .execute(db);
  await sql`create trigger call_facts_rollups_ins after insert or delete on call_facts for each row execute function call_facts_rollups()`.execute(db);
  await sql
    .raw(
      `create trigger call_facts_rollups_upd after update on call_facts for each row
    when (${ROLLED.replaceAll('%', 'old')} is distinct from ${ROLLED.replaceAll('%', 'new')})
    execute function call_facts_rollups()`,
    )
    .execute(db);

  // The facts stored so far, rolled up once.
  for (const t of ROLLUPS) {
    const keys = keyValues(t, 'f');
    await sql
      .raw(
        `insert into ${t.table} (${[...keyColumns(t), ...MEASURES].join(', ')})
         select ${keys.join(', ')}, ${share('f')
           .map((s) => `sum(${s})`)
           .join(', ')}
         from call_facts f group by ${keys.map((_, i) => i + 1).join(', ')}
         on conflict do nothing`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists call_facts_rollups_upd on call_facts`.execute(db);
  await sql`drop trigger if exists call_facts_rollups_ins on call_facts`.execute(db);
  await sql`drop function if exists call_facts_rollups()`.execute(db);
  for (const t of [...ROLLUPS].reverse()) await sql.raw(`drop table if exists ${t.table}`).execute(db);
}
