/** SQL for `column_presets` and `favorite_reports` (migration 0019). The report-preferences module owns these tables. */
import type { DbOrTx } from '../../platform/db/db.js';
import type { NewRow, Row } from '../../platform/db/schema.js';

export type ColumnPresetRow = Row<'column_presets'>;
export type FavoriteReportRow = Row<'favorite_reports'>;

export const reportPreferencesRepository = {
  /** Presets of a company and/or a business unit (either may be null), optionally of one kind, by kind then name. */
  async listPresets(db: DbOrTx, scope: { companyId: number | null; businessUnitId: number | null }, kind?: string): Promise<ColumnPresetRow[]> {
    let q = db.selectFrom('column_presets').selectAll();
    q = q.where((eb) => {
      const ors = [];
      if (scope.companyId !== null) ors.push(eb('company_id', '=', scope.companyId));
      if (scope.businessUnitId !== null) ors.push(eb('business_unit_id', '=', scope.businessUnitId));
      return eb.or(ors);
    });
    if (kind) q = q.where('kind', '=', kind);
    return q.orderBy('kind').orderBy('name').orderBy('id').execute();
  },
  async findPreset(db: DbOrTx, id: number): Promise<ColumnPresetRow | undefined> {
    return db.selectFrom('column_presets').selectAll().where('id', '=', id).executeTakeFirst();
  },
  async insertPreset(db: DbOrTx, row: NewRow<'column_presets'>): Promise<ColumnPresetRow> {
    return db.insertInto('column_presets').values(row).returningAll().executeTakeFirstOrThrow();
  },
  async updatePreset(db: DbOrTx, id: number, patch: { name?: string; data?: string }): Promise<ColumnPresetRow> {
    return db
      .updateTable('column_presets')
      .set({ ...patch, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  async deletePreset(db: DbOrTx, id: number): Promise<void> {
    await db.deleteFrom('column_presets').where('id', '=', id).execute();
  },

  /** A person's favourites in a company, oldest first. */
  async listFavorites(db: DbOrTx, userId: number, companyId: number): Promise<FavoriteReportRow[]> {
    return db.selectFrom('favorite_reports').selectAll().where('user_id', '=', userId).where('company_id', '=', companyId).orderBy('id').execute();
  },
  async countFavorites(db: DbOrTx, userId: number, companyId: number): Promise<number> {
    const r = await db
      .selectFrom('favorite_reports')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', userId)
      .where('company_id', '=', companyId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  },
  async findFavorite(db: DbOrTx, id: number): Promise<FavoriteReportRow | undefined> {
    return db.selectFrom('favorite_reports').selectAll().where('id', '=', id).executeTakeFirst();
  },
  async insertFavorite(db: DbOrTx, row: NewRow<'favorite_reports'>): Promise<FavoriteReportRow> {
    return db.insertInto('favorite_reports').values(row).returningAll().executeTakeFirstOrThrow();
  },
  async updateFavorite(db: DbOrTx, id: number, value: string): Promise<FavoriteReportRow> {
    return db.updateTable('favorite_reports').set({ value, updated_at: new Date() }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  },
  async deleteFavorite(db: DbOrTx, id: number): Promise<void> {
    await db.deleteFrom('favorite_reports').where('id', '=', id).execute();
  },
};
