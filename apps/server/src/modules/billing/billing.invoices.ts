/**
 * Invoices, charges and dunning (spec 002 "invoices with PDF download"; spec 001 "Billing": a failed charge is
 * retried; docs/billing.md "Invoices", "Charging and dunning"):
 * - an invoice at each period end (overage of the closing period, the next period's plan and add-ons, credit applied)
 *   and on a plan change (the proration); its total is the sum of its lines; its number `SB-000001`… comes from one
 *   platform sequence taken in the invoice's own transaction, so numbers have no gaps;
 * - a charge through the payment-gateway port outside any transaction (idempotency key per attempt); a failure marks
 *   the subscription past due, mails the customer and schedules retries 1, 3, 5 and 7 days after the first failure;
 *   when the last one fails the company is parked (account status 1: numbers kept, service stopped) and it is
 *   reactivated once everything is paid (a retry, a new card, or the gateway's `payment_intent.succeeded`);
 * - the PDF (pdfkit), rendered on request from the stored invoice, and the invoice e-mail through the mail port.
 */
import PDFDocument from 'pdfkit';
import { BILLING_MESSAGES, formatUsd, type Invoice, type UpcomingInvoice as UpcomingInvoiceDto } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { fieldError, NotFoundError, ValidationError } from '../../platform/http/errors.js';
import { paymentGateway } from '../../platform/payments/index.js';
import { findCompany, setAccountStatus } from '../companies/accounts.service.js';
import { recordJobAudit } from '../audit/audit.service.js';
import { billingRepository as repo, type InvoiceLineRow, type InvoiceRow, type PlanRow } from './billing.repository.js';
import { addInterval, featureLines, nextDunningAttempt, overageLines, registrationFeeLines, type Line } from './billing.pricing.js';
import { billedFeatures, featuresInUse } from './billing.features.js';
import { ensureBilling, getSubscription, planMigration } from './billing.service.js';
import { periodUsage, snapshotNumbers } from './billing.usage.js';

/** Invoice number text of sequence value `n`. */
export function invoiceNumber(n: number): string {
  return `SB-${String(n).padStart(6, '0')}`;
}

/** The invoice as the API shows it (lines in order). */
export function invoiceDto(companyId: number, i: InvoiceRow, lines: InvoiceLineRow[]): Invoice {
  return {
    id: Number(i.id),
    number: i.number,
    kind: i.kind,
    status: i.status,
    periodStart: i.period_start.toISOString(),
    periodEnd: i.period_end.toISOString(),
    totalCents: i.total_cents,
    amountDueCents: i.amount_due_cents,
    attemptCount: i.attempt_count,
    nextAttemptAt: i.next_attempt_at?.toISOString() ?? null,
    lastError: i.last_error,
    paidAt: i.paid_at?.toISOString() ?? null,
    createdAt: i.created_at.toISOString(),
    lines: lines.map((l) => ({ kind: l.kind, description: l.description, quantity: l.quantity, unitCents: l.unit_cents, amountCents: l.amount_cents })),
    pdfUrl: `/api/company/${companyId}/invoices/${Number(i.id)}/pdf`,
  };
}

/** `GET /company/{companyId}/invoices`: newest first (at most 100). */
export async function listInvoices(ctx: AppContext, companyId: number): Promise<Invoice[]> {
  const rows = await repo.invoices(ctx.db, companyId, 100);
  const lines = await repo.lines(
    ctx.db,
    rows.map((r) => Number(r.id)),
  );
  return rows.map((r) =>
    invoiceDto(
      companyId,
      r,
      lines.filter((l) => Number(l.invoice_id) === Number(r.id)),
    ),
  );
}

async function invoiceOfCompany(ctx: AppContext, companyId: number, invoiceId: number): Promise<{ invoice: InvoiceRow; lines: InvoiceLineRow[] }> {
  const invoice = await repo.invoice(ctx.db, invoiceId);
  // Another company's invoice answers like a missing one (404): its existence is not disclosed.
  if (!invoice || Number(invoice.company_id) !== companyId) throw new NotFoundError('Invoice not found.');
  return { invoice, lines: await repo.lines(ctx.db, [invoiceId]) };
}

/**
 * Creates an invoice in `tx`: takes the next number, applies the account's credit (a "Credit applied" line), and
 * stores the lines; a total at or below zero is paid at once and its negative part becomes credit.
 * @returns the invoice row.
 */
async function createInvoice(
  tx: DbOrTx,
  companyId: number,
  kind: 'renewal' | 'proration' | 'purchase',
  start: Date,
  end: Date,
  lines: Line[],
): Promise<InvoiceRow> {
  const account = (await repo.account(tx, companyId, true))!;
  const subtotal = lines.reduce((s, l) => s + l.amount_cents, 0);
  const all = [...lines];
  let credit = account.credit_cents;
  if (credit > 0 && subtotal > 0) {
    const used = Math.min(credit, subtotal);
    all.push({ kind: 'credit', description: 'Account credit applied', quantity: 1, unit_cents: -used, amount_cents: -used });
    credit -= used;
  }
  const total = all.reduce((s, l) => s + l.amount_cents, 0);
  if (total < 0) credit += -total;
  if (credit !== account.credit_cents) await repo.updateAccount(tx, companyId, { credit_cents: credit });
  const n = await repo.nextInvoiceNumber(tx);
  const paid = total <= 0;
  return repo.insertInvoice(
    tx,
    {
      company_id: companyId,
      number: invoiceNumber(n),
      kind,
      status: paid ? 'paid' : 'open',
      period_start: start,
      period_end: end,
      total_cents: total,
      amount_due_cents: paid ? 0 : total,
      paid_at: paid ? new Date() : null,
    },
    all,
  );
}

async function recipients(ctx: AppContext, companyId: number): Promise<string[]> {
  const a = await repo.account(ctx.db, companyId);
  if (!a?.customer_email) return [];
  return [a.customer_email, ...a.cc_emails];
}

async function mailTo(ctx: AppContext, companyId: number, subject: string, text: string, invoiceMail = false): Promise<void> {
  const a = await repo.account(ctx.db, companyId);
  if (invoiceMail && a && !a.receives_invoice_emails) return;
  for (const to of await recipients(ctx, companyId)) await ctx.mailer.send({ to, subject, text });
}

/** Mails a new invoice with its lines and a link to the billing page (where the PDF is downloaded). */
async function mailInvoice(ctx: AppContext, companyId: number, invoice: InvoiceRow): Promise<void> {
  const lines = await repo.lines(ctx.db, [Number(invoice.id)]);
  const company = await findCompany(ctx, companyId);
  const body = [
    `Invoice ${invoice.number} for ${company?.name ?? `company ${companyId}`}`,
    `Period: ${invoice.period_start.toISOString().slice(0, 10)} to ${invoice.period_end.toISOString().slice(0, 10)} (UTC)`,
    '',
    ...lines.map((l) => `${l.description}: ${l.quantity} x ${formatUsd(l.unit_cents)} = ${formatUsd(l.amount_cents)}`),
    '',
    `Total: ${formatUsd(invoice.total_cents)}`,
    `Status: ${invoice.status}`,
    '',
    `Download the PDF from your billing page: ${ctx.config.publicUrl}/billing`,
  ].join('\n');
  await mailTo(ctx, companyId, `Invoice ${invoice.number}: ${formatUsd(invoice.total_cents)}`, body, true);
}

/**
 * After a payment, in `tx`: a company with nothing left open is active again (and unparked when billing parked it).
 * @returns true when the company was reactivated (audit it once `tx` has committed: {@link auditReactivation}).
 */
async function settleIn(ctx: AppContext, tx: DbOrTx, companyId: number): Promise<boolean> {
  const open = await repo.openInvoices(tx, companyId);
  if (open.length > 0) return false;
  const s = await repo.subscription(tx, companyId, true);
  if (s?.status === 'past_due') await repo.updateSubscription(tx, companyId, { status: 'active' });
  const a = await repo.account(tx, companyId, true);
  if (!a?.parked_by_billing) return false;
  await setAccountStatus(ctx, [companyId], 0, tx);
  await repo.updateAccount(tx, companyId, { parked_by_billing: false });
  return true;
}

/** The audit entry of a company reactivated by a payment (after the commit; never throws). */
export async function auditReactivation(ctx: AppContext, companyId: number): Promise<void> {
  await recordJobAudit(ctx, {
    job: 'billing',
    companyId,
    action: 'reactivate',
    entityType: 'companies',
    entityId: companyId,
    changes: { account_status: 0, reason: 'paid' },
  });
}

/**
 * Applies a payment to an open invoice inside the caller's transaction `tx` (docs/billing.md "Routes", the gateway
 * webhook): the invoice is marked paid (gateway payment id `paymentId`) and the company settled (past due → active,
 * unparked when billing parked it) in the same transaction, so a failure anywhere leaves everything as it was.
 * Reads and writes through `tx` only.
 * @returns null when the invoice is unknown or not open (nothing changed); else the company and whether it was
 * reactivated (audit it after the commit with {@link auditReactivation}).
 */
export async function applyInvoicePayment(
  ctx: AppContext,
  tx: DbOrTx,
  invoiceId: number,
  paymentId: string | null,
  now = new Date(),
): Promise<{ companyId: number; reactivated: boolean } | null> {
  const inv = await repo.invoice(tx, invoiceId, true);
  if (!inv || inv.status !== 'open') return null;
  await repo.updateInvoice(tx, invoiceId, {
    status: 'paid',
    paid_at: now,
    amount_due_cents: 0,
    next_attempt_at: null,
    gateway_payment_id: paymentId,
    last_error: null,
  });
  const companyId = Number(inv.company_id);
  return { companyId, reactivated: await settleIn(ctx, tx, companyId) };
}

/** Marks an open invoice paid (gateway payment id) and settles the company, in one transaction. @returns false when it was not open. */
export async function markInvoicePaid(ctx: AppContext, invoiceId: number, paymentId: string | null, now = new Date()): Promise<boolean> {
  const applied = await ctx.db.transaction().execute((tx) => applyInvoicePayment(ctx, tx, invoiceId, paymentId, now));
  if (!applied) return false;
  if (applied.reactivated) await auditReactivation(ctx, applied.companyId);
  return true;
}

/**
 * Charges an open invoice once through the gateway (`mode` auto: a scheduled dunning attempt that moves the schedule
 * on; manual: a person's retry, which only records the outcome). A failure marks the subscription past due, mails
 * the customer, and after the last scheduled attempt parks the company.
 * @returns true when the invoice is paid.
 */
export async function chargeInvoice(ctx: AppContext, invoiceId: number, mode: 'first' | 'auto' | 'manual', now = new Date()): Promise<boolean> {
  const inv = await repo.invoice(ctx.db, invoiceId);
  if (!inv || inv.status !== 'open') return inv?.status === 'paid';
  const companyId = Number(inv.company_id);
  const account = await repo.account(ctx.db, companyId);
  const attempt = inv.attempt_count + 1;
  let outcome: { ok: true; paymentId: string } | { ok: false; error: string };
  if (!account?.gateway_customer_id || !account.payment_method_id) outcome = { ok: false, error: 'No payment method on file.' };
  else {
    const r = await paymentGateway(ctx.config).charge({
      customerId: account.gateway_customer_id,
      paymentMethodId: account.payment_method_id,
      amountCents: inv.amount_due_cents,
      description: `Invoice ${inv.number}`,
      idempotencyKey: `invoice-${invoiceId}-attempt-${attempt}`,
      metadata: { invoice_id: String(invoiceId), company_id: String(companyId) },
    });
    outcome = r.status === 'succeeded' ? { ok: true, paymentId: r.paymentId } : { ok: false, error: r.message };
  }
  if (outcome.ok) {
    await repo.updateInvoice(ctx.db, invoiceId, { attempt_count: attempt });
    await markInvoicePaid(ctx, invoiceId, outcome.paymentId, now);
    return true;
  }
  const failure = outcome.error;
  const parked = await ctx.db.transaction().execute(async (tx) => {
    const cur = (await repo.invoice(tx, invoiceId, true))!;
    if (cur.status !== 'open') return false;
    const firstFailedAt = cur.first_failed_at ?? now;
    // Failures counted by the schedule: the first charge and each automatic retry (a person's retry does not move it).
    const scheduled =
      mode === 'manual' ? null : nextDunningAttempt(firstFailedAt, mode === 'first' || !cur.first_failed_at ? 1 : dunningStep(cur, firstFailedAt) + 1);
    const spent = mode === 'auto' && scheduled === null;
    await repo.updateInvoice(tx, invoiceId, {
      attempt_count: attempt,
      first_failed_at: firstFailedAt,
      last_error: failure,
      next_attempt_at: mode === 'manual' ? cur.next_attempt_at : scheduled,
    });
    await repo.updateSubscription(tx, companyId, { status: 'past_due' });
    if (spent) {
      const a = await repo.account(tx, companyId, true);
      if (a && !a.parked_by_billing) {
        await setAccountStatus(ctx, [companyId], 1, tx);
        await repo.updateAccount(tx, companyId, { parked_by_billing: true });
      }
    }
    return spent;
  });
  if (parked)
    await recordJobAudit(ctx, {
      job: 'billing',
      companyId,
      action: 'park',
      entityType: 'companies',
      entityId: companyId,
      changes: { account_status: 1, reason: 'unpaid', invoice: inv.number },
    });
  const balance = (await repo.openInvoices(ctx.db, companyId)).reduce((s, i) => s + i.amount_due_cents, 0);
  const next = (await repo.invoice(ctx.db, invoiceId))?.next_attempt_at;
  await mailTo(
    ctx,
    companyId,
    parked ? 'Your account has been parked for non-payment' : `Payment failed for invoice ${inv.number}`,
    [
      `We could not charge ${formatUsd(inv.amount_due_cents)} for invoice ${inv.number}: ${failure}`,
      BILLING_MESSAGES.pastDue(formatUsd(balance)),
      parked
        ? 'Your account is parked: your numbers are kept but calls and messages are stopped until the balance is paid.'
        : next
          ? `We will try again on ${next.toISOString().slice(0, 10)}.`
          : '',
      `${ctx.config.publicUrl}/billing`,
    ]
      .filter(Boolean)
      .join('\n'),
  );
  return false;
}

/** How many scheduled retries an invoice has had: the index of its current `next_attempt_at` in the schedule. */
function dunningStep(inv: InvoiceRow, firstFailedAt: Date): number {
  if (!inv.next_attempt_at) return 4;
  const days = Math.round((inv.next_attempt_at.getTime() - firstFailedAt.getTime()) / 86_400_000);
  const i = [1, 3, 5, 7].indexOf(days);
  return i < 0 ? 4 : i + 1;
}

/**
 * The gateway's `payment_intent.payment_failed` for an invoice (e.g. a payment a person started in the gateway's own
 * pages): the reason is recorded on the open invoice, in the webhook's transaction `tx`; the dunning schedule is ours.
 */
export async function recordGatewayFailure(tx: DbOrTx, invoiceId: number, message: string): Promise<void> {
  const inv = await repo.invoice(tx, invoiceId, true);
  if (inv?.status === 'open') await repo.updateInvoice(tx, invoiceId, { last_error: message.slice(0, 500) });
}

/** `POST /company/{id}/billing/retry` (and after a new card): charges every open invoice now. @returns true when all are paid. */
export async function retryOutstanding(ctx: AppContext, companyId: number): Promise<boolean> {
  let allPaid = true;
  for (const inv of await repo.openInvoices(ctx.db, companyId)) if (!(await chargeInvoice(ctx, Number(inv.id), 'manual'))) allPaid = false;
  return allPaid;
}

/** The retry route: 422 when nothing is due. */
export async function retryRoute(ctx: AppContext, companyId: number, userId: number): Promise<{ paid: boolean }> {
  await ensureBilling(ctx, companyId, userId);
  if ((await repo.openInvoices(ctx.db, companyId)).length === 0) throw fieldError('billing', 'There is no outstanding balance to pay.');
  return { paid: await retryOutstanding(ctx, companyId) };
}

/**
 * Closes the company's period if it has ended by `now` (docs/billing.md "Renewal"): a canceled subscription ends
 * (overage still invoiced); otherwise the pending plan takes over, the next period starts at the old end, and the
 * renewal invoice (overage of the closing period, except a trial's; the next period's plan and add-ons) is created
 * and charged. Idempotent: the subscription row is locked and its period moved in the same transaction.
 * @returns the invoice id created, or null.
 */
export async function renewIfDue(ctx: AppContext, companyId: number, now = new Date()): Promise<number | null> {
  await snapshotNumbers(ctx, [companyId], now);
  const s0 = await repo.subscription(ctx.db, companyId);
  if (!s0 || s0.status === 'canceled' || s0.current_period_end > now) return null;
  const closingPlan = (await repo.plan(ctx.db, s0.plan_id))!;
  const usage = await periodUsage(ctx, companyId, closingPlan, s0.current_period_start, s0.current_period_end);
  const closingLines = closingLinesOf(s0.status, closingPlan, usage);
  // Read before the transaction (no pool wait inside it): the add-ons in use are billed with the subscribed ones.
  const inUse = await featuresInUse(ctx, companyId);
  const invoice = await ctx.db.transaction().execute(async (tx) => {
    const s = await repo.subscription(tx, companyId, true);
    if (!s || s.status === 'canceled' || s.current_period_end.getTime() !== s0.current_period_end.getTime()) return null;
    const lines: Line[] = [...closingLines];
    const start = s.current_period_end;
    if (s.cancel_at_period_end) {
      await repo.updateSubscription(tx, companyId, { status: 'canceled', cancel_at_period_end: false });
      return lines.length > 0 ? createInvoice(tx, companyId, 'renewal', s.current_period_start, s.current_period_end, lines) : null;
    }
    const next: PlanRow = s.pending_plan_id ? ((await repo.plan(tx, s.pending_plan_id)) ?? closingPlan) : closingPlan;
    const end = addInterval(start, next.interval);
    lines.push(...nextPeriodLines(next, billedFeatures(s.features, inUse), start, end));
    await repo.updateSubscription(tx, companyId, {
      plan_id: next.id,
      pending_plan_id: null,
      status: s.status === 'past_due' ? 'past_due' : 'active',
      current_period_start: start,
      current_period_end: end,
    });
    return createInvoice(tx, companyId, 'renewal', start, end, lines);
  });
  if (!invoice) return null;
  await mailInvoice(ctx, companyId, invoice);
  if (invoice.status === 'open') await chargeInvoice(ctx, Number(invoice.id), 'first', now);
  return Number(invoice.id);
}

/** The lines a closing period bills: its overage, or, for a trial (whose usage is free), only the registration fees passed through at cost. */
function closingLinesOf(status: string, plan: PlanRow, usage: Parameters<typeof overageLines>[1]): Line[] {
  return status === 'trialing' ? registrationFeeLines(usage) : overageLines(plan, usage);
}

/** The next period's plan line and add-on lines ([start, end) on plan `next`). */
function nextPeriodLines(next: PlanRow, features: readonly string[], start: Date, end: Date): Line[] {
  return [
    {
      kind: 'plan',
      description: `${next.name} plan, ${start.toISOString().slice(0, 10)} to ${end.toISOString().slice(0, 10)}`,
      quantity: 1,
      unit_cents: next.price_cents,
      amount_cents: next.price_cents,
    },
    ...featureLines(features, next.interval),
  ];
}

/**
 * `GET /company/{companyId}/invoices/upcoming` (docs/billing.md "Upcoming invoice"): the renewal invoice the end of the
 * current period (or trial) creates if nothing changes, computed exactly as {@link renewIfDue} will: the closing
 * period's overage so far (a trial's: only registration fees), then (unless the subscription ends) the next period's
 * plan (the pending one if any) and the add-ons billed, less account credit (an "Account credit applied" line).
 * Writes nothing but today's numbers held. @returns null for a canceled subscription (no invoice is coming).
 */
export async function upcomingInvoice(ctx: AppContext, companyId: number, userId: number | null, now = new Date()): Promise<UpcomingInvoiceDto | null> {
  const { account, subscription: s } = await ensureBilling(ctx, companyId, userId, now);
  if (s.status === 'canceled') return null;
  await snapshotNumbers(ctx, [companyId], now);
  const plan = (await repo.plan(ctx.db, s.plan_id))!;
  const usage = await periodUsage(ctx, companyId, plan, s.current_period_start, s.current_period_end);
  const lines = closingLinesOf(s.status, plan, usage);
  const start = s.current_period_end;
  let end = start;
  if (!s.cancel_at_period_end) {
    const next = s.pending_plan_id ? ((await repo.plan(ctx.db, s.pending_plan_id)) ?? plan) : plan;
    end = addInterval(start, next.interval);
    lines.push(...nextPeriodLines(next, billedFeatures(s.features, await featuresInUse(ctx, companyId)), start, end));
  } else if (lines.length === 0) return null;
  const subtotal = lines.reduce((sum, l) => sum + l.amount_cents, 0);
  if (account.credit_cents > 0 && subtotal > 0) {
    const used = Math.min(account.credit_cents, subtotal);
    lines.push({ kind: 'credit', description: 'Account credit applied', quantity: 1, unit_cents: -used, amount_cents: -used });
  }
  const total = lines.reduce((sum, l) => sum + l.amount_cents, 0);
  return {
    date: s.current_period_end.toISOString(),
    periodStart: (s.cancel_at_period_end ? s.current_period_start : start).toISOString(),
    periodEnd: end.toISOString(),
    lines: lines.map((l) => ({ kind: l.kind, description: l.description, quantity: l.quantity, unitCents: l.unit_cents, amountCents: l.amount_cents })),
    totalCents: total,
    amountDueCents: Math.max(0, total),
  };
}

/** How old a preview's `proration_date` may be when a migrate applies it (ms): one hour. */
export const PRORATION_DATE_MAX_AGE_MS = 3_600_000;

/**
 * Migrates the subscription to `planId` with the previewed proration ({@link planMigration}): a proration invoice
 * (charged at once when positive; a negative total becomes credit), the plan switched, the period kept (same
 * interval) or restarted (monthly ↔ yearly). During a trial only the plan changes.
 * `opts.prorationDate` (the preview's `prorationDate`) prorates at that instant instead of `now`, so the amount is the
 * previewed one however long the person took to confirm; `opts.expectedAmountCents` (the preview's `chargeNowCents`)
 * is compared with the new invoice's amount due inside the transaction that creates it (credit included).
 * @throws ValidationError 422 on `plan_id` / `subscription` ({@link planMigration}), on `proration_date` (in the future);
 * and, nothing changed, when the preview no longer holds (the plan-change dialog then previews again):
 * `proration_date` older than an hour or before the current period (it renewed since), the subscription changed
 * meanwhile (`plan_id`), or the amount due differs from `expectedAmountCents` (the message gives the new amount).
 */
export async function migrateSubscription(
  ctx: AppContext,
  companyId: number,
  userId: number,
  planId: string,
  opts: { expectedAmountCents?: number; prorationDate?: Date } = {},
  now = new Date(),
) {
  const at = opts.prorationDate ?? now;
  if (at.getTime() > now.getTime() + 60_000) throw fieldError('proration_date', 'The proration date cannot be in the future.');
  if (now.getTime() - at.getTime() > PRORATION_DATE_MAX_AGE_MS)
    throw new ValidationError({ proration_date: [BILLING_MESSAGES.previewExpired] }, BILLING_MESSAGES.previewExpired);
  const m = await planMigration(ctx, companyId, userId, planId, at);
  if (at < m.subscription.current_period_start)
    throw new ValidationError({ proration_date: [BILLING_MESSAGES.subscriptionChanged] }, BILLING_MESSAGES.subscriptionChanged);
  const invoice = await ctx.db.transaction().execute(async (tx) => {
    const s = await repo.subscription(tx, companyId, true);
    const was = m.subscription;
    if (
      !s ||
      s.plan_id !== was.plan_id ||
      s.status !== was.status ||
      s.current_period_start.getTime() !== was.current_period_start.getTime() ||
      s.current_period_end.getTime() !== was.current_period_end.getTime()
    )
      throw new ValidationError({ plan_id: [BILLING_MESSAGES.subscriptionChanged] }, BILLING_MESSAGES.subscriptionChanged);
    await repo.updateSubscription(tx, companyId, {
      plan_id: m.to.id,
      pending_plan_id: null,
      current_period_start: m.newPeriodStart,
      current_period_end: m.newPeriodEnd,
    });
    const created = m.trial ? null : await createInvoice(tx, companyId, 'proration', at, m.newPeriodEnd, m.lines);
    const due = created?.amount_due_cents ?? 0;
    // Compared in the invoice's transaction: a refusal rolls back the plan switch, the invoice and its number.
    if (opts.expectedAmountCents !== undefined && due !== opts.expectedAmountCents) {
      const msg = BILLING_MESSAGES.prorationChanged(formatUsd(due), formatUsd(opts.expectedAmountCents));
      throw new ValidationError({ expected_amount_cents: [msg] }, msg);
    }
    return created;
  });
  if (invoice) {
    await mailInvoice(ctx, companyId, invoice);
    if (invoice.status === 'open') await chargeInvoice(ctx, Number(invoice.id), 'first', now);
  }
  const fresh = invoice ? await repo.invoice(ctx.db, Number(invoice.id)) : undefined;
  return {
    message: BILLING_MESSAGES.migrated,
    data: await getSubscription(ctx, companyId, userId),
    invoice: fresh ? invoiceDto(companyId, fresh, await repo.lines(ctx.db, [Number(fresh.id)])) : null,
  };
}

/**
 * One billing pass (the `billing.tick` job; tests call it with a chosen `now`): renews the periods that ended,
 * runs the dunning attempts that are due, and records today's numbers held.
 */
export async function runBillingTick(ctx: AppContext, now = new Date()): Promise<{ renewed: number; retried: number }> {
  let renewed = 0;
  let retried = 0;
  for (const companyId of await repo.subscriptionsDue(ctx.db, now, 500)) if ((await renewIfDue(ctx, companyId, now)) !== null) renewed++;
  for (const invoiceId of await repo.invoicesToRetry(ctx.db, now, 500)) {
    retried++;
    await chargeInvoice(ctx, invoiceId, 'auto', now);
  }
  await snapshotNumbers(ctx, await repo.liveSubscriptionCompanies(ctx.db), now);
  return { renewed, retried };
}

/** Renders the invoice as a PDF (pdfkit): company, number, period, lines, total, status. */
export async function invoicePdf(ctx: AppContext, companyId: number, invoiceId: number): Promise<{ filename: string; pdf: Buffer }> {
  const { invoice, lines } = await invoiceOfCompany(ctx, companyId, invoiceId);
  const company = await findCompany(ctx, companyId);
  const account = await repo.account(ctx.db, companyId);
  const doc = new PDFDocument({ size: 'LETTER', margin: 54, info: { Title: `Invoice ${invoice.number}` } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  doc.fontSize(20).text(`Invoice ${invoice.number}`);
  doc.moveDown(0.5).fontSize(11);
  doc.text(`Billed to: ${account?.billing_name || company?.name || `Company ${companyId}`}`);
  for (const t of [
    account?.billing_address,
    account?.billing_address_2,
    [account?.billing_city, account?.billing_state, account?.billing_zip].filter(Boolean).join(' '),
    account?.billing_country,
  ])
    if (t) doc.text(t);
  doc.text(`Issued: ${invoice.created_at.toISOString().slice(0, 10)}`);
  doc.text(`Period: ${invoice.period_start.toISOString().slice(0, 10)} to ${invoice.period_end.toISOString().slice(0, 10)} (UTC)`);
  doc.text(`Status: ${invoice.status === 'paid' ? 'Paid' : invoice.status === 'open' ? 'Due' : 'Void'}`);
  doc.moveDown();
  for (const l of lines) doc.text(`${l.description} | ${l.quantity} x ${formatUsd(l.unit_cents)} | ${formatUsd(l.amount_cents)}`);
  doc.moveDown();
  doc.fontSize(13).text(`Total: ${formatUsd(invoice.total_cents)}`);
  doc.fontSize(11).text(`Amount due: ${formatUsd(invoice.amount_due_cents)}`);
  doc.end();
  await done;
  return { filename: `invoice-${invoice.number}.pdf`, pdf: Buffer.concat(chunks) };
}

/** One line of a one-off purchase: what is bought and its price (cents, > 0). */
export type PurchaseLine = { kind: string; description: string; amountCents: number };

/**
 * A one-off purchase (a marketplace number, docs/marketplace.md "Billing"; docs/billing.md "Invoices"): an invoice of
 * kind `purchase` with one line (account credit applied first), charged at once off-session on the card on file.
 * Unlike a renewal, a failed charge starts no dunning: the invoice is voided (its number kept: numbers stay gapless),
 * the credit it used given back, and the purchase refused.
 * @returns the paid invoice.
 * @throws ValidationError 422 on `payment`: no card on file, or the gateway's decline message.
 */
export async function chargePurchase(ctx: AppContext, companyId: number, userId: number | null, line: PurchaseLine, now = new Date()): Promise<Invoice> {
  if (!Number.isInteger(line.amountCents) || line.amountCents <= 0) throw new Error('A purchase is a positive whole number of cents.');
  const { account } = await ensureBilling(ctx, companyId, userId, now);
  if (!account.gateway_customer_id || !account.payment_method_id)
    throw fieldError('payment', 'Add a card on the Billing page before buying: there is no payment method on file.');
  const invoice = await ctx.db
    .transaction()
    .execute(async (tx) =>
      createInvoice(tx, companyId, 'purchase', now, now, [
        { kind: line.kind, description: line.description, quantity: 1, unit_cents: line.amountCents, amount_cents: line.amountCents },
      ]),
    );
  const invoiceId = Number(invoice.id);
  if (invoice.status === 'open') {
    const r = await paymentGateway(ctx.config).charge({
      customerId: account.gateway_customer_id,
      paymentMethodId: account.payment_method_id,
      amountCents: invoice.amount_due_cents,
      description: `Invoice ${invoice.number}`,
      idempotencyKey: `invoice-${invoiceId}-attempt-1`,
      metadata: { invoice_id: String(invoiceId), company_id: String(companyId) },
    });
    if (r.status !== 'succeeded') {
      await ctx.db.transaction().execute(async (tx) => {
        const cur = await repo.invoice(tx, invoiceId, true);
        if (cur?.status !== 'open') return;
        const creditUsed = -(await repo.lines(tx, [invoiceId])).filter((l) => l.kind === 'credit').reduce((s, l) => s + l.amount_cents, 0);
        await repo.updateInvoice(tx, invoiceId, { status: 'void', amount_due_cents: 0, attempt_count: 1, last_error: r.message.slice(0, 500) });
        if (creditUsed > 0) {
          const a = (await repo.account(tx, companyId, true))!;
          await repo.updateAccount(tx, companyId, { credit_cents: a.credit_cents + creditUsed });
        }
      });
      throw fieldError('payment', `The payment was declined: ${r.message}`);
    }
    await repo.updateInvoice(ctx.db, invoiceId, { attempt_count: 1 });
    await markInvoicePaid(ctx, invoiceId, r.paymentId, now);
  }
  const paid = (await repo.invoice(ctx.db, invoiceId))!;
  await mailInvoice(ctx, companyId, paid);
  return invoiceDto(companyId, paid, await repo.lines(ctx.db, [invoiceId]));
}

/** Mails the company's billing contacts (customer e-mail and cc e-mails), e.g. a marketplace seller's sale notice. */
export async function mailBillingContacts(ctx: AppContext, companyId: number, subject: string, text: string): Promise<void> {
  await mailTo(ctx, companyId, subject, text);
}

/**
 * Adds account credit (cents > 0) to a company, e.g. a marketplace seller's proceeds or a refund of a purchase that
 * could not be completed; it is applied as "Account credit applied" on the company's next invoices.
 */
export async function creditAccount(ctx: AppContext, companyId: number, cents: number): Promise<void> {
  if (!Number.isInteger(cents) || cents <= 0) throw new Error('Credit is a positive whole number of cents.');
  await ensureBilling(ctx, companyId, null);
  await ctx.db.transaction().execute(async (tx) => {
    const a = (await repo.account(tx, companyId, true))!;
    await repo.updateAccount(tx, companyId, { credit_cents: a.credit_cents + cents });
  });
}
