/**
 * Company billing and subscriptions (spec 001 "Company billing"; spec 002 "Subscription"; docs/billing.md): the
 * billing details and card (`GET`/`POST /company/{id}/billing`), the browser's gateway settings
 * (`GET /chargify/security-token`), the plan catalogue, and the subscription calls: read, cancel (optionally with a
 * downsell), clear a pending cancel, revert a pending plan change, migrate with a previewed proration, customer
 * update, feature toggle, yearly upgrade offers. Who may call is declared on the routes (`billing.read`,
 * `billing.manage`: owner and billing); these functions take an already-authorized company id.
 * Money in integer cents (USD), times UTC.
 */
import {
  BILLING_FEATURES,
  BILLING_MESSAGES,
  formatUsd,
  type BillingFeature,
  type CompanyBilling,
  type MigrationPreview,
  type NumberPrice,
  type Plan,
  type Subscription,
} from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { fieldError, NotFoundError } from '../../platform/http/errors.js';
import { CardDeclinedError, paymentGateway, type BrowserGatewayConfig } from '../../platform/payments/index.js';
import { findCompany } from '../companies/accounts.service.js';
import { activeNumbersOf } from '../numbers/numbers.reporting.js';
import { findUser } from '../users/users.service.js';
import { billingRepository as repo, type AccountRow, type PlanRow, type SubscriptionRow } from './billing.repository.js';
import { billedFeatures, featuresInUse } from './billing.features.js';
import { addInterval, planNumberLimit, prorate, TRIAL_DAYS, TRIAL_PLAN_ID, type Line } from './billing.pricing.js';

/** A plan row as the API shows it. */
export function planDto(p: PlanRow): Plan {
  return {
    id: p.id,
    family: p.family,
    name: p.name,
    interval: p.interval,
    priceCents: p.price_cents,
    includedNumbers: p.included_numbers,
    includedMinutes: p.included_minutes,
    includedMessages: p.included_messages,
    numberOverageCents: p.number_overage_cents,
    minuteOverageCents: p.minute_overage_cents,
    messageOverageCents: p.message_overage_cents,
  };
}

/** The active plans, cheapest family first. */
export async function listPlans(ctx: AppContext): Promise<Plan[]> {
  return (await repo.plans(ctx.db)).map(planDto);
}

async function planOrThrow(db: DbOrTx, id: string, field: string): Promise<PlanRow> {
  const p = await repo.plan(db, id);
  if (!p || !p.active) throw fieldError(field, 'The selected plan is invalid.');
  return p;
}

/**
 * The company's billing account and subscription, created on first use: a {@link TRIAL_DAYS}-day trial of
 * {@link TRIAL_PLAN_ID}, the customer e-mail being the e-mail of `userId` (the first person to open billing).
 * @throws NotFoundError for an unknown company.
 */
export async function ensureBilling(
  ctx: AppContext,
  companyId: number,
  userId: number | null,
  now = new Date(),
): Promise<{ account: AccountRow; subscription: SubscriptionRow }> {
  let account = await repo.account(ctx.db, companyId);
  let subscription = await repo.subscription(ctx.db, companyId);
  if (account && subscription) return { account, subscription };
  if (!(await findCompany(ctx, companyId))) throw new NotFoundError('Company not found.');
  const email = userId ? ((await findUser(ctx, userId))?.email ?? null) : null;
  await ctx.db.transaction().execute(async (tx) => {
    await repo.ensureAccount(tx, companyId, email);
    await repo.insertSubscription(tx, {
      company_id: companyId,
      plan_id: TRIAL_PLAN_ID,
      status: 'trialing',
      current_period_start: now,
      current_period_end: new Date(now.getTime() + TRIAL_DAYS * 86_400_000),
      features: JSON.stringify([]),
    });
  });
  account = (await repo.account(ctx.db, companyId))!;
  subscription = (await repo.subscription(ctx.db, companyId))!;
  return { account, subscription };
}

/** The sum of the company's open invoices (cents). */
export async function outstandingCents(ctx: AppContext, companyId: number, db: DbOrTx = ctx.db): Promise<number> {
  return (await repo.openInvoices(db, companyId)).reduce((s, i) => s + i.amount_due_cents, 0);
}

/** `GET /company/{id}/billing`: the billing fields, the card on file (brand, last four, expiry) and the past-due state. */
export async function getCompanyBilling(ctx: AppContext, companyId: number, userId: number | null): Promise<CompanyBilling> {
  const { account, subscription } = await ensureBilling(ctx, companyId, userId);
  const balance = await outstandingCents(ctx, companyId);
  const pastDue = subscription.status === 'past_due' || balance > 0;
  return {
    billing_name: account.billing_name,
    billing_address: account.billing_address,
    billing_address_2: account.billing_address_2,
    billing_city: account.billing_city,
    billing_state: account.billing_state,
    billing_zip: account.billing_zip,
    billing_country: account.billing_country,
    card:
      account.card_last4 && account.card_brand
        ? { brand: account.card_brand, last4: account.card_last4, expMonth: account.card_exp_month ?? 0, expYear: account.card_exp_year ?? 0 }
        : null,
    pastDue,
    balanceCents: balance,
    pastDueMessage: pastDue ? BILLING_MESSAGES.pastDue(formatUsd(balance)) : null,
  };
}

/** What the browser needs to tokenize a card (`GET /chargify/security-token`). */
export function securityToken(ctx: AppContext): BrowserGatewayConfig {
  return paymentGateway(ctx.config).browserConfig();
}

export type BillingInput = {
  billing_name?: string;
  billing_address?: string;
  billing_address_2?: string;
  billing_city?: string;
  billing_state?: string;
  billing_zip?: string;
  billing_country?: string;
  chargify_token?: string;
  setup_intent?: string;
};

/**
 * `POST /company/{id}/billing`: saves the billing fields and, with `chargify_token` (a gateway payment-method id) or
 * `setup_intent` (after 3-D Secure), the card: only its brand, last four digits, expiry and gateway ids are kept.
 * A past-due account then has its open invoices charged at once ({@link retryOutstanding}, injected to keep this file
 * free of the invoice flow).
 * @returns the billing, the spec's message (saved / saved but still past due), or `requiresAction` to authenticate.
 * @throws ValidationError 422 on `chargify_token` when the card is declined (the spec's card-processing message).
 */
export async function updateCompanyBilling(
  ctx: AppContext,
  companyId: number,
  userId: number,
  input: BillingInput,
  retryOutstanding: (ctx: AppContext, companyId: number) => Promise<boolean>,
): Promise<{ message?: string; data: CompanyBilling; requiresAction?: { setupIntentId: string; clientSecret: string } }> {
  const { account } = await ensureBilling(ctx, companyId, userId);
  const fields = {
    billing_name: input.billing_name,
    billing_address: input.billing_address,
    billing_address_2: input.billing_address_2,
    billing_city: input.billing_city,
    billing_state: input.billing_state,
    billing_zip: input.billing_zip,
    billing_country: input.billing_country?.toUpperCase(),
  };
  const patch = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  let cardSaved = false;
  if (input.chargify_token || input.setup_intent) {
    const gateway = paymentGateway(ctx.config);
    let customerId = account.gateway_customer_id;
    if (!customerId) {
      const company = await findCompany(ctx, companyId);
      customerId = await gateway.createCustomer({
        email: account.customer_email,
        name: input.billing_name || company?.name || `Company ${companyId}`,
        companyId,
      });
      await repo.updateAccount(ctx.db, companyId, { gateway_customer_id: customerId });
    }
    try {
      let card;
      if (input.setup_intent) card = await gateway.completeSetup(customerId, input.setup_intent);
      else {
        const setup = await gateway.setupCard(customerId, input.chargify_token!);
        if (setup.status === 'requires_action') {
          if (Object.keys(patch).length > 0) await repo.updateAccount(ctx.db, companyId, patch);
          return {
            data: await getCompanyBilling(ctx, companyId, userId),
            requiresAction: { setupIntentId: setup.setupIntentId, clientSecret: setup.clientSecret },
          };
        }
        card = setup.card;
      }
      Object.assign(patch, {
        payment_method_id: card.paymentMethodId,
        card_brand: card.brand,
        card_last4: card.last4,
        card_exp_month: card.expMonth,
        card_exp_year: card.expYear,
      });
      cardSaved = true;
    } catch (error) {
      if (error instanceof CardDeclinedError) throw fieldError(input.setup_intent ? 'setup_intent' : 'chargify_token', BILLING_MESSAGES.cardProcessingIssue);
      throw error;
    }
  }
  if (Object.keys(patch).length > 0) await repo.updateAccount(ctx.db, companyId, patch);
  let message: string | undefined = BILLING_MESSAGES.customerUpdated;
  if (cardSaved) {
    const hadBalance = (await outstandingCents(ctx, companyId)) > 0;
    if (!hadBalance) message = BILLING_MESSAGES.paymentMethodSaved;
    else message = (await retryOutstanding(ctx, companyId)) ? BILLING_MESSAGES.paymentSucceeded : BILLING_MESSAGES.savedStillPastDue;
  }
  return { message, data: await getCompanyBilling(ctx, companyId, userId) };
}

/** The subscription as the API shows it. */
export async function getSubscription(ctx: AppContext, companyId: number, userId: number | null): Promise<Subscription> {
  const { account, subscription: s } = await ensureBilling(ctx, companyId, userId);
  const plan = (await repo.plan(ctx.db, s.plan_id))!;
  const pending = s.pending_plan_id ? await repo.plan(ctx.db, s.pending_plan_id) : undefined;
  const inUse = await featuresInUse(ctx, companyId);
  return {
    companyId,
    plan: planDto(plan),
    status: s.status,
    currentPeriodStart: s.current_period_start.toISOString(),
    currentPeriodEnd: s.current_period_end.toISOString(),
    cancelAtPeriodEnd: s.cancel_at_period_end,
    pendingPlan: pending ? planDto(pending) : null,
    features: billedFeatures(s.features, inUse),
    featuresInUse: inUse,
    customer: { email: account.customer_email, ccEmails: account.cc_emails, receivesInvoiceEmails: account.receives_invoice_emails },
    creditCents: account.credit_cents,
    parked: account.parked_by_billing,
  };
}

function assertLive(s: SubscriptionRow): void {
  if (s.status === 'canceled') throw fieldError('subscription', BILLING_MESSAGES.noSubscription);
}

/**
 * Cancel at the end of the period; with `downsellPlanId` (a cheaper plan) the subscription moves to that plan at the
 * period end instead of ending (a pending plan change).
 * @throws ValidationError 422 (`downsell_plan_id`: unknown or not cheaper per month; canceled subscription).
 */
export async function cancelSubscription(
  ctx: AppContext,
  companyId: number,
  userId: number,
  downsellPlanId?: string,
): Promise<{ message: string; data: Subscription }> {
  const { subscription: s } = await ensureBilling(ctx, companyId, userId);
  assertLive(s);
  if (downsellPlanId) {
    const current = (await repo.plan(ctx.db, s.plan_id))!;
    const target = await planOrThrow(ctx.db, downsellPlanId, 'downsell_plan_id');
    const monthly = (p: PlanRow) => (p.interval === 'year' ? p.price_cents / 12 : p.price_cents);
    if (target.id === current.id || monthly(target) >= monthly(current)) throw fieldError('downsell_plan_id', 'Choose a plan cheaper than the current one.');
    await repo.updateSubscription(ctx.db, companyId, { pending_plan_id: target.id, cancel_at_period_end: false });
    return { message: BILLING_MESSAGES.downsellScheduled, data: await getSubscription(ctx, companyId, userId) };
  }
  await repo.updateSubscription(ctx.db, companyId, { cancel_at_period_end: true, pending_plan_id: null });
  return { message: BILLING_MESSAGES.cancelScheduled, data: await getSubscription(ctx, companyId, userId) };
}

/** Clears a pending cancel (spec 002 "clear pending cancel"). @throws ValidationError 422 when none is pending. */
export async function clearPendingCancel(ctx: AppContext, companyId: number, userId: number): Promise<{ message: string; data: Subscription }> {
  const { subscription: s } = await ensureBilling(ctx, companyId, userId);
  if (!s.cancel_at_period_end) throw fieldError('subscription', 'No cancellation is pending.');
  await repo.updateSubscription(ctx.db, companyId, { cancel_at_period_end: false });
  return { message: BILLING_MESSAGES.cancelCleared, data: await getSubscription(ctx, companyId, userId) };
}

/** Reverts a pending plan change (a downsell or a change at period end). @throws ValidationError 422 when none is pending. */
export async function revertPendingChange(ctx: AppContext, companyId: number, userId: number): Promise<{ message: string; data: Subscription }> {
  const { subscription: s } = await ensureBilling(ctx, companyId, userId);
  if (!s.pending_plan_id) throw fieldError('subscription', 'No plan change is pending.');
  await repo.updateSubscription(ctx.db, companyId, { pending_plan_id: null });
  return { message: BILLING_MESSAGES.productChangeReverted, data: await getSubscription(ctx, companyId, userId) };
}

export type MigrationPlan = {
  preview: MigrationPreview;
  from: PlanRow;
  to: PlanRow;
  lines: Line[];
  newPeriodStart: Date;
  newPeriodEnd: Date;
  trial: boolean;
  /** The subscription row the proration was computed from (a migrate checks it is unchanged when it applies it). */
  subscription: SubscriptionRow;
};

/**
 * The proration of moving to `planId` now ({@link prorate}; docs/billing.md "Proration"). During a trial nothing is
 * prorated (the plan changes, the trial goes on). The account's credit is not applied in the preview's lines.
 * @throws ValidationError 422 on `plan_id` (unknown, or the current plan), on `subscription` (canceled).
 */
export async function planMigration(ctx: AppContext, companyId: number, userId: number | null, planId: string, now = new Date()): Promise<MigrationPlan> {
  const { account, subscription: s } = await ensureBilling(ctx, companyId, userId);
  assertLive(s);
  const from = (await repo.plan(ctx.db, s.plan_id))!;
  const to = await planOrThrow(ctx.db, planId, 'plan_id');
  if (to.id === from.id) throw fieldError('plan_id', 'This is already your plan.');
  const trial = s.status === 'trialing';
  const p = trial
    ? { remainingSeconds: 0, periodSeconds: 1, lines: [], totalCents: 0, newPeriodStart: s.current_period_start, newPeriodEnd: s.current_period_end }
    : prorate(from, to, s.current_period_start, s.current_period_end, now);
  const chargeNow = Math.max(0, p.totalCents - account.credit_cents);
  return {
    from,
    to,
    lines: p.lines,
    trial,
    subscription: s,
    newPeriodStart: p.newPeriodStart,
    newPeriodEnd: p.newPeriodEnd,
    preview: {
      fromPlan: planDto(from),
      toPlan: planDto(to),
      remainingSeconds: p.remainingSeconds,
      periodSeconds: p.periodSeconds,
      lines: p.lines.map((l) => ({ kind: l.kind, description: l.description, quantity: l.quantity, unitCents: l.unit_cents, amountCents: l.amount_cents })),
      totalCents: p.totalCents,
      chargeNowCents: chargeNow,
      creditCents: p.totalCents < 0 ? -p.totalCents : 0,
      newPeriodEnd: p.newPeriodEnd.toISOString(),
      prorationDate: now.toISOString(),
    },
  };
}

/**
 * Subscription update (spec 002 "subscription update"; docs/billing.md "Plan change at period end"): the subscription
 * renews on `planId` at the end of the current period (a pending plan change; nothing is prorated or charged now).
 * A pending cancel is replaced by it (the person keeps a subscription, on another plan); revert-product-change undoes
 * it. Unlike the cancel's downsell, any other plan may be chosen (dearer, cheaper, yearly or monthly).
 * @throws ValidationError 422 on `plan_id` (unknown, or the current plan), on `subscription` (canceled: the spec's
 * "You have accounts without a subscription. Please contact support!").
 */
export async function scheduleProductChange(
  ctx: AppContext,
  companyId: number,
  userId: number,
  planId: string,
): Promise<{ message: string; data: Subscription }> {
  const { subscription: s } = await ensureBilling(ctx, companyId, userId);
  assertLive(s);
  const to = await planOrThrow(ctx.db, planId, 'plan_id');
  if (to.id === s.plan_id) throw fieldError('plan_id', 'This is already your plan.');
  await repo.updateSubscription(ctx.db, companyId, { pending_plan_id: to.id, cancel_at_period_end: false });
  return { message: BILLING_MESSAGES.planChangeScheduled, data: await getSubscription(ctx, companyId, userId) };
}

/** Customer update (spec 002 "Subscription: customer email, ccEmails, receivesInvoiceEmails"). */
export async function updateCustomer(
  ctx: AppContext,
  companyId: number,
  userId: number,
  input: { email: string; ccEmails: string[]; receivesInvoiceEmails: boolean },
): Promise<{ message: string; data: Subscription }> {
  await ensureBilling(ctx, companyId, userId);
  await repo.updateAccount(ctx.db, companyId, {
    customer_email: input.email,
    cc_emails: JSON.stringify([...new Set(input.ccEmails.filter((e) => e !== input.email))]),
    receives_invoice_emails: input.receivesInvoiceEmails,
  });
  return { message: BILLING_MESSAGES.customerUpdated, data: await getSubscription(ctx, companyId, userId) };
}

/**
 * Feature toggle: an add-on billed from the next invoice (spec 002 success messages "Feature enabled/disabled
 * successfully"). An add-on in use in the product (docs/billing.md "Add-ons") stays on while it is used.
 * @throws ValidationError 422 on `feature` when switching off an add-on in use (the message says where it is used);
 * on `subscription` when canceled.
 */
export async function toggleFeature(
  ctx: AppContext,
  companyId: number,
  userId: number,
  feature: BillingFeature,
  enabled: boolean,
): Promise<{ message: string; data: Subscription }> {
  const { subscription: s } = await ensureBilling(ctx, companyId, userId);
  assertLive(s);
  const use = enabled ? undefined : (await featuresInUse(ctx, companyId)).find((u) => u.feature === feature);
  if (use) throw fieldError('feature', `${BILLING_FEATURES[feature].label} is in use: ${use.reason} Turn it off there first.`);
  const set = new Set(s.features);
  if (enabled) set.add(feature);
  else set.delete(feature);
  await repo.updateSubscription(ctx.db, companyId, { features: JSON.stringify([...set].sort()) });
  return { message: enabled ? BILLING_MESSAGES.featureEnabled : BILLING_MESSAGES.featureDisabled, data: await getSubscription(ctx, companyId, userId) };
}

/** Yearly upgrade offers: the yearly plan of the current monthly plan's family (and of the families above it), with the saving over 12 months. */
export async function yearlyOffers(ctx: AppContext, companyId: number, userId: number) {
  const { subscription: s } = await ensureBilling(ctx, companyId, userId);
  const plans = await repo.plans(ctx.db);
  const current = plans.find((p) => p.id === s.plan_id);
  if (!current || current.interval === 'year' || s.status === 'canceled') return [];
  return plans
    .filter((p) => p.interval === 'year' && p.position > current.position)
    .map((y) => {
      const monthly = plans.find((m) => m.family === y.family && m.interval === 'month');
      const twelve = (monthly?.price_cents ?? 0) * 12;
      return {
        plan: planDto(y),
        yearlyCents: y.price_cents,
        monthlyEquivalentCents: Math.round(y.price_cents / 12),
        savingsCents: Math.max(0, twelve - y.price_cents),
      };
    });
}

/**
 * What buying `count` more numbers costs (docs/billing.md "Number price"; the buy dialog's confirmation): on the
 * company's plan (the trial's plan when billing was never opened: nothing is created here), the numbers that still
 * fit in its allowance and the extra ones at its monthly price each (overage, billed by the days held; nothing during
 * a trial, then from its end).
 */
export async function numberPrice(ctx: AppContext, companyId: number, count: number): Promise<NumberPrice> {
  const s = await repo.subscription(ctx.db, companyId);
  const plan = (await repo.plan(ctx.db, s?.plan_id ?? TRIAL_PLAN_ID))!;
  const held = (await activeNumbersOf(ctx, [companyId])).length;
  const includedCount = Math.min(count, Math.max(0, plan.included_numbers - held));
  const extraCount = count - includedCount;
  const trial = !s || s.status === 'trialing';
  return {
    planName: plan.name,
    included: plan.included_numbers,
    held,
    count,
    includedCount,
    extraCount,
    unitCents: plan.number_overage_cents,
    monthlyCents: extraCount * plan.number_overage_cents,
    trial,
    trialEndsAt: s?.status === 'trialing' ? s.current_period_end.toISOString() : null,
  };
}

/** The number limit a company's live plan gives, or undefined without a live subscription (numbers' limit hook). */
export async function planNumberLimitOf(ctx: AppContext, companyId: number): Promise<number | undefined> {
  const s = await repo.subscription(ctx.db, companyId);
  if (!s || s.status === 'canceled') return undefined;
  const plan = await repo.plan(ctx.db, s.plan_id);
  return plan ? planNumberLimit(plan) : undefined;
}

export { addInterval };
