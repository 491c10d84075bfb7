/**
 * SQL for the billing tables (migration 0028): `billing_plans`, `billing_accounts`, `billing_subscriptions`,
 * `billing_usage`, `billing_number_days`, `billing_invoice_sequence`, `billing_invoices`, `billing_invoice_lines`.
 * The billing module owns them. Money in integer cents, times UTC.
 */
import { sql } from 'kysely';
import type { DbOrTx } from '../../platform/db/db.js';
import type { NewRow, Row } from '../../platform/db/schema.js';

export type PlanRow = Row<'billing_plans'>;
export type AccountRow = Row<'billing_accounts'>;
export type SubscriptionRow = Row<'billing_subscriptions'>;
export type InvoiceRow = Row<'billing_invoices'>;
export type InvoiceLineRow = Row<'billing_invoice_lines'>;
export type UsageKind = Row<'billing_usage'>['kind'];

export const billingRepository = {
  async plans(db: DbOrTx): Promise<PlanRow[]> {
    return db.selectFrom('billing_plans').selectAll().where('active', '=', true).orderBy('position').execute();
  },
  async plan(db: DbOrTx, id: string): Promise<PlanRow | undefined> {
    return db.selectFrom('billing_plans').selectAll().where('id', '=', id).executeTakeFirst();
  },

  async account(db: DbOrTx, companyId: number, forUpdate = false): Promise<AccountRow | undefined> {
    let q = db.selectFrom('billing_accounts').selectAll().where('company_id', '=', companyId);
    if (forUpdate) q = q.forUpdate();
    return q.executeTakeFirst();
  },
  /** Updates every account whose saved card is the gateway payment method `paymentMethodId`. @returns how many. */
  async updateAccountsByPaymentMethod(db: DbOrTx, paymentMethodId: string, patch: Partial<NewRow<'billing_accounts'>>): Promise<number> {
    const r = await db
      .updateTable('billing_accounts')
      .set({ ...patch, updated_at: new Date() })
      .where('payment_method_id', '=', paymentMethodId)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  },
  /** Creates the account row when missing (concurrent callers: one wins, nothing fails). */
  async ensureAccount(db: DbOrTx, companyId: number, customerEmail: string | null): Promise<void> {
    await db
      .insertInto('billing_accounts')
      .values({ company_id: companyId, customer_email: customerEmail, cc_emails: JSON.stringify([]) })
      .onConflict((oc) => oc.column('company_id').doNothing())
      .execute();
  },
  async updateAccount(db: DbOrTx, companyId: number, patch: Partial<NewRow<'billing_accounts'>>): Promise<void> {
    await db
      .updateTable('billing_accounts')
      .set({ ...patch, updated_at: new Date() })
      .where('company_id', '=', companyId)
      .execute();
  },

  async subscription(db: DbOrTx, companyId: number, forUpdate = false): Promise<SubscriptionRow | undefined> {
    let q = db.selectFrom('billing_subscriptions').selectAll().where('company_id', '=', companyId);
    if (forUpdate) q = q.forUpdate();
    return q.executeTakeFirst();
  },
  async insertSubscription(db: DbOrTx, row: NewRow<'billing_subscriptions'>): Promise<void> {
    await db
      .insertInto('billing_subscriptions')
      .values(row)
      .onConflict((oc) => oc.column('company_id').doNothing())
      .execute();
  },
  async updateSubscription(db: DbOrTx, companyId: number, patch: Partial<NewRow<'billing_subscriptions'>>): Promise<void> {
    await db
      .updateTable('billing_subscriptions')
      .set({ ...patch, updated_at: new Date() })
      .where('company_id', '=', companyId)
      .execute();
  },
  /** Companies whose current period has ended by `now` (not canceled), oldest first. */
  async subscriptionsDue(db: DbOrTx, now: Date, limit: number): Promise<number[]> {
    const rows = await db
      .selectFrom('billing_subscriptions')
      .select('company_id')
      .where('status', '<>', 'canceled')
      .where('current_period_end', '<=', now)
      .orderBy('current_period_end')
      .limit(limit)
      .execute();
    return rows.map((r) => Number(r.company_id));
  },
  /** Companies with a live subscription (for the daily number snapshot). */
  async liveSubscriptionCompanies(db: DbOrTx): Promise<number[]> {
    const rows = await db.selectFrom('billing_subscriptions').select('company_id').where('status', '<>', 'canceled').execute();
    return rows.map((r) => Number(r.company_id));
  },

  /** Records one usage source once (`kind` + `source` unique). @returns true when it was new or its quantity changed. */
  async recordUsage(db: DbOrTx, row: NewRow<'billing_usage'>): Promise<boolean> {
    return (await billingRepository.recordUsages(db, [row])).size > 0;
  },
  /**
   * Records usage sources once each (`kind` + `source` unique; the last of a source in `rows` wins), in one statement.
   * @returns the companies whose usage was new or changed.
   */
  async recordUsages(db: DbOrTx, rows: ReadonlyArray<NewRow<'billing_usage'>>): Promise<Set<number>> {
    const bySource = new Map(rows.map((r) => [`${r.kind}\u0000${r.source}`, r]));
    if (bySource.size === 0) return new Set();
    const written = await db
      .insertInto('billing_usage')
      .values([...bySource.values()])
      .onConflict((oc) =>
        oc
          .columns(['kind', 'source'])
          .doUpdateSet({ quantity: (eb) => eb.ref('excluded.quantity') })
          .where('billing_usage.quantity', '<>', (eb) => eb.ref('excluded.quantity')),
      )
      .returning('company_id')
      .execute();
    return new Set(written.map((r) => Number(r.company_id)));
  },
  /** Usage per kind in [from, to). */
  async usageTotals(db: DbOrTx, companyId: number, from: Date, to: Date): Promise<Map<UsageKind, number>> {
    const rows = await db
      .selectFrom('billing_usage')
      .select(['kind', (eb) => eb.fn.sum<string>('quantity').as('n')])
      .where('company_id', '=', companyId)
      .where('occurred_at', '>=', from)
      .where('occurred_at', '<', to)
      .groupBy('kind')
      .execute();
    return new Map(rows.map((r) => [r.kind, Number(r.n)]));
  },
  /** Minutes and messages per UTC day in [from, to). */
  async usageDaily(db: DbOrTx, companyId: number, from: Date, to: Date): Promise<Array<{ day: string; minutes: number; messages: number }>> {
    const rows = await db
      .selectFrom('billing_usage')
      .select([
        sql<string>`to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD')`.as('day'),
        sql<string>`coalesce(sum(quantity) filter (where kind in ('minutes_inbound', 'minutes_outbound')), 0)`.as('minutes'),
        sql<string>`coalesce(sum(quantity) filter (where kind in ('sms_segments', 'mms_messages')), 0)`.as('messages'),
      ])
      .where('company_id', '=', companyId)
      .where('occurred_at', '>=', from)
      .where('occurred_at', '<', to)
      .groupBy('day')
      .orderBy('day')
      .execute();
    return rows.map((r) => ({ day: r.day, minutes: Number(r.minutes), messages: Number(r.messages) }));
  },
  /** Keeps the day's highest count of numbers held. */
  async recordNumberDay(db: DbOrTx, companyId: number, day: string, numbers: number): Promise<void> {
    await db
      .insertInto('billing_number_days')
      .values({ company_id: companyId, day, numbers })
      .onConflict((oc) => oc.columns(['company_id', 'day']).doUpdateSet({ numbers: sql`greatest(billing_number_days.numbers, excluded.numbers)` }))
      .execute();
  },
  /** Number-days above `included` and in all, over the UTC days [fromDay, toDay). */
  async numberDays(db: DbOrTx, companyId: number, fromDay: string, toDay: string, included: number): Promise<{ total: number; over: number }> {
    const r = await db
      .selectFrom('billing_number_days')
      .select([sql<string>`coalesce(sum(numbers), 0)`.as('total'), sql<string>`coalesce(sum(greatest(numbers - ${included}, 0)), 0)`.as('over')])
      .where('company_id', '=', companyId)
      .where('day', '>=', fromDay)
      .where('day', '<', toDay)
      .executeTakeFirstOrThrow();
    return { total: Number(r.total), over: Number(r.over) };
  },

  /** Takes the next invoice number (row-locked until the transaction ends: numbers have no gaps). */
  async nextInvoiceNumber(db: DbOrTx): Promise<number> {
    const r = await db
      .updateTable('billing_invoice_sequence')
      .set({ last_number: sql`last_number + 1` })
      .where('id', '=', 1)
      .returning('last_number')
      .executeTakeFirstOrThrow();
    return Number(r.last_number);
  },
  async insertInvoice(
    db: DbOrTx,
    row: NewRow<'billing_invoices'>,
    lines: Array<Omit<NewRow<'billing_invoice_lines'>, 'invoice_id' | 'position'>>,
  ): Promise<InvoiceRow> {
    const inv = await db.insertInto('billing_invoices').values(row).returningAll().executeTakeFirstOrThrow();
    if (lines.length > 0)
      await db
        .insertInto('billing_invoice_lines')
        .values(lines.map((l, i) => ({ ...l, invoice_id: Number(inv.id), position: i + 1 })))
        .execute();
    return inv;
  },
  async invoice(db: DbOrTx, id: number, forUpdate = false): Promise<InvoiceRow | undefined> {
    let q = db.selectFrom('billing_invoices').selectAll().where('id', '=', id);
    if (forUpdate) q = q.forUpdate();
    return q.executeTakeFirst();
  },
  async invoices(db: DbOrTx, companyId: number, limit: number): Promise<InvoiceRow[]> {
    return db.selectFrom('billing_invoices').selectAll().where('company_id', '=', companyId).orderBy('id', 'desc').limit(limit).execute();
  },
  async openInvoices(db: DbOrTx, companyId: number): Promise<InvoiceRow[]> {
    return db.selectFrom('billing_invoices').selectAll().where('company_id', '=', companyId).where('status', '=', 'open').orderBy('id').execute();
  },
  /** Open invoices whose next automatic attempt is due by `now`. */
  async invoicesToRetry(db: DbOrTx, now: Date, limit: number): Promise<number[]> {
    const rows = await db
      .selectFrom('billing_invoices')
      .select('id')
      .where('status', '=', 'open')
      .where('next_attempt_at', '<=', now)
      .orderBy('next_attempt_at')
      .limit(limit)
      .execute();
    return rows.map((r) => Number(r.id));
  },
  async lines(db: DbOrTx, invoiceIds: readonly number[]): Promise<InvoiceLineRow[]> {
    if (invoiceIds.length === 0) return [];
    return db
      .selectFrom('billing_invoice_lines')
      .selectAll()
      .where('invoice_id', 'in', [...invoiceIds])
      .orderBy('invoice_id')
      .orderBy('position')
      .execute();
  },
  async updateInvoice(db: DbOrTx, id: number, patch: Partial<NewRow<'billing_invoices'>>): Promise<void> {
    await db.updateTable('billing_invoices').set(patch).where('id', '=', id).execute();
  },
};
