/** SQL for `webhook_endpoints`, `webhook_deliveries`, `webhook_attempts` (modules/webhooks owns them). */
import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { DbOrTx } from '../../platform/db/db.js';
import type { DeliveryCondition } from '../../platform/events/index.js';
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhookEndpointsTable } from '../../platform/db/schema-integrations.js';

export type EndpointRow = Selectable<WebhookEndpointsTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type AttemptRow = Selectable<WebhookAttemptsTable>;

export const webhooksRepository = {
  async listEndpoints(db: DbOrTx, companyId: number): Promise<EndpointRow[]> {
    return db.selectFrom('webhook_endpoints').selectAll().where('company_id', '=', companyId).orderBy('id').execute();
  },
  /** The company's enabled endpoints (the event fan-out reads these). */
  async enabledEndpoints(db: DbOrTx, companyId: number): Promise<EndpointRow[]> {
    return db.selectFrom('webhook_endpoints').selectAll().where('company_id', '=', companyId).where('enabled', '=', true).orderBy('id').execute();
  },
  async findEndpoint(db: DbOrTx, id: number): Promise<EndpointRow | undefined> {
    return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
  },
  async insertEndpoint(
    db: DbOrTx,
    row: { company_id: number; url: string; description: string; events: string[]; secret: string; created_by: number },
  ): Promise<EndpointRow> {
    return db.insertInto('webhook_endpoints').values(row).returningAll().executeTakeFirstOrThrow();
  },
  async updateEndpoint(
    db: DbOrTx,
    id: number,
    patch: Partial<Pick<EndpointRow, 'url' | 'description' | 'events' | 'secret' | 'enabled' | 'disabled_reason' | 'disabled_at' | 'failing_since'>>,
  ): Promise<EndpointRow | undefined> {
    return db
      .updateTable('webhook_endpoints')
      .set({ ...patch, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  },
  async deleteEndpoint(db: DbOrTx, id: number): Promise<void> {
    await db.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
  },
  /** Marks the start of a failure run (kept when one is already running); @returns the run's start. */
  async markFailing(db: DbOrTx, id: number): Promise<Date | null> {
    const r = await db
      .updateTable('webhook_endpoints')
      .set({ failing_since: sql`coalesce(failing_since, now())` })
      .where('id', '=', id)
      .returning('failing_since')
      .executeTakeFirst();
    return r?.failing_since ?? null;
  },
  async clearFailing(db: DbOrTx, id: number): Promise<void> {
    await db.updateTable('webhook_endpoints').set({ failing_since: null }).where('id', '=', id).where('failing_since', 'is not', null).execute();
  },
  /** Disables an enabled endpoint; @returns whether this call disabled it (false: already disabled or gone). */
  async disable(db: DbOrTx, id: number, reason: string): Promise<boolean> {
    const r = await db
      .updateTable('webhook_endpoints')
      .set({ enabled: false, disabled_reason: reason, disabled_at: new Date(), updated_at: new Date() })
      .where('id', '=', id)
      .where('enabled', '=', true)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  },

  /** Inserts a delivery unless the endpoint already has one for `event_key`; @returns the new delivery's id or null. */
  async insertDelivery(
    db: DbOrTx,
    row: { endpoint_id: number; company_id: number; event_type: string; event_key: string; message_id: string; payload: string; replay_of?: number | null },
  ): Promise<number | null> {
    const r = await db
      .insertInto('webhook_deliveries')
      .values({ ...row, next_attempt_at: new Date() })
      .onConflict((oc) => oc.columns(['endpoint_id', 'event_key']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return r?.id ?? null;
  },
  async findDelivery(db: DbOrTx, id: number): Promise<DeliveryRow | undefined> {
    return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
  },
  async pageDeliveries(
    db: DbOrTx,
    endpointId: number,
    status: DeliveryRow['status'] | undefined,
    limit: number,
    offset: number,
  ): Promise<{ rows: DeliveryRow[]; total: number }> {
    let q = db.selectFrom('webhook_deliveries').where('endpoint_id', '=', endpointId);
    if (status) q = q.where('status', '=', status);
    const [rows, count] = await Promise.all([
      q.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  },
  async attempts(db: DbOrTx, deliveryId: number): Promise<AttemptRow[]> {
    return db.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('attempt').execute();
  },
  /**
   * Claims attempt `attempt` of a pending delivery for `holdMs` (so a second run of the same job does nothing while
   * the first sends). @returns the delivery, or undefined when it is not pending, the attempt was made, or another
   * worker holds it.
   */
  async claim(db: DbOrTx, id: number, attempt: number, holdMs: number): Promise<DeliveryRow | undefined> {
    return db
      .updateTable('webhook_deliveries')
      .set({ claimed_until: sql`now() + ${`${holdMs} milliseconds`}::interval` })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('attempts', '=', attempt - 1)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', sql<Date>`now()`)]))
      .returningAll()
      .executeTakeFirst();
  },
  /** Whether attempt `attempt` of delivery `id` is still due but claimed by a run whose claim has not run out. */
  async isHeld(db: DbOrTx, id: number, attempt: number): Promise<boolean> {
    const r = await db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('attempts', '=', attempt - 1)
      .where('claimed_until', '>=', sql<Date>`now()`)
      .executeTakeFirst();
    return r !== undefined;
  },
  async insertAttempt(
    db: DbOrTx,
    row: { delivery_id: number; attempt: number; status_code: number | null; duration_ms: number; error: string | null; response_body: string | null },
  ): Promise<void> {
    await db
      .insertInto('webhook_attempts')
      .values(row)
      .onConflict((oc) => oc.columns(['delivery_id', 'attempt']).doNothing())
      .execute();
  },
  async settleAttempt(
    db: DbOrTx,
    id: number,
    patch: Pick<DeliveryRow, 'attempts' | 'status' | 'next_attempt_at' | 'last_status_code' | 'last_duration_ms' | 'last_error' | 'finished_at'>,
  ): Promise<void> {
    await db
      .updateTable('webhook_deliveries')
      .set({ ...patch, claimed_until: null })
      .where('id', '=', id)
      .execute();
  },
  /** Fails every pending delivery of an endpoint (it was disabled); @returns how many. */
  async failPending(db: DbOrTx, endpointId: number, reason: string): Promise<number> {
    const r = await db
      .updateTable('webhook_deliveries')
      .set({ status: 'failed', last_error: reason, next_attempt_at: null, finished_at: new Date() })
      .where('endpoint_id', '=', endpointId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  },
};

/**
 * The webhooks consumer's condition on a domain event (see `DeliveryCondition`): its company has an enabled endpoint
 * (index `webhook_endpoints_company`); the others' events get no delivery for that consumer.
 */
export const hasEnabledEndpoint: DeliveryCondition = (p) =>
  sql`exists (select 1 from webhook_endpoints w where w.company_id = (${p}->>'companyId')::bigint and w.enabled)`;
