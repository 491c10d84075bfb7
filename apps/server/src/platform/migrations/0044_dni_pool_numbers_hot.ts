/**
 * Number assignment updates a pool number's row in place (docs/tracking.md "Performance"): every assignment sets the
 * row's `session_id`, `held_until` and `last_assigned_at`. With none of those columns indexed and free room on each
 * page (fillfactor 50), PostgreSQL makes these heap-only (HOT) updates: no new index entries per assignment, and the
 * dead versions are pruned on the page instead of waiting for a vacuum.
 *
 * - `dni_pool_numbers_pick` (pool_id, last_assigned_at, number_id) becomes (pool_id, number_id): the pick reads the
 *   pool's rows through it and orders its few free ones by `last_assigned_at` itself.
 * - `dni_pool_numbers_session` is dropped: every lookup of a pool number goes by `number_id` (the primary key).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index if exists dni_pool_numbers_session;
    drop index if exists dni_pool_numbers_pick;
    create index dni_pool_numbers_pick on dni_pool_numbers (pool_id, number_id);
    alter table dni_pool_numbers set (fillfactor = 50);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table dni_pool_numbers reset (fillfactor);
    drop index if exists dni_pool_numbers_pick;
    create index dni_pool_numbers_pick on dni_pool_numbers (pool_id, last_assigned_at nulls first, number_id);
    create index dni_pool_numbers_session on dni_pool_numbers (session_id) where session_id is not null;
  `.execute(db);
}
