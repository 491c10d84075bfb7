/**
 * The analytics facts' pending set (docs/analytics.md "How facts stay right"): the `analytics.facts` consumer records
 * each changed call here (one insert, on conflict nothing) and a batcher rebuilds the pending calls in large batches,
 * deleting them in the rebuild's transaction. Durable (a crash leaves them here for the next flush) and coalesced (the
 * events of many calls cost one rebuild).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table call_facts_pending (call_id bigint primary key, queued_at timestamptz not null default now())`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists call_facts_pending`.execute(db);
}
