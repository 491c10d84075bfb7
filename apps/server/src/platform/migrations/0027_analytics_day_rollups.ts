/**
 * Per-UTC-day rollups of the reporting store (modules/analytics; docs/analytics.md "Rollups").
 *
 * Beside the four hourly rollups of migration 0024, the same four per UTC day (`day` = the UTC
 * midnight, a `timestamptz`):
 *
 * - `call_rollup_days` (company, day);
 * - `call_rollup_day_numbers` (company, day, number);
 * - `call_rollup_day_sources` (company, day, last-touch traffic source, '' = untracked);
 * - `call_rollup_day_pools` (company, day, DNI pool, 0 = none).
 *
 * They answer the groupings without a local day or hour (KPIs, calls by source, by number, by pool)
 * over a range's whole UTC days, the range's edge hours coming from the hourly rollups: a year is
 * ~365 rows per key instead of ~8,760. Same measure columns, same covering keys.
 *
 * The trigger function of 0024 (`call_facts_rollups`) is replaced by one that keeps all eight in the
 * same statement as the fact's change (subtract the old row's share, add the new one's; rows reaching
 * zero calls are deleted); the triggers themselves stay. The day rollups are filled once here from
 * the hourly ones (the same sums, 24× fewer rows to write than from the facts).
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

/** A fact row's share of each measure, over the record `r` (`new`/`old` in the trigger). */
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

type Dim = null | { column: string; type: string; of: (r: string) => string };
type Rollup = { table: string; time: 'hour' | 'day'; dim: Dim };

const DIMS: ReadonlyArray<{ hourly: string; daily: string; dim: Dim }> = [
  { hourly: 'call_rollup_hours', daily: 'call_rollup_days', dim: null },
  { hourly: 'call_rollup_hour_numbers', daily: 'call_rollup_day_numbers', dim: { column: 'number_id', type: 'bigint', of: (r) => `${r}.number_id` } },
  {
    hourly: 'call_rollup_hour_sources',
    daily: 'call_rollup_day_sources',
    dim: { column: 'traffic_source', type: 'text', of: (r) => `${r}.traffic_source` },
  },
  {
    hourly: 'call_rollup_hour_pools',
    daily: 'call_rollup_day_pools',
    dim: { column: 'dni_pool_id', type: 'bigint', of: (r) => `coalesce(${r}.dni_pool_id, 0)` },
  },
];

const HOURLY: Rollup[] = DIMS.map((d) => ({ table: d.hourly, time: 'hour', dim: d.dim }));
const DAILY: Rollup[] = DIMS.map((d) => ({ table: d.daily, time: 'day', dim: d.dim }));

function keyColumns(t: Rollup): string[] {
  return ['company_id', t.time, ...(t.dim ? [t.dim.column] : [])];
}

/** The key of a fact record's row: UTC hour or UTC day whatever the session's TimeZone. */
function keyValues(t: Rollup, r: string): string[] {
  return [`${r}.company_id`, `date_trunc('${t.time}', ${r}.started_at, 'UTC')`, ...(t.dim ? [t.dim.of(r)] : [])];
}

/** plpgsql: subtract the old fact's share from its rollup row (deleting it at zero calls). */
function subtractOld(t: Rollup): string {
  const shares = share('old');
  const where = keyColumns(t)
    .map((c, i) => `r.${c} = ${keyValues(t, 'old')[i]}`)
    .join(' and ');
  return `update ${t.table} r set ${MEASURES.map((m, i) => `${m} = r.${m} - ${shares[i]}`).join(', ')}
      where ${where} returning r.calls into n;
    if n is not null and n <= 0 then delete from ${t.table} r where ${where}; end if;`;
}

/** plpgsql: add the new fact's share to its rollup row. */
function addNew(t: Rollup): string {
  const keys = keyColumns(t);
  return `insert into ${t.table} as r (${[...keys, ...MEASURES].join(', ')})
      values (${[...keyValues(t, 'new'), ...share('new')].join(', ')})
      on conflict (${keys.join(', ')}) do update set ${MEASURES.map((m) => `${m} = r.${m} + excluded.${m}`).join(', ')};`;
}

/** The trigger function over the given rollups. */
function triggerFunction(rollups: readonly Rollup[]): string {
  return `create or replace function call_facts_rollups() returns trigger language plpgsql as $$
    declare n integer;
    begin
      if tg_op in ('UPDATE', 'DELETE') then
        ${rollups.map(subtractOld).join('\n        ')}
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        ${rollups.map(addNew).join('\n        ')}
      end if;
      return null;
    end $$`;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const t of DAILY) {
    const dimColumn = t.dim ? `${t.dim.column} ${t.dim.type} not null,` : '';
    const measures = MEASURES.map((m) => `${m} ${m.endsWith('_s') ? 'bigint' : 'integer'} not null`).join(', ');
    await sql
      .raw(
        `create table if not exists ${t.table} (company_id bigint not null, day timestamptz not null, ${dimColumn} ${measures},
         primary key (${keyColumns(t).join(', ')}) include (${MEASURES.join(', ')}))`,
      )
      .execute(db);
  }
  await sql.raw(triggerFunction([...HOURLY, ...DAILY])).execute(db);

  // The hourly rollups so far, summed per UTC day once.
  for (const [i, t] of DAILY.entries()) {
    const hourly = HOURLY[i]!;
    const dim = t.dim ? `, ${t.dim.column}` : '';
    await sql
      .raw(
        `insert into ${t.table} (company_id, day${dim}, ${MEASURES.join(', ')})
         select company_id, date_trunc('day', hour, 'UTC')${dim}, ${MEASURES.map((m) => `sum(${m})`).join(', ')}
         from ${hourly.table} group by company_id, date_trunc('day', hour, 'UTC')${dim}
         on conflict do nothing`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(triggerFunction(HOURLY)).execute(db);
  for (const t of [...DAILY].reverse()) await sql.raw(`drop table if exists ${t.table}`).execute(db);
}
