/**
 * SQL for the marketplace tables (migration 0035): `marketplace_numbers` (one row per E.164 number put on the
 * marketplace, with the company holding it) and `marketplace_listings` (each offer of it). The marketplace module owns
 * them. A number's current listing is its latest (highest id). Money in integer cents, times UTC.
 */
import { sql, type SqlBool, type ExpressionBuilder } from 'kysely';
import type { DbOrTx } from '../../platform/db/db.js';
import type { DB, NewRow, Row } from '../../platform/db/schema.js';
import type { ListingState, MarketplaceListQuery } from '@switchboard/contracts';

export type MarketNumberRow = Row<'marketplace_numbers'>;
export type ListingRow = Row<'marketplace_listings'>;

/** A marketplace number joined with its current listing. */
export type MarketViewRow = {
  id: number;
  number: string;
  number_type: number;
  holder_company_id: number;
  listing_id: number;
  seller_company_id: number;
  buyer_company_id: number | null;
  number_id: number;
  title: string;
  description: string;
  price_cents: number;
  state: ListingState;
  listed_at: Date | null;
  sold_at: Date | null;
  updated_at: Date;
};

type Eb = ExpressionBuilder<DB & { l: DB['marketplace_listings']; n: DB['marketplace_numbers'] }, 'n' | 'l'>;

function viewQuery(db: DbOrTx) {
  return db
    .selectFrom('marketplace_numbers as n')
    .innerJoin('marketplace_listings as l', (j) =>
      j
        .onRef('l.marketplace_number_id', '=', 'n.id')
        .on(sql<SqlBool>`l.id = (select max(x.id) from marketplace_listings x where x.marketplace_number_id = n.id)`),
    )
    .select([
      'n.id',
      'n.number',
      'n.number_type',
      'n.holder_company_id',
      'l.id as listing_id',
      'l.seller_company_id',
      'l.buyer_company_id',
      'l.number_id',
      'l.title',
      'l.description',
      'l.price_cents',
      'l.state',
      'l.listed_at',
      'l.sold_at',
      'l.updated_at',
    ]);
}

function toView(r: Record<string, unknown>): MarketViewRow {
  return {
    ...(r as MarketViewRow),
    id: Number(r.id),
    holder_company_id: Number(r.holder_company_id),
    listing_id: Number(r.listing_id),
    seller_company_id: Number(r.seller_company_id),
    buyer_company_id: r.buyer_company_id === null ? null : Number(r.buyer_company_id),
    number_id: Number(r.number_id),
  };
}

/** What company `companyId` may see: numbers for sale, and its own listings, purchases and holdings. */
function visibleTo(eb: Eb, companyId: number) {
  return eb.or([
    eb('l.state', '=', 'listed'),
    eb('l.seller_company_id', '=', companyId),
    eb('l.buyer_company_id', '=', companyId),
    eb('n.holder_company_id', '=', companyId),
  ]);
}

export const marketplaceRepository = {
  /** A page of the marketplace numbers `companyId` may see, filtered (docs/marketplace.md "List"). */
  async page(db: DbOrTx, companyId: number, q: MarketplaceListQuery): Promise<{ rows: MarketViewRow[]; total: number }> {
    let base = viewQuery(db).where((eb) =>
      q.scope === 'mine'
        ? eb.or([eb('l.seller_company_id', '=', companyId), eb('l.buyer_company_id', '=', companyId), eb('n.holder_company_id', '=', companyId)])
        : visibleTo(eb as unknown as Eb, companyId),
    );
    if (q.state) base = base.where('l.state', '=', q.state);
    if (q.number_type) base = base.where('n.number_type', '=', q.number_type);
    if (q.area_code) base = base.where('n.number', 'like', `+1${q.area_code}%`);
    if (q.min_price !== undefined) base = base.where('l.price_cents', '>=', q.min_price);
    if (q.max_price !== undefined) base = base.where('l.price_cents', '<=', q.max_price);
    if (q.q) {
      const digits = q.q.replace(/\D/g, '');
      const words = `%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      base = base.where((eb) => eb.or([...(digits ? [eb('n.number', 'like', `%${digits}%`)] : []), eb('l.title', 'ilike', words)]));
    }
    const countRow = await db
      .selectFrom(base.as('v'))
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const ordered =
      q.sort === 'price_asc'
        ? base.orderBy('l.price_cents', 'asc').orderBy('n.id', 'desc')
        : q.sort === 'price_desc'
          ? base.orderBy('l.price_cents', 'desc').orderBy('n.id', 'desc')
          : base.orderBy('l.updated_at', 'desc').orderBy('n.id', 'desc');
    const rows = await ordered
      .limit(q.per_page)
      .offset((q.page - 1) * q.per_page)
      .execute();
    return { rows: rows.map(toView), total: Number(countRow.n) };
  },

  /** One marketplace number with its current listing, if `companyId` may see it. */
  async findVisible(db: DbOrTx, companyId: number, id: number): Promise<MarketViewRow | undefined> {
    const r = await viewQuery(db)
      .where('n.id', '=', id)
      .where((eb) => visibleTo(eb as unknown as Eb, companyId))
      .executeTakeFirst();
    return r ? toView(r) : undefined;
  },

  async find(db: DbOrTx, id: number): Promise<MarketViewRow | undefined> {
    const r = await viewQuery(db).where('n.id', '=', id).executeTakeFirst();
    return r ? toView(r) : undefined;
  },

  async numberByE164(db: DbOrTx, e164: string, forUpdate = false): Promise<MarketNumberRow | undefined> {
    let q = db.selectFrom('marketplace_numbers').selectAll().where('number', '=', e164);
    if (forUpdate) q = q.forUpdate();
    return q.executeTakeFirst();
  },

  /** Creates the marketplace number of `e164` or makes `holder` its holder. @returns its id. */
  async upsertNumber(db: DbOrTx, row: { number: string; number_type: number; holder_company_id: number }): Promise<number> {
    const r = await db
      .insertInto('marketplace_numbers')
      .values(row)
      .onConflict((oc) => oc.column('number').doUpdateSet({ holder_company_id: row.holder_company_id, number_type: row.number_type, updated_at: new Date() }))
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(r.id);
  },

  async setHolder(db: DbOrTx, id: number, companyId: number): Promise<void> {
    await db.updateTable('marketplace_numbers').set({ holder_company_id: companyId, updated_at: new Date() }).where('id', '=', id).execute();
  },

  /** The number's latest listing (locked with `forUpdate`). */
  async latestListing(db: DbOrTx, marketNumberId: number, forUpdate = false): Promise<ListingRow | undefined> {
    let q = db.selectFrom('marketplace_listings').selectAll().where('marketplace_number_id', '=', marketNumberId).orderBy('id', 'desc').limit(1);
    if (forUpdate) q = q.forUpdate();
    return q.executeTakeFirst();
  },

  async insertListing(db: DbOrTx, row: NewRow<'marketplace_listings'>): Promise<ListingRow> {
    return db.insertInto('marketplace_listings').values(row).returningAll().executeTakeFirstOrThrow();
  },

  async updateListing(db: DbOrTx, id: number, patch: Partial<NewRow<'marketplace_listings'>>): Promise<void> {
    await db
      .updateTable('marketplace_listings')
      .set({ ...patch, updated_at: new Date() })
      .where('id', '=', id)
      .execute();
  },

  /** Every listing of a marketplace number, newest first. */
  async listingsOf(db: DbOrTx, marketNumberId: number): Promise<ListingRow[]> {
    return db.selectFrom('marketplace_listings').selectAll().where('marketplace_number_id', '=', marketNumberId).orderBy('id', 'desc').execute();
  },

  /** The open listing (draft, listed or pending) of the seller's `numbers` row, if any. */
  async openListingOfNumberRow(db: DbOrTx, numberId: number): Promise<ListingRow | undefined> {
    return db
      .selectFrom('marketplace_listings')
      .selectAll()
      .where('number_id', '=', numberId)
      .where('state', 'in', ['draft', 'listed', 'pending_transfer'])
      .executeTakeFirst();
  },

  /** Withdraws the draft and listed listings of the `numbers` rows `numberIds` (released numbers). @returns how many. */
  async withdrawOpenOfNumberRows(db: DbOrTx, numberIds: readonly number[]): Promise<number> {
    if (numberIds.length === 0) return 0;
    const r = await db
      .updateTable('marketplace_listings')
      .set({ state: 'withdrawn', withdrawn_at: new Date(), updated_at: new Date() })
      .where('number_id', 'in', [...numberIds])
      .where('state', 'in', ['draft', 'listed'])
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  },

  /** The figures of GET /kpi (see contracts MarketplaceKpi). */
  async kpi(db: DbOrTx, companyId: number) {
    const market = await db
      .selectFrom('marketplace_listings')
      .select([
        sql<string>`count(*)`.as('listed'),
        sql<string>`coalesce(round(avg(price_cents)), 0)`.as('avg'),
        sql<string>`coalesce(min(price_cents), 0)`.as('min'),
      ])
      .where('state', '=', 'listed')
      .executeTakeFirstOrThrow();
    const mine = await db
      .selectFrom('marketplace_listings')
      .select([
        sql<string>`count(*) filter (where state = 'listed' and seller_company_id = ${companyId})`.as('listed'),
        sql<string>`count(*) filter (where state = 'draft' and seller_company_id = ${companyId})`.as('drafts'),
        sql<string>`count(*) filter (where state = 'sold' and seller_company_id = ${companyId})`.as('sold'),
        sql<string>`coalesce(sum(price_cents) filter (where state = 'sold' and seller_company_id = ${companyId}), 0)`.as('sales'),
        sql<string>`coalesce(sum(fee_cents) filter (where state = 'sold' and seller_company_id = ${companyId}), 0)`.as('fees'),
        sql<string>`count(*) filter (where state = 'sold' and buyer_company_id = ${companyId})`.as('bought'),
        sql<string>`coalesce(sum(price_cents) filter (where state = 'sold' and buyer_company_id = ${companyId}), 0)`.as('spent'),
      ])
      .where((eb) => eb.or([eb('seller_company_id', '=', companyId), eb('buyer_company_id', '=', companyId)]))
      .executeTakeFirstOrThrow();
    return { market, mine };
  },

  /** The company's listings and purchases for the report, newest first, with the number. */
  async report(db: DbOrTx, companyId: number, state?: ListingState) {
    let q = db
      .selectFrom('marketplace_listings as l')
      .innerJoin('marketplace_numbers as n', 'n.id', 'l.marketplace_number_id')
      .select([
        'n.number',
        'l.id',
        'l.title',
        'l.state',
        'l.price_cents',
        'l.fee_cents',
        'l.seller_company_id',
        'l.buyer_company_id',
        'l.invoice_id',
        'l.listed_at',
        'l.sold_at',
      ])
      .where((eb) => eb.or([eb('l.seller_company_id', '=', companyId), eb.and([eb('l.buyer_company_id', '=', companyId), eb('l.state', '=', 'sold')])]))
      .orderBy('l.id', 'desc')
      .limit(50_000);
    if (state) q = q.where('l.state', '=', state);
    return q.execute();
  },
};
