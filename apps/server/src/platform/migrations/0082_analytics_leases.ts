/**
 * Leases of the analytics module's background passes (docs/analytics.md "How facts stay right"): the flush of the
 * facts' pending set runs in one process of a deployment at a time. Two nodes flushing together rebuilt the same
 * oldest pending calls twice and queued on the same rollup rows (bench/soak); the process holding `facts-flush`
 * flushes every pending call, the others leave it to that process and try again shortly. A lease that is not renewed
 * (its process died) expires after its time.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table analytics_leases (name text primary key, holder text not null, until timestamptz not null)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists analytics_leases`.execute(db);
}
