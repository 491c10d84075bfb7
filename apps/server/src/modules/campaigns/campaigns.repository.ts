/**
 * SQL for `campaigns`, `campaign_groups`, `campaign_media`, `campaign_settings` and
 * `campaign_recipients` (modules/campaigns owns them). The company's messaging settings (links,
 * quiet hours, timezone) come from the companies service (`getCompanyMessagingSettings`).
 *
 * The recipient ledger's state machine: pending → (claim) sending → sent → delivered |
 * undelivered | failed, → responded; skipped_unsubscribed / skipped_invalid at resolution;
 * `unknown` for a claim whose carrier outcome could not be established (never re-sent).
 *
 * Batch updates join an `unnest` of the batch AND filter `id = any(ids)`, so each stays a
 * primary-key probe per row whatever the planner estimates for the unnested list.
 */
import { sql } from 'kysely';
import type { DbOrTx } from '../../platform/db/db.js';
import type { NewRow, Row, RowUpdate } from '../../platform/db/schema.js';
import type { DeliveryCondition } from '../../platform/events/index.js';

/** `message.received` concerns the campaign counters only when the text answered a campaign (its `campaignId`). */
export const isCampaignReply: DeliveryCondition = (p) => sql`(${p}->>'campaignId') is not null`;

/** Stored rows of the module's tables. */
export type CampaignRow = Row<'campaigns'>;
export type RecipientRow = Row<'campaign_recipients'>;
export type MediaRow = Row<'campaign_media'>;

/** Display status → SQL condition (spec 001 §4, mirrors the domain's `campaignDisplayStatus`). */
function statusCondition(status: string, now: Date) {
  switch (status) {
    case 'scheduled':
      return sql<boolean>`(c.state = 'queued' and c.should_be_sent_at > ${now})`;
    case 'in-progress':
      return sql<boolean>`(c.state = 'sending' or (c.state = 'queued' and (c.should_be_sent_at is null or c.should_be_sent_at <= ${now})))`;
    case 'paused':
    case 'sent':
    case 'canceled':
    case 'failed':
      return sql<boolean>`c.state = ${status}`;
    default:
      return sql<boolean>`c.state not in ('queued', 'sending', 'paused', 'sent', 'canceled', 'failed')`;
  }
}

/** A campaign's counters as recomputed from its ledger (spec 001 §3 Campaign). */
export type CampaignCounters = {
  recipients_count: number;
  sent_count: number;
  delivered_count: number;
  undelivered_count: number;
  responded_count: number;
  unsubscriber_count: number;
  skipped_unsubscribed_count: number;
  skipped_invalid_count: number;
};

/** The only SQL of the campaigns module (tables above). */
export const campaignsRepository = {
  /** The company's campaign sending rate (messages/s per number; 0 unlimited), null when it set none. */
  async companyRate(db: DbOrTx, companyId: number): Promise<number | null> {
    const r = await db.selectFrom('campaign_settings').select('rate_per_second').where('company_id', '=', companyId).executeTakeFirst();
    return r?.rate_per_second ?? null;
  },
  /** Sets (upserts) the company's campaign sending rate; null returns it to the default. */
  async setCompanyRate(db: DbOrTx, companyId: number, rate: number | null): Promise<void> {
    await db
      .insertInto('campaign_settings')
      .values({ company_id: companyId, rate_per_second: rate })
      .onConflict((oc) => oc.column('company_id').doUpdateSet({ rate_per_second: rate, updated_at: new Date() }))
      .execute();
  },

  /** Inserts a campaign. @returns the stored row. */
  async insert(db: DbOrTx, row: NewRow<'campaigns'>): Promise<CampaignRow> {
    return db.insertInto('campaigns').values(row).returningAll().executeTakeFirstOrThrow();
  },
  /** Patches a campaign (bumps `updated_at`). @returns the row after the change, undefined when it is gone. */
  async update(db: DbOrTx, id: number, patch: RowUpdate<'campaigns'>): Promise<CampaignRow | undefined> {
    return db
      .updateTable('campaigns')
      .set({ ...patch, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  },
  /** Moves the state only from one of `from` (compare-and-set). */
  async transition(db: DbOrTx, id: number, from: string[], patch: RowUpdate<'campaigns'>): Promise<CampaignRow | undefined> {
    return db
      .updateTable('campaigns')
      .set({ ...patch, updated_at: new Date() })
      .where('id', '=', id)
      .where('state', 'in', from)
      .returningAll()
      .executeTakeFirst();
  },
  /** A company's campaign by id, optionally locked `for update`. */
  async find(db: DbOrTx, companyId: number, id: number, lock = false): Promise<CampaignRow | undefined> {
    let q = db.selectFrom('campaigns').selectAll().where('company_id', '=', companyId).where('id', '=', id);
    if (lock) q = q.forUpdate();
    return q.executeTakeFirst();
  },
  /** A campaign by id, any company (jobs, callbacks; callers check access). */
  async findById(db: DbOrTx, id: number): Promise<CampaignRow | undefined> {
    return db.selectFrom('campaigns').selectAll().where('id', '=', id).executeTakeFirst();
  },
  /** Deletes a company's campaign (its groups, media and ledger go with it). @returns whether it existed. */
  async delete(db: DbOrTx, companyId: number, id: number): Promise<boolean> {
    const r = await db.deleteFrom('campaigns').where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  },
  /** A page of a company's campaigns: `search` in title or text, `status` a display status (spec 001 §4), sorted by `sort` then id. @returns the rows and the total. */
  async list(
    db: DbOrTx,
    companyId: number,
    q: { search?: string; status?: string; sort: string; dir: 'asc' | 'desc'; offset: number; limit: number; now: Date },
  ): Promise<{ rows: CampaignRow[]; total: number }> {
    let base = db.selectFrom('campaigns as c').where('c.company_id', '=', companyId);
    if (q.search?.trim()) {
      const pattern = `%${q.search.trim().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
      base = base.where((eb) => eb.or([eb('c.title', 'ilike', pattern), eb('c.text', 'ilike', pattern)]));
    }
    if (q.status) base = base.where(statusCondition(q.status, q.now));
    const [{ total }] = [await base.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow()];
    const sortCol = `c.${q.sort}` as 'c.id';
    const rows = await base.selectAll('c').orderBy(sortCol, q.dir).orderBy('c.id', q.dir).offset(q.offset).limit(q.limit).execute();
    return { rows, total };
  },

  /** Replaces a campaign's groups. */
  async setGroups(db: DbOrTx, campaignId: number, groupIds: number[]): Promise<void> {
    await db.deleteFrom('campaign_groups').where('campaign_id', '=', campaignId).execute();
    if (groupIds.length)
      await db
        .insertInto('campaign_groups')
        .values([...new Set(groupIds)].map((group_id) => ({ campaign_id: campaignId, group_id })))
        .execute();
  },
  /** Group ids of each campaign (campaign id → sorted group ids). */
  async groupsOf(db: DbOrTx, campaignIds: number[]): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>();
    if (!campaignIds.length) return out;
    const rows = await db.selectFrom('campaign_groups').selectAll().where('campaign_id', 'in', campaignIds).orderBy('group_id').execute();
    for (const r of rows) (out.get(r.campaign_id) ?? out.set(r.campaign_id, []).get(r.campaign_id)!).push(r.group_id);
    return out;
  },
  /** Media of each campaign in position order (campaign id → rows). */
  async mediaOf(db: DbOrTx, campaignIds: number[]): Promise<Map<number, MediaRow[]>> {
    const out = new Map<number, MediaRow[]>();
    if (!campaignIds.length) return out;
    const rows = await db.selectFrom('campaign_media').selectAll().where('campaign_id', 'in', campaignIds).orderBy('position').orderBy('id').execute();
    for (const r of rows) (out.get(r.campaign_id) ?? out.set(r.campaign_id, []).get(r.campaign_id)!).push(r);
    return out;
  },
  /** Keeps only media whose URL is in `keepUrls`, then appends `added`. */
  async replaceMedia(
    db: DbOrTx,
    campaignId: number,
    keepUrls: string[] | null,
    added: Array<Omit<NewRow<'campaign_media'>, 'campaign_id' | 'position'>>,
  ): Promise<void> {
    if (keepUrls !== null) {
      let del = db.deleteFrom('campaign_media').where('campaign_id', '=', campaignId);
      if (keepUrls.length) del = del.where('url', 'not in', keepUrls);
      await del.execute();
    }
    if (!added.length) return;
    const max = await db
      .selectFrom('campaign_media')
      .select(sql<number>`coalesce(max(position), -1)::int`.as('p'))
      .where('campaign_id', '=', campaignId)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('campaign_media')
      .values(added.map((m, i) => ({ ...m, campaign_id: campaignId, position: max.p + 1 + i })))
      .execute();
  },

  // ---- recipients --------------------------------------------------------------------------

  /**
   * Inserts recipients in one `unnest` statement; an existing (campaign, contact) row is left as is
   * (idempotent resolution).
   */
  async insertRecipients(
    db: DbOrTx,
    rows: Array<{ campaign_id: number; company_id: number; contact_id: number; number: string; state: string; merge: string }>,
  ): Promise<void> {
    if (!rows.length) return;
    await sql`insert into campaign_recipients (campaign_id, company_id, contact_id, number, state, merge)
      select u.campaign_id, u.company_id, u.contact_id, u.number, u.state, u.merge::jsonb
      from unnest(${rows.map((r) => r.campaign_id)}::bigint[], ${rows.map((r) => r.company_id)}::bigint[], ${rows.map((r) => r.contact_id)}::bigint[],
        ${rows.map((r) => r.number)}::text[], ${rows.map((r) => r.state)}::text[], ${rows.map((r) => r.merge)}::text[])
        with ordinality as u(campaign_id, company_id, contact_id, number, state, merge, ord)
      order by u.ord
      on conflict (campaign_id, contact_id) do nothing`.execute(db);
  },
  /** Counters recomputed from the ledger (idempotent, no hot-row increments). */
  async counters(db: DbOrTx, campaignId: number): Promise<CampaignCounters> {
    return db
      .selectFrom('campaign_recipients')
      .where('campaign_id', '=', campaignId)
      .select([
        sql<number>`count(*)::int`.as('recipients_count'),
        sql<number>`count(*) filter (where carrier_sid is not null or state in ('sent', 'delivered', 'undelivered', 'responded'))::int`.as('sent_count'),
        sql<number>`count(*) filter (where state in ('delivered', 'responded'))::int`.as('delivered_count'),
        sql<number>`count(*) filter (where state in ('undelivered', 'failed'))::int`.as('undelivered_count'),
        sql<number>`count(*) filter (where responded_at is not null)::int`.as('responded_count'),
        sql<number>`count(*) filter (where unsubscribed_at is not null)::int`.as('unsubscriber_count'),
        sql<number>`count(*) filter (where state = 'skipped_unsubscribed')::int`.as('skipped_unsubscribed_count'),
        sql<number>`count(*) filter (where state = 'skipped_invalid')::int`.as('skipped_invalid_count'),
      ])
      .executeTakeFirstOrThrow();
  },
  /** First pending id of every chunk of `size` pending recipients (dispatch work units). */
  async chunkStarts(db: DbOrTx, campaignId: number, size: number): Promise<number[]> {
    const r = await sql<{ id: number }>`
      select id from (select id, row_number() over (order by id) as rn from campaign_recipients where campaign_id = ${campaignId} and state = 'pending') t
      where (rn - 1) % ${size} = 0 order by id`.execute(db);
    return r.rows.map((x) => Number(x.id));
  },
  /**
   * Claims up to `limit` pending recipients with id in [from, to) that may be sent at `now`:
   * `state := 'sending', claimed_at := now` in one statement, skipping rows another worker holds.
   * A claimed row is never claimed again; this is what makes each send happen at most once.
   */
  async claim(
    db: DbOrTx,
    campaignId: number,
    range: { from: number; to: number | null },
    now: Date,
    limit: number,
    claimedBy: string | null = null,
  ): Promise<RecipientRow[]> {
    const r = await sql<RecipientRow>`
      update campaign_recipients r set state = 'sending', claimed_at = ${now}, claimed_by = ${claimedBy}::uuid
      where r.id in (
        select id from campaign_recipients
        where campaign_id = ${campaignId} and state = 'pending' and id >= ${range.from} ${range.to === null ? sql`` : sql`and id < ${range.to}`}
          and (not_before is null or not_before <= ${now})
        order by id limit ${limit} for update skip locked)
      returning r.*`.execute(db);
    return r.rows.map((x) => ({
      ...x,
      id: Number(x.id),
      campaign_id: Number(x.campaign_id),
      company_id: Number(x.company_id),
      contact_id: Number(x.contact_id),
    }));
  },
  /** Returns claimed rows that were not handed to the carrier (quiet hours, pause) to pending. */
  async unclaim(db: DbOrTx, rows: Array<{ id: number; notBefore: Date | null }>): Promise<void> {
    if (!rows.length) return;
    await sql`update campaign_recipients r set state = 'pending', claimed_at = null, not_before = v.nb
      from unnest(${rows.map((x) => x.id)}::bigint[], ${rows.map((x) => x.notBefore)}::timestamptz[]) as v(id, nb)
      where r.id = v.id and r.id = any(${rows.map((x) => x.id)}::bigint[]) and r.state = 'sending' and r.carrier_sid is null`.execute(db);
  },
  /** Records carrier SIDs (and conversation items) of sent messages; a callback may already have moved the state on. */
  /** Campaign messages of the number `numberId` sent, or claimed for sending, since `since` (the daily cap). */
  async sentFromNumberSince(db: DbOrTx, numberId: number, since: Date): Promise<number> {
    const r = await sql<{ n: string }>`select count(*) as n from campaign_recipients r join campaigns c on c.id = r.campaign_id
      where c.number_id = ${numberId} and (r.sent_at >= ${since} or (r.state = 'sending' and r.claimed_at >= ${since}))`.execute(db);
    return Number(r.rows[0]?.n ?? 0);
  },
  async recordSent(db: DbOrTx, rows: Array<{ id: number; sid: string; itemId: number | null }>, now: Date): Promise<void> {
    if (!rows.length) return;
    await sql`update campaign_recipients r set carrier_sid = coalesce(r.carrier_sid, v.sid), item_id = coalesce(r.item_id, v.item),
        state = case when r.state = 'sending' then 'sent' else r.state end, sent_at = coalesce(r.sent_at, ${now})
      from unnest(${rows.map((x) => x.id)}::bigint[], ${rows.map((x) => x.sid)}::text[], ${rows.map((x) => x.itemId)}::bigint[]) as v(id, sid, item)
      where r.id = v.id and r.id = any(${rows.map((x) => x.id)}::bigint[])`.execute(db);
  },
  /** Records carrier refusals (`failed`) or unknown outcomes (`unknown`) of claimed rows, with the carrier's error code. */
  async recordFailed(db: DbOrTx, rows: Array<{ id: number; code: number | null; state: 'failed' | 'unknown' }>): Promise<void> {
    if (!rows.length) return;
    await sql`update campaign_recipients r set state = v.st, error_code = v.code
      from unnest(${rows.map((x) => x.id)}::bigint[], ${rows.map((x) => x.code)}::int[], ${rows.map((x) => x.state)}::text[]) as v(id, code, st)
      where r.id = v.id and r.id = any(${rows.map((x) => x.id)}::bigint[]) and r.state = 'sending'`.execute(db);
  },
  /**
   * Claims whose outcome was never recorded (a worker died between claim and record): older than
   * `before`, or claimed by a worker not in `liveWorkers` (platform/queue `liveWorkerIds`) when given.
   */
  async staleClaims(db: DbOrTx, campaignId: number, before: Date, liveWorkers?: string[]): Promise<RecipientRow[]> {
    return db
      .selectFrom('campaign_recipients')
      .selectAll()
      .where('campaign_id', '=', campaignId)
      .where('state', '=', 'sending')
      .where('carrier_sid', 'is', null)
      .where((eb) =>
        eb.or([
          eb('claimed_at', '<', before),
          ...(liveWorkers ? [eb.and([eb('claimed_by', 'is not', null), sql<boolean>`not (claimed_by = any(${liveWorkers}::uuid[]))`])] : []),
        ]),
      )
      .orderBy('id')
      .limit(1000)
      .execute();
  },
  /** What is left to do: pending count, the earliest `not_before` of pending rows, and the oldest open claim. */
  async remaining(db: DbOrTx, campaignId: number): Promise<{ pending: number; next_at: Date | null; open_claims: number; oldest_claim: Date | null }> {
    return db
      .selectFrom('campaign_recipients')
      .where('campaign_id', '=', campaignId)
      .where('state', 'in', ['pending', 'sending'])
      .select([
        sql<number>`count(*) filter (where state = 'pending')::int`.as('pending'),
        sql<Date | null>`min(not_before) filter (where state = 'pending')`.as('next_at'),
        sql<number>`count(*) filter (where state = 'sending' and carrier_sid is null)::int`.as('open_claims'),
        sql<Date | null>`min(claimed_at) filter (where state = 'sending' and carrier_sid is null)`.as('oldest_claim'),
      ])
      .executeTakeFirstOrThrow();
  },
  /** Locks ledger rows (`for update`, in id order) and returns their current state and error code. */
  async lockRecipients(db: DbOrTx, ids: number[]): Promise<Map<number, { state: string; error_code: number | null }>> {
    if (!ids.length) return new Map();
    const r = await sql<{ id: number; state: string; error_code: number | null }>`
      select id, state, error_code from campaign_recipients where id = any(${ids}::bigint[]) order by id for update`.execute(db);
    return new Map(r.rows.map((x) => [Number(x.id), { state: x.state, error_code: x.error_code }]));
  },
  /** A ledger row by id, optionally locked `for update`. */
  async findRecipient(db: DbOrTx, id: number, lock = false): Promise<RecipientRow | undefined> {
    let q = db.selectFrom('campaign_recipients').selectAll().where('id', '=', id);
    if (lock) q = q.forUpdate();
    return q.executeTakeFirst();
  },
  /** Patches a ledger row. @returns the row after the change. */
  async updateRecipient(db: DbOrTx, id: number, patch: RowUpdate<'campaign_recipients'>): Promise<RecipientRow | undefined> {
    return db.updateTable('campaign_recipients').set(patch).where('id', '=', id).returningAll().executeTakeFirst();
  },
  /** The latest recipient row messaged from `numberId` to `from` (reply attribution), within `since`. */
  async latestRecipientFor(
    db: DbOrTx,
    companyId: number,
    numberId: number,
    from: string,
    since: Date,
  ): Promise<(RecipientRow & { skip_inbox: boolean }) | undefined> {
    return db
      .selectFrom('campaign_recipients as r')
      .innerJoin('campaigns as c', 'c.id', 'r.campaign_id')
      .selectAll('r')
      .select('c.skip_inbox')
      .where('r.company_id', '=', companyId)
      .where('r.number', '=', from)
      .where('c.number_id', '=', numberId)
      .where('r.carrier_sid', 'is not', null)
      .where('r.sent_at', '>=', since)
      .orderBy('r.id', 'desc')
      .limit(1)
      .executeTakeFirst();
  },
  /** A page of a campaign's ledger (recipient events): matching `contactIds` or a number containing `numberLike`, filtered by `status`, in id order. @returns the rows and the total. */
  async events(
    db: DbOrTx,
    campaignId: number,
    q: { contactIds?: number[]; numberLike?: string; status?: string; offset: number; limit: number },
  ): Promise<{ rows: RecipientRow[]; total: number }> {
    let base = db.selectFrom('campaign_recipients').where('campaign_id', '=', campaignId);
    if (q.contactIds !== undefined || q.numberLike !== undefined) {
      const ids = q.contactIds ?? [];
      const like = q.numberLike;
      base = base.where((eb) =>
        eb.or([...(ids.length ? [eb('contact_id', 'in', ids)] : []), ...(like ? [eb('number', 'like', `%${like}%`)] : []), eb.val(false)]),
      );
    }
    switch (q.status) {
      case undefined:
        break;
      case 'sent':
        base = base.where('carrier_sid', 'is not', null);
        break;
      case 'delivered':
        base = base.where('state', 'in', ['delivered', 'responded']);
        break;
      case 'undelivered':
        base = base.where('state', 'in', ['undelivered', 'failed']);
        break;
      case 'responded':
        base = base.where('responded_at', 'is not', null);
        break;
      case 'unsubscribed':
        base = base.where('unsubscribed_at', 'is not', null);
        break;
      case 'skipped':
        base = base.where('state', 'in', ['skipped_unsubscribed', 'skipped_invalid']);
        break;
      default:
        base = base.where('state', '=', q.status);
    }
    const { total } = await base.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow();
    const rows = await base.selectAll().orderBy('id').offset(q.offset).limit(q.limit).execute();
    return { rows, total };
  },
};
