/** The database liveness probe. */
import { sql } from 'kysely';
import type { DbOrTx } from '../../platform/db/db.js';

/** The database ping. */
export const healthRepository = {
  /** Runs `select 1`; throws when the database does not answer. */
  async ping(db: DbOrTx): Promise<void> {
    await sql`select 1`.execute(db);
  },
};
