/**
 * Kysely table types added for marketplace (numbers on the marketplace and their listings); migration
 * 0035_marketplace (docs/marketplace.md). Part of `DB` (schema.ts); every table is listed in `modules/ownership.ts`
 * TABLE_OWNERS under its owner. Money in integer cents (USD), times UTC.
 */
import type { ColumnType, Generated } from 'kysely';

type TimeOrNull = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** An E.164 number that has been put on the marketplace, and the company holding it now. */
export interface MarketplaceNumbersTable {
  id: Generated<number>;
  number: string;
  /** Number type of spec 002 §3: 1 local, 2 toll free, 3 Canadian. */
  number_type: number;
  holder_company_id: number;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** One offer of a marketplace number by the company holding it (docs/marketplace.md "Listing states"). */
export interface MarketplaceListingsTable {
  id: Generated<number>;
  marketplace_number_id: number;
  seller_company_id: number;
  /** The seller's `numbers` row at listing time. */
  number_id: number;
  title: Generated<string>;
  description: Generated<string>;
  price_cents: number;
  state: 'draft' | 'listed' | 'pending_transfer' | 'sold' | 'withdrawn';
  buyer_company_id: number | null;
  /** The buyer's purchase invoice (billing). */
  invoice_id: number | null;
  /** The marketplace fee kept from the seller's proceeds, cents. */
  fee_cents: Generated<number>;
  created_by: number | null;
  listed_at: TimeOrNull;
  sold_at: TimeOrNull;
  withdrawn_at: TimeOrNull;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface MarketplaceTables {
  marketplace_numbers: MarketplaceNumbersTable;
  marketplace_listings: MarketplaceListingsTable;
}
