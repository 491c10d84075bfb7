/**
 * The Kysely instance over a `pg` pool, and the versioned migrations applied at start.
 * `bigint` columns come back as JavaScript numbers (ids stay far below 2^53).
 */
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import pg from 'pg';
import type { DB } from './schema.js';
import { usePreparedStatements } from './prepared.js';
import { guardTransactions, type PoolWaitInTransactionError, type TxGuardMode } from './tx-guard.js';
import * as m0001 from '../migrations/0001_init.js';
import * as m0002 from '../migrations/0002_numbers_complete.js';
import * as m0003 from '../migrations/0003_calls_complete.js';
import * as m0004 from '../migrations/0004_inbox_complete.js';
import * as m0005 from '../migrations/0005_contacts_complete.js';
import * as m0006 from '../migrations/0006_campaigns.js';
import * as m0007 from '../migrations/0007_in_app_calling.js';
import * as m0008 from '../migrations/0008_company_quiet_hours_toggle.js';
import * as m0013 from '../migrations/0013_menu_replays.js';
import * as m0014 from '../migrations/0014_voicemail_item_duration.js';
import * as m0009 from '../migrations/0009_auth_hardening.js';
import * as m0010 from '../migrations/0010_app_secrets.js';
import * as m0011 from '../migrations/0011_import_choices_and_job_recovery.js';
import * as m0015 from '../migrations/0015_search_indexes.js';
import * as m0016 from '../migrations/0016_number_call_settings.js';
import * as m0017 from '../migrations/0017_tracking.js';
import * as m0018 from '../migrations/0018_analytics.js';
import * as m0019 from '../migrations/0019_alerts_report_preferences.js';
import * as m0020 from '../migrations/0020_accounts.js';
import * as m0021 from '../migrations/0021_integrations.js';
import * as m0022 from '../migrations/0022_signin_extras.js';
import * as m0023 from '../migrations/0023_workspace.js';
import * as m0024 from '../migrations/0024_analytics_rollups.js';
import * as m0025 from '../migrations/0025_oidc_identities.js';
import * as m0026 from '../migrations/0026_push_subscriptions.js';
import * as m0027 from '../migrations/0027_analytics_day_rollups.js';
import * as m0028 from '../migrations/0028_billing.js';
import * as m0029 from '../migrations/0029_outbound_calls.js';
import * as m0030 from '../migrations/0030_transcription.js';
import * as m0031 from '../migrations/0031_call_intelligence.js';
import * as m0032 from '../migrations/0032_caller_id.js';
import * as m0033 from '../migrations/0033_fax.js';
import * as m0034 from '../migrations/0034_sms_verification.js';
import * as m0035 from '../migrations/0035_marketplace.js';
import * as m0036 from '../migrations/0036_registration_fees.js';
import * as m0042 from '../migrations/0042_call_search_weeks.js';
import * as m0043 from '../migrations/0043_handset_call_lines.js';
import * as m0044 from '../migrations/0044_dni_pool_numbers_hot.js';
import * as m0045 from '../migrations/0045_number_trigger_firings.js';
import * as m0046 from '../migrations/0046_sandbox_call_redirects.js';
import * as m0037 from '../migrations/0037_tracking_leads.js';
import * as m0038 from '../migrations/0038_notes_by_company.js';

pg.types.setTypeParser(20, (v) => Number(v)); // int8 → number

export type Db = Kysely<DB>;
/** A database handle or an open transaction; repositories take either so the caller owns the transaction. */
export type DbOrTx = Kysely<DB> | Transaction<DB>;

export type DbOptions = {
  /** Connections in the pool (config DB_POOL_MAX, default 10). */
  max?: number;
  /**
   * Longest wait for a connection, ms (config DB_ACQUIRE_TIMEOUT_MS, default 3000); then the query
   * fails with node-postgres' "timeout exceeded when trying to connect" (answered 503 by
   * platform/http/error-handler.ts). Also bounds opening a new connection.
   */
  acquireTimeoutMs?: number;
  /** What a request for a connection from inside an open transaction does (./tx-guard.ts); default 'warn'. */
  txGuard?: TxGuardMode;
  /** Receives the guard's reports in mode 'warn'. */
  onTxGuardViolation?: (error: PoolWaitInTransactionError) => void;
};

/**
 * Opens a pool and a Kysely instance over it. Repeated parameterised statements run as prepared
 * statements (./prepared.ts); transactions are guarded against waiting on the pool (./tx-guard.ts).
 */
export function createDb(url: string, options: DbOptions = {}): { db: Db; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, connectionTimeoutMillis: options.acquireTimeoutMs ?? 3000 });
  pool.on('error', () => {}); // idle client errors are reported by the next query
  usePreparedStatements(pool);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  guardTransactions(db, pool, options.txGuard ?? 'warn', options.onTxGuardViolation);
  return { db, pool };
}

const migrations: Record<string, Migration> = {
  '0001_init': m0001,
  '0002_numbers_complete': m0002,
  '0003_calls_complete': m0003,
  '0004_inbox_complete': m0004,
  '0005_contacts_complete': m0005,
  '0006_campaigns': m0006,
  '0007_in_app_calling': m0007,
  '0008_company_quiet_hours_toggle': m0008,
  '0013_menu_replays': m0013,
  '0014_voicemail_item_duration': m0014,
  '0009_auth_hardening': m0009,
  '0010_app_secrets': m0010,
  '0011_import_choices_and_job_recovery': m0011,
  '0015_search_indexes': m0015,
  '0016_number_call_settings': m0016,
  '0017_tracking': m0017,
  '0018_analytics': m0018,
  '0019_alerts_report_preferences': m0019,
  '0020_accounts': m0020,
  '0021_integrations': m0021,
  '0022_signin_extras': m0022,
  '0023_workspace': m0023,
  '0024_analytics_rollups': m0024,
  '0025_oidc_identities': m0025,
  '0026_push_subscriptions': m0026,
  '0027_analytics_day_rollups': m0027,
  '0028_billing': m0028,
  '0029_outbound_calls': m0029,
  '0030_transcription': m0030,
  '0031_call_intelligence': m0031,
  '0032_caller_id': m0032,
  '0033_fax': m0033,
  '0034_sms_verification': m0034,
  '0035_marketplace': m0035,
  '0036_registration_fees': m0036,
  '0042_call_search_weeks': m0042,
  '0043_handset_call_lines': m0043,
  '0044_dni_pool_numbers_hot': m0044,
  '0045_number_trigger_firings': m0045,
  '0046_sandbox_call_redirects': m0046,
  '0037_tracking_leads': m0037,
  '0038_notes_by_company': m0038,
};

class StaticProvider implements MigrationProvider {
  async getMigrations() {
    return migrations;
  }
}

/**
 * Applies pending migrations in order. Safe to call from several nodes at once
 * (Kysely takes an advisory lock).
 * @throws the migration's error; the failed migration's transaction is rolled back.
 */
export async function migrate(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider: new StaticProvider(), allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw error instanceof Error ? error : new Error(`Migration ${failed?.migrationName ?? ''} failed`);
}
