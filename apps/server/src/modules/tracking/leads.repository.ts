/**
 * SQL of call tracking leads (modules/tracking owns `dni_leads`, `dni_sessions`, `dni_texts`,
 * `dni_call_attributions`; migrations 0017 and 0037; docs/tracking.md "Leads").
 *
 * A lead is one person of a company keyed by phone number. Its calls and texts carry its id; its
 * visits are every session of the visitors (browser cookies) that a call of the person matched
 * (`dni_sessions.lead_id` marks them; later visits of the same visitor belong too).
 *
 * Counting a call: `ensureLead` finds or creates the lead without counting (and locks its row for
 * the transaction), the call's attribution insert decides whether this delivery of the call is the
 * first, and only then `countLeadCall` counts it, so a duplicate `call.changed` (a repeated carrier
 * webhook, another node) never counts a call twice.
 */
import { sql, type RawBuilder } from 'kysely';
import type { DbOrTx } from '../../platform/db/db.js';
import type { Row } from '../../platform/db/schema.js';
import type { StoredTouch } from '../../platform/db/schema-tracking.js';

export type LeadRow = Row<'dni_leads'>;

/** The order leads are locked in (company, then phone), so two transactions writing several never deadlock. */
function byCompanyAndPhone(x: { companyId: number; phone: string }, y: { companyId: number; phone: string }): number {
  return x.companyId - y.companyId || (x.phone < y.phone ? -1 : x.phone > y.phone ? 1 : 0);
}
export type AttributionWithPool = Row<'dni_call_attributions'> & { pool_name: string | null };
export type SessionWithPool = Row<'dni_sessions'> & { pool_name: string | null };

/** A lead with its visit count and its first and last touch (null when never tracked). */
export type LeadSummaryRow = LeadRow & { sessions: number; first_touch: StoredTouch | null; last_touch: StoredTouch | null };

/** How the leads list is narrowed: digits of the phone number, or text of a visit's or call's marketing facts. */
export type LeadSearch = { kind: 'phone'; digits: string } | { kind: 'text'; text: string } | null;

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Sessions of the lead `l` (alias of `dni_leads` in the enclosing query): every session of its visitors. */
const leadSessions = (alias: string) =>
  sql.raw(`
  select s.* from dni_sessions s
  where s.company_id = ${alias}.company_id
    and s.visitor_id in (select v.visitor_id from dni_sessions v where v.lead_id = ${alias}.id)`);

/** The select list of a lead summary over alias `l`: visits, first touch, last touch. */
const summaryColumns = sql`
  l.*,
  (select count(*)::int from (${leadSessions('l')}) ls) as sessions,
  (select t.touch from (
     select ls.started_at as at, ls.first_touch as touch from (${leadSessions('l')}) ls
     union all
     select a.started_at, a.first_touch from dni_call_attributions a where a.lead_id = l.id and a.first_touch is not null
   ) t order by t.at asc limit 1) as first_touch,
  (select t.touch from (
     select ls.started_at as at, jsonb_build_object('traffic_source', ls.traffic_source, 'source', ls.source, 'medium', ls.medium,
       'campaign', ls.campaign, 'keyword', ls.keyword) as touch from (${leadSessions('l')}) ls
     union all
     select a.started_at, jsonb_build_object('traffic_source', a.traffic_source, 'source', a.source, 'medium', a.medium,
       'campaign', a.campaign, 'keyword', a.keyword)
     from dni_call_attributions a where a.lead_id = l.id and a.traffic_source is not null
   ) t order by t.at desc limit 1) as last_touch`;

function searchCondition(search: LeadSearch): RawBuilder<boolean> {
  if (!search) return sql<boolean>`true`;
  if (search.kind === 'phone') return sql<boolean>`l.phone like ${'%' + search.digits + '%'}`;
  const like = `%${escapeLike(search.text)}%`;
  const match = (alias: string) =>
    sql.join(
      ['traffic_source', 'source', 'medium', 'campaign', 'keyword'].map((c) => sql`${sql.ref(`${alias}.${c}`)} ilike ${like}`),
      sql` or `,
    );
  return sql<boolean>`(
    exists (select 1 from (${leadSessions('l')}) s where ${match('s')})
    or exists (select 1 from dni_call_attributions a where a.lead_id = l.id and (${match('a')})))`;
}

export const leadsRepository = {
  /**
   * The companies' leads of these phones, created (no call or text counted, first seen at the earliest `at` given)
   * when new, by `companyId:phone`; their rows stay locked until the transaction ends (taken in company and phone
   * order), so two deliveries of one call are handled one after the other.
   */
  async ensureLeads(db: DbOrTx, wanted: ReadonlyArray<{ companyId: number; phone: string; at: Date }>): Promise<Map<string, LeadRow>> {
    const byKey = new Map<string, { companyId: number; phone: string; at: Date }>();
    for (const w of wanted) {
      const key = `${w.companyId}:${w.phone}`;
      const seen = byKey.get(key);
      if (!seen || w.at < seen.at) byKey.set(key, w);
    }
    if (byKey.size === 0) return new Map();
    const values = [...byKey.values()]
      .sort(byCompanyAndPhone)
      .map((w) => ({ company_id: w.companyId, phone: w.phone, first_seen_at: w.at, last_seen_at: w.at, calls: 0, texts: 0 }));
    const rows = await db
      .insertInto('dni_leads')
      .values(values)
      .onConflict((oc) => oc.columns(['company_id', 'phone']).doUpdateSet({ phone: sql`excluded.phone` }))
      .returningAll()
      .execute();
    return new Map(rows.map((r) => [`${r.company_id}:${r.phone}`, r]));
  },

  /**
   * Counts texts on their senders' leads (created when new; time span widened), one statement, rows taken in company
   * and phone order. @returns the leads by `companyId:phone`.
   */
  async countLeadTexts(db: DbOrTx, texts: ReadonlyArray<{ companyId: number; phone: string; at: Date }>): Promise<Map<string, LeadRow>> {
    const byKey = new Map<string, { company_id: number; phone: string; first_seen_at: Date; last_seen_at: Date; calls: number; texts: number }>();
    for (const t of texts) {
      const key = `${t.companyId}:${t.phone}`;
      const had = byKey.get(key);
      if (!had) byKey.set(key, { company_id: t.companyId, phone: t.phone, first_seen_at: t.at, last_seen_at: t.at, calls: 0, texts: 1 });
      else {
        had.texts += 1;
        if (t.at < had.first_seen_at) had.first_seen_at = t.at;
        if (t.at > had.last_seen_at) had.last_seen_at = t.at;
      }
    }
    if (byKey.size === 0) return new Map();
    const rows = await db
      .insertInto('dni_leads')
      .values([...byKey.values()].sort((x, y) => byCompanyAndPhone({ companyId: x.company_id, phone: x.phone }, { companyId: y.company_id, phone: y.phone })))
      .onConflict((oc) =>
        oc.columns(['company_id', 'phone']).doUpdateSet({
          first_seen_at: sql`least(dni_leads.first_seen_at, excluded.first_seen_at)`,
          last_seen_at: sql`greatest(dni_leads.last_seen_at, excluded.last_seen_at)`,
          texts: sql`dni_leads.texts + excluded.texts`,
        }),
      )
      .returningAll()
      .execute();
    return new Map(rows.map((r) => [`${r.company_id}:${r.phone}`, r]));
  },
  /** Counts one call per entry on its lead and widens the lead's time span to the calls' times, in one statement. */
  async countLeadCalls(db: DbOrTx, calls: ReadonlyArray<{ leadId: number; at: Date }>): Promise<void> {
    if (calls.length === 0) return;
    await sql`update dni_leads l set calls = l.calls + x.n, first_seen_at = least(l.first_seen_at, x.first_at), last_seen_at = greatest(l.last_seen_at, x.last_at)
      from (select lead_id, count(*)::int as n, min(at) as first_at, max(at) as last_at
            from unnest(${calls.map((c) => c.leadId)}::bigint[], ${calls.map((c) => c.at.toISOString())}::timestamptz[]) as u(lead_id, at) group by lead_id) as x
      where l.id = x.lead_id`.execute(db);
  },

  /** A page of the company's leads, latest contact first, with the total matching. */
  async listLeads(
    db: DbOrTx,
    companyId: number,
    opts: { search: LeadSearch; limit: number; offset: number },
  ): Promise<{ rows: LeadSummaryRow[]; total: number }> {
    const where = searchCondition(opts.search);
    const [rows, total] = await Promise.all([
      sql<LeadSummaryRow>`
        select ${summaryColumns} from (
          select * from dni_leads l where l.company_id = ${companyId} and ${where}
          order by l.last_seen_at desc, l.id desc limit ${opts.limit} offset ${opts.offset}
        ) l
        order by l.last_seen_at desc, l.id desc`.execute(db),
      sql<{ n: number }>`select count(*)::int as n from dni_leads l where l.company_id = ${companyId} and ${where}`.execute(db),
    ]);
    return { rows: rows.rows, total: total.rows[0]?.n ?? 0 };
  },

  /** One lead of the company with its summary, or undefined (unknown, or another company's). */
  async findLead(db: DbOrTx, companyId: number, leadId: number): Promise<LeadSummaryRow | undefined> {
    const r = await sql<LeadSummaryRow>`
      select ${summaryColumns} from dni_leads l where l.company_id = ${companyId} and l.id = ${leadId}`.execute(db);
    return r.rows[0];
  },

  /** The lead's calls with their pool's name, newest first. */
  async callsOfLead(db: DbOrTx, leadId: number, limit: number): Promise<AttributionWithPool[]> {
    return db
      .selectFrom('dni_call_attributions as a')
      .leftJoin('dni_pools as p', 'p.id', 'a.pool_id')
      .selectAll('a')
      .select('p.name as pool_name')
      .where('a.lead_id', '=', leadId)
      .orderBy('a.started_at', 'desc')
      .orderBy('a.call_id', 'desc')
      .limit(limit)
      .execute();
  },

  /** The lead's inbound texts, newest first. */
  async textsOfLead(db: DbOrTx, leadId: number, limit: number): Promise<Array<Row<'dni_texts'>>> {
    return db.selectFrom('dni_texts').selectAll().where('lead_id', '=', leadId).orderBy('at', 'desc').limit(limit).execute();
  },

  /** The lead's visits (every session of its visitors) with their pool's name, newest first. */
  async sessionsOfLead(db: DbOrTx, companyId: number, leadId: number, limit: number): Promise<SessionWithPool[]> {
    const r = await sql<SessionWithPool>`
      select s.*, p.name as pool_name from dni_sessions s left join dni_pools p on p.id = s.pool_id
      where s.company_id = ${companyId}
        and s.visitor_id in (select v.visitor_id from dni_sessions v where v.lead_id = ${leadId} and v.company_id = ${companyId})
      order by s.started_at desc limit ${limit}`.execute(db);
    return r.rows;
  },
};
