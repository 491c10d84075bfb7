/**
 * The reporting store's rollups follow the facts once per statement, not once per fact row (modules/analytics;
 * docs/analytics.md "Rollups").
 *
 * Migrations 0024 and 0027 keep the eight rollups (four per UTC hour, four per UTC day) by a row-level trigger on
 * `call_facts`: every fact written ran eight upserts (sixteen statements for an update: subtract the old share, add
 * the new one). A flush of 500 facts was 8,000 statements; bench/call-routing measured about 1.9 upserts of each
 * rollup per new call, more PostgreSQL time than the call's own answer.
 *
 * Here three statement-level triggers (insert, update, delete; PostgreSQL allows transition tables on one event per
 * trigger) read the statement's transition tables: per rollup, the rows' shares are summed by rollup key (old rows
 * subtracted, new ones added), keys whose shares net to zero are skipped (a fact rebuilt unchanged writes nothing),
 * the rest upserted in key order (two flushes lock rollup rows in the same order), and rows left with no calls
 * deleted. Same sums as before, one statement per rollup (two after an update or delete) per fact statement.
 */
import { type Kysely, sql } from 'kysely';

/** Measure columns of every rollup (counts and sums in seconds), as in migrations 0024 and 0027. */
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

/** A fact row's share of each measure, over the row alias `r`. */
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

type Rollup = { table: string; time: 'hour' | 'day'; dim: null | { column: string; of: (r: string) => string } };

const DIMS: ReadonlyArray<{ hourly: string; daily: string; dim: Rollup['dim'] }> = [
  { hourly: 'call_rollup_hours', daily: 'call_rollup_days', dim: null },
  { hourly: 'call_rollup_hour_numbers', daily: 'call_rollup_day_numbers', dim: { column: 'number_id', of: (r) => `${r}.number_id` } },
  { hourly: 'call_rollup_hour_sources', daily: 'call_rollup_day_sources', dim: { column: 'traffic_source', of: (r) => `${r}.traffic_source` } },
  { hourly: 'call_rollup_hour_pools', daily: 'call_rollup_day_pools', dim: { column: 'dni_pool_id', of: (r) => `coalesce(${r}.dni_pool_id, 0)` } },
];

const ROLLUPS: Rollup[] = [
  ...DIMS.map((d): Rollup => ({ table: d.hourly, time: 'hour', dim: d.dim })),
  ...DIMS.map((d): Rollup => ({ table: d.daily, time: 'day', dim: d.dim })),
];

const keyColumns = (t: Rollup): string[] => ['company_id', t.time, ...(t.dim ? [t.dim.column] : [])];

/** The rollup key of a fact row: its UTC hour or UTC day whatever the session's TimeZone. */
const keyValues = (t: Rollup, r: string): string[] => [`${r}.company_id`, `date_trunc('${t.time}', ${r}.started_at, 'UTC')`, ...(t.dim ? [t.dim.of(r)] : [])];

/** The rows' shares by key: new rows added, old rows subtracted (transition tables `new_facts`, `old_facts`). */
function delta(t: Rollup, withOld: boolean, withNew: boolean): string {
  const keys = keyColumns(t);
  const parts: string[] = [];
  if (withNew) parts.push(`select ${[...keyValues(t, 'n'), ...share('n')].join(', ')} from new_facts n`);
  if (withOld) parts.push(`select ${[...keyValues(t, 'o'), ...share('o').map((s) => `-(${s})`)].join(', ')} from old_facts o`);
  return `select ${keys.join(', ')}, ${MEASURES.map((m) => `sum(${m})::${m.endsWith('_s') ? 'bigint' : 'integer'} as ${m}`).join(', ')}
      from (${parts.join(' union all ')}) as x(${[...keys, ...MEASURES].join(', ')})
      group by ${keys.join(', ')}
      having ${MEASURES.map((m) => `sum(${m}) <> 0`).join(' or ')}`;
}

/** plpgsql: apply the statement's rows to rollup `t` (and delete its rows left without calls). */
function apply(t: Rollup, withOld: boolean, withNew: boolean): string {
  const keys = keyColumns(t);
  const upsert = `insert into ${t.table} as r (${[...keys, ...MEASURES].join(', ')})
      select * from (${delta(t, withOld, withNew)}) d order by ${keys.join(', ')}
      on conflict (${keys.join(', ')}) do update set ${MEASURES.map((m) => `${m} = r.${m} + excluded.${m}`).join(', ')};`;
  if (!withOld) return upsert;
  const match = keys.map((c, i) => `r.${c} = k.k${i}`).join(' and ');
  return `${upsert}
    delete from ${t.table} r using (select distinct ${keyValues(t, 'o')
      .map((v, i) => `${v} as k${i}`)
      .join(', ')} from old_facts o) k
      where ${match} and r.calls <= 0;`;
}

const FUNCTION = `create or replace function call_facts_rollups_per_statement() returns trigger language plpgsql as $$
  begin
    if tg_op = 'INSERT' then
      ${ROLLUPS.map((t) => apply(t, false, true)).join('\n      ')}
    elsif tg_op = 'UPDATE' then
      ${ROLLUPS.map((t) => apply(t, true, true)).join('\n      ')}
    else
      ${ROLLUPS.map((t) => apply(t, true, false)).join('\n      ')}
    end if;
    return null;
  end $$`;

/** The rolled-up columns of a fact (the row trigger of 0024 fired on an update only when one changed). */
const ROLLED =
  '(%.company_id, %.started_at, %.number_id, %.traffic_source, coalesce(%.dni_pool_id, 0), %.answer_status, %.is_first_contact, %.duration_s, %.answer_time_s, %.is_qualified, %.is_lead)';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(FUNCTION).execute(db);
  await sql`
    drop trigger if exists call_facts_rollups_ins on call_facts;
    drop trigger if exists call_facts_rollups_upd on call_facts;
    create trigger call_facts_rollups_ins after insert on call_facts referencing new table as new_facts
      for each statement execute function call_facts_rollups_per_statement();
    create trigger call_facts_rollups_upd after update on call_facts referencing old table as old_facts new table as new_facts
      for each statement execute function call_facts_rollups_per_statement();
    create trigger call_facts_rollups_del after delete on call_facts referencing old table as old_facts
      for each statement execute function call_facts_rollups_per_statement();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The row-level function of migration 0027 (`call_facts_rollups`) is still there: its triggers come back.
  await sql`
    drop trigger if exists call_facts_rollups_ins on call_facts;
    drop trigger if exists call_facts_rollups_upd on call_facts;
    drop trigger if exists call_facts_rollups_del on call_facts;
    drop function if exists call_facts_rollups_per_statement();
    create trigger call_facts_rollups_ins after insert or delete on call_facts for each row execute function call_facts_rollups();
  `.execute(db);
  await sql
    .raw(
      `create trigger call_facts_rollups_upd after update on call_facts for each row
    when (${ROLLED.replaceAll('%', 'old')} is distinct from ${ROLLED.replaceAll('%', 'new')})
    execute function call_facts_rollups()`,
    )
    .execute(db);
}
