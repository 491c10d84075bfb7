/**
 * SQL for `conversations` and `conversation_items` (modules/conversations owns both).
 * Inbox list: keyset on (last_activity_at desc, id desc) within (company_id, is_archived), served
 * by index conversations_inbox. Threads: keyset on (created_at desc, id desc) by
 * conversation_items_thread. Cursor timestamps are carried as PostgreSQL text so no microseconds are lost.
 */
import { sql, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { DbOrTx } from '../../platform/db/db.js';
import { opaqueArray } from '../../platform/db/prepared.js';
import type { DB, NewRow, Row, RowUpdate } from '../../platform/db/schema.js';

/** A stored conversation: one (business number, outside party) pair of a company. */
export type ConversationRow = Row<'conversations'>;
/** A stored thread item: message, scheduled message, call, voicemail, fax or note. */
export type ItemRow = Row<'conversation_items'>;
/** A position in a keyset-ordered list: the timestamp as PostgreSQL text, and the id. */
export type Keyset = { ts: string; id: number };

/** What one inbox page asks for (see `list`). */
export type ListFilter = {
  companyId: number;
  isArchived: boolean;
  limit: number;
  after?: Keyset;
  numberIds?: number[];
  types?: string[];
  updatedAfter?: Date;
  /** Digits the recipient must contain. */
  recipientDigits?: string;
  /** Text search: contact ids whose name matched, and a body pattern. */
  text?: { contactIds: number[]; pattern: string };
  /** Only conversations active since this instant. */
  since?: Date;
};

/**
 * A marker that keeps a statement out of the automatic prepared statements
 * (platform/db/prepared.ts): searches are planned for their actual term each time.
 */
const CUSTOM_PLAN = sql`/* custom plan */`;

/** An inbox row with its keyset position: the timestamp as PostgreSQL text, and in µs since the epoch (for merging pages). */
export type InboxRow = ConversationRow & { cursor_ts: string; activity_us: number };
type InboxQuery = SelectQueryBuilder<DB & { c: DB['conversations'] }, 'c', InboxRow>;

/** Escapes LIKE wildcards and wraps in %...%. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A raw `returning *` row of conversation_items with its id columns as numbers (int8 parses to number already; kept explicit). */
function itemFromRaw(x: ItemRow): ItemRow {
  const n = (v: number | null) => (v === null ? null : Number(v));
  return {
    ...x,
    id: Number(x.id),
    company_id: Number(x.company_id),
    conversation_id: Number(x.conversation_id),
    call_id: n(x.call_id),
    voicemail_id: n(x.voicemail_id),
    user_id: n(x.user_id),
  };
}

/** The inbox's statements; used only inside modules/conversations. */
export const conversationsRepository = {
  /** Whether the company has any inbox item (the account-deletion check: "activity on those numbers"). */
  async companyHasItems(db: DbOrTx, companyId: number): Promise<boolean> {
    return !!(await db.selectFrom('conversation_items').select('id').where('company_id', '=', companyId).limit(1).executeTakeFirst());
  },
  /**
   * Finds the conversation of (number, recipient) or creates it; either way bumps
   * last_activity_at to now, un-archives it and fills contact_id when it was empty.
   */
  async upsertActive(db: DbOrTx, row: { company_id: number; number_id: number; recipient: string; contact_id: number | null }): Promise<ConversationRow> {
    return db
      .insertInto('conversations')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['number_id', 'recipient']).doUpdateSet({
          last_activity_at: sql`now()`,
          is_archived: false,
          contact_id: sql`coalesce(conversations.contact_id, excluded.contact_id)`,
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  /**
   * Batch form of `upsertActive` (one statement): finds or creates the conversation of each
   * (number, recipient), bumping last_activity_at, un-archiving and filling an empty contact_id.
   * Rows must be distinct by (number_id, recipient); they are upserted in recipient order so two
   * concurrent batches lock shared rows in the same order.
   */
  async upsertActiveMany(
    db: DbOrTx,
    rows: Array<{ company_id: number; number_id: number; recipient: string; contact_id: number | null }>,
  ): Promise<ConversationRow[]> {
    if (rows.length === 0) return [];
    const sorted = [...rows].sort((a, b) => a.number_id - b.number_id || (a.recipient < b.recipient ? -1 : a.recipient > b.recipient ? 1 : 0));
    const r = await sql<ConversationRow>`
      insert into conversations (company_id, number_id, recipient, contact_id)
      select u.company_id, u.number_id, u.recipient, u.contact_id
      from unnest(${sorted.map((x) => x.company_id)}::bigint[], ${sorted.map((x) => x.number_id)}::bigint[], ${sorted.map((x) => x.recipient)}::text[], ${sorted.map((x) => x.contact_id)}::bigint[])
        with ordinality as u(company_id, number_id, recipient, contact_id, ord)
      order by u.ord
      on conflict (number_id, recipient) do update set last_activity_at = now(), is_archived = false,
        contact_id = coalesce(conversations.contact_id, excluded.contact_id)
      returning *`.execute(db);
    return r.rows.map((x) => ({
      ...x,
      id: Number(x.id),
      company_id: Number(x.company_id),
      number_id: Number(x.number_id),
      contact_id: x.contact_id === null ? null : Number(x.contact_id),
    }));
  },
  async find(db: DbOrTx, companyId: number, id: number): Promise<ConversationRow | undefined> {
    return db.selectFrom('conversations').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
  },
  async findByIdUnscoped(db: DbOrTx, id: number): Promise<ConversationRow | undefined> {
    return db.selectFrom('conversations').selectAll().where('id', '=', id).executeTakeFirst();
  },
  async setArchived(db: DbOrTx, companyId: number, id: number, archived: boolean): Promise<void> {
    await db.updateTable('conversations').set({ is_archived: archived }).where('company_id', '=', companyId).where('id', '=', id).execute();
  },

  /**
   * One page of the inbox, newest activity first, with each row's keyset position.
   * Searches (docs/messaging.md "Search"): `recipientDigits` is a `%digits%` match on the E.164
   * recipient and `text` a match on the contact (ids found by name) or on a message body; both are
   * served by the trigram indexes of migration 0015 when the term is rare, and by walking
   * `conversations_inbox` when it is common. The text search runs as two queries (contact, body),
   * each planned for its own term, merged here. Search statements are never prepared
   * (`CUSTOM_PLAN`), so PostgreSQL plans each for its actual term instead of a generic plan.
   */
  async list(db: DbOrTx, f: ListFilter): Promise<InboxRow[]> {
    if (f.text) {
      const { contactIds, pattern } = f.text;
      const [byContact, byBody] = await Promise.all([
        contactIds.length ? this.page(db, f, (q) => q.where('c.contact_id', '=', (eb) => eb.fn.any(eb.val(contactIds)))) : Promise.resolve([]),
        this.page(db, f, (q) =>
          q.where(({ exists, selectFrom }) =>
            exists(
              selectFrom('conversation_items as b')
                .select(sql`1`.as('one'))
                .whereRef('b.conversation_id', '=', 'c.id')
                .where('b.company_id', '=', f.companyId)
                .where('b.body', 'ilike', pattern),
            ),
          ),
        ),
      ]);
      const seen = new Set<number>();
      return [...byContact, ...byBody]
        .sort((a, b) => b.activity_us - a.activity_us || b.id - a.id)
        .filter((r) => (seen.has(r.id) ? false : (seen.add(r.id), true)))
        .slice(0, f.limit);
    }
    const digits = f.recipientDigits;
    return this.page(db, f, digits ? (q) => q.where('c.recipient', 'like', containsPattern(digits)) : (q) => q);
  },
  /** `list` with one more condition (`narrow`) on top of the filter's own. */
  async page(db: DbOrTx, f: ListFilter, narrow: (q: InboxQuery) => InboxQuery): Promise<InboxRow[]> {
    let q: InboxQuery = db
      .selectFrom('conversations as c')
      .selectAll('c')
      .select(sql<string>`c.last_activity_at::text`.as('cursor_ts'))
      .select(sql<number>`(extract(epoch from c.last_activity_at) * 1000000)::int8`.as('activity_us'))
      .where('c.company_id', '=', f.companyId)
      .where('c.is_archived', '=', f.isArchived);
    if (f.recipientDigits || f.text) q = q.modifyFront(CUSTOM_PLAN);
    if (f.after) q = q.where(sql<SqlBool>`(c.last_activity_at, c.id) < (${f.after.ts}::timestamptz, ${f.after.id})`);
    if (f.numberIds?.length) q = q.where('c.number_id', 'in', f.numberIds);
    if (f.updatedAfter) q = q.where('c.last_activity_at', '>', f.updatedAfter);
    if (f.since) q = q.where('c.last_activity_at', '>=', f.since);
    if (f.types?.length) {
      const types = f.types;
      q = q.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('conversation_items as t')
            .select(sql`1`.as('one'))
            .whereRef('t.conversation_id', '=', 'c.id')
            .where('t.type', 'in', types),
        ),
      );
    }
    return narrow(q).orderBy('c.last_activity_at', 'desc').orderBy('c.id', 'desc').limit(f.limit).execute();
  },

  /**
   * The newest item and the unread item count of each conversation, in one statement (one index
   * probe per conversation for each; the count uses the partial index conversation_items_unread).
   */
  async latestAndUnread(db: DbOrTx, conversationIds: number[]): Promise<{ latest: Map<number, ItemRow>; unread: Map<number, number> }> {
    const latest = new Map<number, ItemRow>();
    const unread = new Map<number, number>();
    if (conversationIds.length === 0) return { latest, unread };
    const res = await sql<ItemRow & { conv_id: number; unread_n: number }>`
      select c.id as conv_id, u.n as unread_n, li.*
      from unnest(${opaqueArray(conversationIds, 'bigint[]')}) as c(id)
      cross join lateral (select count(*)::int as n from conversation_items u where u.conversation_id = c.id and u.is_read = false) u
      left join lateral (
        select * from conversation_items i where i.conversation_id = c.id
        order by i.created_at desc, i.id desc limit 1
      ) li on true`.execute(db);
    for (const { conv_id, unread_n, ...item } of res.rows) {
      const id = Number(conv_id);
      if (unread_n > 0) unread.set(id, Number(unread_n));
      if (item.id !== null && item.id !== undefined) latest.set(id, item as ItemRow);
    }
    return { latest, unread };
  },
  /** The newest item of each conversation (one index probe per conversation). */
  async latestItems(db: DbOrTx, conversationIds: number[]): Promise<Map<number, ItemRow>> {
    if (conversationIds.length === 0) return new Map();
    const res = await sql<ItemRow>`
      select li.* from unnest(${sql.val(conversationIds)}::bigint[]) as c(id)
      cross join lateral (
        select * from conversation_items i where i.conversation_id = c.id
        order by i.created_at desc, i.id desc limit 1
      ) li`.execute(db);
    return new Map(res.rows.map((r) => [r.conversation_id, r]));
  },

  // ------------------------------------------------------------------ items

  async insertItem(db: DbOrTx, row: NewRow<'conversation_items'>): Promise<ItemRow> {
    return db.insertInto('conversation_items').values(row).returningAll().executeTakeFirstOrThrow();
  },
  /**
   * Inserts many message items in one statement (`unnest`). @returns `{id, carrier_sid}` in input order.
   * Only the columns a batch of outbound/inbound messages needs; others take their defaults.
   */
  async insertItemsMany(
    db: DbOrTx,
    rows: Array<{
      company_id: number;
      conversation_id: number;
      type: string;
      is_inbound: boolean;
      is_read: boolean;
      body: string | null;
      media: string;
      delivery_state: string | null;
      error_code: number | null;
      carrier_sid: string | null;
      user_id: number | null;
    }>,
  ): Promise<Array<{ id: number; carrier_sid: string | null }>> {
    if (rows.length === 0) return [];
    const col = <K extends keyof (typeof rows)[number]>(k: K) => rows.map((x) => x[k]);
    const r = await sql<{ id: number; carrier_sid: string | null }>`
      insert into conversation_items (company_id, conversation_id, type, is_inbound, is_read, body, media, delivery_state, error_code, carrier_sid, user_id)
      select u.company_id, u.conversation_id, u.type, u.is_inbound, u.is_read, u.body, u.media::jsonb, u.delivery_state, u.error_code, u.carrier_sid, u.user_id
      from unnest(${col('company_id')}::bigint[], ${col('conversation_id')}::bigint[], ${col('type')}::text[], ${col('is_inbound')}::boolean[], ${col('is_read')}::boolean[],
        ${col('body')}::text[], ${col('media')}::text[], ${col('delivery_state')}::text[], ${col('error_code')}::int[], ${col('carrier_sid')}::text[], ${col('user_id')}::bigint[])
        with ordinality as u(company_id, conversation_id, type, is_inbound, is_read, body, media, delivery_state, error_code, carrier_sid, user_id, ord)
      order by u.ord
      returning id, carrier_sid`.execute(db);
    return r.rows.map((x) => ({ id: Number(x.id), carrier_sid: x.carrier_sid }));
  },
  /** A page of a thread, newest first. */
  async listItems(db: DbOrTx, conversationId: number, limit: number, after?: Keyset): Promise<Array<ItemRow & { cursor_ts: string }>> {
    let q = db
      .selectFrom('conversation_items as i')
      .selectAll('i')
      .select(sql<string>`i.created_at::text`.as('cursor_ts'))
      .where('i.conversation_id', '=', conversationId);
    if (after) q = q.where(sql<SqlBool>`(i.created_at, i.id) < (${after.ts}::timestamptz, ${after.id})`);
    return q.orderBy('i.created_at', 'desc').orderBy('i.id', 'desc').limit(limit).execute();
  },
  async findItem(db: DbOrTx, companyId: number, conversationId: number, itemId: number): Promise<ItemRow | undefined> {
    return db
      .selectFrom('conversation_items')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('conversation_id', '=', conversationId)
      .where('id', '=', itemId)
      .executeTakeFirst();
  },
  /** An item by id, locked for update when `lock` (jobs and status callbacks). */
  async findItemById(db: DbOrTx, id: number, lock = false): Promise<ItemRow | undefined> {
    let q = db.selectFrom('conversation_items').selectAll().where('id', '=', id);
    if (lock) q = q.forUpdate();
    return q.executeTakeFirst();
  },
  async findItemBySid(db: DbOrTx, sid: string, lock = false): Promise<ItemRow | undefined> {
    let q = db.selectFrom('conversation_items').selectAll().where('carrier_sid', '=', sid);
    if (lock) q = q.forUpdate();
    return q.executeTakeFirst();
  },
  async updateItem(db: DbOrTx, id: number, patch: RowUpdate<'conversation_items'>): Promise<ItemRow | undefined> {
    return db.updateTable('conversation_items').set(patch).where('id', '=', id).returningAll().executeTakeFirst();
  },
  /** Marks every item of the conversation read; returns how many changed. */
  async markAllRead(db: DbOrTx, companyId: number, conversationId: number): Promise<number> {
    const r = await db
      .updateTable('conversation_items')
      .set({ is_read: true })
      .where('company_id', '=', companyId)
      .where('conversation_id', '=', conversationId)
      .where('is_read', '=', false)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  },

  /** The company's conversations among `ids` (others' ids are left out). */
  async findMany(db: DbOrTx, companyId: number, ids: number[]): Promise<ConversationRow[]> {
    if (ids.length === 0) return [];
    return db
      .selectFrom('conversations')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('id', '=', (eb) => eb.fn.any(eb.val(ids)))
      .orderBy('last_activity_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  },
  async setArchivedMany(db: DbOrTx, companyId: number, ids: number[], archived: boolean): Promise<void> {
    await db.updateTable('conversations').set({ is_archived: archived }).where('company_id', '=', companyId).where('id', 'in', ids).execute();
  },
  async deleteMany(db: DbOrTx, companyId: number, ids: number[]): Promise<number[]> {
    const rows = await db.deleteFrom('conversations').where('company_id', '=', companyId).where('id', 'in', ids).returning('id').execute();
    return rows.map((r) => r.id);
  },
  /** Marks every item of these conversations read. */
  async markReadMany(db: DbOrTx, companyId: number, conversationIds: number[]): Promise<void> {
    await db
      .updateTable('conversation_items')
      .set({ is_read: true })
      .where('company_id', '=', companyId)
      .where('conversation_id', 'in', conversationIds)
      .where('is_read', '=', false)
      .execute();
  },
  /** Marks the newest item of each conversation unread (a conversation "marked unread"). */
  async markLatestUnreadMany(db: DbOrTx, companyId: number, conversationIds: number[]): Promise<void> {
    await sql`
      update conversation_items set is_read = false where id in (
        select li.id from unnest(${sql.val(conversationIds)}::bigint[]) as c(id)
        cross join lateral (select i.id from conversation_items i where i.conversation_id = c.id and i.company_id = ${companyId}
          order by i.created_at desc, i.id desc limit 1) li)`.execute(db);
  },
  /**
   * Marks the company's unread items of `type` read, on the given numbers (all when undefined).
   * @returns the conversations touched and how many items changed.
   */
  async markReadByType(db: DbOrTx, companyId: number, type: string, numberIds: number[] | undefined): Promise<{ conversationIds: number[]; updated: number }> {
    let q = db
      .updateTable('conversation_items as i')
      .set({ is_read: true })
      .from('conversations as c')
      .whereRef('c.id', '=', 'i.conversation_id')
      .where('i.company_id', '=', companyId)
      .where('i.type', '=', type)
      .where('i.is_read', '=', false);
    if (numberIds) q = q.where('c.number_id', 'in', numberIds.length ? numberIds : [-1]);
    const rows = await q.returning('i.conversation_id').execute();
    return { conversationIds: [...new Set(rows.map((r) => r.conversation_id))], updated: rows.length };
  },
  async deleteItemById(db: DbOrTx, id: number): Promise<void> {
    await db.deleteFrom('conversation_items').where('id', '=', id).execute();
  },
  async deleteItem(db: DbOrTx, companyId: number, conversationId: number, itemId: number): Promise<boolean> {
    const r = await db
      .deleteFrom('conversation_items')
      .where('company_id', '=', companyId)
      .where('conversation_id', '=', conversationId)
      .where('id', '=', itemId)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  },
  /** Deletes the thread's items of these types; returns how many. */
  async deleteItemsOfTypes(db: DbOrTx, companyId: number, conversationId: number, types: string[]): Promise<number> {
    const r = await db
      .deleteFrom('conversation_items')
      .where('company_id', '=', companyId)
      .where('conversation_id', '=', conversationId)
      .where('type', 'in', types)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  },
  /** Items of every conversation of the company, newest first (index conversation_items_company). */
  async listCompanyItems(
    db: DbOrTx,
    companyId: number,
    limit: number,
    types: string[] | undefined,
    after?: Keyset,
    numberIds?: readonly number[],
  ): Promise<Array<ItemRow & { cursor_ts: string }>> {
    let q = db
      .selectFrom('conversation_items as i')
      .selectAll('i')
      .select(sql<string>`i.created_at::text`.as('cursor_ts'))
      .where('i.company_id', '=', companyId);
    if (types?.length) q = q.where('i.type', 'in', types);
    // Only the items of conversations on these business numbers (the caller's number scope).
    if (numberIds)
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('conversations as c')
            .select(sql`1`.as('one'))
            .whereRef('c.id', '=', 'i.conversation_id')
            .where('c.number_id', 'in', numberIds.length ? [...numberIds] : [-1]),
        ),
      );
    if (after) q = q.where(sql<SqlBool>`(i.created_at, i.id) < (${after.ts}::timestamptz, ${after.id})`);
    return q.orderBy('i.created_at', 'desc').orderBy('i.id', 'desc').limit(limit).execute();
  },
  async findItemByCall(db: DbOrTx, callId: number, lock = false): Promise<ItemRow | undefined> {
    let q = db.selectFrom('conversation_items').selectAll().where('call_id', '=', callId);
    if (lock) q = q.forUpdate();
    return q.executeTakeFirst();
  },
  /** The items of these calls (one index probe per call), locked for update in id order when `lock`. */
  async findItemsByCalls(db: DbOrTx, callIds: number[], lock = false): Promise<ItemRow[]> {
    if (callIds.length === 0) return [];
    let q = db
      .selectFrom('conversation_items')
      .selectAll()
      .where('call_id', '=', sql<number>`any(${sql.val(callIds)}::bigint[])`)
      .orderBy('id');
    if (lock) q = q.forUpdate();
    return q.execute();
  },
  /**
   * Inserts the items of calls that have none, in one statement (`unnest`); a call whose item
   * another transaction inserted first is skipped (not returned).
   * `created_at` null takes now(). Rows must be distinct by call_id.
   */
  async insertCallItemsMany(
    db: DbOrTx,
    rows: Array<{
      company_id: number;
      conversation_id: number;
      type: string;
      is_inbound: boolean;
      is_read: boolean;
      call_id: number;
      voicemail_id: number | null;
      call_status: number;
      duration_s: number | null;
      created_at: Date | null;
    }>,
  ): Promise<ItemRow[]> {
    if (rows.length === 0) return [];
    const sorted = [...rows].sort((a, b) => a.call_id - b.call_id);
    const col = <K extends keyof (typeof rows)[number]>(k: K) => sorted.map((x) => x[k]);
    const r = await sql<ItemRow>`
      insert into conversation_items (company_id, conversation_id, type, is_inbound, is_read, body, media, call_id, voicemail_id, call_status, duration_s, created_at)
      select u.company_id, u.conversation_id, u.type, u.is_inbound, u.is_read, null, '[]'::jsonb, u.call_id, u.voicemail_id, u.call_status, u.duration_s, coalesce(u.created_at, now())
      from unnest(${col('company_id')}::bigint[], ${col('conversation_id')}::bigint[], ${col('type')}::text[], ${col('is_inbound')}::boolean[], ${col('is_read')}::boolean[],
        ${col('call_id')}::bigint[], ${col('voicemail_id')}::bigint[], ${col('call_status')}::int[], ${col('duration_s')}::int[], ${col('created_at')}::timestamptz[])
        with ordinality as u(company_id, conversation_id, type, is_inbound, is_read, call_id, voicemail_id, call_status, duration_s, created_at, ord)
      order by u.ord
      on conflict (call_id) where call_id is not null do nothing
      returning *`.execute(db);
    return r.rows.map(itemFromRaw);
  },
  /**
   * Sets the call fields of many call items (one statement; rows distinct by id, already locked by
   * the caller). @returns the updated rows.
   */
  async updateCallItemsMany(
    db: DbOrTx,
    rows: Array<{ id: number; type: string; is_read: boolean; voicemail_id: number | null; call_status: number | null; duration_s: number | null }>,
  ): Promise<ItemRow[]> {
    if (rows.length === 0) return [];
    const col = <K extends keyof (typeof rows)[number]>(k: K) => rows.map((x) => x[k]);
    const r = await sql<ItemRow>`
      update conversation_items i set type = u.type, is_read = u.is_read, voicemail_id = u.voicemail_id, call_status = u.call_status, duration_s = u.duration_s
      from unnest(${col('id')}::bigint[], ${col('type')}::text[], ${col('is_read')}::boolean[], ${col('voicemail_id')}::bigint[], ${col('call_status')}::int[], ${col('duration_s')}::int[])
        as u(id, type, is_read, voicemail_id, call_status, duration_s)
      where i.id = u.id and i.id = any(${col('id')}::bigint[])
      returning i.*`.execute(db);
    return r.rows.map(itemFromRaw);
  },

  /** Unread item counts of the company by business number and item type (index conversation_items_company_unread). */
  async unreadCountsByNumber(db: DbOrTx, companyId: number, types: readonly string[]): Promise<Array<{ number_id: number; type: string; n: number }>> {
    const rows = await db
      .selectFrom('conversation_items as i')
      .innerJoin('conversations as c', 'c.id', 'i.conversation_id')
      .select(['c.number_id', 'i.type', (eb) => eb.fn.countAll<number>().as('n')])
      .where('i.company_id', '=', companyId)
      .where('i.is_read', '=', false)
      .where('i.type', 'in', [...types])
      .groupBy(['c.number_id', 'i.type'])
      .execute();
    return rows.map((r) => ({ number_id: r.number_id, type: r.type, n: Number(r.n) }));
  },

  // ------------------------------------------------------------------ activity

  /** The company's newest message items with their conversation (index conversation_items_company). */
  async recentMessages(db: DbOrTx, companyId: number, limit: number) {
    return db
      .selectFrom('conversation_items as i')
      .innerJoin('conversations as c', 'c.id', 'i.conversation_id')
      .select([
        'i.id',
        'i.created_at',
        'i.is_inbound',
        'i.is_read',
        'i.body',
        'i.media',
        'i.delivery_state',
        'i.error_code',
        'i.conversation_id',
        'c.number_id',
        'c.recipient',
        'c.contact_id',
      ])
      .where('i.company_id', '=', companyId)
      .where('i.type', '=', 'message')
      .orderBy('i.created_at', 'desc')
      .orderBy('i.id', 'desc')
      .limit(limit)
      .execute();
  },
  async countMessages(db: DbOrTx, companyId: number): Promise<number> {
    const r = await db
      .selectFrom('conversation_items')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', companyId)
      .where('type', '=', 'message')
      .executeTakeFirstOrThrow();
    return Number(r.n);
  },
};
