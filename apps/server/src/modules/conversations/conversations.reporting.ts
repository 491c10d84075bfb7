/**
 * Read-only reporting queries of the conversations module for analytics (modules/analytics,
 * docs/analytics.md): text-message and fax counts for the dashboard (totals and per local day or
 * hour) and pages of messages for the messages export. Reads `conversations` and
 * `conversation_items` (this module's tables); never writes.
 */
import type { AppContext } from '../../context.js';

/** Which items: the companies, the range [from, to) UTC, optionally some business numbers. */
export type ItemScope = { companyIds: readonly number[]; from: Date; to: Date; numberIds?: readonly number[] };

/** Text messages (MMS included) and faxes in the scope (scheduled messages and notes are not counted). */
export async function countMessagesAndFaxes(ctx: AppContext, scope: ItemScope): Promise<{ messages: number; faxes: number }> {
  if (scope.companyIds.length === 0) return { messages: 0, faxes: 0 };
  let q = ctx.db
    .selectFrom('conversation_items as i')
    .select((eb) => ['i.type', eb.fn.countAll<string>().as('n')])
    .where('i.company_id', 'in', [...scope.companyIds])
    .where('i.type', 'in', ['message', 'fax'])
    .where('i.created_at', '>=', scope.from)
    .where('i.created_at', '<', scope.to);
  if (scope.numberIds && scope.numberIds.length > 0) {
    q = q.innerJoin('conversations as c', 'c.id', 'i.conversation_id').where('c.number_id', 'in', [...scope.numberIds]);
  }
  const rows = await q.groupBy('i.type').execute();
  const n = (type: string) => Number(rows.find((r) => r.type === type)?.n ?? 0);
  return { messages: n('message'), faxes: n('fax') };
}

/**
 * Text messages per local bucket of `timeZone` (IANA): `unit` day → `YYYY-MM-DD`, hour →
 * `YYYY-MM-DD HH:00` (local wall time, right across daylight-saving changes).
 */
export async function messageCountsByBucket(ctx: AppContext, scope: ItemScope, timeZone: string, unit: 'day' | 'hour'): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (scope.companyIds.length === 0) return out;
  const format = unit === 'day' ? 'YYYY-MM-DD' : 'YYYY-MM-DD HH24:00';
  let q = ctx.db
    .selectFrom('conversation_items as i')
    .select((eb) => [
      eb
        .fn<string>('to_char', [eb.fn('date_trunc', [eb.val(unit), eb.fn('timezone', [eb.val(timeZone), eb.ref('i.created_at')])]), eb.val(format)])
        .as('bucket'),
      eb.fn.countAll<string>().as('n'),
    ])
    .where('i.company_id', 'in', [...scope.companyIds])
    .where('i.type', '=', 'message')
    .where('i.created_at', '>=', scope.from)
    .where('i.created_at', '<', scope.to);
  if (scope.numberIds && scope.numberIds.length > 0) {
    q = q.innerJoin('conversations as c', 'c.id', 'i.conversation_id').where('c.number_id', 'in', [...scope.numberIds]);
  }
  for (const r of await q.groupBy('bucket').execute()) out.set(r.bucket, Number(r.n));
  return out;
}

/** One text message for its export. `recipient` is the outside party (E.164). */
export type MessageForExport = {
  id: number;
  company_id: number;
  number_id: number;
  recipient: string;
  contact_id: number | null;
  is_inbound: boolean;
  body: string | null;
  media_count: number;
  delivery_state: string | null;
  error_code: number | null;
  created_at: Date;
};

/**
 * A page of text messages in the scope by id after `afterId` (keyset paging: exports stream page by page); with
 * `id`, just that item (when it is in the scope): a lookup by primary key, not a walk of the company's items.
 */
export async function messagesPage(
  ctx: AppContext,
  scope: ItemScope & { afterId: number; limit: number; type?: 'message' | 'fax'; id?: number; ids?: readonly number[] },
): Promise<MessageForExport[]> {
  if (scope.companyIds.length === 0) return [];
  let q = ctx.db
    .selectFrom('conversation_items as i')
    .innerJoin('conversations as c', 'c.id', 'i.conversation_id')
    .select([
      'i.id',
      'i.company_id',
      'c.number_id',
      'c.recipient',
      'c.contact_id',
      'i.is_inbound',
      'i.body',
      'i.media',
      'i.delivery_state',
      'i.error_code',
      'i.created_at',
    ])
    .where('i.company_id', 'in', [...scope.companyIds])
    .where('i.type', '=', scope.type ?? 'message')
    .where('i.created_at', '>=', scope.from)
    .where('i.created_at', '<', scope.to)
    .where('i.id', '>', scope.afterId);
  if (scope.id !== undefined) q = q.where('i.id', '=', scope.id);
  if (scope.ids !== undefined) q = q.where('i.id', 'in', scope.ids.length > 0 ? [...scope.ids] : [0]);
  if (scope.numberIds && scope.numberIds.length > 0) q = q.where('c.number_id', 'in', [...scope.numberIds]);
  const rows = await q.orderBy('i.id').limit(scope.limit).execute();
  return rows.map((r) => ({
    id: Number(r.id),
    company_id: Number(r.company_id),
    number_id: Number(r.number_id),
    recipient: r.recipient,
    contact_id: r.contact_id === null ? null : Number(r.contact_id),
    is_inbound: r.is_inbound,
    body: r.body,
    media_count: Array.isArray(r.media) ? r.media.length : 0,
    delivery_state: r.delivery_state,
    error_code: r.error_code,
    created_at: r.created_at,
  }));
}

/**
 * The activity feed's messages under report filters (spec 001 §7 "GET /activity"): the company's text
 * messages in [from, to) (UTC), optionally on `numberIds`, newest first (at most `limit`), and their count.
 * Rows have the shape of `listMessageActivity`'s.
 */
export async function messageActivityIn(ctx: AppContext, companyId: number, scope: { from: Date; to: Date; numberIds?: readonly number[]; limit: number }) {
  let base = ctx.db
    .selectFrom('conversation_items as i')
    .innerJoin('conversations as c', 'c.id', 'i.conversation_id')
    .where('i.company_id', '=', companyId)
    .where('i.type', '=', 'message')
    .where('i.created_at', '>=', scope.from)
    .where('i.created_at', '<', scope.to);
  if (scope.numberIds && scope.numberIds.length > 0) base = base.where('c.number_id', 'in', [...scope.numberIds]);
  const [rows, count] = await Promise.all([
    base
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
      .orderBy('i.created_at', 'desc')
      .orderBy('i.id', 'desc')
      .limit(scope.limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
