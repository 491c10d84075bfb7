/**
 * Kysely table types added for sms-verification (brands, campaigns, campaign numbers, status history); migration
 * 0034_sms_verification. Part of `DB` (schema.ts); every table is listed in `modules/ownership.ts` TABLE_OWNERS
 * under its owner. Times UTC.
 */
import type { ColumnType, Generated } from 'kysely';

type Json<T> = ColumnType<T, string | T, string | T>;
type Time = ColumnType<Date, Date | string | undefined, Date | string>;
type TimeOrNull = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** A brand status (docs/sms-verification.md "States"). */
export type BrandStatus = 'draft' | 'pending' | 'verified' | 'unverified' | 'expired';
/** A campaign side's status: null before that side is submitted. */
export type SideStatus = 'pending' | 'approved' | 'rejected' | 'expired';

/** An opt-in method as stored: the method, its description and its supporting files (blob keys). */
export type StoredOptin = { method: string; description: string; supporting_files: Array<{ key: string; name: string; content_type: string }> };

/** A company's brand: who sends (spec 002 §3 "Brand / SMS verification campaign"). */
export interface SmsBrandsTable {
  id: Generated<number>;
  company_id: number;
  is_draft: Generated<boolean>;
  status: ColumnType<BrandStatus, BrandStatus | undefined, BrandStatus>;
  company_type: string | null;
  legal_name: Generated<string>;
  dba_name: Generated<string>;
  tax_id: Generated<string>;
  /** The alternative business id's type (spec: DUNS, GIIN, LEI); `alt_business_id` is its value. */
  tax_id_type: string | null;
  alt_business_id: Generated<string>;
  tax_id_country: Generated<string>;
  stock_exchange: string | null;
  stock_symbol: Generated<string>;
  vertical: string | null;
  website: Generated<string>;
  email: Generated<string>;
  phone: Generated<string>;
  street: Generated<string>;
  city: Generated<string>;
  state: Generated<string>;
  postal_code: Generated<string>;
  country: Generated<string>;
  contact_first_name: Generated<string>;
  contact_last_name: Generated<string>;
  vetting_score: number | null;
  status_reason: string | null;
  registry_id: string | null;
  submitted_at: TimeOrNull;
  registration_paid: Generated<boolean>;
  vetting_paid: Generated<boolean>;
  created_at: Time;
  updated_at: Time;
}

/** An SMS verification campaign: what is sent and how people opt in; one status per number type. */
export interface SmsCampaignsTable {
  id: Generated<number>;
  company_id: number;
  brand_id: number;
  is_draft: Generated<boolean>;
  is_submitted: Generated<boolean>;
  use_case: string | null;
  sub_usecases: Json<string[]>;
  description: Generated<string>;
  message_volume: string | null;
  sample_messages: Json<string[]>;
  optins: Json<StoredOptin[]>;
  opt_out_message: Generated<string>;
  help_message: Generated<string>;
  embedded_links: Generated<boolean>;
  embedded_phone: Generated<boolean>;
  age_gated: Generated<boolean>;
  direct_lending: Generated<boolean>;
  local_status: SideStatus | null;
  local_reason: string | null;
  local_registry_id: string | null;
  local_submitted_at: TimeOrNull;
  toll_free_status: SideStatus | null;
  toll_free_reason: string | null;
  toll_free_registry_id: string | null;
  toll_free_submitted_at: TimeOrNull;
  months_paid: Generated<number>;
  created_at: Time;
  updated_at: Time;
}

/** A number on a campaign (at most one campaign per number); its side follows its number type. */
export interface SmsCampaignNumbersTable {
  number_id: number;
  campaign_id: number;
  company_id: number;
  side: 'local' | 'toll_free';
  registry_assigned: Generated<boolean>;
  added_at: Time;
}

/** Every status change of a brand or a campaign side, with who moved it (the registry, a person, a cancel). */
export interface SmsVerificationHistoryTable {
  id: Generated<number>;
  company_id: number;
  campaign_id: number | null;
  brand_id: number | null;
  subject: 'brand' | 'local' | 'toll_free';
  from_status: string | null;
  to_status: string;
  reason: string | null;
  vetting_score: number | null;
  source: string;
  at: Time;
}

export interface SmsVerificationTables {
  sms_brands: SmsBrandsTable;
  sms_campaigns: SmsCampaignsTable;
  sms_campaign_numbers: SmsCampaignNumbersTable;
  sms_verification_history: SmsVerificationHistoryTable;
}
