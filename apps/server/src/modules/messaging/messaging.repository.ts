/**
 * Reads messaging needs from tables other modules own, until those modules export them.
 * `companyProfile`: the company's name and help text for HELP/INFO replies (companies table,
 * modules/companies). To move into companies.service as `getCompanyMessagingProfile` (asked of the lead).
 */
import type { DbOrTx } from '../../platform/db/db.js';

export const messagingRepository = {
  async companyProfile(db: DbOrTx, companyId: number): Promise<{ name: string; help_text: string } | undefined> {
    return db.selectFrom('companies').select(['name', 'help_text']).where('id', '=', companyId).executeTakeFirst();
  },
};
