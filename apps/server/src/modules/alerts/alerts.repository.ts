/**
 * SQL for the alerts module's tables (migration 0019): `alerts`, `alert_history`, `monitor_settings`,
 * `alert_email_preferences`, `monitor_message_buckets`, `monitor_voicemails`. The alerts module owns them.
 */
import { sql } from 'kysely';
import type { DbOrTx } from '../../platform/db/db.js';
import type { NewRow, Row } from '../../platform/db/schema.js';

export type AlertRow = Row<'alerts'>;
export type NewAlert = Omit<NewRow<'alerts'>, 'state' | 'updated_at'>;

/** The list's filters (all optional); `companyIds` is required and already checked. */
export type AlertFilter = {
  companyIds: number[];
  states?: string[];
  types?: string[];
  severities?: string[];
  search?: string;
  from?: string;
  to?: string;
};

/** How many rows one 5-minute message-outcome bucket is spread over (migration 0053). */
export const BUCKET_SHARDS = 8;

const ACTIVE = ['open', 'acknowledged'];

export const alertsRepository = {
  /**
   * Inserts an open alert unless the subject already has an active one (the partial unique index
   * `alerts_one_active_per_subject` decides, also between nodes). @returns the new row, or undefined.
   */
  async insertIfNoActive(db: DbOrTx, row: NewAlert): Promise<AlertRow | undefined> {
    return (
      db
        .insertInto('alerts')
        .values({ ...row, state: 'open', updated_at: new Date() })
        // The index predicate is literal SQL: PostgreSQL infers a partial index only from a predicate it can prove, never from parameters.
        .onConflict((oc) =>
          oc
            .columns(['company_id', 'type', 'subject_id'])
            .where(sql<boolean>`state in ('open', 'acknowledged')`)
            .doNothing(),
        )
        .returningAll()
        .executeTakeFirst()
    );
  },
  /** Whether a person closed an alert of this subject (dismissed after `dismissedSince`, resolved after `resolvedSince`). */
  async closedByPersonSince(db: DbOrTx, companyId: number, type: string, subjectId: string, dismissedSince: Date, resolvedSince: Date): Promise<boolean> {
    const r = await db
      .selectFrom('alerts')
      .select('id')
      .where('company_id', '=', companyId)
      .where('type', '=', type)
      .where('subject_id', '=', subjectId)
      .where('closed_by', 'is not', null)
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'dismissed'), eb('updated_at', '>', dismissedSince)]),
          eb.and([eb('state', '=', 'resolved'), eb('updated_at', '>', resolvedSince)]),
        ]),
      )
      .limit(1)
      .executeTakeFirst();
    return Boolean(r);
  },
  /** Whether the subject ever had an alert of this monitor. */
  async anyForSubject(db: DbOrTx, companyId: number, type: string, subjectId: string): Promise<boolean> {
    const r = await db
      .selectFrom('alerts')
      .select('id')
      .where('company_id', '=', companyId)
      .where('type', '=', type)
      .where('subject_id', '=', subjectId)
      .limit(1)
      .executeTakeFirst();
    return Boolean(r);
  },
  /** Whether the company watches any unanswered voicemail. */
  async hasOpenVoicemails(db: DbOrTx, companyId: number): Promise<boolean> {
    const r = await db
      .selectFrom('monitor_voicemails')
      .select('call_id')
      .where('company_id', '=', companyId)
      .where('answered_at', 'is', null)
      .limit(1)
      .executeTakeFirst();
    return Boolean(r);
  },
  /** Active alerts of one monitor in a company (for resolving those whose condition cleared). */
  async activeOfType(db: DbOrTx, companyId: number, type: string): Promise<AlertRow[]> {
    return db.selectFrom('alerts').selectAll().where('company_id', '=', companyId).where('type', '=', type).where('state', 'in', ACTIVE).execute();
  },
  /** Companies with active alerts of a monitor (the resolving pass of polling monitors). */
  async companiesWithActive(db: DbOrTx, type: string): Promise<number[]> {
    const rows = await db.selectFrom('alerts').select('company_id').distinct().where('type', '=', type).where('state', 'in', ACTIVE).execute();
    return rows.map((r) => r.company_id);
  },
  async find(db: DbOrTx, id: number): Promise<AlertRow | undefined> {
    return db.selectFrom('alerts').selectAll().where('id', '=', id).executeTakeFirst();
  },
  async findForUpdate(db: DbOrTx, id: number): Promise<AlertRow | undefined> {
    return db.selectFrom('alerts').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  },
  async update(
    db: DbOrTx,
    id: number,
    patch: Partial<Pick<AlertRow, 'state' | 'reason' | 'comment' | 'closed_by' | 'resolved_at' | 'read_at'>>,
  ): Promise<AlertRow> {
    return db
      .updateTable('alerts')
      .set({ ...patch, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  /** Marks an alert read (first reader only). @returns true when this call marked it. */
  async markRead(db: DbOrTx, id: number): Promise<boolean> {
    const r = await db.updateTable('alerts').set({ read_at: new Date() }).where('id', '=', id).where('read_at', 'is', null).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  },
  /** A page of alerts, newest first, and the total. */
  async list(db: DbOrTx, f: AlertFilter, limit: number, offset: number): Promise<{ rows: AlertRow[]; total: number }> {
    if (f.companyIds.length === 0) return { rows: [], total: 0 };
    let q = db.selectFrom('alerts').where('company_id', 'in', f.companyIds);
    if (f.states?.length) q = q.where('state', 'in', f.states);
    if (f.types?.length) q = q.where('type', 'in', f.types);
    if (f.severities?.length) q = q.where('severity', 'in', f.severities);
    if (f.from) q = q.where('created_at', '>=', new Date(f.from));
    if (f.to) q = q.where('created_at', '<=', new Date(f.to));
    if (f.search) {
      const like = `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q.where((eb) => eb.or([eb('title', 'ilike', like), eb('message', 'ilike', like), eb('subject_label', 'ilike', like)]));
    }
    const [rows, total] = await Promise.all([
      q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  },
  /** Counts per state and type, and active unread ones, over the companies. */
  async counts(db: DbOrTx, companyIds: number[]): Promise<{ byState: Map<string, number>; byType: Map<string, number>; unread: number }> {
    const byState = new Map<string, number>();
    const byType = new Map<string, number>();
    if (companyIds.length === 0) return { byState, byType, unread: 0 };
    const rows = await db
      .selectFrom('alerts')
      .select((eb) => [
        'state',
        'type',
        eb.fn.countAll<string>().as('n'),
        sql<string>`count(*) filter (where read_at is null and state in ('open', 'acknowledged'))`.as('unread'),
      ])
      .where('company_id', 'in', companyIds)
      .groupBy(['state', 'type'])
      .execute();
    let unread = 0;
    for (const r of rows) {
      byState.set(r.state, (byState.get(r.state) ?? 0) + Number(r.n));
      if (ACTIVE.includes(r.state)) byType.set(r.type, (byType.get(r.type) ?? 0) + Number(r.n));
      unread += Number(r.unread);
    }
    return { byState, byType, unread };
  },

  async addHistory(db: DbOrTx, row: NewRow<'alert_history'>): Promise<void> {
    await db.insertInto('alert_history').values(row).execute();
  },
  /** An alert's history, oldest first, with the name of who acted (users are read for display only). */
  async history(db: DbOrTx, alertId: number): Promise<Array<Row<'alert_history'>>> {
    return db.selectFrom('alert_history').selectAll().where('alert_id', '=', alertId).orderBy('id').execute();
  },

  async settings(db: DbOrTx, companyId: number): Promise<unknown> {
    return (await db.selectFrom('monitor_settings').select('settings').where('company_id', '=', companyId).executeTakeFirst())?.settings;
  },
  /** Settings of many companies (absent: defaults). */
  async settingsOf(db: DbOrTx, companyIds: number[]): Promise<Map<number, unknown>> {
    if (companyIds.length === 0) return new Map();
    const rows = await db.selectFrom('monitor_settings').select(['company_id', 'settings']).where('company_id', 'in', companyIds).execute();
    return new Map(rows.map((r) => [r.company_id, r.settings]));
  },
  async saveSettings(db: DbOrTx, companyId: number, settings: unknown, userId: number): Promise<void> {
    const json = JSON.stringify(settings);
    await db
      .insertInto('monitor_settings')
      .values({ company_id: companyId, settings: json, updated_by: userId, updated_at: new Date() })
      .onConflict((oc) => oc.column('company_id').doUpdateSet({ settings: json, updated_by: userId, updated_at: new Date() }))
      .execute();
  },

  async emailPreference(db: DbOrTx, companyId: number, userId: number): Promise<boolean> {
    const r = await db
      .selectFrom('alert_email_preferences')
      .select('email')
      .where('company_id', '=', companyId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return r?.email ?? false;
  },
  async setEmailPreference(db: DbOrTx, companyId: number, userId: number, email: boolean): Promise<void> {
    await db
      .insertInto('alert_email_preferences')
      .values({ company_id: companyId, user_id: userId, email, updated_at: new Date() })
      .onConflict((oc) => oc.columns(['company_id', 'user_id']).doUpdateSet({ email, updated_at: new Date() }))
      .execute();
  },
  /** Users of the company who chose alert e-mails. */
  async emailRecipients(db: DbOrTx, companyId: number): Promise<number[]> {
    const rows = await db.selectFrom('alert_email_preferences').select('user_id').where('company_id', '=', companyId).where('email', '=', true).execute();
    return rows.map((r) => r.user_id);
  },

  /**
   * Adds `count` (default 1) outbound message outcomes of one kind to their 5-minute bucket, in the bucket's row
   * `shard` (0–{@link BUCKET_SHARDS}-1; readers sum the rows), so concurrent counts rarely wait on one row's lock.
   */
  async countMessageOutcome(
    db: DbOrTx,
    b: { companyId: number; campaignId: number; errorCode: string; bucketStart: Date; failed: boolean; count?: number; shard?: number },
  ): Promise<void> {
    const n = b.count ?? 1;
    const shard = Math.abs(Math.trunc(b.shard ?? 0)) % BUCKET_SHARDS;
    await db
      .insertInto('monitor_message_buckets')
      .values({
        company_id: b.companyId,
        campaign_id: b.campaignId,
        error_code: b.errorCode,
        bucket_start: b.bucketStart,
        delivered: b.failed ? 0 : n,
        failed: b.failed ? n : 0,
        shard,
      })
      .onConflict((oc) =>
        oc.columns(['company_id', 'bucket_start', 'campaign_id', 'error_code', 'shard']).doUpdateSet((eb) => ({
          delivered: eb('monitor_message_buckets.delivered', '+', b.failed ? 0 : n),
          failed: eb('monitor_message_buckets.failed', '+', b.failed ? n : 0),
        })),
      )
      .execute();
  },
  /** Companies with message outcomes since `since`. */
  async companiesWithBuckets(db: DbOrTx, since: Date): Promise<number[]> {
    const rows = await db.selectFrom('monitor_message_buckets').select('company_id').distinct().where('bucket_start', '>=', since).execute();
    return rows.map((r) => r.company_id);
  },
  /** One company's delivered and failed outbound messages per campaign (0 = not a campaign's) since `since`. */
  async deliveryTotalsFor(db: DbOrTx, companyId: number, since: Date): Promise<Array<{ campaign_id: number; delivered: number; failed: number }>> {
    const rows = await db
      .selectFrom('monitor_message_buckets')
      .select((eb) => ['campaign_id', eb.fn.sum<string>('delivered').as('delivered'), eb.fn.sum<string>('failed').as('failed')])
      .where('company_id', '=', companyId)
      .where('bucket_start', '>=', since)
      .groupBy('campaign_id')
      .orderBy('campaign_id')
      .execute();
    return rows.map((r) => ({ campaign_id: Number(r.campaign_id), delivered: Number(r.delivered), failed: Number(r.failed) }));
  },
  /** One company's failures per carrier error code since `since`. */
  async errorTotalsFor(db: DbOrTx, companyId: number, since: Date): Promise<Array<{ error_code: string; failed: number }>> {
    const rows = await db
      .selectFrom('monitor_message_buckets')
      .select((eb) => ['error_code', eb.fn.sum<string>('failed').as('failed')])
      .where('company_id', '=', companyId)
      .where('bucket_start', '>=', since)
      .where('error_code', '<>', '')
      .groupBy('error_code')
      .orderBy('error_code')
      .execute();
    return rows.map((r) => ({ error_code: r.error_code, failed: Number(r.failed) }));
  },
  /** Drops buckets older than `before` (the longest window is a day). */
  async pruneBuckets(db: DbOrTx, before: Date): Promise<void> {
    await db.deleteFrom('monitor_message_buckets').where('bucket_start', '<', before).execute();
  },

  /** Notes that the company had a call at `at` (the number-silence monitor's list of companies). */
  async touchCallCompany(db: DbOrTx, companyId: number, at: Date): Promise<void> {
    await db
      .insertInto('monitor_call_companies')
      .values({ company_id: companyId, last_call_at: at })
      .onConflict((oc) => oc.column('company_id').doUpdateSet({ last_call_at: sql`greatest(monitor_call_companies.last_call_at, excluded.last_call_at)` }))
      .execute();
  },
  /** Companies that had calls, by id. */
  async callCompanies(db: DbOrTx): Promise<number[]> {
    return (await db.selectFrom('monitor_call_companies').select('company_id').orderBy('company_id').execute()).map((r) => r.company_id);
  },
  /** Starts watching a voicemail (idempotent per call). */
  async watchVoicemail(
    db: DbOrTx,
    v: { callId: number; companyId: number; numberId: number; party: string; voicemailId: number; leftAt: Date },
  ): Promise<void> {
    await db
      .insertInto('monitor_voicemails')
      .values({ call_id: v.callId, company_id: v.companyId, number_id: v.numberId, party: v.party, voicemail_id: v.voicemailId, left_at: v.leftAt })
      .onConflict((oc) => oc.column('call_id').doNothing())
      .execute();
  },
  /** Whether the company has voicemails from `party` not answered yet (cheap guard before looking further). */
  async hasOpenVoicemailFrom(db: DbOrTx, companyId: number, party: string): Promise<boolean> {
    const r = await db
      .selectFrom('monitor_voicemails')
      .select('call_id')
      .where('company_id', '=', companyId)
      .where('party', '=', party)
      .where('answered_at', 'is', null)
      .limit(1)
      .executeTakeFirst();
    return Boolean(r);
  },
  /** Marks the party's voicemails left before `at` answered. @returns their call ids. */
  async answerVoicemails(db: DbOrTx, companyId: number, party: string, at: Date): Promise<number[]> {
    const rows = await db
      .updateTable('monitor_voicemails')
      .set({ answered_at: at })
      .where('company_id', '=', companyId)
      .where('party', '=', party)
      .where('answered_at', 'is', null)
      .where('left_at', '<', at)
      .returning('call_id')
      .execute();
    return rows.map((r) => r.call_id);
  },
  /** Voicemails left before `before` and still unanswered, oldest first (at most `limit`). */
  async unansweredVoicemails(db: DbOrTx, before: Date, limit: number): Promise<Array<Row<'monitor_voicemails'>>> {
    return db
      .selectFrom('monitor_voicemails')
      .selectAll()
      .where('answered_at', 'is', null)
      .where('left_at', '<', before)
      .orderBy('left_at')
      .limit(limit)
      .execute();
  },
  /** Forgets answered voicemails older than `before`. */
  async pruneVoicemails(db: DbOrTx, before: Date): Promise<void> {
    await db.deleteFrom('monitor_voicemails').where('answered_at', 'is not', null).where('left_at', '<', before).execute();
  },
};
