/**
 * Notification counts and blocks (spec 002 "Messages and notifications": POST, DELETE
 * /companies/{companyId}/notificationBlocks with number_id(s) and channel types; GET
 * notificationCounts and notificationCountsByNumber).
 *
 * Design: a block belongs to the signed-in user (muting is a personal choice) and to one number
 * and channel type (`sms` mutes message items, `call`, `voicemail`, `fax`). Counts are the
 * company's unread conversation items of those four types, leaving out what the caller muted.
 * A number "hasNotificationBlocks" when the caller muted at least one of its channel types.
 */
import { COUNTED_ITEM_TYPES, type NotificationBlocksBody } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { NotFoundError, fieldError } from '../../platform/http/errors.js';
import { assertCompanyAccess } from '../companies/companies.service.js';
import { unreadCountsByNumber } from '../conversations/conversations.service.js';
import { getCompanyNumber } from '../numbers/numbers.service.js';
import type { NumberViewSignals } from '../numbers/numbers.view.js';
import { notificationsRepository } from './notifications.repository.js';

type ItemType = (typeof COUNTED_ITEM_TYPES)[number];
type Channel = 'sms' | 'call' | 'voicemail' | 'fax';
export type TypeCounts = Record<ItemType, number>;

/** The notification channel type that mutes an item type. */
export function channelOfItemType(type: string): Channel {
  return type === 'message' ? 'sms' : (type as Channel);
}

const zero = (): TypeCounts => ({ message: 0, call: 0, voicemail: 0, fax: 0 });

async function mutedSet(ctx: AppContext, companyId: number, userId: number): Promise<Set<string>> {
  const rows = await notificationsRepository.list(ctx.db, companyId, userId);
  return new Set(rows.map((r) => `${r.number_id}:${r.channel_type}`));
}

/**
 * `GET /companies/{companyId}/notificationCountsByNumber`: unread counts per number that has any
 * (muted channels count 0), ordered by number id.
 * @throws ForbiddenError (403) without access to the company.
 */
export async function notificationCountsByNumber(ctx: AppContext, userId: number, companyId: number): Promise<Array<{ number_id: number } & TypeCounts>> {
  await assertCompanyAccess(ctx, userId, companyId);
  const [rows, muted] = await Promise.all([unreadCountsByNumber(ctx, companyId), mutedSet(ctx, companyId, userId)]);
  const byNumber = new Map<number, TypeCounts>();
  for (const r of rows) {
    if (muted.has(`${r.number_id}:${channelOfItemType(r.type)}`)) continue;
    if (!(COUNTED_ITEM_TYPES as readonly string[]).includes(r.type)) continue;
    const c = byNumber.get(r.number_id) ?? zero();
    c[r.type as ItemType] += r.n;
    byNumber.set(r.number_id, c);
  }
  return [...byNumber].sort(([a], [b]) => a - b).map(([number_id, c]) => ({ number_id, ...c }));
}

/**
 * The numbers view's source (the `numberView` hook, numbers.view.ts) for spec 002 §3 "Number":
 * `unread_messages_count` (the number's unread message items, muted or not) and
 * `hasNotificationBlocks` (the user muted at least one channel type of it; false without a user).
 */
export async function numberNotificationSignals(
  ctx: AppContext,
  userId: number | null,
  companyId: number,
  numberIds: number[],
): Promise<Map<number, NumberViewSignals>> {
  const [rows, blocks] = await Promise.all([
    unreadCountsByNumber(ctx, companyId),
    userId === null ? Promise.resolve([]) : notificationsRepository.list(ctx.db, companyId, userId),
  ]);
  const out = new Map<number, NumberViewSignals>(numberIds.map((id) => [id, { unread_messages_count: 0, hasNotificationBlocks: false }]));
  for (const r of rows) {
    const s = out.get(r.number_id);
    if (s && r.type === 'message') s.unread_messages_count = (s.unread_messages_count ?? 0) + r.n;
  }
  for (const b of blocks) {
    const s = out.get(b.number_id);
    if (s) s.hasNotificationBlocks = true;
  }
  return out;
}

/** `GET /companies/{companyId}/notificationCounts`: `{message, call, voicemail, fax, total}` unread, muted left out. @throws 403. */
export async function notificationCounts(ctx: AppContext, userId: number, companyId: number): Promise<TypeCounts & { total: number }> {
  const perNumber = await notificationCountsByNumber(ctx, userId, companyId);
  const sum = zero();
  for (const n of perNumber) for (const t of COUNTED_ITEM_TYPES) sum[t] += n[t];
  return { ...sum, total: sum.message + sum.call + sum.voicemail + sum.fax };
}

/** `GET /companies/{companyId}/notificationBlocks`: the caller's blocks, one entry per number. @throws 403. */
export async function listNotificationBlocks(
  ctx: AppContext,
  userId: number,
  companyId: number,
): Promise<{ data: Array<{ number_id: number; hasNotificationBlocks: boolean; channel_types: Channel[] }> }> {
  await assertCompanyAccess(ctx, userId, companyId);
  const rows = await notificationsRepository.list(ctx.db, companyId, userId);
  const byNumber = new Map<number, Channel[]>();
  for (const r of rows) byNumber.set(r.number_id, [...(byNumber.get(r.number_id) ?? []), r.channel_type as Channel]);
  return { data: [...byNumber].map(([number_id, channel_types]) => ({ number_id, hasNotificationBlocks: true, channel_types })) };
}

async function resolveNumbers(ctx: AppContext, companyId: number, body: NotificationBlocksBody): Promise<number[]> {
  const field = body.number_ids ? 'number_ids' : 'number_id';
  const ids = [...new Set([...(body.number_id ? [body.number_id] : []), ...(body.number_ids ?? [])])];
  if (ids.length === 0) throw fieldError('number_id', 'The number id field is required.');
  for (const id of ids) {
    try {
      await getCompanyNumber(ctx, companyId, id);
    } catch (e) {
      if (e instanceof NotFoundError) throw fieldError(field, 'The selected number id is invalid.');
      throw e;
    }
  }
  return ids;
}

/**
 * `POST` (block) or `DELETE` (unblock) `/companies/{companyId}/notificationBlocks`
 * {number_id | number_ids[], channel_types[]}. Idempotent. @returns the caller's blocks after the change.
 * @throws 403; ValidationError (422) on `number_id`/`number_ids` (missing, not the company's).
 */
export async function setNotificationBlocks(ctx: AppContext, userId: number, companyId: number, body: NotificationBlocksBody, blocked: boolean) {
  await assertCompanyAccess(ctx, userId, companyId);
  const numberIds = await resolveNumbers(ctx, companyId, body);
  const channels = [...new Set(body.channel_types)];
  if (blocked) {
    await notificationsRepository.add(
      ctx.db,
      numberIds.flatMap((number_id) => channels.map((channel_type) => ({ company_id: companyId, user_id: userId, number_id, channel_type }))),
    );
  } else {
    await notificationsRepository.remove(ctx.db, companyId, userId, numberIds, channels);
  }
  return listNotificationBlocks(ctx, userId, companyId);
}

/** Module setup: the numbers' views show each number's unread messages and whether the caller muted it (numbers.view.ts). */
export function registerNotificationHooks(ctx: AppContext): void {
  ctx.hooks.provide('numberView', numberNotificationSignals);
}
