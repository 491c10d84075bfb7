/**
 * 10DLC SMS verification contracts: brands, campaigns, form options, fees (spec 002 §3 "Brand / SMS verification
 * campaign", §4 states, §7 "SMS verification", §8 messages, §9 constants; docs/sms-verification.md).
 */
import { z } from 'zod';
import { Id } from './common.js';

/** Company types (spec 002 §3 "Brand form options"), as The Campaign Registry names them. */
export const SMS_COMPANY_TYPES = [
  { value: 'PUBLIC_PROFIT', label: 'Publicly traded' },
  { value: 'PRIVATE_PROFIT', label: 'Private' },
  { value: 'NON_PROFIT', label: 'Non-profit' },
  { value: 'GOVERNMENT', label: 'Government' },
] as const;
/** Industry verticals (spec: "about 23", list not shown): The Campaign Registry's 23 verticals. */
export const SMS_VERTICALS = [
  { value: 'PROFESSIONAL', label: 'Professional services' },
  { value: 'REAL_ESTATE', label: 'Real estate' },
  { value: 'HEALTHCARE', label: 'Healthcare' },
  { value: 'HUMAN_RESOURCES', label: 'Human resources' },
  { value: 'ENERGY', label: 'Energy and utilities' },
  { value: 'ENTERTAINMENT', label: 'Entertainment' },
  { value: 'RETAIL', label: 'Retail' },
  { value: 'TRANSPORTATION', label: 'Transportation and logistics' },
  { value: 'AGRICULTURE', label: 'Agriculture' },
  { value: 'INSURANCE', label: 'Insurance' },
  { value: 'POSTAL', label: 'Postal and delivery' },
  { value: 'EDUCATION', label: 'Education' },
  { value: 'HOSPITALITY', label: 'Hospitality and travel' },
  { value: 'FINANCIAL', label: 'Financial services' },
  { value: 'POLITICAL', label: 'Political' },
  { value: 'GAMBLING', label: 'Gambling and lottery' },
  { value: 'LEGAL', label: 'Legal' },
  { value: 'CONSTRUCTION', label: 'Construction and materials' },
  { value: 'NGO', label: 'Non-governmental organization' },
  { value: 'MANUFACTURING', label: 'Manufacturing' },
  { value: 'GOVERNMENT', label: 'Government services' },
  { value: 'TECHNOLOGY', label: 'Information technology' },
  { value: 'COMMUNICATION', label: 'Media and communication' },
] as const;
/** Alternative business id types (spec: tax id types DUNS, GIIN, LEI). */
export const SMS_TAX_ID_TYPES = ['DUNS', 'GIIN', 'LEI'] as const;
/** Stock exchanges (spec: list not shown): the exchanges The Campaign Registry accepts for public companies. */
export const SMS_STOCK_EXCHANGES = [
  'NASDAQ',
  'NYSE',
  'AMEX',
  'TSX',
  'LON',
  'FRA',
  'JPX',
  'SEHK',
  'ASX',
  'NSE',
  'BSE',
  'SSE',
  'SZSE',
  'KRX',
  'SWX',
  'OMX',
  'JSE',
  'B3',
  'BME',
] as const;
/** Monthly message volume buckets (spec 002 §3, §9). */
export const SMS_MESSAGE_VOLUMES = [
  { value: '10_000', label: 'Up to 10,000' },
  { value: '25_000', label: 'Up to 25,000' },
  { value: '60_000', label: 'Up to 60,000' },
  { value: 'HIGH', label: 'More than 60,000' },
] as const;
/** Campaign use cases (spec 002 §3), as The Campaign Registry names them. */
export const SMS_USE_CASES = [
  { value: '2FA', label: '2FA' },
  { value: 'ACCOUNT_NOTIFICATION', label: 'Account notification' },
  { value: 'CUSTOMER_CARE', label: 'Customer care' },
  { value: 'DELIVERY_NOTIFICATION', label: 'Delivery notification' },
  { value: 'FRAUD_ALERT', label: 'Fraud alert' },
  { value: 'HIGHER_EDUCATION', label: 'Higher education' },
  { value: 'MARKETING', label: 'Marketing' },
  { value: 'POLLING_VOTING', label: 'Polling and voting' },
  { value: 'PUBLIC_SERVICE_ANNOUNCEMENT', label: 'Public service announcement' },
  { value: 'SECURITY_ALERT', label: 'Security alert' },
] as const;
/** Opt-in methods (spec 002 §3). */
export const SMS_OPTIN_METHODS = [
  { value: 'TEXT_TO_JOIN', label: 'Text to join' },
  { value: 'POINT_OF_SALE', label: 'Point of sale' },
  { value: 'OTHER', label: 'Other' },
] as const;

const values = <T extends readonly { value: string }[]>(list: T) => list.map((o) => o.value) as unknown as [T[number]['value'], ...T[number]['value'][]];

export const SmsCompanyType = z.enum(values(SMS_COMPANY_TYPES));
export const SmsVertical = z.enum(values(SMS_VERTICALS));
export const SmsTaxIdType = z.enum(SMS_TAX_ID_TYPES);
export const SmsStockExchange = z.enum(SMS_STOCK_EXCHANGES);
export const SmsMessageVolume = z.enum(values(SMS_MESSAGE_VOLUMES));
export const SmsUseCase = z.enum(values(SMS_USE_CASES));
export const SmsOptinMethod = z.enum(values(SMS_OPTIN_METHODS));
/** The two sides of a campaign: local numbers (10DLC) and toll-free numbers (toll-free verification). */
export const SmsSide = z.enum(['local', 'toll_free']);
export type SmsSide = z.infer<typeof SmsSide>;
export const SmsBrandStatus = z.enum(['draft', 'pending', 'verified', 'unverified', 'expired']);
export const SmsSideStatus = z.enum(['pending', 'approved', 'rejected', 'expired']);

/** Spec 002 §8 success message of a submit. */
export const SMS_VERIFICATION_SUBMITTED = 'Your SMS Verification has been submitted successfully.';
/** Spec 002 §9: the web refreshes the campaign this long after a cancel (ms). */
export const SMS_VERIFICATION_CANCEL_REFRESH_MS = 15_000;
/** Spec 002 §9: the web caches SMS verification answers this long (ms). */
export const SMS_VERIFICATION_CACHE_MS = 3 * 60_000;

const text = (max: number) => z.string().trim().max(max);
const Website = z
  .string()
  .trim()
  .max(255)
  .refine((v) => v === '' || /^https?:\/\/[^\s/]+\.[^\s]+$/i.test(v), 'The website must be an http(s) address such as https://example.com.');
const Email = z
  .string()
  .trim()
  .max(255)
  .refine((v) => v === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), 'The e-mail must be a valid e-mail address.');

/** Brand fields of a draft (every field optional; a submit checks what is required). */
export const SmsBrandInput = z
  .object({
    company_type: SmsCompanyType.nullable(),
    legal_name: text(255),
    dba_name: text(255),
    /** The US employer identification number (EIN), 9 digits (dashes allowed). */
    tax_id: z
      .string()
      .trim()
      .max(20)
      .refine((v) => v === '' || /^\d{2}-?\d{7}$/.test(v), 'The tax id (EIN) must be 9 digits, e.g. 12-3456789.'),
    tax_id_type: SmsTaxIdType.nullable(),
    alt_business_id: text(40),
    tax_id_country: z.string().trim().length(2),
    stock_exchange: SmsStockExchange.nullable(),
    stock_symbol: text(10),
    vertical: SmsVertical.nullable(),
    website: Website,
    email: Email,
    phone: z
      .string()
      .trim()
      .max(20)
      .refine((v) => v === '' || /^\+?[1-9]\d{9,14}$/.test(v.replace(/[\s().-]/g, '')), 'The phone must be a valid phone number.'),
    street: text(255),
    city: text(100),
    state: text(50),
    postal_code: text(20),
    country: z.string().trim().length(2),
    contact_first_name: text(100),
    contact_last_name: text(100),
  })
  .partial()
  .strict();
export type SmsBrandInput = z.infer<typeof SmsBrandInput>;

/** An opt-in method of a draft; `keep_files` names the already stored supporting files to keep (by name). */
export const SmsOptinInput = z
  .object({
    method: SmsOptinMethod,
    description: text(2000).default(''),
    keep_files: z.array(z.string().max(200)).max(10).optional(),
  })
  .strict();

/** Campaign fields of a draft (every field optional; a submit checks what is required). */
export const SmsCampaignInput = z
  .object({
    use_case: SmsUseCase.nullable(),
    sub_usecases: z.array(SmsUseCase).max(5),
    description: text(4000),
    message_volume: SmsMessageVolume.nullable(),
    sample_messages: z.array(text(1024)).max(5),
    optins: z.array(SmsOptinInput).max(3),
    opt_out_message: text(1024),
    help_message: text(1024),
    embedded_links: z.boolean(),
    embedded_phone: z.boolean(),
    age_gated: z.boolean(),
    direct_lending: z.boolean(),
  })
  .partial()
  .strict();
export type SmsCampaignInput = z.infer<typeof SmsCampaignInput>;

/** POST /companies/{companyId}/sms-verification/campaign (JSON) and the `data` field of the multipart update. */
export const SmsVerificationSave = z.object({ brand: SmsBrandInput.optional(), campaign: SmsCampaignInput.optional() }).strict();
export type SmsVerificationSave = z.infer<typeof SmsVerificationSave>;

export const SmsCampaignParams = z.object({ companyId: Id, id: Id });
export const SmsCampaignBrandParams = z.object({ companyId: Id, id: Id, brandId: Id });
export const SmsCancelInput = z.object({ sides: z.array(SmsSide).min(1).max(2) }).strict();
export const SmsNumbersInput = z.object({ number_ids: z.array(Id).min(1).max(200) }).strict();

export const SmsSupportingFile = z.object({ name: z.string(), url: z.string(), content_type: z.string() });
export const SmsBrandDto = z.object({
  id: z.number().int(),
  is_draft: z.boolean(),
  status: SmsBrandStatus,
  company_type: z.string().nullable(),
  legal_name: z.string(),
  dba_name: z.string(),
  tax_id: z.string(),
  tax_id_type: z.string().nullable(),
  alt_business_id: z.string(),
  tax_id_country: z.string(),
  stock_exchange: z.string().nullable(),
  stock_symbol: z.string(),
  vertical: z.string().nullable(),
  website: z.string(),
  email: z.string(),
  phone: z.string(),
  street: z.string(),
  city: z.string(),
  state: z.string(),
  postal_code: z.string(),
  country: z.string(),
  contact_first_name: z.string(),
  contact_last_name: z.string(),
  /** The registry's vetting score (1–100), null until the brand is vetted. */
  vetting_score: z.number().int().nullable(),
  /** Why the brand is unverified, in words a person can act on; null otherwise. */
  status_reason: z.string().nullable(),
  submitted_at: z.string().nullable(),
});
export type SmsBrandDto = z.infer<typeof SmsBrandDto>;

/** One fee line (integer cents, USD). */
export const SmsFeeItem = z.object({ code: z.string(), label: z.string(), amount_cents: z.number().int() });
/** Sending limits per number of an approved side (docs/sms-verification.md "Throughput"). */
export const SmsLimits = z.object({ per_second: z.number(), per_day: z.number().int().nullable() });
export const SmsCampaignNumberDto = z.object({ id: z.number().int(), number: z.string(), national_number: z.string(), side: SmsSide });
export const SmsHistoryEntry = z.object({
  subject: z.enum(['brand', 'local', 'toll_free']),
  from_status: z.string().nullable(),
  to_status: z.string(),
  reason: z.string().nullable(),
  vetting_score: z.number().int().nullable(),
  source: z.string(),
  at: z.string(),
});

/** The spec's SMS verification campaign (spec 002 §3) with its brand, sides, fees, numbers and history. */
export const SmsCampaignDto = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  brand: SmsBrandDto,
  /** Status per number type; null: that side was never submitted. */
  status: z.object({ local: SmsSideStatus.nullable(), toll_free: SmsSideStatus.nullable() }),
  /** Why a side was rejected, in words a person can act on. */
  reasons: z.object({ local: z.string().nullable(), toll_free: z.string().nullable() }),
  is_draft: z.boolean(),
  is_submitted: z.boolean(),
  fees: z.object({ due_today: z.number().int(), items: z.array(SmsFeeItem) }),
  limits: z.object({ local: SmsLimits.nullable(), toll_free: SmsLimits.nullable() }),
  use_case: z.string().nullable(),
  sub_usecases: z.array(z.string()),
  description: z.string(),
  message_volume: z.string().nullable(),
  sample_messages: z.array(z.string()),
  optins: z.array(z.object({ method: z.string(), description: z.string(), supporting_files: z.array(SmsSupportingFile) })),
  opt_out_message: z.string(),
  help_message: z.string(),
  embedded_links: z.boolean(),
  embedded_phone: z.boolean(),
  age_gated: z.boolean(),
  direct_lending: z.boolean(),
  numbers: z.array(SmsCampaignNumberDto),
  history: z.array(SmsHistoryEntry),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SmsCampaignDto = z.infer<typeof SmsCampaignDto>;

export const SmsCampaignAnswer = z.object({ data: SmsCampaignDto });
export const SmsCampaignList = z.object({ data: z.array(SmsCampaignDto) });
export const SmsCampaignMessageAnswer = z.object({ message: z.string(), data: SmsCampaignDto });

/** `sms verification updated` on `company.{companyId}`: a brand or a campaign side changed state. */
export const SMS_VERIFICATION_UPDATED = 'sms verification updated';
export const SmsVerificationUpdatedEvent = z.object({
  companyId: z.number().int(),
  campaignId: z.number().int().nullable(),
  brandId: z.number().int(),
  subject: z.enum(['brand', 'local', 'toll_free']),
  status: z.string(),
});
export type SmsVerificationUpdatedEvent = z.infer<typeof SmsVerificationUpdatedEvent>;
