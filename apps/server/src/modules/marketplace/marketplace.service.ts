/**
 * The number marketplace (spec 002 §7 "Marketplace": list, KPI, detail, listings, update, report CSV
 * `marketplace_report.csv`; docs/marketplace.md). A company lists a number it holds at a price (integer cents); another
 * company buys it: the price is charged on the buyer's card through billing (a `purchase` invoice), the number moves
 * to the buyer through the numbers service (`transferNumber`), and the seller receives the price less the marketplace
 * fee as account credit. Who may call is declared on the routes (`numbers.read` to browse, `numbers.manage` to list
 * and edit, `numbers.purchase` to buy); these functions take an already-authorized company id.
 */
import {
  LISTING_STATE_LABELS,
  MARKETPLACE_FEE_PERCENT,
  MARKETPLACE_UPDATED,
  MARKETPLACE_MESSAGES,
  MARKETPLACE_REPORT_COLUMNS,
  MARKETPLACE_REPORT_FILENAME,
  formatUsd,
  type ListingState,
  type MarketplaceCreateInput,
  type MarketplaceKpi,
  type MarketplaceListQuery,
  type MarketplaceListing,
  type MarketplaceNumber,
  type MarketplacePurchaseAnswer,
  type MarketplaceUpdateInput,
  type PageMeta,
} from '@switchboard/contracts';
import { zonedDateTime } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import type { DomainEvents } from '../../platform/events/registry.js';
import { toCsv } from '../../platform/csv.js';
import { ForbiddenError, NotFoundError, fieldError } from '../../platform/http/errors.js';
import { chargePurchase, creditAccount, listInvoices, mailBillingContacts } from '../billing/billing.invoices.js';
import { findCompany } from '../companies/accounts.service.js';
import { companyTimeZone } from '../companies/companies.service.js';
import { assertWithinNumberLimit, getCompanyNumber, transferNumber } from '../numbers/numbers.service.js';
import { marketplaceRepository as repo, type MarketViewRow } from './marketplace.repository.js';

/** The marketplace fee of a price: {@link MARKETPLACE_FEE_PERCENT} percent, rounded to the cent. */
export function marketplaceFee(priceCents: number): number {
  return Math.round((priceCents * MARKETPLACE_FEE_PERCENT) / 100);
}

async function companyNames(ctx: AppContext, ids: Iterable<number>): Promise<Map<number, string>> {
  const names = new Map<number, string>();
  for (const id of new Set(ids)) names.set(id, (await findCompany(ctx, id))?.name ?? `Company ${id}`);
  return names;
}

function roleOf(companyId: number, r: { seller_company_id: number | string; buyer_company_id: number | string | null }): 'seller' | 'buyer' | null {
  if (Number(r.seller_company_id) === companyId) return 'seller';
  if (r.buyer_company_id !== null && Number(r.buyer_company_id) === companyId) return 'buyer';
  return null;
}

function toDto(companyId: number, r: MarketViewRow, names: Map<number, string>): MarketplaceNumber {
  return {
    id: r.id,
    number: r.number,
    numberType: r.number_type,
    listingId: r.listing_id,
    title: r.title,
    description: r.description,
    priceCents: r.price_cents,
    state: r.state,
    sellerCompanyId: r.seller_company_id,
    sellerCompanyName: names.get(r.seller_company_id) ?? '',
    heldByYou: r.holder_company_id === companyId,
    yourRole: roleOf(companyId, r),
    listedAt: r.listed_at?.toISOString() ?? null,
    soldAt: r.sold_at?.toISOString() ?? null,
    updatedAt: r.updated_at.toISOString(),
  };
}

/** Sends `marketplace updated` to each company with a part in the change (seller, buyer). */
function announce(ctx: AppContext, marketplaceNumberId: number, companyIds: Iterable<number | null>): void {
  for (const c of new Set(companyIds)) if (c !== null) ctx.realtime.send(`company.${c}`, MARKETPLACE_UPDATED, { companyId: c, marketplaceNumberId });
}

async function viewOf(ctx: AppContext, companyId: number, id: number): Promise<MarketplaceNumber> {
  const r = await repo.findVisible(ctx.db, companyId, id);
  if (!r) throw new NotFoundError('Marketplace number');
  return toDto(companyId, r, await companyNames(ctx, [r.seller_company_id]));
}

/** GET list: the numbers for sale and the company's own (scope market), or only its own (scope mine), paged. */
export async function listMarketplace(ctx: AppContext, companyId: number, q: MarketplaceListQuery): Promise<{ data: MarketplaceNumber[]; meta: PageMeta }> {
  if (q.min_price !== undefined && q.max_price !== undefined && q.min_price > q.max_price)
    throw fieldError('max_price', 'The highest price must not be below the lowest price.');
  const { rows, total } = await repo.page(ctx.db, companyId, q);
  const names = await companyNames(
    ctx,
    rows.map((r) => r.seller_company_id),
  );
  return {
    data: rows.map((r) => toDto(companyId, r, names)),
    meta: { current_page: q.page, per_page: q.per_page, total, last_page: Math.max(1, Math.ceil(total / q.per_page)) },
  };
}

/** GET /kpi: numbers for sale (count, average and lowest price) and the company's listings, sales and purchases. */
export async function marketplaceKpi(ctx: AppContext, companyId: number): Promise<MarketplaceKpi> {
  const { market, mine } = await repo.kpi(ctx.db, companyId);
  const sales = Number(mine.sales);
  const fees = Number(mine.fees);
  return {
    listedCount: Number(market.listed),
    averagePriceCents: Number(market.avg),
    lowestPriceCents: Number(market.min),
    yourListed: Number(mine.listed),
    yourDrafts: Number(mine.drafts),
    yourSold: Number(mine.sold),
    yourSalesCents: sales,
    yourFeesCents: fees,
    yourProceedsCents: sales - fees,
    yourPurchases: Number(mine.bought),
    yourSpentCents: Number(mine.spent),
  };
}

/** GET /{id}: a marketplace number the company may see (for sale, or its own). @throws NotFoundError otherwise. */
export async function getMarketplaceNumber(ctx: AppContext, companyId: number, id: number): Promise<MarketplaceNumber> {
  return viewOf(ctx, companyId, id);
}

/**
 * GET /{id}/listings: every offer of the number, newest first. The fee is shown to the listing's seller, the invoice
 * to its buyer. @throws NotFoundError when the company may not see the number.
 */
export async function marketplaceListings(ctx: AppContext, companyId: number, id: number): Promise<MarketplaceListing[]> {
  if (!(await repo.findVisible(ctx.db, companyId, id))) throw new NotFoundError('Marketplace number');
  const rows = await repo.listingsOf(ctx.db, id);
  const names = await companyNames(
    ctx,
    rows.map((r) => Number(r.seller_company_id)),
  );
  return rows.map((r) => {
    const role = roleOf(companyId, r);
    return {
      id: Number(r.id),
      state: r.state,
      priceCents: r.price_cents,
      sellerCompanyName: names.get(Number(r.seller_company_id)) ?? '',
      yourRole: role,
      feeCents: role === 'seller' ? r.fee_cents : null,
      invoiceId: role === 'buyer' && r.invoice_id !== null ? Number(r.invoice_id) : null,
      listedAt: r.listed_at?.toISOString() ?? null,
      soldAt: r.sold_at?.toISOString() ?? null,
      withdrawnAt: r.withdrawn_at?.toISOString() ?? null,
      createdAt: r.created_at.toISOString(),
    };
  });
}

/**
 * POST: lists (or drafts) one of the company's active numbers at `price_cents`.
 * @throws ValidationError 422 on `number_id` (not the company's active number — another company's id answers the
 * same — or already on the marketplace).
 */
export async function createListing(
  ctx: AppContext,
  companyId: number,
  userId: number,
  input: MarketplaceCreateInput,
): Promise<{ message: string; data: MarketplaceNumber }> {
  let number;
  try {
    number = await getCompanyNumber(ctx, companyId, input.number_id);
  } catch (e) {
    if (e instanceof NotFoundError) throw fieldError('number_id', 'The number is not one of your active numbers.');
    throw e;
  }
  const now = new Date();
  const id = await ctx.db.transaction().execute(async (tx) => {
    const existing = await repo.numberByE164(tx, number.number, true);
    if (existing) {
      const latest = await repo.latestListing(tx, Number(existing.id), true);
      if (latest && ['draft', 'listed', 'pending_transfer'].includes(latest.state))
        throw fieldError('number_id', 'This number is already on the marketplace: edit its listing instead.');
    }
    const marketId = await repo.upsertNumber(tx, { number: number.number, number_type: number.type, holder_company_id: companyId });
    await repo.insertListing(tx, {
      marketplace_number_id: marketId,
      seller_company_id: companyId,
      number_id: Number(number.id),
      title: input.title,
      description: input.description,
      price_cents: input.price_cents,
      state: input.state,
      created_by: userId,
      listed_at: input.state === 'listed' ? now : null,
    });
    return marketId;
  });
  announce(ctx, id, [companyId]);
  return { message: input.state === 'listed' ? MARKETPLACE_MESSAGES.listed : MARKETPLACE_MESSAGES.draftSaved, data: await viewOf(ctx, companyId, id) };
}

/** The states a seller may move an open listing to, from each state. */
const SELLER_MOVES: Record<ListingState, readonly ListingState[]> = {
  draft: ['draft', 'listed', 'withdrawn'],
  listed: ['listed', 'draft', 'withdrawn'],
  pending_transfer: [],
  sold: [],
  withdrawn: [],
};

/**
 * PUT /{id}: the holder changes its open listing (price, title, description; draft ↔ listed; withdrawn), or — when the
 * latest listing is sold or withdrawn and the company holds the number again — relists it with a new listing (state
 * draft or listed, price required).
 * @throws NotFoundError (a number the company may not see), ForbiddenError 403 (a number for sale by another company),
 * ValidationError 422 (`state`: a move not allowed, e.g. a pending transfer; `price_cents` missing to relist; the
 * number no longer held).
 */
export async function updateListing(
  ctx: AppContext,
  companyId: number,
  userId: number,
  id: number,
  input: MarketplaceUpdateInput,
): Promise<{ message: string; data: MarketplaceNumber }> {
  const view = await repo.findVisible(ctx.db, companyId, id);
  if (!view) throw new NotFoundError('Marketplace number');
  if (view.holder_company_id !== companyId) throw new ForbiddenError('Only the company holding this number may change its listing.');
  const now = new Date();
  const message = await ctx.db.transaction().execute(async (tx) => {
    const latest = (await repo.latestListing(tx, id, true))!;
    const open = ['draft', 'listed', 'pending_transfer'].includes(latest.state);
    if (open) {
      if (Number(latest.seller_company_id) !== companyId) throw new ForbiddenError('Only the seller may change this listing.');
      const next = input.state ?? latest.state;
      if (!SELLER_MOVES[latest.state].includes(next))
        throw fieldError('state', `A listing that is ${LISTING_STATE_LABELS[latest.state].toLowerCase()} cannot be changed.`);
      await repo.updateListing(tx, Number(latest.id), {
        ...(input.price_cents !== undefined ? { price_cents: input.price_cents } : {}),
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        state: next,
        ...(next === 'listed' && latest.state !== 'listed' ? { listed_at: now } : {}),
        ...(next === 'withdrawn' ? { withdrawn_at: now } : {}),
      });
      return next === 'withdrawn'
        ? MARKETPLACE_MESSAGES.withdrawn
        : next === 'listed' && latest.state !== 'listed'
          ? MARKETPLACE_MESSAGES.listed
          : MARKETPLACE_MESSAGES.updated;
    }
    // Relist: a new listing of a number the company holds again.
    const state = input.state ?? 'listed';
    if (state === 'withdrawn') throw fieldError('state', 'This number is not on the marketplace.');
    if (input.price_cents === undefined) throw fieldError('price_cents', 'The price field is required to list this number again.');
    return { relist: state } as const;
  });
  if (typeof message === 'string') {
    announce(ctx, id, [companyId]);
    return { message, data: await viewOf(ctx, companyId, id) };
  }
  // Relisting goes through the same checks as a first listing (the company's active number, nothing open); a
  // transfer keeps the numbers row, so the latest listing's row is the holder's.
  return createListing(ctx, companyId, userId, {
    number_id: view.number_id,
    price_cents: input.price_cents!,
    title: input.title ?? view.title,
    description: input.description ?? view.description,
    state: message.relist,
  });
}

/**
 * POST /{id}/purchase (docs/marketplace.md "Buying"): the buyer pays the listed price and the number moves to it.
 * 1. The listing is locked and moved to `pending_transfer` with the buyer (a second buyer gets 422 "no longer for sale").
 * 2. Checks before charging: the seller still holds the number (else the listing is withdrawn), the buyer's number limit.
 * 3. The price is charged through billing ({@link chargePurchase}: a `purchase` invoice; a decline voids it).
 * 4. The number is transferred ({@link transferNumber}); the listing is sold, the seller credited price − fee.
 * Any failure before the charge succeeds puts the listing back to `listed`; a transfer that fails after the charge
 * returns the price to the buyer as account credit and withdraws the listing.
 * @throws NotFoundError, ValidationError 422 (`expected_price_cents` when the price changed; `id` not for sale or
 * the buyer's own; `number` limit; `payment` declined or no card).
 */
export async function purchaseNumber(
  ctx: AppContext,
  companyId: number,
  userId: number,
  id: number,
  expectedPriceCents: number,
): Promise<MarketplacePurchaseAnswer> {
  const view = await repo.findVisible(ctx.db, companyId, id);
  if (!view) {
    // A number another buyer started buying (or bought) a moment ago was public until then: the person who clicked
    // "Buy" on it is told it is no longer for sale rather than that it does not exist.
    const latest = await repo.latestListing(ctx.db, id);
    if (latest && (latest.state === 'pending_transfer' || latest.state === 'sold')) throw fieldError('id', MARKETPLACE_MESSAGES.notForSale);
    throw new NotFoundError('Marketplace number');
  }
  const listing = await ctx.db.transaction().execute(async (tx) => {
    const l = await repo.latestListing(tx, id, true);
    if (!l || l.state !== 'listed') throw fieldError('id', MARKETPLACE_MESSAGES.notForSale);
    if (Number(l.seller_company_id) === companyId) throw fieldError('id', MARKETPLACE_MESSAGES.ownNumber);
    if (l.price_cents !== expectedPriceCents) throw fieldError('expected_price_cents', MARKETPLACE_MESSAGES.priceChanged);
    await repo.updateListing(tx, Number(l.id), { state: 'pending_transfer', buyer_company_id: companyId });
    return l;
  });
  const listingId = Number(listing.id);
  const sellerId = Number(listing.seller_company_id);
  const numberRowId = Number(listing.number_id);
  const release = (patch: { state: ListingState; withdrawn_at?: Date }) =>
    repo
      .updateListing(ctx.db, listingId, { ...patch, buyer_company_id: null })
      .catch((e: unknown) => ctx.log.error({ err: e, listingId }, 'marketplace listing release failed'));

  let invoice;
  try {
    try {
      await getCompanyNumber(ctx, sellerId, numberRowId);
    } catch (e) {
      if (!(e instanceof NotFoundError)) throw e;
      await release({ state: 'withdrawn', withdrawn_at: new Date() });
      throw fieldError('id', MARKETPLACE_MESSAGES.notForSale);
    }
    await assertWithinNumberLimit(ctx, companyId, 1);
    invoice = await chargePurchase(ctx, companyId, userId, {
      kind: 'marketplace_number',
      description: `Marketplace number ${view.number}${listing.title ? ` (${listing.title})` : ''}`,
      amountCents: listing.price_cents,
    });
  } catch (e) {
    const cur = await repo.latestListing(ctx.db, id);
    if (cur && Number(cur.id) === listingId && cur.state === 'pending_transfer') await release({ state: 'listed' });
    throw e;
  }

  try {
    await transferNumber(ctx, numberRowId, sellerId, companyId);
  } catch (e) {
    // Paid but not transferred (the seller released the number, or the buyer's limit changed meanwhile): the price
    // comes back as account credit and the listing is withdrawn.
    await creditAccount(ctx, companyId, listing.price_cents);
    await release({ state: 'withdrawn', withdrawn_at: new Date() });
    ctx.log.warn({ err: e, listingId }, 'marketplace transfer failed after payment; refunded as account credit');
    throw fieldError('id', `The number could not be transferred; ${formatUsd(listing.price_cents)} was returned to your account as credit.`);
  }

  const fee = marketplaceFee(listing.price_cents);
  await ctx.db.transaction().execute(async (tx) => {
    await repo.updateListing(tx, listingId, { state: 'sold', sold_at: new Date(), invoice_id: invoice.id, fee_cents: fee });
    await repo.setHolder(tx, id, companyId);
  });
  if (listing.price_cents - fee > 0) await creditAccount(ctx, sellerId, listing.price_cents - fee);
  await mailBillingContacts(
    ctx,
    sellerId,
    `Your number ${view.number} was sold`,
    [
      `Your marketplace number ${view.number} was sold for ${formatUsd(listing.price_cents)}.`,
      `Marketplace fee (${MARKETPLACE_FEE_PERCENT}%): ${formatUsd(fee)}. ${formatUsd(listing.price_cents - fee)} was added to your account credit and will be applied to your next invoices.`,
      `The number has moved to the buyer's account.`,
      `${ctx.config.publicUrl}/marketplace`,
    ].join('\n'),
  );
  announce(ctx, id, [sellerId, companyId]);
  return {
    message: MARKETPLACE_MESSAGES.purchased,
    data: await viewOf(ctx, companyId, id),
    numberId: numberRowId,
    invoice: { id: invoice.id, number: invoice.number, totalCents: invoice.totalCents, pdfUrl: invoice.pdfUrl },
  };
}

/**
 * `number.batch-finished` of a release: the released numbers' draft and listed listings are withdrawn (a listing
 * being bought is left to the purchase, which withdraws it when it finds the number gone).
 */
export async function onNumbersReleased(ctx: AppContext, e: DomainEvents['number.batch-finished']): Promise<void> {
  if (e.kind !== 'release') return;
  await repo.withdrawOpenOfNumberRows(ctx.db, e.numberIds);
}

/** `YYYY-MM-DD HH:mm:ss` of an instant in the company's zone (as the call exports; docs/workspace.md "Dates and times"). */
function day(d: Date | null, timeZone: string): string {
  if (!d) return '';
  const z = zonedDateTime(d, timeZone);
  return `${z.date} ${z.time}:${String(z.second).padStart(2, '0')}`;
}

/**
 * GET /report: the company's listings (as seller, every state) and purchases (as buyer) as CSV, newest first, columns
 * {@link MARKETPLACE_REPORT_COLUMNS}; amounts in the en-US USD format, times in the company's zone. Net: price − fee for a sale, the
 * price paid in accounting parentheses for a purchase (e.g. `($300.00)`: a leading minus would be neutralised as a
 * spreadsheet formula), empty otherwise.
 */
export async function marketplaceReport(ctx: AppContext, companyId: number, state?: ListingState): Promise<{ filename: string; csv: string }> {
  const rows = await repo.report(ctx.db, companyId, state);
  const timeZone = await companyTimeZone(ctx, companyId);
  const invoiceNumbers = new Map((await listInvoices(ctx, companyId)).map((i) => [i.id, i.number]));
  const data = rows.map((r) => {
    const role = roleOf(companyId, r) ?? 'seller';
    const sold = r.state === 'sold';
    const net = !sold ? '' : role === 'seller' ? formatUsd(r.price_cents - r.fee_cents) : `(${formatUsd(r.price_cents)})`;
    return [
      r.number,
      r.title,
      role === 'seller' ? 'Seller' : 'Buyer',
      LISTING_STATE_LABELS[r.state],
      formatUsd(r.price_cents),
      sold && role === 'seller' ? formatUsd(r.fee_cents) : '',
      net,
      day(r.listed_at, timeZone),
      day(r.sold_at, timeZone),
      role === 'buyer' && r.invoice_id !== null ? (invoiceNumbers.get(Number(r.invoice_id)) ?? String(r.invoice_id)) : '',
    ];
  });
  return { filename: MARKETPLACE_REPORT_FILENAME, csv: toCsv(data, { fields: MARKETPLACE_REPORT_COLUMNS }) };
}
