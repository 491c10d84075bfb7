/**
 * Number marketplace contracts (spec 002 §7 "Marketplace": list, /kpi, /{id}, /{id}/listings, PUT /{id}, /report as
 * `marketplace_report.csv`; docs/marketplace.md). The base path is not shown in the spec; chosen here:
 * `/api/companies/{companyId}/marketplace/numbers`. A marketplace number is an E.164 number a company holds and offers
 * for sale; its listings are the offers made of it over time. Money is integer cents (USD, shown with `formatUsd`);
 * times are ISO 8601 UTC.
 */
import { z } from 'zod';
import { CompanyParams, Id, PageMeta } from './common.js';

/** Listing states (docs/marketplace.md "Listing states"). */
export const LISTING_STATES = ['draft', 'listed', 'pending_transfer', 'sold', 'withdrawn'] as const;
export type ListingState = (typeof LISTING_STATES)[number];
/** Labels shown for the states. */
export const LISTING_STATE_LABELS: Record<ListingState, string> = {
  draft: 'Draft',
  listed: 'Listed',
  pending_transfer: 'Pending transfer',
  sold: 'Sold',
  withdrawn: 'Withdrawn',
};

/** Price bounds of a listing, cents ($1.00 to $100,000.00). */
export const MARKETPLACE_MIN_PRICE_CENTS = 100;
export const MARKETPLACE_MAX_PRICE_CENTS = 10_000_000;
/** The marketplace fee kept from the seller's proceeds, percent of the price (rounded to the cent). */
export const MARKETPLACE_FEE_PERCENT = 10;

/** Messages of the marketplace calls. */
export const MARKETPLACE_MESSAGES = {
  listed: 'Your number is listed on the marketplace.',
  draftSaved: 'Your listing was saved as a draft.',
  updated: 'The listing was updated.',
  withdrawn: 'Your number was withdrawn from the marketplace.',
  purchased: 'The number is yours: it was added to your numbers.',
  notForSale: 'This number is no longer for sale.',
  priceChanged: 'The price of this number has changed. Check the new price and try again.',
  ownNumber: 'You already hold this number.',
} as const;

const Price = z.coerce
  .number({ message: 'The price must be a number of cents.' })
  .int('The price must be a whole number of cents.')
  .min(MARKETPLACE_MIN_PRICE_CENTS, 'The price must be at least $1.00.')
  .max(MARKETPLACE_MAX_PRICE_CENTS, 'The price must be at most $100,000.00.');

/** A marketplace number with its current (latest) listing, as the company asking sees it. */
export const MarketplaceNumber = z.object({
  id: z.number().int(),
  /** E.164. */
  number: z.string(),
  /** Spec 002 §3 number type: 1 local, 2 toll free, 3 Canadian. */
  numberType: z.number().int(),
  listingId: z.number().int(),
  title: z.string(),
  description: z.string(),
  priceCents: z.number().int(),
  state: z.enum(LISTING_STATES),
  sellerCompanyId: z.number().int(),
  sellerCompanyName: z.string(),
  /** The asking company holds the number now (it may list, edit or withdraw it). */
  heldByYou: z.boolean(),
  /** The asking company's part in the current listing. */
  yourRole: z.enum(['seller', 'buyer']).nullable(),
  listedAt: z.string().nullable(),
  soldAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type MarketplaceNumber = z.infer<typeof MarketplaceNumber>;

export const MarketplaceParams = CompanyParams.extend({ id: Id });

/** GET list: filters and paging. `scope` market: numbers for sale plus the company's own; mine: the company's own listings and purchases. */
export const MarketplaceListQuery = z.object({
  scope: z.enum(['market', 'mine']).default('market'),
  state: z.enum(LISTING_STATES).optional(),
  /** Digits anywhere in the number, or words in the title. */
  q: z.string().trim().max(60).optional(),
  number_type: z.coerce.number().int().min(1).max(3).optional(),
  area_code: z
    .string()
    .trim()
    .regex(/^\d{3}$/, 'The area code must be 3 digits.')
    .optional(),
  min_price: z.coerce.number().int().min(0).optional(),
  max_price: z.coerce.number().int().min(0).optional(),
  sort: z.enum(['newest', 'price_asc', 'price_desc']).default('newest'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(25),
});
export type MarketplaceListQuery = z.infer<typeof MarketplaceListQuery>;
export const MarketplaceList = z.object({ data: z.array(MarketplaceNumber), meta: PageMeta });
export const MarketplaceNumberAnswer = z.object({ data: MarketplaceNumber });
export const MarketplaceMessageAnswer = z.object({ message: z.string(), data: MarketplaceNumber });

/** GET /kpi: the market and the company's part in it. */
export const MarketplaceKpi = z.object({
  /** Numbers for sale now (every company's). */
  listedCount: z.number().int(),
  /** Average and lowest price of the numbers for sale now (0 when none). */
  averagePriceCents: z.number().int(),
  lowestPriceCents: z.number().int(),
  /** The company's listings by state now. */
  yourListed: z.number().int(),
  yourDrafts: z.number().int(),
  /** Numbers the company sold, their prices, the fees kept, and what it received as account credit. */
  yourSold: z.number().int(),
  yourSalesCents: z.number().int(),
  yourFeesCents: z.number().int(),
  yourProceedsCents: z.number().int(),
  /** Numbers the company bought and what it paid. */
  yourPurchases: z.number().int(),
  yourSpentCents: z.number().int(),
});
export type MarketplaceKpi = z.infer<typeof MarketplaceKpi>;
export const MarketplaceKpiAnswer = z.object({ data: MarketplaceKpi });

/** One listing (offer) of a marketplace number, in GET /{id}/listings. */
export const MarketplaceListing = z.object({
  id: z.number().int(),
  state: z.enum(LISTING_STATES),
  priceCents: z.number().int(),
  sellerCompanyName: z.string(),
  /** The asking company's part in this listing. */
  yourRole: z.enum(['seller', 'buyer']).nullable(),
  /** Fee and the buyer's invoice: shown to the seller (fee) and the buyer (invoice) only. */
  feeCents: z.number().int().nullable(),
  invoiceId: z.number().int().nullable(),
  listedAt: z.string().nullable(),
  soldAt: z.string().nullable(),
  withdrawnAt: z.string().nullable(),
  createdAt: z.string(),
});
export type MarketplaceListing = z.infer<typeof MarketplaceListing>;
export const MarketplaceListingList = z.object({ data: z.array(MarketplaceListing) });

/** POST (list a number the company holds). */
export const MarketplaceCreateInput = z
  .object({
    number_id: Id,
    price_cents: Price,
    title: z.string().trim().max(80).default(''),
    description: z.string().trim().max(1000).default(''),
    state: z.enum(['draft', 'listed']).default('listed'),
  })
  .strict();
export type MarketplaceCreateInput = z.infer<typeof MarketplaceCreateInput>;

/** PUT /{id}: change the open listing (price, texts, draft ↔ listed, withdraw), or relist a number held again. */
export const MarketplaceUpdateInput = z
  .object({
    price_cents: Price.optional(),
    title: z.string().trim().max(80).optional(),
    description: z.string().trim().max(1000).optional(),
    state: z.enum(['draft', 'listed', 'withdrawn']).optional(),
  })
  .strict();
export type MarketplaceUpdateInput = z.infer<typeof MarketplaceUpdateInput>;

/** POST /{id}/purchase: the price the buyer saw (refused when the seller changed it meanwhile). */
export const MarketplacePurchaseInput = z.object({ expected_price_cents: z.coerce.number().int().min(0) }).strict();
export const MarketplacePurchaseAnswer = z.object({
  message: z.string(),
  data: MarketplaceNumber,
  /** The buyer's numbers row now holding the number. */
  numberId: z.number().int(),
  invoice: z.object({ id: z.number().int(), number: z.string(), totalCents: z.number().int(), pdfUrl: z.string() }),
});
export type MarketplacePurchaseAnswer = z.infer<typeof MarketplacePurchaseAnswer>;

/** GET /report: the company's listings and purchases as CSV (file `marketplace_report.csv`). */
export const MarketplaceReportQuery = z.object({ state: z.enum(LISTING_STATES).optional() });
export const MARKETPLACE_REPORT_FILENAME = 'marketplace_report.csv';
export const MARKETPLACE_REPORT_COLUMNS = ['Number', 'Title', 'Role', 'State', 'Price', 'Fee', 'Net', 'Listed at', 'Sold at', 'Invoice'] as const;

/** `marketplace updated` on `company.{companyId}`: a listing the company sells or bought changed (listed, edited, sold); readers refetch. */
export const MarketplaceUpdatedEvent = z.object({ companyId: z.number().int(), marketplaceNumberId: z.number().int() });
export const MARKETPLACE_UPDATED = 'marketplace updated';
