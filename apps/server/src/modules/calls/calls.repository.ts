/** SQL for `calls`, `call_events`, `voicemails` and `call_tags` (the calls module's tables; the tags themselves are the tags module's). */
import { type RawBuilder, sql } from 'kysely';
import type { DbOrTx } from '../../platform/db/db.js';
import { opaqueArray } from '../../platform/db/prepared.js';
import type { NewRow, Row, RowUpdate } from '../../platform/db/schema.js';
import { webhookReceiptsRepository, type ReceiptRow } from '../../platform/http/webhook-receipts.repository.js';

export type CallRow = Row<'calls'>;
export type VoicemailRow = Row<'voicemails'>;

export const callsRepository = {
  /** Whether the company has any call (the account-deletion check: "activity on those numbers"). */
  async companyHasCalls(db: DbOrTx, companyId: number): Promise<boolean> {
    return !!(await db.selectFrom('calls').select('id').where('company_id', '=', companyId).limit(1).executeTakeFirst());
  },
  /** Inserts a call; returns the existing row when the carrier SID is already stored. */
  async insert(db: DbOrTx, row: NewRow<'calls'>): Promise<CallRow> {
    const inserted = await db
      .insertInto('calls')
      .values(row)
      .onConflict((oc) => oc.column('carrier_sid').doNothing())
      .returningAll()
      .executeTakeFirst();
    return inserted ?? (await db.selectFrom('calls').selectAll().where('carrier_sid', '=', row.carrier_sid).executeTakeFirstOrThrow());
  },
  /**
   * Inserts a call and its first events (in order) in one statement. Returns undefined, and
   * inserts nothing, when the carrier SID is already stored.
   */
  async insertWithEvents(db: DbOrTx, row: NewRow<'calls'>, events: Array<{ status: number; detail: Record<string, unknown> }>): Promise<CallRow | undefined> {
    const statuses = events.map((e) => e.status);
    const details = events.map((e) => JSON.stringify(e.detail));
    return db
      .with('c', (qb) =>
        qb
          .insertInto('calls')
          .values(row)
          .onConflict((oc) => oc.column('carrier_sid').doNothing())
          .returningAll(),
      )
      .with('e', (qb) =>
        qb
          .insertInto('call_events')
          .columns(['call_id', 'status', 'detail'])
          .expression(
            sql`select c.id, v.status, v.detail from c cross join unnest(${statuses}::int[], ${details}::jsonb[]) with ordinality as v(status, detail, ord) order by v.ord`,
          ),
      )
      .selectFrom('c')
      .selectAll()
      .executeTakeFirst() as Promise<CallRow | undefined>;
  },
  /**
   * The voice webhook's fast path with group commit (docs/architecture.md "The voice
   * webhook's hot path"): in ONE statement (its own
   * implicit transaction) claims the webhook receipt of every item with its answer and, for the
   * items whose key this statement claimed, inserts the call (unless its carrier SID is stored)
   * and its first events in order. Items must be distinct by receipt key and carrier SID, with
   * calls of the same columns (the columns of the first item are written).
   * `matchContact` (the contacts module's `contactIdForNumberSql`): a call without `contact_id`
   * gets the id of the company's contact with its `from_number`, looked up by this statement.
   * @returns per item, in input order: claimed (false: a receipt was already stored, nothing was
   *   written for it); call: the inserted call (undefined when not claimed or the SID existed).
   */
  async insertManyWithEventsClaiming(
    db: DbOrTx,
    items: Array<{ receipt: ReceiptRow; row: NewRow<'calls'>; events: Array<{ status: number; detail: Record<string, unknown> }> }>,
    matchContact?: (companyId: RawBuilder<unknown>, number: RawBuilder<unknown>) => RawBuilder<number | null>,
  ): Promise<Array<{ claimed: boolean; call?: CallRow }>> {
    if (items.length === 0) return [];
    const first = items[0]!.row as Record<string, unknown>;
    const cols = Object.keys(first).filter((k) => first[k] !== undefined && k !== 'contact_id');
    const colList = sql.join([...cols.map((c) => sql.ref(c)), sql.ref('contact_id')]);
    const contact = matchContact ? sql`coalesce(p.contact_id, ${matchContact(sql.ref('p.company_id'), sql.ref('p.from_number'))})` : sql.ref('p.contact_id');
    const pColList = sql.join([...cols.map((c) => sql.ref(`p.${c}`)), contact]);
    const keys = items.map((i) => i.receipt.key);
    const rows = items.map((i) => JSON.stringify(i.row));
    const evItem: number[] = [];
    const evStatus: number[] = [];
    const evDetail: string[] = [];
    items.forEach((it, idx) => {
      for (const e of it.events) {
        evItem.push(idx + 1);
        evStatus.push(e.status);
        evDetail.push(JSON.stringify(e.detail));
      }
    });
    const r = await sql<CallRow & { ord: number; claimed: boolean }>`
      with i as (select * from unnest(${opaqueArray(keys, 'text[]')}, ${opaqueArray(rows, 'jsonb[]')}) with ordinality as i(key, row, ord)),
      r as (${webhookReceiptsRepository.claimManyWithAnswersCte(items.map((x) => x.receipt))}),
      c as (
        insert into calls (${colList})
        select ${pColList} from i join r on r.key = i.key cross join lateral jsonb_populate_record(null::calls, i.row) as p
        order by p.carrier_sid
        on conflict (carrier_sid) do nothing returning *
      ),
      e as (
        insert into call_events (call_id, status, detail)
        select c.id, v.status, v.detail
        from unnest(${opaqueArray(evItem, 'int[]')}, ${opaqueArray(evStatus, 'int[]')}, ${opaqueArray(evDetail, 'jsonb[]')}) with ordinality as v(item, status, detail, ord)
        join i on i.ord = v.item join c on c.carrier_sid = i.row->>'carrier_sid'
        order by v.ord
      )
      select i.ord, (r.key is not null) as claimed, c.*
      from i left join r on r.key = i.key left join c on c.carrier_sid = i.row->>'carrier_sid'
      order by i.ord`.execute(db);
    return r.rows.map((out) => {
      const { ord: _ord, claimed, ...call } = out;
      if (!claimed) return { claimed: false };
      return { claimed: true, call: call.id == null ? undefined : (call as CallRow) };
    });
  },
  /** Inserts calls in one statement (call history: distinct new carrier SIDs); returns each new id with its SID. */
  async insertMany(db: DbOrTx, rows: NewRow<'calls'>[]): Promise<Array<{ id: number; carrier_sid: string }>> {
    if (rows.length === 0) return [];
    return db.insertInto('calls').values(rows).returning(['id', 'carrier_sid']).execute();
  },
  /** Inserts voicemails of distinct calls in one statement (call history); returns their ids, calls and URLs. */
  async insertVoicemailsMany(db: DbOrTx, rows: NewRow<'voicemails'>[]): Promise<Array<{ id: number; call_id: number; recording_url: string }>> {
    if (rows.length === 0) return [];
    return db.insertInto('voicemails').values(rows).returning(['id', 'call_id', 'recording_url']).execute();
  },
  /** Inserts history events with their own times in one statement (call history), in the given order. */
  async insertEventsMany(db: DbOrTx, rows: Array<{ call_id: number; status: number; detail: string; created_at: Date }>): Promise<void> {
    if (rows.length > 0) await db.insertInto('call_events').values(rows).execute();
  },
  async findBySid(db: DbOrTx, sid: string): Promise<CallRow | undefined> {
    return db.selectFrom('calls').selectAll().where('carrier_sid', '=', sid).executeTakeFirst();
  },
  /** Locks the call row for the rest of the transaction. */
  async findBySidForUpdate(db: DbOrTx, sid: string): Promise<CallRow | undefined> {
    return db.selectFrom('calls').selectAll().where('carrier_sid', '=', sid).forUpdate().executeTakeFirst();
  },
  async find(db: DbOrTx, id: number): Promise<CallRow | undefined> {
    return db.selectFrom('calls').selectAll().where('id', '=', id).executeTakeFirst();
  },
  async update(db: DbOrTx, id: number, patch: RowUpdate<'calls'>): Promise<CallRow> {
    return db.updateTable('calls').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  },
  async insertEvent(db: DbOrTx, callId: number, status: number, detail: Record<string, unknown>): Promise<void> {
    await db
      .insertInto('call_events')
      .values({ call_id: callId, status, detail: JSON.stringify(detail) })
      .execute();
  },
  /** Stores a history event and returns its id (a control recorded before the carrier acts, removed if it refuses). */
  async insertEventReturningId(db: DbOrTx, callId: number, status: number, detail: Record<string, unknown>): Promise<number> {
    const row = await db
      .insertInto('call_events')
      .values({ call_id: callId, status, detail: JSON.stringify(detail) })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  },
  async deleteEvent(db: DbOrTx, id: number): Promise<void> {
    await db.deleteFrom('call_events').where('id', '=', id).execute();
  },
  /** True when the latest `hold`/`resume` control event of call `callId` is a hold (the call is on hold). */
  async isOnHold(db: DbOrTx, callId: number): Promise<boolean> {
    return (await this.holdControl(db, callId)) === 'hold';
  },
  /** The latest `hold`/`resume` control of call `callId`; null when it was never held. */
  async holdControl(db: DbOrTx, callId: number): Promise<'hold' | 'resume' | null> {
    const row = await db
      .selectFrom('call_events')
      .select(sql<string>`detail->>'control'`.as('control'))
      .where('call_id', '=', callId)
      .where(sql<string>`detail->>'control'`, 'in', ['hold', 'resume'])
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.control === 'hold' || row?.control === 'resume' ? row.control : null;
  },
  /** Notes on call `callId`'s latest hold control that its held browser leg is still there (`detail.seen_at`, now). */
  async touchHold(db: DbOrTx, callId: number): Promise<void> {
    await sql`
      update call_events set detail = detail || jsonb_build_object('seen_at', now())
      where id = (select id from call_events where call_id = ${callId} and detail->>'control' in ('hold', 'resume') order by id desc limit 1)
        and detail->>'control' = 'hold'`.execute(db);
  },
  /** When the held browser leg of call `callId` was last seen (its latest hold's `seen_at`, else the hold's time); null when not on hold. */
  async holdLastSeen(db: DbOrTx, callId: number): Promise<Date | null> {
    const r = await sql<{ control: string; seen: Date }>`
      select detail->>'control' as control, coalesce((detail->>'seen_at')::timestamptz, created_at) as seen
      from call_events where call_id = ${callId} and detail->>'control' in ('hold', 'resume') order by id desc limit 1`.execute(db);
    const row = r.rows[0];
    return row?.control === 'hold' ? new Date(row.seen) : null;
  },
  async events(db: DbOrTx, callId: number): Promise<Row<'call_events'>[]> {
    return db.selectFrom('call_events').selectAll().where('call_id', '=', callId).orderBy('id').execute();
  },
  /** Stores the voicemail of a call (one per call); returns the existing one on repeat. */
  async insertVoicemail(db: DbOrTx, row: NewRow<'voicemails'>): Promise<VoicemailRow> {
    const inserted = await db
      .insertInto('voicemails')
      .values(row)
      .onConflict((oc) => oc.column('call_id').doNothing())
      .returningAll()
      .executeTakeFirst();
    return inserted ?? (await db.selectFrom('voicemails').selectAll().where('call_id', '=', row.call_id).executeTakeFirstOrThrow());
  },
  async voicemailOfCall(db: DbOrTx, callId: number): Promise<VoicemailRow | undefined> {
    return db.selectFrom('voicemails').selectAll().where('call_id', '=', callId).executeTakeFirst();
  },
  async findVoicemail(db: DbOrTx, id: number): Promise<VoicemailRow | undefined> {
    return db.selectFrom('voicemails').selectAll().where('id', '=', id).executeTakeFirst();
  },
  async setVoicemailUrl(db: DbOrTx, id: number, url: string): Promise<void> {
    await db.updateTable('voicemails').set({ recording_url: url }).where('id', '=', id).execute();
  },
  /** Calls of a company with their voicemail, newest first (see listCallActivity); the number's label comes from the numbers module. */
  async activity(db: DbOrTx, companyId: number, opts: { limit: number; offset: number; calls: boolean; voicemails: boolean }) {
    let q = db.selectFrom('calls').leftJoin('voicemails', 'voicemails.call_id', 'calls.id').where('calls.company_id', '=', companyId);
    if (!opts.calls) q = q.where('voicemails.id', 'is not', null);
    if (!opts.voicemails) q = q.where('voicemails.id', 'is', null);
    if (!opts.calls && !opts.voicemails) q = q.where(sql<boolean>`false`);
    const rows = await q
      .selectAll('calls')
      .select(['voicemails.id as vm_id', 'voicemails.recording_url as vm_url', 'voicemails.duration_s as vm_duration', 'voicemails.is_read as vm_read'])
      .orderBy('calls.started_at', 'desc')
      .orderBy('calls.id', 'desc')
      .limit(opts.limit)
      .offset(opts.offset)
      .execute();
    const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { rows, total: Number(n) };
  },
  /** The company's voicemails with their call's parties, newest first. */
  async listVoicemails(db: DbOrTx, companyId: number, limit: number, offset: number, numberIds?: readonly number[]) {
    const only = numberIds ? (numberIds.length ? [...numberIds] : [-1]) : undefined;
    let list = db
      .selectFrom('voicemails')
      .innerJoin('calls', 'calls.id', 'voicemails.call_id')
      .selectAll('voicemails')
      .select(['calls.from_number', 'calls.to_number', 'calls.contact_id'])
      .where('voicemails.company_id', '=', companyId);
    if (only) list = list.where('voicemails.number_id', 'in', only);
    const rows = await list.orderBy('voicemails.created_at', 'desc').orderBy('voicemails.id', 'desc').limit(limit).offset(offset).execute();
    let count = db
      .selectFrom('voicemails')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', companyId);
    if (only) count = count.where('number_id', 'in', only);
    const { n } = await count.executeTakeFirstOrThrow();
    return { rows, total: Number(n) };
  },
  /** A voicemail with its call's parties. */
  async voicemailWithCall(db: DbOrTx, id: number) {
    return db
      .selectFrom('voicemails')
      .innerJoin('calls', 'calls.id', 'voicemails.call_id')
      .selectAll('voicemails')
      .select(['calls.from_number', 'calls.to_number', 'calls.contact_id'])
      .where('voicemails.id', '=', id)
      .executeTakeFirst();
  },
  async setVoicemailRead(db: DbOrTx, id: number, isRead: boolean): Promise<void> {
    await db.updateTable('voicemails').set({ is_read: isRead }).where('id', '=', id).execute();
  },
  async deleteVoicemail(db: DbOrTx, id: number): Promise<void> {
    await db.deleteFrom('voicemails').where('id', '=', id).execute();
  },
  /** Ids of the tags on the call (the tags themselves belong to the tags module). */
  async tagIdsOfCall(db: DbOrTx, callId: number): Promise<number[]> {
    const rows = await db.selectFrom('call_tags').select('tag_id').where('call_id', '=', callId).execute();
    return rows.map((r) => Number(r.tag_id));
  },
  /** Calls per tag id among the company's calls (the tags screen's usage). */
  async callCountsByTag(db: DbOrTx, companyId: number): Promise<Array<{ tag_id: number; n: string }>> {
    return db
      .selectFrom('call_tags')
      .innerJoin('calls', 'calls.id', 'call_tags.call_id')
      .select(['call_tags.tag_id', (eb) => eb.fn.countAll<string>().as('n')])
      .where('calls.company_id', '=', companyId)
      .groupBy('call_tags.tag_id')
      .execute();
  },
  async addCallTags(db: DbOrTx, callId: number, tagIds: number[]): Promise<void> {
    if (tagIds.length)
      await db
        .insertInto('call_tags')
        .values(tagIds.map((tag_id) => ({ call_id: callId, tag_id })))
        .onConflict((oc) => oc.doNothing())
        .execute();
  },
  async removeCallTags(db: DbOrTx, callId: number, tagIds: number[]): Promise<void> {
    if (tagIds.length) await db.deleteFrom('call_tags').where('call_id', '=', callId).where('tag_id', 'in', tagIds).execute();
  },
};
