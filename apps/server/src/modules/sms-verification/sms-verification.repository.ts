/**
 * SQL for the SMS verification tables (migration 0034): `sms_brands`, `sms_campaigns`, `sms_campaign_numbers`,
 * `sms_verification_history`. The sms-verification module owns them. Times UTC.
 */
import type { DbOrTx } from '../../platform/db/db.js';
import type { NewRow, Row, RowUpdate } from '../../platform/db/schema.js';

export type BrandRow = Row<'sms_brands'>;
export type CampaignRow = Row<'sms_campaigns'>;
export type CampaignNumberRow = Row<'sms_campaign_numbers'>;
export type HistoryRow = Row<'sms_verification_history'>;

export const smsVerificationRepository = {
  async insertBrand(db: DbOrTx, row: NewRow<'sms_brands'>): Promise<BrandRow> {
    return db.insertInto('sms_brands').values(row).returningAll().executeTakeFirstOrThrow();
  },
  async brand(db: DbOrTx, id: number, forUpdate = false): Promise<BrandRow | undefined> {
    let q = db.selectFrom('sms_brands').selectAll().where('id', '=', id);
    if (forUpdate) q = q.forUpdate();
    return q.executeTakeFirst();
  },
  async brands(db: DbOrTx, ids: number[]): Promise<BrandRow[]> {
    if (!ids.length) return [];
    return db.selectFrom('sms_brands').selectAll().where('id', 'in', ids).execute();
  },
  async updateBrand(db: DbOrTx, id: number, patch: RowUpdate<'sms_brands'>): Promise<BrandRow | undefined> {
    return db
      .updateTable('sms_brands')
      .set({ ...patch, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  },
  /** Moves a brand from one of `from` to `patch.status` (compare-and-set: a repeated job changes nothing). */
  async transitionBrand(db: DbOrTx, id: number, from: string[], patch: RowUpdate<'sms_brands'>): Promise<BrandRow | undefined> {
    return db
      .updateTable('sms_brands')
      .set({ ...patch, updated_at: new Date() })
      .where('id', '=', id)
      .where('status', 'in', from as BrandRow['status'][])
      .returningAll()
      .executeTakeFirst();
  },
  async deleteBrandIfUnused(db: DbOrTx, id: number): Promise<void> {
    await db
      .deleteFrom('sms_brands')
      .where('id', '=', id)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('sms_campaigns').select('id').whereRef('sms_campaigns.brand_id', '=', 'sms_brands.id'))))
      .execute();
  },

  async insertCampaign(db: DbOrTx, row: NewRow<'sms_campaigns'>): Promise<CampaignRow> {
    return db.insertInto('sms_campaigns').values(row).returningAll().executeTakeFirstOrThrow();
  },
  async campaign(db: DbOrTx, id: number, forUpdate = false): Promise<CampaignRow | undefined> {
    let q = db.selectFrom('sms_campaigns').selectAll().where('id', '=', id);
    if (forUpdate) q = q.forUpdate();
    return q.executeTakeFirst();
  },
  async campaignsOfCompany(db: DbOrTx, companyId: number): Promise<CampaignRow[]> {
    return db.selectFrom('sms_campaigns').selectAll().where('company_id', '=', companyId).orderBy('id', 'desc').execute();
  },
  async campaignsOfBrand(db: DbOrTx, brandId: number): Promise<CampaignRow[]> {
    return db.selectFrom('sms_campaigns').selectAll().where('brand_id', '=', brandId).orderBy('id').execute();
  },
  /** The campaign whose local or toll-free side has registry id `registryId` (a provider webhook names it). */
  async campaignByRegistryId(db: DbOrTx, registryId: string): Promise<CampaignRow | undefined> {
    return db
      .selectFrom('sms_campaigns')
      .selectAll()
      .where((eb) => eb.or([eb('local_registry_id', '=', registryId), eb('toll_free_registry_id', '=', registryId)]))
      .executeTakeFirst();
  },
  async brandByRegistryId(db: DbOrTx, registryId: string): Promise<BrandRow | undefined> {
    return db.selectFrom('sms_brands').selectAll().where('registry_id', '=', registryId).executeTakeFirst();
  },
  async updateCampaign(db: DbOrTx, id: number, patch: RowUpdate<'sms_campaigns'>): Promise<CampaignRow | undefined> {
    return db
      .updateTable('sms_campaigns')
      .set({ ...patch, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  },
  /** Moves a side from `from` (null = never submitted) to `patch` (compare-and-set). */
  async transitionSide(
    db: DbOrTx,
    id: number,
    side: 'local' | 'toll_free',
    from: Array<string | null>,
    patch: RowUpdate<'sms_campaigns'>,
  ): Promise<CampaignRow | undefined> {
    const column = side === 'local' ? 'local_status' : 'toll_free_status';
    const values = from.filter((v): v is string => v !== null) as CampaignRow['local_status'][] & string[];
    return db
      .updateTable('sms_campaigns')
      .set({ ...patch, updated_at: new Date() })
      .where('id', '=', id)
      .where((eb) => {
        const ors = [];
        if (values.length) ors.push(eb(column, 'in', values as never));
        if (from.includes(null)) ors.push(eb(column, 'is', null));
        return eb.or(ors);
      })
      .returningAll()
      .executeTakeFirst();
  },
  async deleteCampaign(db: DbOrTx, id: number): Promise<void> {
    await db.deleteFrom('sms_campaigns').where('id', '=', id).execute();
  },
  /** Campaigns with a pending brand or side (the poll job's work list). */
  async pendingCampaignIds(db: DbOrTx): Promise<number[]> {
    const rows = await db
      .selectFrom('sms_campaigns')
      .innerJoin('sms_brands', 'sms_brands.id', 'sms_campaigns.brand_id')
      .select('sms_campaigns.id')
      .where((eb) =>
        eb.or([
          eb('sms_campaigns.local_status', '=', 'pending'),
          eb('sms_campaigns.toll_free_status', '=', 'pending'),
          eb('sms_brands.status', '=', 'pending'),
        ]),
      )
      .execute();
    return rows.map((r) => r.id);
  },

  async numbersOf(db: DbOrTx, campaignIds: number[]): Promise<CampaignNumberRow[]> {
    if (!campaignIds.length) return [];
    return db.selectFrom('sms_campaign_numbers').selectAll().where('campaign_id', 'in', campaignIds).orderBy('added_at').orderBy('number_id').execute();
  },
  /** The campaign rows of numbers (any campaign). */
  async entriesOfNumbers(db: DbOrTx, numberIds: number[]): Promise<CampaignNumberRow[]> {
    if (!numberIds.length) return [];
    return db.selectFrom('sms_campaign_numbers').selectAll().where('number_id', 'in', numberIds).execute();
  },
  async addNumbers(db: DbOrTx, rows: NewRow<'sms_campaign_numbers'>[]): Promise<void> {
    if (!rows.length) return;
    await db
      .insertInto('sms_campaign_numbers')
      .values(rows)
      .onConflict((oc) => oc.column('number_id').doNothing())
      .execute();
  },
  async removeNumbers(db: DbOrTx, campaignId: number, numberIds: number[]): Promise<number[]> {
    if (!numberIds.length) return [];
    const rows = await db
      .deleteFrom('sms_campaign_numbers')
      .where('campaign_id', '=', campaignId)
      .where('number_id', 'in', numberIds)
      .returning('number_id')
      .execute();
    return rows.map((r) => r.number_id);
  },
  async markAssigned(db: DbOrTx, campaignId: number, numberIds: number[], assigned: boolean): Promise<void> {
    if (!numberIds.length) return;
    await db
      .updateTable('sms_campaign_numbers')
      .set({ registry_assigned: assigned })
      .where('campaign_id', '=', campaignId)
      .where('number_id', 'in', numberIds)
      .execute();
  },

  async addHistory(db: DbOrTx, row: NewRow<'sms_verification_history'>): Promise<void> {
    await db.insertInto('sms_verification_history').values(row).execute();
  },
  async historyOf(db: DbOrTx, campaignIds: number[], brandIds: number[]): Promise<HistoryRow[]> {
    if (!campaignIds.length && !brandIds.length) return [];
    return db
      .selectFrom('sms_verification_history')
      .selectAll()
      .where((eb) =>
        eb.or([
          ...(campaignIds.length ? [eb('campaign_id', 'in', campaignIds)] : []),
          ...(brandIds.length ? [eb.and([eb('brand_id', 'in', brandIds), eb('campaign_id', 'is', null)])] : []),
        ]),
      )
      .orderBy('id')
      .execute();
  },
};
