/**
 * SQL for the push module's tables (migration 0026; docs/push.md): `push_subscriptions` (browsers),
 * `apns_voip_tokens` (iOS VoIP tokens), `push_notifications` (one per user and event) and
 * `push_deliveries` (one per notification and device). The push module owns these tables.
 */
import { sql } from 'kysely';
import type { DbOrTx } from '../../platform/db/db.js';
import type { Row } from '../../platform/db/schema.js';

export type PushSubscriptionRow = Row<'push_subscriptions'>;
export type ApnsTokenRow = Row<'apns_voip_tokens'>;
export type PushNotificationRow = Row<'push_notifications'>;
export type PushDeliveryRow = Row<'push_deliveries'>;

export const pushRepository = {
  /** Stores the subscription for `userId`; an endpoint already known (re-subscribe, another user on the same browser) moves to this user with the new keys. */
  async upsertSubscription(
    db: DbOrTx,
    s: { user_id: number; endpoint: string; p256dh: string; auth: string; user_agent: string | null },
  ): Promise<PushSubscriptionRow> {
    return db
      .insertInto('push_subscriptions')
      .values(s)
      .onConflict((oc) =>
        oc.column('endpoint').doUpdateSet({
          user_id: s.user_id,
          p256dh: s.p256dh,
          auth: s.auth,
          user_agent: s.user_agent,
          updated_at: new Date(),
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  /** Deletes the user's subscription of `endpoint`. @returns whether one was deleted. */
  async deleteSubscription(db: DbOrTx, userId: number, endpoint: string): Promise<boolean> {
    const r = await db.deleteFrom('push_subscriptions').where('user_id', '=', userId).where('endpoint', '=', endpoint).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  },
  async deleteSubscriptionById(db: DbOrTx, id: number): Promise<void> {
    await db.deleteFrom('push_subscriptions').where('id', '=', id).execute();
  },
  async subscriptionsOf(db: DbOrTx, userIds: readonly number[]): Promise<PushSubscriptionRow[]> {
    if (userIds.length === 0) return [];
    return db
      .selectFrom('push_subscriptions')
      .selectAll()
      .where('user_id', 'in', [...userIds])
      .orderBy('id')
      .execute();
  },
  async markSubscription(db: DbOrTx, id: number, ok: boolean): Promise<void> {
    await db
      .updateTable('push_subscriptions')
      .set(ok ? { last_success_at: new Date() } : { last_failure_at: new Date() })
      .where('id', '=', id)
      .execute();
  },

  /** Stores the VoIP token for `userId` (a token already known moves to this user). */
  async upsertApnsToken(db: DbOrTx, t: { user_id: number; token: string; device_name: string | null }): Promise<ApnsTokenRow> {
    return db
      .insertInto('apns_voip_tokens')
      .values(t)
      .onConflict((oc) => oc.column('token').doUpdateSet({ user_id: t.user_id, device_name: t.device_name, updated_at: new Date() }))
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  async deleteApnsToken(db: DbOrTx, userId: number, token: string): Promise<boolean> {
    const r = await db.deleteFrom('apns_voip_tokens').where('user_id', '=', userId).where('token', '=', token).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  },
  async deleteApnsTokenById(db: DbOrTx, id: number): Promise<void> {
    await db.deleteFrom('apns_voip_tokens').where('id', '=', id).execute();
  },
  async apnsTokensOf(db: DbOrTx, userIds: readonly number[]): Promise<ApnsTokenRow[]> {
    if (userIds.length === 0) return [];
    return db
      .selectFrom('apns_voip_tokens')
      .selectAll()
      .where('user_id', 'in', [...userIds])
      .orderBy('id')
      .execute();
  },
  async markApnsToken(db: DbOrTx, id: number, ok: boolean): Promise<void> {
    await db
      .updateTable('apns_voip_tokens')
      .set(ok ? { last_success_at: new Date() } : { last_failure_at: new Date() })
      .where('id', '=', id)
      .execute();
  },
  /** Ids among `userIds` that have at least one browser subscription (or, with `withApns`, a VoIP token). */
  async usersWithDevices(db: DbOrTx, userIds: readonly number[], withApns: boolean): Promise<Set<number>> {
    if (userIds.length === 0) return new Set();
    let q = db
      .selectFrom('push_subscriptions')
      .select('user_id')
      .where('user_id', 'in', [...userIds]);
    if (withApns)
      q = q.union(
        db
          .selectFrom('apns_voip_tokens')
          .select('user_id')
          .where('user_id', 'in', [...userIds]),
      );
    return new Set((await q.execute()).map((r) => Number(r.user_id)));
  },

  /**
   * Inserts notifications, skipping any whose (user, dedupe key) exists already (the event was
   * handled before). @returns the ids of the rows inserted now.
   */
  async insertNotifications(
    db: DbOrTx,
    rows: Array<{
      user_id: number;
      company_id: number | null;
      kind: string;
      dedupe_key: string;
      title: string;
      body: string;
      url: string;
      data: Record<string, unknown>;
      ttl_s: number;
    }>,
  ): Promise<number[]> {
    if (rows.length === 0) return [];
    const out = await db
      .insertInto('push_notifications')
      .values(rows.map((r) => ({ ...r, data: JSON.stringify(r.data) })))
      .onConflict((oc) => oc.columns(['user_id', 'dedupe_key']).doNothing())
      .returning('id')
      .execute();
    return out.map((r) => Number(r.id));
  },
  async findNotification(db: DbOrTx, id: number): Promise<PushNotificationRow | undefined> {
    return db.selectFrom('push_notifications').selectAll().where('id', '=', id).executeTakeFirst();
  },
  /** The user's newest notifications. */
  async recentNotifications(db: DbOrTx, userId: number, limit: number): Promise<PushNotificationRow[]> {
    return db.selectFrom('push_notifications').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').limit(limit).execute();
  },
  async deliveriesOf(db: DbOrTx, notificationIds: readonly number[]): Promise<PushDeliveryRow[]> {
    if (notificationIds.length === 0) return [];
    return db
      .selectFrom('push_deliveries')
      .selectAll()
      .where('notification_id', 'in', [...notificationIds])
      .orderBy('id')
      .execute();
  },
  /** Records (or, on a retry, replaces) the outcome of delivering `notificationId` to one device. */
  async recordDelivery(
    db: DbOrTx,
    d: { notification_id: number; channel: string; target: string; adapter: string; outcome: string; status_code: number | null; error: string | null },
  ): Promise<void> {
    await db
      .insertInto('push_deliveries')
      .values(d)
      .onConflict((oc) =>
        oc.columns(['notification_id', 'channel', 'target']).doUpdateSet({
          adapter: d.adapter,
          outcome: d.outcome,
          status_code: d.status_code,
          error: d.error,
          created_at: sql`now()`,
        }),
      )
      .execute();
  },
  /** Deletes each user's notifications beyond their newest `keep` (and their deliveries). */
  async trimNotifications(db: DbOrTx, userIds: readonly number[], keep: number): Promise<void> {
    if (userIds.length === 0) return;
    await sql`
      delete from push_notifications n
      where n.user_id in (${sql.join(userIds.map((u) => sql`${u}`))})
        and n.id < (
          select k.id from push_notifications k where k.user_id = n.user_id order by k.id desc offset ${keep - 1} limit 1
        )`.execute(db);
  },
};
