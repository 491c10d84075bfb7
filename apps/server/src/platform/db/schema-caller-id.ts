/**
 * Kysely table types added for caller-id (lookup cache, company setting); migration 0032_caller_id. Part of `DB`
 * (schema.ts); every table is listed in `modules/ownership.ts` TABLE_OWNERS under its owner. Times UTC.
 */
import type { ColumnType, Generated } from 'kysely';

type Time = ColumnType<Date, Date | string, Date | string>;

/** One provider answer per E.164 number, reused until `expires_at` (docs/caller-id.md "Cache"). */
export interface CallerIdLookupsTable {
  e164: string;
  /** A caller name was found; false rows are the negative cache. */
  found: boolean;
  caller_name: string | null;
  caller_type: 'business' | 'consumer' | null;
  line_type: string | null;
  carrier_name: string | null;
  country_code: string | null;
  /** The adapter that answered: 'sandbox' | 'twilio'. */
  provider: string;
  looked_up_at: ColumnType<Date, Date | string | undefined, Date | string>;
  expires_at: Time;
}

/** A company's caller-ID setting: inbound callers are looked up automatically (default on). */
export interface CallerIdSettingsTable {
  company_id: number;
  auto_lookup: Generated<boolean>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface CallerIdTables {
  caller_id_lookups: CallerIdLookupsTable;
  caller_id_settings: CallerIdSettingsTable;
}
