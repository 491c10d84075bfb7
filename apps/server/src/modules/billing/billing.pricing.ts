/**
 * Billing arithmetic, pure (docs/billing.md "Proration", "Overage", "Periods"): billing periods in UTC calendar
 * months or years, overage lines at a plan's prices, and the proration of a plan change by seconds. Money is integer
 * cents; every rounding is `Math.round` of the exact product (half away from zero for positive amounts).
 */
import { BILLING_FEATURES, type BillingFeature } from '@switchboard/contracts';
import type { PlanRow } from './billing.repository.js';

/** Length of a new company's free trial, days (docs/billing.md "Trial"). */
export const TRIAL_DAYS = 14;
/** The plan a trial runs on. */
export const TRIAL_PLAN_ID = 'starter_monthly';
/** Days after the first failed charge on which it is retried automatically (then the account is parked). */
export const DUNNING_DAYS = [1, 3, 5, 7] as const;
/**
 * A plan's number limit: its included numbers times this (the numbers beyond the included ones are overage). Chosen so
 * the smallest plan's limit (30) is above the numbers module's default (25): opening billing never lowers a limit.
 */
export const NUMBER_LIMIT_FACTOR = 10;

/**
 * Prices of the services metered per unit with no allowance in any plan (docs/billing.md "Usage"), cents: a fax page
 * sent or received, a caller-name lookup answered by the provider, a minute of transcribed audio (rounded up per
 * transcript). Billed as overage lines from the first unit (never during a trial).
 */
export const METERED_PRICES_CENTS = { fax_pages: 5, lookups: 1, transcription_minutes: 2 } as const;

const DAY_MS = 86_400_000;

/** `date` plus one month or year in UTC, the day of month clamped (Jan 31 + 1 month = Feb 28/29). */
export function addInterval(date: Date, interval: 'month' | 'year'): Date {
  const y = date.getUTCFullYear() + (interval === 'year' ? 1 : 0);
  const m = date.getUTCMonth() + (interval === 'month' ? 1 : 0);
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(y, m, Math.min(date.getUTCDate(), lastDay), date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds(), date.getUTCMilliseconds()),
  );
}

/** A UTC day `YYYY-MM-DD`. */
export function utcDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/**
 * The extra numbers a period bills if `heldNow` numbers are kept from tomorrow to its end: ceil((number-days over so
 * far + extra now × UTC days left after today) / days of the period) (docs/billing.md "Usage").
 */
export function projectedExtraNumbers(u: { numberDaysOver: number; days: number }, heldNow: number, included: number, now: Date, end: Date): number {
  const dayStart = (d: Date) => Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  // The UTC days after today still in the period: the days [tomorrow, the day of `end`) (the period ends during that day).
  const left = Math.max(0, Math.round((dayStart(end) - dayStart(now)) / DAY_MS) - 1);
  return Math.ceil((u.numberDaysOver + Math.max(0, heldNow - included) * left) / Math.max(1, u.days));
}

/** Whole UTC days of [from, to), at least 1. */
export function periodDays(from: Date, to: Date): number {
  return Math.max(1, Math.round((to.getTime() - from.getTime()) / DAY_MS));
}

/** The number limit a plan gives (see {@link NUMBER_LIMIT_FACTOR}). */
export function planNumberLimit(plan: Pick<PlanRow, 'included_numbers'>): number {
  return plan.included_numbers * NUMBER_LIMIT_FACTOR;
}

export type Line = { kind: string; description: string; quantity: number; unit_cents: number; amount_cents: number };

/** A period's usage in billed units; the metered services (fax pages, lookups, transcription minutes) default to 0. */
export type PeriodUsage = {
  minutes: number;
  messages: number;
  numberDaysOver: number;
  days: number;
  faxPages?: number;
  lookups?: number;
  transcriptionMinutes?: number;
  /** 10DLC registration fees of the period's submits (integer cents, passed through at cost). */
  registrationFeesCents?: number;
};

/**
 * Overage lines of a period at `plan`'s prices: minutes and messages (SMS segments + MMS) beyond the included ones,
 * and extra numbers = ceil(number-days above the included numbers / days of the period) at the monthly number price.
 * Then fax pages, caller-name lookups and transcription minutes at {@link METERED_PRICES_CENTS} (no allowance), and
 * the 10DLC registration fees ({@link registrationFeeLines}). Lines with nothing to bill are left out.
 */
export function overageLines(plan: PlanRow, u: PeriodUsage): Line[] {
  const lines: Line[] = [];
  // Allowances are per month: a yearly period includes twelve months of minutes and messages.
  const months = plan.interval === 'year' ? 12 : 1;
  const includedMinutes = plan.included_minutes * months;
  const includedMessages = plan.included_messages * months;
  const minutes = Math.max(0, u.minutes - includedMinutes);
  if (minutes > 0)
    lines.push({
      kind: 'overage_minutes',
      description: `Call minutes over ${includedMinutes} included`,
      quantity: minutes,
      unit_cents: plan.minute_overage_cents,
      amount_cents: minutes * plan.minute_overage_cents,
    });
  const messages = Math.max(0, u.messages - includedMessages);
  if (messages > 0)
    lines.push({
      kind: 'overage_messages',
      description: `Messages over ${includedMessages} included`,
      quantity: messages,
      unit_cents: plan.message_overage_cents,
      amount_cents: messages * plan.message_overage_cents,
    });
  const numbers = Math.ceil(u.numberDaysOver / Math.max(1, u.days));
  if (numbers > 0)
    lines.push({
      kind: 'overage_numbers',
      // Says how the quantity was found, so it can be checked by hand: 16 numbers held 1 day of 30 with 10 included is
      // 6 number-days over, ceil(6 / 30) = 1 extra number for the period so far.
      description: `Extra numbers over ${plan.included_numbers} included (${u.numberDaysOver} number-days over ÷ ${u.days} days, rounded up)`,
      quantity: numbers,
      unit_cents: plan.number_overage_cents,
      amount_cents: numbers * plan.number_overage_cents,
    });
  const metered = [
    ['overage_fax_pages', 'Fax pages', u.faxPages ?? 0, METERED_PRICES_CENTS.fax_pages],
    ['overage_lookups', 'Caller name lookups', u.lookups ?? 0, METERED_PRICES_CENTS.lookups],
    ['overage_transcription', 'Transcription minutes', u.transcriptionMinutes ?? 0, METERED_PRICES_CENTS.transcription_minutes],
  ] as const;
  for (const [kind, description, quantity, unit] of metered)
    if (quantity > 0) lines.push({ kind, description, quantity, unit_cents: unit, amount_cents: quantity * unit });
  lines.push(...registrationFeeLines(u));
  return lines;
}

/**
 * The 10DLC registration fees of a period as one line (docs/sms-verification.md "Fees": brand registration and vetting,
 * campaign vetting, campaign fees in advance), billed at cost even for a trial period. Empty when none were due.
 */
export function registrationFeeLines(u: Pick<PeriodUsage, 'registrationFeesCents'>): Line[] {
  const cents = u.registrationFeesCents ?? 0;
  return cents > 0 ? [{ kind: 'registration_fees', description: '10DLC registration fees', quantity: 1, unit_cents: cents, amount_cents: cents }] : [];
}

/** The subscription's add-on lines for one period of `interval` (yearly: 12 months of the monthly price). */
export function featureLines(features: readonly string[], interval: 'month' | 'year'): Line[] {
  return features
    .filter((f): f is BillingFeature => f in BILLING_FEATURES)
    .map((f) => {
      const unit = BILLING_FEATURES[f].monthlyCents * (interval === 'year' ? 12 : 1);
      return { kind: `feature_${f}`, description: BILLING_FEATURES[f].label, quantity: 1, unit_cents: unit, amount_cents: unit };
    });
}

export type Proration = { remainingSeconds: number; periodSeconds: number; lines: Line[]; totalCents: number; newPeriodStart: Date; newPeriodEnd: Date };

/**
 * The proration of moving from `from` to `to` at `now` within the period [start, end) (docs/billing.md "Proration"):
 * - credit for the unused time of the old plan: −round(old price × remaining seconds / period seconds);
 * - same interval: the new plan for the remaining time, round(new price × remaining / period seconds); the period
 *   is unchanged;
 * - another interval (monthly ↔ yearly): the new plan's full price and a new period from `now`.
 * The total is the sum of the lines (negative when the change is a downgrade: it becomes account credit).
 */
export function prorate(from: PlanRow, to: PlanRow, start: Date, end: Date, now: Date): Proration {
  const periodSeconds = Math.max(1, Math.round((end.getTime() - start.getTime()) / 1000));
  const remainingSeconds = Math.min(periodSeconds, Math.max(0, Math.round((end.getTime() - now.getTime()) / 1000)));
  const credit = Math.round((from.price_cents * remainingSeconds) / periodSeconds);
  const lines: Line[] = [{ kind: 'proration_credit', description: `Unused time on ${from.name}`, quantity: 1, unit_cents: -credit, amount_cents: -credit }];
  let newPeriodStart = start;
  let newPeriodEnd = end;
  if (from.interval === to.interval) {
    const charge = Math.round((to.price_cents * remainingSeconds) / periodSeconds);
    lines.push({ kind: 'proration_charge', description: `Remaining time on ${to.name}`, quantity: 1, unit_cents: charge, amount_cents: charge });
  } else {
    newPeriodStart = now;
    newPeriodEnd = addInterval(now, to.interval);
    lines.push({ kind: 'plan', description: `${to.name}`, quantity: 1, unit_cents: to.price_cents, amount_cents: to.price_cents });
  }
  return { remainingSeconds, periodSeconds, lines, totalCents: lines.reduce((s, l) => s + l.amount_cents, 0), newPeriodStart, newPeriodEnd };
}

/** The date of the next automatic retry after the `failures`-th failure (1-based), or null when the schedule is spent. */
export function nextDunningAttempt(firstFailedAt: Date, failures: number): Date | null {
  const days = DUNNING_DAYS[failures - 1];
  return days === undefined ? null : new Date(firstFailedAt.getTime() + days * DAY_MS);
}
