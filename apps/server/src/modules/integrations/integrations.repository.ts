/**
 * SQL of the integrations module (its tables only: `ad_integrations`, `ad_integration_oauth_states`,
 * `ad_integration_deliveries`, `ad_integration_touches`; migration 0070).
 */
import { sql, type Selectable } from 'kysely';
import type { Db, DbOrTx } from '../../platform/db/db.js';
import type { DeliveryCondition } from '../../platform/events/index.js';
import type { AdIntegrationDeliveriesTable, AdIntegrationsTable } from '../../platform/db/schema-ad-integrations.js';

export type IntegrationRow = Selectable<AdIntegrationsTable>;
export type DeliveryRow = Selectable<AdIntegrationDeliveriesTable>;

export const integrationsRepository = {
  async list(db: DbOrTx, companyId: number, providers?: readonly string[]): Promise<IntegrationRow[]> {
    let q = db.selectFrom('ad_integrations').selectAll().where('company_id', '=', companyId);
    if (providers) q = q.where('provider', 'in', providers);
    return q.orderBy('id').execute();
  },
  async find(db: DbOrTx, companyId: number, id: number): Promise<IntegrationRow | undefined> {
    return db.selectFrom('ad_integrations').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
  },
  async findById(db: DbOrTx, id: number): Promise<IntegrationRow | undefined> {
    return db.selectFrom('ad_integrations').selectAll().where('id', '=', id).executeTakeFirst();
  },
  async findByProvider(db: DbOrTx, companyId: number, provider: string): Promise<IntegrationRow | undefined> {
    return db.selectFrom('ad_integrations').selectAll().where('company_id', '=', companyId).where('provider', '=', provider).orderBy('id').executeTakeFirst();
  },
  async activeOf(db: DbOrTx, companyId: number): Promise<IntegrationRow[]> {
    return db.selectFrom('ad_integrations').selectAll().where('company_id', '=', companyId).where('state', '=', 'active').execute();
  },
  async insert(db: DbOrTx, row: Partial<IntegrationRow> & { company_id: number; provider: string; state: IntegrationRow['state'] }): Promise<IntegrationRow> {
    const { id: _id, created_at: _c, updated_at: _u, ...values } = row;
    return db
      .insertInto('ad_integrations')
      .values({ ...values, config: JSON.stringify(row.config ?? {}), settings: JSON.stringify(row.settings ?? {}) } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  /** Upserts the one row of an OAuth provider for a company (reconnecting keeps the row, its settings and log). */
  async upsertOauth(db: DbOrTx, companyId: number, provider: string, values: Partial<IntegrationRow>): Promise<IntegrationRow> {
    const existing = await this.findByProvider(db, companyId, provider);
    if (existing) return this.update(db, existing.id, values);
    return this.insert(db, { company_id: companyId, provider, state: 'connected', ...values });
  },
  async update(db: DbOrTx, id: number, values: Partial<IntegrationRow>): Promise<IntegrationRow> {
    const v: Record<string, unknown> = { ...values, updated_at: new Date() };
    if (values.config) v.config = JSON.stringify(values.config);
    if (values.settings) v.settings = JSON.stringify(values.settings);
    return db
      .updateTable('ad_integrations')
      .set(v as never)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  async remove(db: DbOrTx, id: number): Promise<void> {
    await db.deleteFrom('ad_integrations').where('id', '=', id).execute();
  },

  async saveState(
    db: DbOrTx,
    row: { state_hash: string; company_id: number; user_id: number; provider: string; code_verifier_sealed: string; redirect_uri: string; expires_at: Date },
  ): Promise<void> {
    await db.deleteFrom('ad_integration_oauth_states').where('expires_at', '<', new Date()).execute();
    await db.insertInto('ad_integration_oauth_states').values(row).execute();
  },
  /** Takes (deletes and returns) a pending state: single use. */
  async takeState(db: DbOrTx, stateHash: string) {
    return db.deleteFrom('ad_integration_oauth_states').where('state_hash', '=', stateHash).returningAll().executeTakeFirst();
  },

  /** Stores (or replaces) calls' attribution touches (the last of a call in `rows` wins), in one statement. */
  async saveTouches(db: DbOrTx, rows: ReadonlyArray<{ callId: number; companyId: number; touch: Record<string, unknown> }>): Promise<void> {
    const byCall = new Map(rows.map((r) => [r.callId, r]));
    if (byCall.size === 0) return;
    await db
      .insertInto('ad_integration_touches')
      .values([...byCall.values()].map((r) => ({ call_id: r.callId, company_id: r.companyId, touch: JSON.stringify(r.touch) })))
      .onConflict((oc) => oc.column('call_id').doUpdateSet((eb) => ({ touch: eb.ref('excluded.touch') })))
      .execute();
  },
  async touchOf(db: DbOrTx, callId: number): Promise<Record<string, unknown> | undefined> {
    return (await db.selectFrom('ad_integration_touches').select('touch').where('call_id', '=', callId).executeTakeFirst())?.touch;
  },

  /** Adds deliveries; those whose (integration, key) exist already are left as they are. @returns the new ids. */
  async addDeliveries(
    db: DbOrTx,
    rows: Array<{
      integration_id: number;
      company_id: number;
      delivery_key: string;
      kind: string;
      call_id: number | null;
      text_id?: number | null;
      source?: DeliveryRow['source'];
      item?: Record<string, unknown> | null;
      next_at?: Date;
    }>,
  ): Promise<number[]> {
    if (!rows.length) return [];
    const inserted = await db
      .insertInto('ad_integration_deliveries')
      .values(rows.map((r) => ({ ...r, text_id: r.text_id ?? null, item: r.item ? JSON.stringify(r.item) : null })) as never)
      .onConflict((oc) => oc.columns(['integration_id', 'delivery_key']).doNothing())
      .returning('id')
      .execute();
    return inserted.map((r) => Number(r.id));
  },
  async deliveriesOfCall(db: DbOrTx, integrationId: number, callId: number): Promise<DeliveryRow[]> {
    return db
      .selectFrom('ad_integration_deliveries')
      .selectAll()
      .where('integration_id', '=', integrationId)
      .where('call_id', '=', callId)
      .orderBy('id')
      .execute();
  },
  /**
   * Claims up to `limit` due pending deliveries of one integration (oldest first), leasing them for `leaseMs`.
   * Rows leased by another runner are skipped.
   */
  async claimDue(db: Db, integrationId: number, limit: number, leaseMs: number): Promise<DeliveryRow[]> {
    const r = await sql<DeliveryRow>`
      update ad_integration_deliveries d set leased_until = now() + ${`${leaseMs} milliseconds`}::interval, attempts = d.attempts + 1, updated_at = now()
      where d.id in (
        select id from ad_integration_deliveries
        where integration_id = ${integrationId} and state = 'pending' and next_at <= now() and (leased_until is null or leased_until < now())
        order by next_at, id limit ${limit} for update skip locked)
      returning d.*`.execute(db);
    return r.rows;
  },
  async finish(db: DbOrTx, id: number, values: Partial<DeliveryRow>): Promise<void> {
    const v: Record<string, unknown> = { ...values, leased_until: null, updated_at: new Date() };
    if (values.item) v.item = JSON.stringify(values.item);
    if (values.exchanges !== undefined) v.exchanges = values.exchanges === null ? null : JSON.stringify(values.exchanges);
    await db
      .updateTable('ad_integration_deliveries')
      .set(v as never)
      .where('id', '=', id)
      .execute();
  },
  /** Makes the pending, not yet built deliveries of a call due now (they waited for its media). @returns whether any. */
  async wakeUnbuilt(db: DbOrTx, integrationId: number, callId: number): Promise<boolean> {
    const r = await db
      .updateTable('ad_integration_deliveries')
      .set({ next_at: new Date(), updated_at: new Date() })
      .where('integration_id', '=', integrationId)
      .where('call_id', '=', callId)
      .where('state', '=', 'pending')
      .where('item', 'is', null)
      .where('next_at', '>', new Date())
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  },
  async integrationsWithDue(db: DbOrTx): Promise<number[]> {
    const rows = await db
      .selectFrom('ad_integration_deliveries')
      .select('integration_id')
      .distinct()
      .where('state', '=', 'pending')
      .where('next_at', '<=', new Date())
      .where((eb) => eb.or([eb('leased_until', 'is', null), eb('leased_until', '<', new Date())]))
      .limit(200)
      .execute();
    return rows.map((r) => Number(r.integration_id));
  },
  async nextDueAt(db: DbOrTx, integrationId: number): Promise<Date | null> {
    const r = await db
      .selectFrom('ad_integration_deliveries')
      .select((eb) => eb.fn.min('next_at').as('at'))
      .where('integration_id', '=', integrationId)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    return r?.at ? new Date(r.at as unknown as string) : null;
  },
  async page(db: DbOrTx, integrationId: number, state: string | undefined, offset: number, limit: number): Promise<{ rows: DeliveryRow[]; total: number }> {
    let q = db.selectFrom('ad_integration_deliveries').where('integration_id', '=', integrationId);
    if (state) q = q.where('state', '=', state as DeliveryRow['state']);
    const [rows, count] = await Promise.all([
      q.selectAll().orderBy('id', 'desc').offset(offset).limit(limit).execute(),
      q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst(),
    ]);
    return { rows, total: Number(count?.n ?? 0) };
  },
  async delivery(db: DbOrTx, integrationId: number, id: number): Promise<DeliveryRow | undefined> {
    return db.selectFrom('ad_integration_deliveries').selectAll().where('integration_id', '=', integrationId).where('id', '=', id).executeTakeFirst();
  },
  /** Sets deliveries pending again (retry, replay, a reconnect). @returns how many. */
  async requeue(
    db: DbOrTx,
    integrationId: number,
    filter: { id?: number; since?: Date; states: DeliveryRow['state'][] },
    source?: DeliveryRow['source'],
  ): Promise<number> {
    let q = db
      .updateTable('ad_integration_deliveries')
      .set({ state: 'pending', next_at: new Date(), leased_until: null, updated_at: new Date(), ...(source ? { source } : {}) })
      .where('integration_id', '=', integrationId)
      .where('state', 'in', filter.states);
    if (filter.id) q = q.where('id', '=', filter.id);
    if (filter.since) q = q.where('created_at', '>=', filter.since);
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows);
  },
  async ofCall(db: DbOrTx, companyId: number, callId: number) {
    return db
      .selectFrom('ad_integration_deliveries as d')
      .innerJoin('ad_integrations as i', 'i.id', 'd.integration_id')
      .selectAll('d')
      .select(['i.name as integration_name', 'i.provider'])
      .where('d.company_id', '=', companyId)
      .where('d.call_id', '=', callId)
      .orderBy('d.id')
      .limit(100)
      .execute();
  },
};

/** The integrations consumer's condition on a domain event (see `DeliveryCondition`): its company has an active integration (index `ad_integrations_company`). */
export const hasActiveIntegration: DeliveryCondition = (p) =>
  sql`exists (select 1 from ad_integrations i where i.company_id = (${p}->>'companyId')::bigint and i.state = 'active')`;
