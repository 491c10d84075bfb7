/**
 * Kysely table types added for fax (faxes); migration 0033_fax. Part of `DB` (schema.ts); every table is listed in
 * `modules/ownership.ts` TABLE_OWNERS under its owner.
 */
import type { Generated } from 'kysely';

/** modules/fax: one fax sent or received on a fax number (docs/fax.md). */
export interface FaxesTable {
  id: Generated<number>;
  company_id: number;
  number_id: number;
  /** inbound | outbound */
  direction: string;
  /** Our fax number (E.164) at the time of the fax. */
  local_number: string;
  /** The other party (E.164). */
  remote: string;
  /** queued | sending | delivered | receiving | received | failed (docs/fax.md "Statuses"). */
  status: string;
  pages: number | null;
  error: string | null;
  /** Blob key of the PDF (`c/{companyId}/fax/…pdf`), null until a received fax is fetched. */
  file_key: string | null;
  /** Bytes of the PDF. */
  file_size: number | null;
  cover_note: string | null;
  /** sandbox | telnyx: the adapter that carried it. */
  provider: string;
  provider_fax_id: string | null;
  user_id: number | null;
  conversation_id: number | null;
  item_id: number | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  completed_at: Date | null;
}

export interface FaxTables {
  faxes: FaxesTable;
}
