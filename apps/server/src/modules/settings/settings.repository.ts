/** SQL for `general_settings` (migration 0023). The settings module owns this table. */
import type { DbOrTx } from '../../platform/db/db.js';
import type { Row } from '../../platform/db/schema.js';

export type GeneralSettingsRow = Row<'general_settings'>;

export const settingsRepository = {
  async findMany(db: DbOrTx, companyIds: readonly number[]): Promise<GeneralSettingsRow[]> {
    if (companyIds.length === 0) return [];
    return db
      .selectFrom('general_settings')
      .selectAll()
      .where('company_id', 'in', [...companyIds])
      .execute();
  },
  /** Locks the companies' rows (those that exist) for a read-modify-write. */
  async findManyForUpdate(db: DbOrTx, companyIds: readonly number[]): Promise<GeneralSettingsRow[]> {
    if (companyIds.length === 0) return [];
    return db
      .selectFrom('general_settings')
      .selectAll()
      .where('company_id', 'in', [...companyIds])
      .forUpdate()
      .execute();
  },
  /** Stores the settings (JSON text, or null for the defaults) of a company. */
  async upsertSettings(db: DbOrTx, companyId: number, settings: string | null, userId: number): Promise<void> {
    await db
      .insertInto('general_settings')
      .values({ company_id: companyId, settings, updated_by: userId })
      .onConflict((oc) => oc.column('company_id').doUpdateSet({ settings, updated_by: userId, updated_at: new Date() }))
      .execute();
  },
  async upsertAiEav(db: DbOrTx, companyId: number, enabled: boolean, userId: number): Promise<void> {
    await db
      .insertInto('general_settings')
      .values({ company_id: companyId, ai_eav_enabled: enabled, updated_by: userId })
      .onConflict((oc) => oc.column('company_id').doUpdateSet({ ai_eav_enabled: enabled, updated_by: userId, updated_at: new Date() }))
      .execute();
  },
};
