/**
 * SQL of call tracking (modules/tracking owns the `dni_*` tables; migration 0017, docs/tracking.md).
 *
 * Number assignment is one statement per group-commit batch (`assignSessions`): the least recently
 * used free numbers of each pool are picked `for update skip locked`, given to the new sessions and
 * the sessions inserted with their first page views, so two concurrent requests on any number of
 * server nodes never take the same number. A number is free when it has never been held or its
 * holder's end (`held_until`) plus the pool's cool-down has passed; a heartbeat or page view
 * extends `held_until` only while the number's row still names the session (`touchSession`),
 * under the same row lock.
 */
import { sql } from 'kysely';
import type { Db, DbOrTx } from '../../platform/db/db.js';
import { CUSTOM_PLAN_MARK } from '../../platform/db/prepared.js';
import type { NewRow, Row, RowUpdate } from '../../platform/db/schema.js';
import type { StoredSourceRules, StoredTouch } from '../../platform/db/schema-tracking.js';
import type { AdIds } from './ad-ids.js';

export type SettingsRow = Row<'dni_settings'>;
export type PoolRow = Row<'dni_pools'>;
export type PoolNumberRow = Row<'dni_pool_numbers'>;
export type StaticSourceRow = Row<'dni_static_sources'>;
export type SessionRow = Row<'dni_sessions'>;
export type PageViewRow = Row<'dni_page_views'>;
export type AttributionRow = Row<'dni_call_attributions'>;
export type LeadRow = Row<'dni_leads'>;

/** An active pool as the public path reads it (`publicConfigs`). */
export type PublicPoolRow = {
  id: number;
  name: string;
  source_rules: StoredSourceRules;
  target_numbers: string[];
  session_duration_minutes: number;
  cool_down_minutes: number;
  fallback_number_id: number | null;
};

/** A pool number with its state now (contracts `DniPoolNumber`). */
export type PoolNumberState = PoolNumberRow & { state: 'in_use' | 'cooling_down' | 'free'; available_at: Date | null };

/** What a new session is made of (the visit's classification and the pool's timings). */
export type NewSession = {
  id: string;
  companyId: number;
  poolId: number | null;
  visitorId: string;
  trafficSource: string;
  source: string | null;
  medium: string | null;
  campaign: string | null;
  keyword: string | null;
  content: string | null;
  landingPage: string | null;
  referrer: string | null;
  gclid: string | null;
  gbraid: string | null;
  wbraid: string | null;
  msclkid: string | null;
  fbclid: string | null;
  touch: StoredTouch;
  sessionMinutes: number;
  coolDownMinutes: number;
  fallbackNumber: string | null;
  pageUrl: string;
  pageTitle: string | null;
  device: string | null;
};

/** Activity rows of calls matched to a session (`trackingmatch`). */
export type TrackingMatchRow = {
  call_id: number;
  started_at: Date;
  session_id: string;
  pool_id: number | null;
  pool_name: string | null;
  traffic_source: string | null;
  source: string | null;
  medium: string | null;
  campaign: string | null;
  keyword: string | null;
  landing_page: string | null;
  number: string;
};

/** One row of a calls report (grouped). */
export type ReportRow = {
  key: string | null;
  calls: number;
  first_time_callers: number;
  answered: number;
  missed: number;
  avg_duration_s: number | null;
};

/** The only SQL of the tracking module. */
export const trackingRepository = {
  // ------------------------------------------------------------ settings

  async settingsOf(db: DbOrTx, companyId: number): Promise<SettingsRow | undefined> {
    return db.selectFrom('dni_settings').selectAll().where('company_id', '=', companyId).executeTakeFirst();
  },
  async settingsByKey(db: DbOrTx, key: string): Promise<SettingsRow | undefined> {
    return db.selectFrom('dni_settings').selectAll().where('key', '=', key).executeTakeFirst();
  },
  /** Creates the company's settings row with `key` unless it exists. @returns the row. */
  async ensureSettings(db: DbOrTx, companyId: number, key: string): Promise<SettingsRow> {
    await db
      .insertInto('dni_settings')
      .values({ company_id: companyId, key })
      .onConflict((oc) => oc.column('company_id').doNothing())
      .execute();
    return db.selectFrom('dni_settings').selectAll().where('company_id', '=', companyId).executeTakeFirstOrThrow();
  },
  async updateSettings(db: DbOrTx, companyId: number, patch: RowUpdate<'dni_settings'>): Promise<SettingsRow> {
    return db
      .updateTable('dni_settings')
      .set({ ...patch, updated_at: new Date() })
      .where('company_id', '=', companyId)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  /** Records the last page the script reported (at most once a minute per company). */
  async touchSettingsSeen(db: DbOrTx, companyId: number, url: string): Promise<void> {
    await db
      .updateTable('dni_settings')
      .set({ last_seen_at: sql`now()`, last_seen_url: url })
      .where('company_id', '=', companyId)
      .where((eb) => eb.or([eb('last_seen_at', 'is', null), eb('last_seen_at', '<', sql<Date>`now() - interval '1 minute'`)]))
      .execute();
  },

  // ------------------------------------------------------------ pools

  async listPools(db: DbOrTx, companyId: number, search?: string): Promise<PoolRow[]> {
    let q = db.selectFrom('dni_pools').selectAll().where('company_id', '=', companyId);
    if (search) q = q.where('name', 'ilike', `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    return q.orderBy('priority').orderBy('id').execute();
  },
  async activePools(db: DbOrTx, companyId: number): Promise<PoolRow[]> {
    return db.selectFrom('dni_pools').selectAll().where('company_id', '=', companyId).where('active', '=', true).orderBy('priority').orderBy('id').execute();
  },
  async findPool(db: DbOrTx, companyId: number, id: number): Promise<PoolRow | undefined> {
    return db.selectFrom('dni_pools').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
  },
  async poolNames(db: DbOrTx, companyId: number, ids: number[]): Promise<Array<{ id: number; name: string }>> {
    if (!ids.length) return [];
    return db.selectFrom('dni_pools').select(['id', 'name']).where('company_id', '=', companyId).where('id', 'in', ids).execute();
  },
  async insertPool(db: DbOrTx, row: NewRow<'dni_pools'>): Promise<PoolRow> {
    return db.insertInto('dni_pools').values(row).returningAll().executeTakeFirstOrThrow();
  },
  async updatePool(db: DbOrTx, id: number, patch: RowUpdate<'dni_pools'>): Promise<PoolRow> {
    return db
      .updateTable('dni_pools')
      .set({ ...patch, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  /** The pool holding a number, with its routing target (call-time fallback of a number without routes), undefined when in none. */
  async poolRoutingOfNumber(db: DbOrTx, numberId: number): Promise<Pick<PoolRow, 'id' | 'company_id' | 'routing' | 'fallback_number_id'> | undefined> {
    return db
      .selectFrom('dni_pool_numbers as pn')
      .innerJoin('dni_pools as p', 'p.id', 'pn.pool_id')
      .select(['p.id', 'p.company_id', 'p.routing', 'p.fallback_number_id'])
      .where('pn.number_id', '=', numberId)
      .executeTakeFirst();
  },
  async deletePool(db: DbOrTx, id: number): Promise<void> {
    await db.deleteFrom('dni_pools').where('id', '=', id).execute();
  },

  /** The pools' numbers with their state now, by pool then number. */
  async poolNumbers(db: DbOrTx, poolIds: number[]): Promise<PoolNumberState[]> {
    if (!poolIds.length) return [];
    const rows = await sql<PoolNumberRow & { cool_down_minutes: number }>`
      select pn.*, p.cool_down_minutes from dni_pool_numbers pn join dni_pools p on p.id = pn.pool_id
      where pn.pool_id = any(${poolIds}) order by pn.pool_id, pn.number`.execute(db);
    const now = Date.now();
    return rows.rows.map(({ cool_down_minutes, ...r }) => {
      const until = r.held_until?.getTime() ?? null;
      const free = until === null ? null : until + cool_down_minutes * 60_000;
      const state = until !== null && until > now ? 'in_use' : free !== null && free > now ? 'cooling_down' : 'free';
      return { ...r, session_id: state === 'in_use' ? r.session_id : null, state, available_at: free !== null && free > now ? new Date(free) : null };
    });
  },
  /** Number ids among `ids` that are in a pool other than `exceptPoolId` or are a static source. */
  async numbersTaken(db: DbOrTx, companyId: number, ids: number[], exceptPoolId: number | null): Promise<number[]> {
    if (!ids.length) return [];
    const inPools = await db
      .selectFrom('dni_pool_numbers')
      .select('number_id')
      .where('company_id', '=', companyId)
      .where('number_id', 'in', ids)
      .$if(exceptPoolId !== null, (q) => q.where('pool_id', '!=', exceptPoolId!))
      .execute();
    const statics = await db.selectFrom('dni_static_sources').select('number_id').where('number_id', 'in', ids).execute();
    return [...new Set([...inPools.map((r) => r.number_id), ...statics.map((r) => r.number_id)])];
  },
  /** Makes the pool's numbers exactly `numbers` (added ones join free; removed ones leave the pool). */
  async setPoolNumbers(db: DbOrTx, poolId: number, companyId: number, numbers: Array<{ id: number; number: string }>): Promise<void> {
    const ids = numbers.map((n) => n.id);
    let del = db.deleteFrom('dni_pool_numbers').where('pool_id', '=', poolId);
    if (ids.length) del = del.where('number_id', 'not in', ids);
    await del.execute();
    await trackingRepository.addPoolNumbers(db, poolId, companyId, numbers);
  },
  /** Adds numbers to a pool (already there: unchanged). */
  async addPoolNumbers(db: DbOrTx, poolId: number, companyId: number, numbers: Array<{ id: number; number: string }>): Promise<void> {
    if (!numbers.length) return;
    await db
      .insertInto('dni_pool_numbers')
      .values(numbers.map((n) => ({ number_id: n.id, pool_id: poolId, company_id: companyId, number: n.number })))
      .onConflict((oc) => oc.column('number_id').doNothing())
      .execute();
  },
  /** Takes numbers out of every pool and static source (released numbers). */
  async dropNumbers(db: DbOrTx, companyId: number, numberIds: number[]): Promise<void> {
    if (!numberIds.length) return;
    await db.deleteFrom('dni_pool_numbers').where('company_id', '=', companyId).where('number_id', 'in', numberIds).execute();
    await db.deleteFrom('dni_static_sources').where('company_id', '=', companyId).where('number_id', 'in', numberIds).execute();
  },
  /** Updates the E.164 kept with a pool number (a rotated number keeps its id). */
  async renamePoolNumber(db: DbOrTx, numberId: number, number: string): Promise<void> {
    await db.updateTable('dni_pool_numbers').set({ number }).where('number_id', '=', numberId).execute();
    await db.updateTable('dni_static_sources').set({ number }).where('number_id', '=', numberId).execute();
  },
  async poolNumberIds(db: DbOrTx, poolId: number): Promise<number[]> {
    return (await db.selectFrom('dni_pool_numbers').select('number_id').where('pool_id', '=', poolId).execute()).map((r) => r.number_id);
  },
  /** The pools holding these numbers, by number id (number row and pool name). */
  async poolsOfNumbers(db: DbOrTx, numberIds: readonly number[]): Promise<Map<number, PoolNumberRow & { pool_name: string }>> {
    if (numberIds.length === 0) return new Map();
    const rows = await db
      .selectFrom('dni_pool_numbers as pn')
      .innerJoin('dni_pools as p', 'p.id', 'pn.pool_id')
      .selectAll('pn')
      .select('p.name as pool_name')
      .where('pn.number_id', 'in', [...numberIds])
      .execute();
    return new Map(rows.map((r) => [r.number_id, r]));
  },

  async insertPurchase(db: DbOrTx, row: NewRow<'dni_pool_purchases'>): Promise<void> {
    await db
      .insertInto('dni_pool_purchases')
      .values(row)
      .onConflict((oc) => oc.column('batch_id').doNothing())
      .execute();
  },
  async purchaseOfBatch(db: DbOrTx, batchId: string) {
    return db.selectFrom('dni_pool_purchases').selectAll().where('batch_id', '=', batchId).executeTakeFirst();
  },
  async pendingPurchases(db: DbOrTx, poolIds: number[]) {
    if (!poolIds.length) return [];
    return db
      .selectFrom('dni_pool_purchases')
      .selectAll()
      .where('pool_id', 'in', poolIds)
      .where('finished_at', 'is', null)
      .orderBy('created_at', 'desc')
      .execute();
  },
  async finishPurchase(db: DbOrTx, batchId: string): Promise<void> {
    await db.updateTable('dni_pool_purchases').set({ finished_at: new Date() }).where('batch_id', '=', batchId).execute();
  },

  // ------------------------------------------------------------ exhaustion

  /**
   * Counts `n` visitors who got the pool's fallback number: opens the pool's exhaustion episode (marks the pool
   * exhausted, a `dni_exhaustions` row with `n`) unless one is open, else adds `n` to the open episode. One statement.
   * @returns true when this call opened the episode (announce it once).
   */
  async countFallbacks(db: DbOrTx, companyId: number, poolId: number, n: number): Promise<boolean> {
    const r = await sql<{ started: boolean }>`
      with started as (
        update dni_pools set exhausted_since = now() where id = ${poolId} and exhausted_since is null returning id
      ), opened as (
        insert into dni_exhaustions (company_id, pool_id, fallback_sessions) select ${companyId}, id, ${n} from started
      ), counted as (
        update dni_exhaustions set fallback_sessions = fallback_sessions + ${n}
        where pool_id = ${poolId} and ended_at is null and not exists (select 1 from started)
      )
      select exists (select 1 from started) as started`.execute(db);
    return r.rows[0]?.started === true;
  },
  /** Ends the pool's open exhaustion episode, if any (a number was free again). One statement. */
  async endExhaustion(db: DbOrTx, poolId: number): Promise<void> {
    await sql`
      with ended as (
        update dni_pools set exhausted_since = null where id = ${poolId} and exhausted_since is not null returning id
      )
      update dni_exhaustions set ended_at = now() where pool_id in (select id from ended) and ended_at is null`.execute(db);
  },
  /** Per pool since `from`: exhaustion episodes, fallback sessions, the last episode's start. */
  async exhaustionStats(db: DbOrTx, poolIds: number[], from: Date, to: Date = new Date()) {
    if (!poolIds.length) return [];
    return db
      .selectFrom('dni_exhaustions')
      .select(['pool_id'])
      .select((eb) => [
        eb.fn.countAll<number>().as('episodes'),
        eb.fn.coalesce(eb.fn.sum<number>('fallback_sessions'), sql<number>`0`).as('fallback_sessions'),
        eb.fn.max('started_at').as('last_started_at'),
      ])
      .where('pool_id', 'in', poolIds)
      .where('started_at', '>=', from)
      .where('started_at', '<', to)
      .groupBy('pool_id')
      .execute();
  },
  /** The most sessions of each pool that held a number at once, between `from` and `to`. */
  async peakConcurrent(db: DbOrTx, poolIds: number[], from: Date, to: Date): Promise<Map<number, number>> {
    if (!poolIds.length) return new Map();
    const r = await sql<{ pool_id: number; peak: number }>`
      with edges as (
        select pool_id, greatest(started_at, ${from}::timestamptz) as at, 1 as d from dni_sessions
          where pool_id = any(${poolIds}) and number_id is not null and not fallback and started_at < ${to} and expires_at > ${from}
        union all
        select pool_id, least(expires_at, ${to}::timestamptz), -1 from dni_sessions
          where pool_id = any(${poolIds}) and number_id is not null and not fallback and started_at < ${to} and expires_at > ${from}
      ), running as (
        select pool_id, sum(d) over (partition by pool_id order by at, d rows unbounded preceding) as n from edges
      )
      select pool_id, max(n)::int as peak from running group by pool_id`.execute(db);
    return new Map(r.rows.map((x) => [x.pool_id, x.peak]));
  },
  /**
   * Utilisation of one pool per bucket (`hour` or `day`, in zone `tz`): sessions started, fallback
   * sessions, and the most numbers held at once within the bucket. Buckets start at local hour or
   * day starts; days are stepped on the local calendar, so a DST day keeps its local midnights.
   */
  async utilisation(db: DbOrTx, poolId: number, from: Date, to: Date, bucket: 'hour' | 'day', tz: string) {
    const r = await sql<{ at: Date; peak_in_use: number; sessions: number; fallback_sessions: number }>`
      with buckets as (${
        bucket === 'day'
          ? // Local days: stepped on the local calendar (a day across a DST change lasts 23 or 25 hours).
            sql`
        select b at time zone ${tz} as at, (b + interval '1 day') at time zone ${tz} as until
        from generate_series(date_trunc('day', ${from}::timestamptz at time zone ${tz}), ${to}::timestamptz at time zone ${tz}, interval '1 day') b`
          : // Local hours: from the local hour's start (on :30 or :45 UTC in such zones), by elapsed hours.
            sql`
        select b as at, b + interval '1 hour' as until
        from generate_series(date_trunc('hour', ${from}::timestamptz at time zone ${tz}) at time zone ${tz}, ${to}::timestamptz, interval '1 hour') b`
      }
      ), s as (
        select started_at, expires_at, fallback, number_id from dni_sessions where pool_id = ${poolId} and started_at < ${to} and expires_at > ${from}
      )
      select bk.at,
        (select count(*) from s where s.started_at >= bk.at and s.started_at < bk.until)::int as sessions,
        (select count(*) from s where s.fallback and s.started_at >= bk.at and s.started_at < bk.until)::int as fallback_sessions,
        coalesce((
          select max(n) from (
            select sum(d) over (order by t, d rows unbounded preceding) as n from (
              select greatest(started_at, bk.at) as t, 1 as d from s where number_id is not null and not fallback and started_at < bk.until and expires_at > bk.at
              union all
              select least(expires_at, bk.until), -1 from s where number_id is not null and not fallback and started_at < bk.until and expires_at > bk.at
            ) e
          ) m
        ), 0)::int as peak_in_use
      from buckets bk where bk.at < ${to} order by bk.at`.execute(db);
    return r.rows;
  },

  // ------------------------------------------------------------ static sources

  async listStaticSources(db: DbOrTx, companyId: number): Promise<Array<StaticSourceRow & { calls_30d: number }>> {
    return db
      .selectFrom('dni_static_sources as s')
      .selectAll('s')
      .select((eb) =>
        eb
          .selectFrom('dni_call_attributions as a')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('a.static_source_id', '=', 's.id')
          .where('a.started_at', '>', sql<Date>`now() - interval '30 days'`)
          .as('calls_30d'),
      )
      .where('s.company_id', '=', companyId)
      .orderBy('s.name')
      .orderBy('s.id')
      .execute() as Promise<Array<StaticSourceRow & { calls_30d: number }>>;
  },
  async findStaticSource(db: DbOrTx, companyId: number, id: number): Promise<StaticSourceRow | undefined> {
    return db.selectFrom('dni_static_sources').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
  },
  async staticSourceOfNumber(db: DbOrTx, numberId: number): Promise<StaticSourceRow | undefined> {
    return db.selectFrom('dni_static_sources').selectAll().where('number_id', '=', numberId).executeTakeFirst();
  },
  async staticSourcesOfNumbers(db: DbOrTx, numberIds: number[]): Promise<StaticSourceRow[]> {
    if (!numberIds.length) return [];
    return db.selectFrom('dni_static_sources').selectAll().where('number_id', 'in', numberIds).execute();
  },
  async insertStaticSource(db: DbOrTx, row: NewRow<'dni_static_sources'>): Promise<StaticSourceRow> {
    return db.insertInto('dni_static_sources').values(row).returningAll().executeTakeFirstOrThrow();
  },
  async updateStaticSource(db: DbOrTx, id: number, patch: RowUpdate<'dni_static_sources'>): Promise<StaticSourceRow> {
    return db
      .updateTable('dni_static_sources')
      .set({ ...patch, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  async deleteStaticSource(db: DbOrTx, id: number): Promise<void> {
    await db.deleteFrom('dni_static_sources').where('id', '=', id).execute();
  },
  /** Sessions and calls per traffic source in the last 30 days. */
  async sourceCounts30d(db: DbOrTx, companyId: number): Promise<{ sessions: Map<string, number>; calls: Map<string, number> }> {
    const s = await db
      .selectFrom('dni_sessions')
      .select(['traffic_source'])
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', companyId)
      .where('started_at', '>', sql<Date>`now() - interval '30 days'`)
      .groupBy('traffic_source')
      .execute();
    const c = await db
      .selectFrom('dni_call_attributions')
      .select(['traffic_source'])
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', companyId)
      .where('traffic_source', 'is not', null)
      .where('started_at', '>', sql<Date>`now() - interval '30 days'`)
      .groupBy('traffic_source')
      .execute();
    return { sessions: new Map(s.map((r) => [r.traffic_source, Number(r.n)])), calls: new Map(c.map((r) => [r.traffic_source!, Number(r.n)])) };
  },

  // ------------------------------------------------------------ sessions (public path)

  /**
   * The public path's view of the companies of `keys` (public-cache.ts) in ONE statement: each
   * known key's settings row with its active pools in priority order (`pools`, possibly empty).
   * Unknown keys are absent.
   */
  async publicConfigs(db: DbOrTx, keys: string[]): Promise<Array<SettingsRow & { pools: PublicPoolRow[] }>> {
    if (!keys.length) return [];
    const r = await sql<SettingsRow & { pools: PublicPoolRow[] }>`
      select s.*, coalesce((
        select json_agg(json_build_object('id', p.id, 'name', p.name, 'source_rules', p.source_rules, 'target_numbers', p.target_numbers,
          'session_duration_minutes', p.session_duration_minutes, 'cool_down_minutes', p.cool_down_minutes, 'fallback_number_id', p.fallback_number_id)
          order by p.priority, p.id)
        from dni_pools p where p.company_id = s.company_id and p.active
      ), '[]'::json) as pools
      from dni_settings s where s.key = any(${keys}::text[])`.execute(db);
    return r.rows;
  },

  /**
   * Creates the sessions of `items` (a group commit's batch, in order) in ONE statement and ONE
   * implicit transaction: for each pool, as many of its least recently used free numbers as the
   * batch has visitors for it are picked `for update skip locked` (concurrent batches on any node
   * never take one number; a number locked by another batch is skipped, not waited for), the i-th
   * visitor of a pool in the batch gets its i-th number, the numbers are marked held, the sessions
   * inserted with their first page views. A visitor for whom no free number is left gets the
   * pool's fallback number (`fallback` true). The first touch is the visitor's first session's
   * (stored, else the batch's earliest for that visitor), else the session's own.
   *
   * The commit does not wait for its WAL flush (`set_config('synchronous_commit', 'off', true)`
   * for this statement's transaction only; docs/tracking.md "Performance"): a visitor's session is
   * ephemeral state, so a database crash may lose the last fraction of a second of assignments
   * (the script opens a new session on its next request) but never leaves half of one, and every
   * other write of the product keeps its durable commit.
   * @returns one session per item, in input order, with `pool_was_exhausted` (its pool had an open
   *   exhaustion episode when the statement ran). Throws the statement's error (nothing applied).
   */
  async assignSessions(db: Db, items: NewSession[]): Promise<Array<SessionRow & { pool_was_exhausted: boolean }>> {
    const input = JSON.stringify(
      items.map((s, ord) => ({
        ord,
        id: s.id,
        company_id: s.companyId,
        pool_id: s.poolId,
        visitor_id: s.visitorId,
        traffic_source: s.trafficSource,
        source: s.source,
        medium: s.medium,
        campaign: s.campaign,
        keyword: s.keyword,
        content: s.content,
        landing_page: s.landingPage,
        referrer: s.referrer,
        gclid: s.gclid,
        gbraid: s.gbraid,
        wbraid: s.wbraid,
        msclkid: s.msclkid,
        fbclid: s.fbclid,
        touch: s.touch,
        session_minutes: s.sessionMinutes,
        cool_down_minutes: s.coolDownMinutes,
        fallback_number: s.fallbackNumber,
        page_url: s.pageUrl,
        page_title: s.pageTitle,
        device: s.device,
      })),
    );
    const r = await sql<SessionRow & { pool_was_exhausted: boolean }>`
      with async_commit as (
        select set_config('synchronous_commit', 'off', true) as v
      ), items as (
        select * from json_to_recordset(${input}::json) as i(ord int, id uuid, company_id bigint, pool_id bigint, visitor_id uuid, traffic_source text,
          source text, medium text, campaign text, keyword text, content text, landing_page text, referrer text, gclid text, gbraid text, wbraid text,
          msclkid text, fbclid text, touch jsonb, session_minutes int, cool_down_minutes int, fallback_number text, page_url text, page_title text, device text)
      ), wanted as (
        select pool_id, count(*)::int as n, max(cool_down_minutes) as cool_down_minutes from items where pool_id is not null group by pool_id
      ), picked as (
        select w.pool_id, p.number_id, p.number,
          row_number() over (partition by w.pool_id order by p.last_assigned_at asc nulls first, p.number_id) as rn
        from wanted w cross join lateral (
          select pn.number_id, pn.number, pn.last_assigned_at from dni_pool_numbers pn
          where pn.pool_id = w.pool_id and (pn.held_until is null or pn.held_until + make_interval(mins => w.cool_down_minutes) <= now())
          order by pn.last_assigned_at asc nulls first, pn.number_id
          limit w.n
          for update of pn skip locked
        ) p
      ), matched as (
        select i.*, pk.number_id, pk.number as pool_number,
          first_value(i.touch) over (partition by i.company_id, i.visitor_id order by i.ord) as batch_touch
        from (select items.*, row_number() over (partition by items.pool_id order by items.ord) as rn from items) i
        left join picked pk on pk.pool_id = i.pool_id and pk.rn = i.rn
      ), took as (
        update dni_pool_numbers pn
        set session_id = m.id, held_until = now() + make_interval(mins => m.session_minutes), last_assigned_at = now()
        from matched m where pn.number_id = m.number_id
        returning pn.number_id
      ), ins as (
        insert into dni_sessions (id, company_id, pool_id, visitor_id, number_id, number, fallback, traffic_source, source, medium, campaign, keyword,
          content, landing_page, referrer, gclid, gbraid, wbraid, msclkid, fbclid, first_touch, started_at, last_seen_at, expires_at,
          cool_down_minutes, page_views, last_page_url, last_page_title, device)
        select m.id, m.company_id, m.pool_id, m.visitor_id, m.number_id, coalesce(m.pool_number, m.fallback_number),
          m.pool_id is not null and m.number_id is null,
          m.traffic_source, m.source, m.medium, m.campaign, m.keyword, m.content, m.landing_page, m.referrer,
          m.gclid, m.gbraid, m.wbraid, m.msclkid, m.fbclid,
          coalesce(
            (select s.first_touch from dni_sessions s where s.company_id = m.company_id and s.visitor_id = m.visitor_id order by s.started_at limit 1),
            m.batch_touch
          ),
          now(), now(), now() + make_interval(mins => m.session_minutes), m.cool_down_minutes, 1, m.page_url, m.page_title, m.device
        from matched m
        returning *
      ), pv as (
        insert into dni_page_views (session_id, company_id, at, url, title, number)
        select id, company_id, started_at, last_page_url, last_page_title, number from ins
      )
      select ins.*, coalesce((select p.exhausted_since is not null from dni_pools p where p.id = ins.pool_id), false) as pool_was_exhausted
      from ins cross join async_commit`.execute(db);
    const byId = new Map(r.rows.map((row) => [row.id, row]));
    return items.map((s) => {
      const row = byId.get(s.id);
      if (!row) throw new Error(`assignSessions: no session ${s.id} in the statement's result`);
      return row;
    });
  },
  /**
   * Keeps the GA4 and Meta browser ids a visit carried (migration 0071; docs/tracking.md "Ad platform ids"): a known id
   * replaces the stored one (a new GA session on a later page), an unknown one keeps it. One statement, only for
   * visits that carried any id.
   */
  async setAdIds(db: Db, companyId: number, sessionId: string, ids: AdIds): Promise<void> {
    await db
      .updateTable('dni_sessions')
      .set({
        ga_client_id: sql`coalesce(${ids.ga_client_id}, ga_client_id)`,
        ga_session_id: sql`coalesce(${ids.ga_session_id}, ga_session_id)`,
        fbp: sql`coalesce(${ids.fbp}, fbp)`,
        fbc: sql`coalesce(${ids.fbc}, fbc)`,
      })
      .where('id', '=', sessionId)
      .where('company_id', '=', companyId)
      .execute();
  },
  /**
   * Records a page view (or only a heartbeat when `page` is null) of a live session: extends it by
   * its own length (`expires_at - last_seen_at`), and its number's `held_until` only while the
   * number's row still names the session (row-locked, so an assignment never takes it meanwhile).
   * Committed without waiting for its WAL flush, like an assignment (docs/tracking.md "Performance": a session's
   * extension is ephemeral; a crash loses at most the last fraction of a second of page views and heartbeats).
   * @returns the session after the change, or undefined when it had ended (or lost its number).
   */
  async touchSession(db: Db, companyId: number, sessionId: string, page: { url: string; title: string | null } | null): Promise<SessionRow | undefined> {
    const r = await sql<SessionRow>`
      with async_commit as (
        select set_config('synchronous_commit', 'off', true) as v
      ), cur as (
        select id, number_id, fallback, expires_at - last_seen_at as len from dni_sessions
        where id = ${sessionId}::uuid and company_id = ${companyId} and expires_at > now()
      ), held as (
        update dni_pool_numbers pn set held_until = now() + cur.len
        from cur where pn.number_id = cur.number_id and not cur.fallback and pn.session_id = cur.id and pn.held_until > now()
        returning pn.number_id
      ), upd as (
        update dni_sessions s set last_seen_at = now(), expires_at = now() + cur.len,
          page_views = s.page_views + ${page ? 1 : 0},
          last_page_url = coalesce(${page?.url ?? null}, s.last_page_url),
          last_page_title = case when ${page !== null} then ${page?.title ?? null} else s.last_page_title end
        from cur where s.id = cur.id and (cur.number_id is null or cur.fallback or exists (select 1 from held))
        returning s.*
      ), pv as (
        insert into dni_page_views (session_id, company_id, at, url, title, number)
        select id, company_id, now(), ${page?.url ?? ''}, ${page?.title ?? null}, number from upd where ${page !== null}
      )
      select upd.* from upd cross join async_commit`.execute(db);
    return r.rows[0];
  },
  /** Ends a session now and frees its number into cool-down (a new campaign click replaced it). */
  async endSessionNow(db: DbOrTx, companyId: number, sessionId: string): Promise<void> {
    await sql`
      with s as (update dni_sessions set expires_at = now(), ended_at = now() where id = ${sessionId}::uuid and company_id = ${companyId} and expires_at > now() returning id, number_id)
      update dni_pool_numbers pn set held_until = now() from s where pn.number_id = s.number_id and pn.session_id = s.id`.execute(db);
  },
  /**
   * Ends every live session of a visitor now (consent withdrawn): each number goes into its cool-down at once.
   * @returns the ended sessions with their pool's name (to announce them).
   */
  async endVisitorSessions(db: DbOrTx, companyId: number, visitorId: string): Promise<Array<SessionRow & { pool_name: string | null }>> {
    const r = await sql<SessionRow & { pool_name: string | null }>`
      with s as (
        update dni_sessions set expires_at = now(), ended_at = now()
        where company_id = ${companyId} and visitor_id = ${visitorId}::uuid and expires_at > now() returning *
      ), freed as (
        update dni_pool_numbers pn set held_until = now() from s where pn.number_id = s.number_id and pn.session_id = s.id
      )
      select s.*, p.name as pool_name from s left join dni_pools p on p.id = s.pool_id`.execute(db);
    return r.rows;
  },
  async findSession(db: DbOrTx, companyId: number, id: string): Promise<SessionRow | undefined> {
    return db.selectFrom('dni_sessions').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
  },
  /** The visitor's live session, latest first. */
  async liveSessionOfVisitor(db: DbOrTx, companyId: number, visitorId: string): Promise<SessionRow | undefined> {
    return db
      .selectFrom('dni_sessions')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('visitor_id', '=', visitorId)
      .where('expires_at', '>', sql<Date>`now()`)
      .orderBy('started_at', 'desc')
      .limit(1)
      .executeTakeFirst();
  },
  /** Marks up to `limit` sessions past their end as ended. @returns them (each once across nodes) with their pool's name. */
  async endExpiredSessions(db: DbOrTx, limit: number): Promise<Array<SessionRow & { pool_name: string | null }>> {
    const r = await sql<SessionRow & { pool_name: string | null }>`
      with due as (
        select id from dni_sessions where ended_at is null and expires_at <= now() order by expires_at limit ${limit} for update skip locked
      ), upd as (
        update dni_sessions s set ended_at = s.expires_at from due where s.id = due.id returning s.*
      )
      select upd.*, p.name as pool_name from upd left join dni_pools p on p.id = upd.pool_id`.execute(db);
    return r.rows;
  },
  /** The earliest end of a live session not yet marked ended, if any. */
  async nextSessionEnd(db: DbOrTx): Promise<Date | null> {
    const r = await db
      .selectFrom('dni_sessions')
      .select((eb) => eb.fn.min('expires_at').as('at'))
      .where('ended_at', 'is', null)
      .executeTakeFirst();
    return (r?.at as Date | null | undefined) ?? null;
  },
  /**
   * Claims the next sweep at `at` unless one is due sooner (one pending sweep across nodes; a claim
   * more than a minute overdue counts as lost). @returns true when the caller must enqueue it.
   */
  async claimSweep(db: DbOrTx, at: Date): Promise<boolean> {
    const r = await db
      .updateTable('dni_sweep_schedule')
      .set({ next_at: at })
      .where('id', '=', 1)
      .where((eb) => eb.or([eb('next_at', 'is', null), eb('next_at', '<', sql<Date>`now() - interval '1 minute'`), eb('next_at', '>', at)]))
      .returning('id')
      .executeTakeFirst();
    return r !== undefined;
  },
  /** The running sweep (due `mine`) hands over to its successor due `next` (null: none) if the claim is still its own. @returns true when the caller must enqueue it. */
  async handOverSweep(db: DbOrTx, mine: Date, next: Date | null): Promise<boolean> {
    const r = await db
      .updateTable('dni_sweep_schedule')
      .set({ next_at: next })
      .where('id', '=', 1)
      .where('next_at', '=', mine)
      .returning('id')
      .executeTakeFirst();
    return r !== undefined && next !== null;
  },
  async liveSessions(db: DbOrTx, companyId: number, limit: number): Promise<Array<SessionRow & { pool_name: string | null }>> {
    return db
      .selectFrom('dni_sessions as s')
      .leftJoin('dni_pools as p', 'p.id', 's.pool_id')
      .selectAll('s')
      .select('p.name as pool_name')
      .where('s.company_id', '=', companyId)
      .where('s.expires_at', '>', sql<Date>`now()`)
      .orderBy('s.last_seen_at', 'desc')
      .limit(limit)
      .execute();
  },
  async sessionsWithPool(db: DbOrTx, companyId: number, ids: string[]): Promise<Array<SessionRow & { pool_name: string | null }>> {
    if (!ids.length) return [];
    return db
      .selectFrom('dni_sessions as s')
      .leftJoin('dni_pools as p', 'p.id', 's.pool_id')
      .selectAll('s')
      .select('p.name as pool_name')
      .where('s.company_id', '=', companyId)
      .where('s.id', 'in', ids)
      .execute();
  },
  /** Sessions that were shown `number` (newest first). */
  async sessionsOfNumber(db: DbOrTx, companyId: number, number: string, from: Date | null, to: Date | null, limit: number): Promise<string[]> {
    let q = db.selectFrom('dni_sessions').select('id').where('company_id', '=', companyId).where('number', '=', number);
    if (from) q = q.where('started_at', '>=', from);
    if (to) q = q.where('started_at', '<', to);
    return (await q.orderBy('started_at', 'desc').limit(limit).execute()).map((r) => r.id);
  },
  /**
   * The session that held pool number `numberId` at `at`: started before it and not yet past its
   * end plus its cool-down (a caller who closed the page still calls the number they saw).
   */
  async sessionHoldingAt(db: DbOrTx, numberId: number, at: Date): Promise<SessionRow | undefined> {
    return db
      .selectFrom('dni_sessions')
      .selectAll()
      .where('number_id', '=', numberId)
      .where('fallback', '=', false)
      .where('started_at', '<=', at)
      .where(sql<boolean>`expires_at + make_interval(mins => cool_down_minutes) >= ${at}`)
      .orderBy('started_at', 'desc')
      .limit(1)
      .executeTakeFirst();
  },
  async pageViewsOf(db: DbOrTx, sessionIds: string[]): Promise<PageViewRow[]> {
    if (!sessionIds.length) return [];
    return db.selectFrom('dni_page_views').selectAll().where('session_id', 'in', sessionIds).orderBy('at').orderBy('id').execute();
  },
  async setSessionsLead(db: DbOrTx, companyId: number, visitorId: string, leadId: number): Promise<void> {
    await db.updateTable('dni_sessions').set({ lead_id: leadId }).where('company_id', '=', companyId).where('visitor_id', '=', visitorId).execute();
  },
  async bumpSessionCalls(db: DbOrTx, sessionId: string): Promise<void> {
    await db
      .updateTable('dni_sessions')
      .set({ calls: sql`calls + 1` })
      .where('id', '=', sessionId)
      .execute();
  },
  /** Session counts per grouping key (reports): sessions started in the period. */
  async sessionCounts(
    db: DbOrTx,
    companyId: number,
    from: Date,
    to: Date,
    keyExpr: string,
    filters: { poolIds?: number[]; trafficSources?: string[]; trafficExpr: string },
  ): Promise<Map<string | null, number>> {
    const key = sql.raw(keyExpr);
    const traffic = sql.raw(filters.trafficExpr);
    const r = await sql<{ key: string | null; n: number }>`
      select ${key} as key, count(*)::int as n from dni_sessions s
      where s.company_id = ${companyId} and s.started_at >= ${from} and s.started_at < ${to}
        and (${!filters.poolIds?.length} or s.pool_id = any(${filters.poolIds ?? []}))
        and (${!filters.trafficSources?.length} or ${traffic} = any(${filters.trafficSources ?? []}))
      group by 1`.execute(db);
    return new Map(r.rows.map((x) => [x.key, x.n]));
  },
  /** Sessions per pool in a period. */
  async sessionsPerPool(db: DbOrTx, poolIds: number[], from: Date, to: Date): Promise<Map<number, number>> {
    if (!poolIds.length) return new Map();
    const r = await db
      .selectFrom('dni_sessions')
      .select(['pool_id'])
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('pool_id', 'in', poolIds)
      .where('started_at', '>=', from)
      .where('started_at', '<', to)
      .groupBy('pool_id')
      .execute();
    return new Map(r.map((x) => [x.pool_id!, Number(x.n)]));
  },

  // ------------------------------------------------------------ attribution, leads, texts

  /** Stores calls' attributions unless they exist. @returns the rows this statement stored (each call's first sight). */
  async insertAttributions(db: DbOrTx, rows: ReadonlyArray<NewRow<'dni_call_attributions'>>): Promise<AttributionRow[]> {
    if (rows.length === 0) return [];
    return db
      .insertInto('dni_call_attributions')
      .values([...rows])
      .onConflict((oc) => oc.column('call_id').doNothing())
      .returningAll()
      .execute();
  },
  /** The stored status and length of these calls' attributions, by call id (calls without one are absent). */
  async attributionStates(db: DbOrTx, callIds: readonly number[]): Promise<Map<number, { status: number; duration_s: number }>> {
    if (callIds.length === 0) return new Map();
    const rows = await db
      .selectFrom('dni_call_attributions')
      .select(['call_id', 'status', 'duration_s'])
      .where('call_id', 'in', [...callIds])
      .execute();
    return new Map(rows.map((r) => [r.call_id, r]));
  },
  /** These calls' attribution rows locked for update, in call id order (one writer of a call's status at a time). */
  async lockAttributionStates(db: DbOrTx, callIds: readonly number[]): Promise<Array<{ call_id: number; status: number; duration_s: number }>> {
    if (callIds.length === 0) return [];
    return db
      .selectFrom('dni_call_attributions')
      .select(['call_id', 'status', 'duration_s'])
      .where('call_id', 'in', [...callIds])
      .orderBy('call_id')
      .forUpdate()
      .execute();
  },
  /** Sets calls' attributed status and length (s), in one statement. */
  async updateAttributionStates(db: DbOrTx, changes: ReadonlyArray<{ callId: number; status: number; durationS: number }>): Promise<void> {
    if (changes.length === 0) return;
    await sql`update dni_call_attributions a set status = x.status, duration_s = x.duration_s
      from unnest(${changes.map((c) => c.callId)}::bigint[], ${changes.map((c) => c.status)}::int[], ${changes.map((c) => c.durationS)}::int[]) as x(call_id, status, duration_s)
      where a.call_id = x.call_id`.execute(db);
  },
  /** The company's attribution of a call with its pool's name (undefined: none, or another company's call). */
  async findAttribution(db: DbOrTx, companyId: number, callId: number): Promise<(AttributionRow & { pool_name: string | null }) | undefined> {
    return db
      .selectFrom('dni_call_attributions as a')
      .leftJoin('dni_pools as p', 'p.id', 'a.pool_id')
      .selectAll('a')
      .select('p.name as pool_name')
      .where('a.company_id', '=', companyId)
      .where('a.call_id', '=', callId)
      .executeTakeFirst();
  },
  /** These calls' attributions with their pool's name, in call id order. */
  async findAttributions(db: DbOrTx, callIds: readonly number[]): Promise<Array<AttributionRow & { pool_name: string | null }>> {
    if (callIds.length === 0) return [];
    return db
      .selectFrom('dni_call_attributions as a')
      .leftJoin('dni_pools as p', 'p.id', 'a.pool_id')
      .selectAll('a')
      .select('p.name as pool_name')
      .where('a.call_id', 'in', [...callIds])
      .orderBy('a.call_id')
      .execute();
  },
  /** Of these calls, the ids whose caller called the company before (an earlier stored inbound call: earlier start, or the same start and a lower id). */
  async callersWithEarlierCalls(db: DbOrTx, calls: ReadonlyArray<{ companyId: number; from: string; at: Date; callId: number }>): Promise<Set<number>> {
    if (calls.length === 0) return new Set();
    const { rows } = await sql<{ call_id: number }>`select x.call_id from unnest(
        ${calls.map((c) => c.companyId)}::int[], ${calls.map((c) => c.from)}::text[], ${calls.map((c) => c.at.toISOString())}::timestamptz[], ${calls.map((c) => c.callId)}::bigint[]
      ) as x(company_id, from_number, at, call_id)
      where exists (select 1 from dni_call_attributions a
        where a.company_id = x.company_id and a.from_number = x.from_number
          and (a.started_at < x.at or (a.started_at = x.at and a.call_id < x.call_id)))`.execute(db);
    return new Set(rows.map((r) => Number(r.call_id)));
  },
  async attributionsOfSessions(db: DbOrTx, sessionIds: string[]): Promise<AttributionRow[]> {
    if (!sessionIds.length) return [];
    return db.selectFrom('dni_call_attributions').selectAll().where('session_id', 'in', sessionIds).orderBy('started_at').execute();
  },
  async recentAttributions(db: DbOrTx, companyId: number, limit: number): Promise<Array<AttributionRow & { pool_name: string | null }>> {
    return db
      .selectFrom('dni_call_attributions as a')
      .leftJoin('dni_pools as p', 'p.id', 'a.pool_id')
      .selectAll('a')
      .select('p.name as pool_name')
      .where('a.company_id', '=', companyId)
      .orderBy('a.started_at', 'desc')
      .orderBy('a.call_id', 'desc')
      .limit(limit)
      .execute();
  },
  /** Calls matched to a session (`trackingmatch`), newest first, with the total. */
  async trackingMatches(
    db: DbOrTx,
    companyId: number,
    opts: { limit: number; offset: number; sessionId?: string },
  ): Promise<{ rows: TrackingMatchRow[]; total: number }> {
    let base = db.selectFrom('dni_call_attributions as a').where('a.company_id', '=', companyId).where('a.session_id', 'is not', null);
    if (opts.sessionId) base = base.where('a.session_id', '=', opts.sessionId);
    const rows = await base
      .leftJoin('dni_pools as p', 'p.id', 'a.pool_id')
      .select([
        'a.call_id',
        'a.started_at',
        'a.pool_id',
        'p.name as pool_name',
        'a.traffic_source',
        'a.source',
        'a.medium',
        'a.campaign',
        'a.keyword',
        'a.landing_page',
        'a.number',
      ])
      .select(sql<string>`a.session_id::text`.as('session_id'))
      .orderBy('a.started_at', 'desc')
      .orderBy('a.call_id', 'desc')
      .limit(opts.limit)
      .offset(opts.offset)
      .execute();
    const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { rows, total: Number(total.n) };
  },
  async callIdsOfSession(db: DbOrTx, companyId: number, sessionId: string): Promise<number[]> {
    return (
      await db
        .selectFrom('dni_call_attributions')
        .select('call_id')
        .where('company_id', '=', companyId)
        .where('session_id', '=', sessionId)
        .orderBy('started_at')
        .execute()
    ).map((r) => r.call_id);
  },
  /** Calls grouped for a report (`keyExpr` over alias `a`), in the period and filters. */
  async callGroups(
    db: DbOrTx,
    companyId: number,
    from: Date,
    to: Date,
    keyExpr: string,
    filters: { poolIds?: number[]; trafficSources?: string[]; trafficExpr: string },
    answered: number[],
    missed: number[],
  ): Promise<ReportRow[]> {
    const key = sql.raw(keyExpr);
    const traffic = sql.raw(filters.trafficExpr);
    const r = await sql<ReportRow>`
      select ${key} as key, count(*)::int as calls,
        count(*) filter (where a.is_first_contact)::int as first_time_callers,
        count(*) filter (where a.status = any(${answered}))::int as answered,
        count(*) filter (where a.status = any(${missed}))::int as missed,
        (avg(a.duration_s) filter (where a.status = any(${answered})))::float8 as avg_duration_s
      from dni_call_attributions a
      where a.company_id = ${companyId} and a.started_at >= ${from} and a.started_at < ${to}
        and (${!filters.poolIds?.length} or a.pool_id = any(${filters.poolIds ?? []}))
        and (${!filters.trafficSources?.length} or ${traffic} = any(${filters.trafficSources ?? []}))
      group by 1`.execute(db);
    return r.rows;
  },
  async callsPerPool(db: DbOrTx, poolIds: number[], from: Date, to: Date): Promise<Map<number, number>> {
    if (!poolIds.length) return new Map();
    const r = await db
      .selectFrom('dni_call_attributions')
      .select(['pool_id'])
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('pool_id', 'in', poolIds)
      .where('started_at', '>=', from)
      .where('started_at', '<', to)
      .groupBy('pool_id')
      .execute();
    return new Map(r.map((x) => [x.pool_id!, Number(x.n)]));
  },

  /** Stores inbound texts (no lead yet). @returns the carrier ids of those stored now (a repeated one was stored already). */
  async insertTexts(db: DbOrTx, rows: ReadonlyArray<NewRow<'dni_texts'>>): Promise<Set<string>> {
    if (rows.length === 0) return new Set();
    const r = await db
      .insertInto('dni_texts')
      .values([...rows])
      .onConflict((oc) => oc.column('carrier_sid').doNothing())
      .returning('carrier_sid')
      .execute();
    return new Set(r.map((x) => x.carrier_sid));
  },
  /**
   * Sets the lead of stored texts (by carrier id), one statement. Planned for its batch every time (CUSTOM_PLAN_MARK): the
   * generic plan PostgreSQL settled on while dni_texts was nearly empty kept scanning it as it filled (bench/call-routing:
   * 1.0 ms for 7.5 texts).
   */
  async setTextLeads(db: DbOrTx, links: ReadonlyArray<{ carrierSid: string; leadId: number }>): Promise<void> {
    if (links.length === 0) return;
    await sql`${sql.raw(CUSTOM_PLAN_MARK)} update dni_texts t set lead_id = x.lead_id
      from unnest(${links.map((l) => l.carrierSid)}::text[], ${links.map((l) => l.leadId)}::bigint[]) as x(carrier_sid, lead_id)
      where t.carrier_sid = x.carrier_sid`.execute(db);
  },
  async textsOfLead(db: DbOrTx, leadId: number, from: Date, to: Date) {
    return db.selectFrom('dni_texts').selectAll().where('lead_id', '=', leadId).where('at', '>=', from).where('at', '<=', to).orderBy('at').execute();
  },
};
