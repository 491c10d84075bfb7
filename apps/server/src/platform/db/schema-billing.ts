/**
 * Kysely table types added for module billing (plans, subscriptions, payment methods, usage, invoices, dunning;
 * migration 0028). Part of `DB` (schema.ts); every table is listed in `modules/ownership.ts` TABLE_OWNERS under its
 * owner. Money in integer cents (USD), times UTC.
 */
import type { ColumnType, Generated } from 'kysely';

type Json<T> = ColumnType<T, string | T, string | T>;
type Time = ColumnType<Date, Date | string, Date | string>;
type TimeOrNull = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** The plan catalogue (seeded): a monthly or yearly price with included numbers, minutes, messages and overage prices. */
export interface BillingPlansTable {
  id: string;
  family: string;
  name: string;
  interval: 'month' | 'year';
  price_cents: number;
  included_numbers: number;
  included_minutes: number;
  included_messages: number;
  number_overage_cents: number;
  minute_overage_cents: number;
  message_overage_cents: number;
  position: number;
  active: Generated<boolean>;
}

/** A company's billing details (spec 001 "Company billing"), its card as the gateway describes it, its customer settings. */
export interface BillingAccountsTable {
  company_id: number;
  billing_name: Generated<string>;
  billing_address: Generated<string>;
  billing_address_2: Generated<string>;
  billing_city: Generated<string>;
  billing_state: Generated<string>;
  billing_zip: Generated<string>;
  billing_country: Generated<string>;
  gateway_customer_id: string | null;
  payment_method_id: string | null;
  card_brand: string | null;
  card_last4: string | null;
  card_exp_month: number | null;
  card_exp_year: number | null;
  customer_email: string | null;
  cc_emails: Json<string[]>;
  receives_invoice_emails: Generated<boolean>;
  credit_cents: Generated<number>;
  parked_by_billing: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** A company's subscription: plan, status and current period [start, end). */
export interface BillingSubscriptionsTable {
  company_id: number;
  plan_id: string;
  status: 'trialing' | 'active' | 'past_due' | 'canceled';
  current_period_start: Time;
  current_period_end: Time;
  cancel_at_period_end: Generated<boolean>;
  pending_plan_id: string | null;
  features: Json<string[]>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** Metered usage, one row per source (a call, a message), recorded from the owning modules' domain events. */
export interface BillingUsageTable {
  id: Generated<number>;
  company_id: number;
  /** `registration_fees`: 10DLC fees of a submit, quantity in integer cents (migration 0036). */
  kind: 'minutes_inbound' | 'minutes_outbound' | 'sms_segments' | 'mms_messages' | 'fax_pages' | 'lookups' | 'transcription_minutes' | 'registration_fees';
  source: string;
  quantity: number;
  occurred_at: Time;
}

/** Numbers held by a company on a UTC day (the highest count seen that day). */
export interface BillingNumberDaysTable {
  company_id: number;
  day: ColumnType<string, string, string>;
  numbers: number;
}

/** The platform's one invoice number sequence (gapless: taken in the invoice's transaction). */
export interface BillingInvoiceSequenceTable {
  id: number;
  last_number: ColumnType<string, string | number, string | number>;
}

/** Invoices: renewal (period end) or proration (plan change); dunning state while open. */
export interface BillingInvoicesTable {
  id: Generated<number>;
  company_id: number;
  number: string;
  kind: 'renewal' | 'proration' | 'purchase';
  status: 'open' | 'paid' | 'void';
  period_start: Time;
  period_end: Time;
  total_cents: number;
  amount_due_cents: number;
  attempt_count: Generated<number>;
  first_failed_at: TimeOrNull;
  next_attempt_at: TimeOrNull;
  last_error: string | null;
  paid_at: TimeOrNull;
  gateway_payment_id: string | null;
  created_at: Generated<Date>;
}

/** An invoice's lines; the invoice's total is their sum. */
export interface BillingInvoiceLinesTable {
  id: Generated<number>;
  invoice_id: number;
  position: number;
  kind: string;
  description: string;
  quantity: number;
  unit_cents: number;
  amount_cents: number;
}

export interface BillingTables {
  billing_plans: BillingPlansTable;
  billing_accounts: BillingAccountsTable;
  billing_subscriptions: BillingSubscriptionsTable;
  billing_usage: BillingUsageTable;
  billing_number_days: BillingNumberDaysTable;
  billing_invoice_sequence: BillingInvoiceSequenceTable;
  billing_invoices: BillingInvoicesTable;
  billing_invoice_lines: BillingInvoiceLinesTable;
}
