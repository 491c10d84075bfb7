/**
 * Billing contracts (spec 001 "Company billing", §8 "Billing and card messages"; spec 002 "Billing", "Subscription";
 * docs/billing.md): plans, subscription, company billing details and card, usage, invoices, proration previews.
 * Money is integer cents (USD), shown in the en-US USD format ({@link formatUsd}); times are ISO 8601 UTC.
 */
import { z } from 'zod';
import { Id } from './common.js';

/** Spec 000 §8 / 001 §8 billing and card messages (exact wording where the spec gives it). */
export const BILLING_MESSAGES = {
  /** Followed by the amount and the instruction (spec 001 §8 "Past-due account"). */
  pastDuePrefix: 'Your account has an outstanding balance of',
  pastDue: (amount: string) => `Your account has an outstanding balance of ${amount}. Please update your payment information to reactivate your account.`,
  paymentMethodSaved: 'Your payment method has been saved. It will not be charged until the next billing cycle.',
  savedStillPastDue: 'Your payment method has been saved, but your account is still past due. Please contact Customer Success.',
  cardProcessingIssue: 'There was an issue processing your card. Please contact your card issuer, then try again.',
  noSubscription: 'You have accounts without a subscription. Please contact support!',
  updateFailed: 'Your billing information could not be updated. Please try again.',
  paymentSucceeded: 'Your payment was successful. Thank you!',
  cancelScheduled: 'Your subscription will be canceled at the end of the current billing period.',
  downsellScheduled: 'Your plan will change at the end of the current billing period.',
  cancelCleared: 'Your subscription will continue.',
  productChangeReverted: 'The pending plan change was reverted.',
  migrated: 'Your plan has been changed.',
  planChangeScheduled: 'Your plan will change at the end of the current billing period.',
  /** A migrate whose amount is no longer the previewed one (422): the new amount and the previewed one. */
  prorationChanged: (now: string, expected: string) =>
    `The amount of this plan change is now ${now} instead of the ${expected} previewed. Please review the new preview before confirming.`,
  previewExpired: 'This preview has expired. Please review the plan change again.',
  subscriptionChanged: 'Your subscription changed since the preview. Please review the plan change again.',
  customerUpdated: 'Information updated successfully',
  featureEnabled: 'Feature enabled successfully',
  featureDisabled: 'Feature disabled successfully',
} as const;

/** Cents as en-US USD, e.g. 123456 → "$1,234.56", -500 → "-$5.00". */
export function formatUsd(cents: number): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);
}

/** A plan of the catalogue. */
export const Plan = z.object({
  id: z.string(),
  family: z.string(),
  name: z.string(),
  interval: z.enum(['month', 'year']),
  priceCents: z.number().int(),
  includedNumbers: z.number().int(),
  includedMinutes: z.number().int(),
  includedMessages: z.number().int(),
  numberOverageCents: z.number().int(),
  minuteOverageCents: z.number().int(),
  messageOverageCents: z.number().int(),
});
export type Plan = z.infer<typeof Plan>;
export const PlanList = z.object({ data: z.array(Plan) });

/** Add-on features toggled on a subscription (spec 002 "feature toggle"), monthly price in cents. */
export const BILLING_FEATURES = {
  call_recording: { label: 'Call recording', monthlyCents: 1000 },
  transcription: { label: 'Call transcription', monthlyCents: 1500 },
  dynamic_number_insertion: { label: 'Dynamic number insertion', monthlyCents: 2000 },
} as const;
export type BillingFeature = keyof typeof BILLING_FEATURES;
export const BillingFeatureName = z.enum(Object.keys(BILLING_FEATURES) as [BillingFeature, ...BillingFeature[]]);

export const SubscriptionStatus = z.enum(['trialing', 'active', 'past_due', 'canceled']);

/** A company's subscription (spec 002 "Subscription": customer email, ccEmails, receivesInvoiceEmails). */
export const Subscription = z.object({
  companyId: z.number().int(),
  plan: Plan,
  status: SubscriptionStatus,
  currentPeriodStart: z.string(),
  currentPeriodEnd: z.string(),
  cancelAtPeriodEnd: z.boolean(),
  pendingPlan: Plan.nullable(),
  /** The add-ons billed: those subscribed and those in use in the product (docs/billing.md "Add-ons"). */
  features: z.array(BillingFeatureName),
  /** The add-ons in use and where (e.g. "Recording is on for 2 numbers"): they stay on while used. */
  featuresInUse: z.array(z.object({ feature: BillingFeatureName, reason: z.string() })),
  customer: z.object({ email: z.string().nullable(), ccEmails: z.array(z.string()), receivesInvoiceEmails: z.boolean() }),
  creditCents: z.number().int(),
  parked: z.boolean(),
});
export type Subscription = z.infer<typeof Subscription>;
export const SubscriptionAnswer = z.object({ message: z.string().optional(), data: Subscription });

/** The card as stored: brand, last four digits and expiry only. */
export const CardOnFile = z.object({ brand: z.string(), last4: z.string(), expMonth: z.number().int(), expYear: z.number().int() });

/** `GET /company/{id}/billing` (spec 001 "Company billing" fields; card fields never returned). */
export const CompanyBilling = z.object({
  billing_name: z.string(),
  billing_address: z.string(),
  billing_address_2: z.string(),
  billing_city: z.string(),
  billing_state: z.string(),
  billing_zip: z.string(),
  billing_country: z.string(),
  card: CardOnFile.nullable(),
  pastDue: z.boolean(),
  balanceCents: z.number().int(),
  /** The spec's past-due message with the amount, when past due. */
  pastDueMessage: z.string().nullable(),
});
export type CompanyBilling = z.infer<typeof CompanyBilling>;
export const CompanyBillingAnswer = z.object({
  message: z.string().optional(),
  data: CompanyBilling,
  /** Set when the card needs authentication (3-D Secure) before it is saved: confirm it, then post `setup_intent`. */
  requiresAction: z.object({ setupIntentId: z.string(), clientSecret: z.string() }).optional(),
});

const text = (max: number) => z.string().trim().max(max);

/**
 * `POST /company/{id}/billing`: the billing fields and a card token from the gateway (`chargify_token`: a payment
 * method id), or `setup_intent` after authentication. `cc_number`, `cc_exp` and `cc_cvc` are refused: card numbers
 * are tokenized by the gateway in the browser and never reach this server.
 */
export const CompanyBillingInput = z
  .object({
    billing_name: text(200).optional(),
    billing_address: text(300).optional(),
    billing_address_2: text(300).optional(),
    billing_city: text(120).optional(),
    billing_state: text(120).optional(),
    billing_zip: text(20).optional(),
    billing_country: text(2).optional(),
    chargify_token: z.string().trim().min(1).max(2000).optional(),
    setup_intent: z.string().trim().min(1).max(2000).optional(),
    cc_number: z.never({ message: 'Card numbers are not accepted here: the card is tokenized by the payment gateway.' }).optional(),
    cc_exp: z.never({ message: 'Card details are not accepted here: the card is tokenized by the payment gateway.' }).optional(),
    cc_cvc: z.never({ message: 'Card details are not accepted here: the card is tokenized by the payment gateway.' }).optional(),
  })
  .strict();

/** `GET /chargify/security-token`: what the browser needs to tokenize a card with the configured gateway. */
export const SecurityToken = z.object({ gateway: z.enum(['sandbox', 'stripe']), publishableKey: z.string(), tokenizeUrl: z.string().nullable() });

/** One invoice line: quantity × unit = amount (cents; a credit is negative). */
export const InvoiceLine = z.object({
  kind: z.string(),
  description: z.string(),
  quantity: z.number().int(),
  unitCents: z.number().int(),
  amountCents: z.number().int(),
});
export const Invoice = z.object({
  id: z.number().int(),
  number: z.string(),
  kind: z.enum(['renewal', 'proration', 'purchase']),
  status: z.enum(['open', 'paid', 'void']),
  periodStart: z.string(),
  periodEnd: z.string(),
  totalCents: z.number().int(),
  amountDueCents: z.number().int(),
  attemptCount: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  lastError: z.string().nullable(),
  paidAt: z.string().nullable(),
  createdAt: z.string(),
  lines: z.array(InvoiceLine),
  pdfUrl: z.string(),
});
export type Invoice = z.infer<typeof Invoice>;
export const InvoiceList = z.object({ data: z.array(Invoice) });
export const InvoiceParams = z.object({ companyId: Id, invoiceId: Id });

/**
 * `GET /company/{companyId}/invoices/upcoming` (docs/billing.md "Upcoming invoice"): the invoice the period end will
 * create if nothing changes (overage so far, or the trial's registration fees; the next period's plan and add-ons;
 * account credit), also during the trial. `data` is null when no invoice is coming (a canceled subscription).
 */
export const UpcomingInvoice = z.object({
  /** When it is created and charged: the end of the current period (or trial). */
  date: z.string(),
  periodStart: z.string(),
  periodEnd: z.string(),
  lines: z.array(InvoiceLine),
  totalCents: z.number().int(),
  amountDueCents: z.number().int(),
});
export type UpcomingInvoice = z.infer<typeof UpcomingInvoice>;
export const UpcomingInvoiceAnswer = z.object({ data: UpcomingInvoice.nullable() });

/**
 * `GET /company/{companyId}/billing/number-price?count=N` (roles that may buy numbers; docs/billing.md "Number
 * price"): what buying `count` more numbers costs on the current plan: how many fit in the plan's allowance and how
 * many are extra, at the plan's monthly price each (billed as overage by the days held; free during a trial).
 */
export const NumberPrice = z.object({
  planName: z.string(),
  included: z.number().int(),
  held: z.number().int(),
  count: z.number().int(),
  includedCount: z.number().int(),
  extraCount: z.number().int(),
  unitCents: z.number().int(),
  monthlyCents: z.number().int(),
  trial: z.boolean(),
  trialEndsAt: z.string().nullable(),
});
export const NumberPriceQuery = z.object({ count: z.coerce.number().int().min(1).max(1000).default(1) });
export type NumberPrice = z.infer<typeof NumberPrice>;
export const NumberPriceAnswer = z.object({ data: NumberPrice });

/** Usage of the current period (docs/billing.md "Usage"). */
export const Usage = z.object({
  periodStart: z.string(),
  periodEnd: z.string(),
  /**
   * Numbers held: now, included, number-days so far (all and above the included numbers), the monthly price of an
   * extra number, and the extra numbers the period-end invoice bills if the numbers held now are kept to its end
   * (ceil(number-days over / days of the period), docs/billing.md "Usage").
   */
  numbers: z.object({
    current: z.number().int(),
    included: z.number().int(),
    numberDays: z.number().int(),
    numberDaysOver: z.number().int(),
    periodDays: z.number().int(),
    unitCents: z.number().int(),
    projectedExtra: z.number().int(),
  }),
  minutes: z.object({ inbound: z.number().int(), outbound: z.number().int(), included: z.number().int() }),
  messages: z.object({ smsSegments: z.number().int(), mmsMessages: z.number().int(), included: z.number().int() }),
  /** Services billed per unit from the first one (docs/billing.md "Usage"): fax pages, caller-name lookups, transcription minutes. */
  metered: z.object({ faxPages: z.number().int(), lookups: z.number().int(), transcriptionMinutes: z.number().int() }),
  /** Per UTC day of the period so far: minutes and messages (the chart). */
  daily: z.array(z.object({ day: z.string(), minutes: z.number().int(), messages: z.number().int() })),
  /** Overage so far at the plan's prices. */
  overage: z.array(InvoiceLine),
  overageCents: z.number().int(),
});
export type Usage = z.infer<typeof Usage>;
export const UsageAnswer = z.object({ data: Usage });

/** `billing usage updated` on `company.{companyId}`: the period's usage changed; readers refetch it. */
export const BillingUsageUpdatedEvent = z.object({ companyId: z.number().int() });
export const BILLING_USAGE_UPDATED = 'billing usage updated';

/** `POST …/subscription/migrate/preview`: the plan to preview a change to. */
export const MigrateInput = z.object({ plan_id: z.string().trim().min(1).max(60) }).strict();

/**
 * `POST …/subscription/migrate`: the plan, and optionally what the person saw in the preview (docs/billing.md
 * "Proration"): `proration_date`, the preview's `prorationDate` (the change is prorated at that instant, so time
 * passing does not move the amount; at most an hour old), and `expected_amount_cents`, the preview's
 * `chargeNowCents`. When the amount charged would differ from it the change is refused with 422.
 */
export const MigrateApplyInput = z
  .object({
    plan_id: z.string().trim().min(1).max(60),
    expected_amount_cents: z.number().int().min(0).max(1_000_000_000).optional(),
    proration_date: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();

/**
 * `PUT /company/{companyId}/subscription` (spec 002 "subscription update"): the plan the subscription renews on at
 * the end of the current period (a pending plan change, undone with revert-product-change); nothing is prorated.
 */
export const SubscriptionUpdateInput = z.object({ plan_id: z.string().trim().min(1).max(60) }).strict();
/** A previewed (or applied) plan change: the proration lines and what is charged now. */
export const MigrationPreview = z.object({
  fromPlan: Plan,
  toPlan: Plan,
  /** Seconds of the current period left, and its length (proration is by seconds). */
  remainingSeconds: z.number().int(),
  periodSeconds: z.number().int(),
  lines: z.array(InvoiceLine),
  totalCents: z.number().int(),
  /** Charged now (a negative total becomes account credit instead). */
  chargeNowCents: z.number().int(),
  creditCents: z.number().int(),
  newPeriodEnd: z.string(),
  /** The instant the proration was computed for (ISO): send it back as `proration_date` to apply exactly this preview. */
  prorationDate: z.string(),
});
export type MigrationPreview = z.infer<typeof MigrationPreview>;
export const MigrationAnswer = z.object({ message: z.string(), data: Subscription, invoice: Invoice.nullable() });

export const CancelInput = z.object({ downsell_plan_id: z.string().trim().min(1).max(60).optional() }).strict();

/** Spec 002 "customer update": e-mail, cc e-mails, invoice e-mails on or off. */
export const CustomerUpdateInput = z
  .object({
    email: z.string().trim().toLowerCase().email().max(254),
    ccEmails: z.array(z.string().trim().toLowerCase().email().max(254)).max(10).default([]),
    receivesInvoiceEmails: z.boolean(),
  })
  .strict();

export const FeatureToggleInput = z.object({ feature: BillingFeatureName, enabled: z.boolean() }).strict();

/** Yearly upgrade offers (spec 002; shapes not shown): the yearly variant of the current monthly plan and the saving. */
export const YearlyOffer = z.object({ plan: Plan, yearlyCents: z.number().int(), monthlyEquivalentCents: z.number().int(), savingsCents: z.number().int() });
export const YearlyOfferList = z.object({ data: z.array(YearlyOffer) });

export const RetryAnswer = z.object({ message: z.string(), data: CompanyBilling });
