/**
 * Pure rules of SMS verification (docs/sms-verification.md "Fees", "Throughput", "What a submit needs"): the fee
 * table (integer cents, USD, as The Campaign Registry and the carriers charge them), the sending limits per number of
 * an approved side, and the checks a submission must pass.
 */
import { SMS_USE_CASES } from '@switchboard/contracts';
import type { FieldErrors } from '../../platform/http/errors.js';
import type { BrandRow, CampaignRow } from './sms-verification.repository.js';

/** Fees in cents (docs/sms-verification.md "Fees"). */
export const SMS_FEES = {
  /** TCR brand registration, once per brand. */
  brandRegistration: 400,
  /** Standard (secondary) brand vetting, once, for the 60,000 and HIGH volume buckets (higher throughput). */
  brandVetting: 4000,
  /** TCR campaign vetting, every time the local side is submitted. */
  campaignVetting: 1500,
  /** Carrier campaign fee per month (standard use cases); the first three months are due at the first submit. */
  campaignMonthly: 1000,
  /** Carrier campaign fee per month for the low-volume bucket (10_000). */
  campaignMonthlyLowVolume: 150,
  /** Months of campaign fee paid in advance at the first submit. */
  monthsInAdvance: 3,
} as const;

export type FeeItem = { code: string; label: string; amount_cents: number };
export type Side = 'local' | 'toll_free';
const ACTIVE = new Set(['pending', 'approved']);

/** Whether the brand must be (re)submitted with the campaign: never submitted, unverified, or expired. */
export function brandNeedsSubmit(brand: BrandRow): boolean {
  return brand.status === 'draft' || brand.status === 'unverified' || brand.status === 'expired';
}

/** The sides a submit would send: local unless pending/approved; toll-free when the campaign has toll-free numbers and that side is not pending/approved. */
export function sidesToSubmit(c: CampaignRow, hasTollFreeNumbers: boolean): Side[] {
  const out: Side[] = [];
  if (!ACTIVE.has(c.local_status ?? '')) out.push('local');
  if (hasTollFreeNumbers && !ACTIVE.has(c.toll_free_status ?? '')) out.push('toll_free');
  return out;
}

/** The fees due when the campaign is submitted now (none once nothing is left to submit). */
export function feesDueToday(brand: BrandRow, c: CampaignRow, sides: Side[]): FeeItem[] {
  const items: FeeItem[] = [];
  if (!sides.length) return items;
  if (brandNeedsSubmit(brand) && !brand.registration_paid)
    items.push({ code: 'brand_registration', label: 'Brand registration', amount_cents: SMS_FEES.brandRegistration });
  if ((c.message_volume === '60_000' || c.message_volume === 'HIGH') && !brand.vetting_paid)
    items.push({ code: 'brand_vetting', label: 'Brand vetting', amount_cents: SMS_FEES.brandVetting });
  if (sides.includes('local')) {
    items.push({ code: 'campaign_vetting', label: 'Campaign vetting', amount_cents: SMS_FEES.campaignVetting });
    if (c.months_paid === 0) {
      const monthly = c.message_volume === '10_000' ? SMS_FEES.campaignMonthlyLowVolume : SMS_FEES.campaignMonthly;
      items.push({ code: 'campaign_fee', label: `Campaign fee (${SMS_FEES.monthsInAdvance} months)`, amount_cents: monthly * SMS_FEES.monthsInAdvance });
    }
  }
  if (sides.includes('toll_free')) items.push({ code: 'toll_free_verification', label: 'Toll-free verification', amount_cents: 0 });
  return items;
}

/** Sending limits per number of an approved side (docs/sms-verification.md "Throughput"). */
export type SendingLimits = { per_second: number; per_day: number | null };

/**
 * The limits of a local (10DLC) number by its brand's vetting score, as AT&T (messages per minute) and T-Mobile
 * (messages per day) set them: 75–100 → 75/s and 200,000/day; 50–74 → 40/s and 40,000/day; 25–49 → 4/s and
 * 10,000/day; below 25 or no score → 1/s and 2,000/day. The low-volume bucket (10_000) is capped at 1/s and 2,000/day.
 * A verified toll-free number: 3/s, no daily cap.
 */
export function sendingLimits(side: Side, vettingScore: number | null, messageVolume: string | null): SendingLimits {
  if (side === 'toll_free') return { per_second: 3, per_day: null };
  const s = vettingScore ?? 0;
  const tier =
    s >= 75
      ? { per_second: 75, per_day: 200_000 }
      : s >= 50
        ? { per_second: 40, per_day: 40_000 }
        : s >= 25
          ? { per_second: 4, per_day: 10_000 }
          : { per_second: 1, per_day: 2_000 };
  if (messageVolume === '10_000') return { per_second: Math.min(tier.per_second, 1), per_day: Math.min(tier.per_day, 2_000) };
  return tier;
}

/** The side of a number: toll-free numbers (number type 2) go through toll-free verification, others through 10DLC. */
export function sideOfNumberType(type: number): Side {
  return type === 2 ? 'toll_free' : 'local';
}

const REQUIRED = 'This field is required to submit.';

/** The SMS verification form's field labels, by the field keys of {@link submitErrors} (the web's labels). */
export const SUBMIT_FIELD_LABELS: Record<string, string> = {
  'brand.company_type': 'Company type',
  'brand.legal_name': 'Legal company name',
  'brand.tax_id': 'EIN (tax id)',
  'brand.stock_exchange': 'Stock exchange',
  'brand.stock_symbol': 'Stock symbol',
  'brand.alt_business_id': 'Other business id',
  'brand.vertical': 'Industry',
  'brand.website': 'Website',
  'brand.email': 'Contact e-mail',
  'brand.phone': 'Contact phone',
  'brand.street': 'Street',
  'brand.city': 'City',
  'brand.state': 'State',
  'brand.postal_code': 'ZIP code',
  'brand.contact_first_name': 'Contact first name',
  'brand.contact_last_name': 'Contact last name',
  'campaign.use_case': 'Use case',
  'campaign.sub_usecases': 'Sub use cases',
  'campaign.description': 'Campaign description',
  'campaign.message_volume': 'Monthly messages',
  'campaign.sample_messages': 'Sample messages',
  'campaign.optins': 'Opt-in methods',
  'campaign.opt_out_message': 'Opt-out message',
  'campaign.help_message': 'Help message',
};

/** A field key's label ("campaign.optins.0.description" → "Opt-in method 1: description"). */
export function submitFieldLabel(key: string): string {
  const optin = /^campaign\.optins\.(\d+)\.description$/.exec(key);
  if (optin) return `Opt-in method ${Number(optin[1]) + 1}: description`;
  return SUBMIT_FIELD_LABELS[key] ?? key.replace(/^(brand|campaign)\./, '').replace(/_/g, ' ');
}

/**
 * The message of an incomplete submit: the fields by their labels, e.g. "The SMS verification is incomplete: Stock
 * exchange, Stock symbol. Complete them, save the draft and submit again."
 */
export function incompleteMessage(errors: FieldErrors): string {
  const labels = Object.keys(errors).map(submitFieldLabel);
  return `The SMS verification is incomplete: ${labels.join(', ')}. Complete ${labels.length === 1 ? 'it' : 'them'}, save the draft and submit again.`;
}

/** Field errors of a submit (spec 002 §3 brand and campaign fields); empty when complete. */
export function submitErrors(brand: BrandRow, c: CampaignRow): FieldErrors {
  const e: FieldErrors = {};
  const need = (ok: unknown, field: string, message = REQUIRED) => {
    if (!ok) e[field] = [message];
  };
  if (brandNeedsSubmit(brand)) {
    need(brand.company_type, 'brand.company_type');
    need(brand.legal_name, 'brand.legal_name');
    if (brand.company_type !== 'GOVERNMENT') need(brand.tax_id, 'brand.tax_id');
    if (brand.company_type === 'PUBLIC_PROFIT') {
      need(brand.stock_exchange, 'brand.stock_exchange', 'A publicly traded company needs its stock exchange.');
      need(brand.stock_symbol, 'brand.stock_symbol', 'A publicly traded company needs its stock symbol.');
    }
    if (brand.tax_id_type) need(brand.alt_business_id, 'brand.alt_business_id', `Enter the ${brand.tax_id_type} number or clear its type.`);
    need(brand.vertical, 'brand.vertical');
    need(brand.website, 'brand.website');
    need(brand.email, 'brand.email');
    need(brand.phone, 'brand.phone');
    need(brand.street, 'brand.street');
    need(brand.city, 'brand.city');
    need(brand.state, 'brand.state');
    need(brand.postal_code, 'brand.postal_code');
    need(brand.contact_first_name, 'brand.contact_first_name');
    need(brand.contact_last_name, 'brand.contact_last_name');
  }
  need(c.use_case, 'campaign.use_case');
  if (c.use_case && c.sub_usecases.includes(c.use_case)) e['campaign.sub_usecases'] = ['A sub use case must differ from the use case.'];
  if (c.sub_usecases.some((u) => !SMS_USE_CASES.some((o) => o.value === u))) e['campaign.sub_usecases'] = ['Unknown sub use case.'];
  need(c.description, 'campaign.description');
  need(c.message_volume, 'campaign.message_volume');
  if (c.sample_messages.filter((m) => m.trim()).length < 2) e['campaign.sample_messages'] = ['Give at least two sample messages.'];
  if (!c.optins.length) e['campaign.optins'] = ['Choose at least one opt-in method.'];
  c.optins.forEach((o, i) => {
    if (!o.description.trim()) e[`campaign.optins.${i}.description`] = ['Describe how people opt in with this method.'];
  });
  need(c.opt_out_message, 'campaign.opt_out_message');
  need(c.help_message, 'campaign.help_message');
  return e;
}
