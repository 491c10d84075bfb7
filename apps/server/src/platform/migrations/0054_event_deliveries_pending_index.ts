/**
 * The outbox workers' claim (docs/architecture.md "Domain events") takes the oldest due deliveries by event id. Its
 * plan walked `event_deliveries_event`, which holds every delivery of the last 7 days, done ones included, until it
 * found pending ones (590 ms a claim in bench/call-routing). This index holds only the pending deliveries, in event
 * order; `event_deliveries_due` (by `next_at`) is no longer used by any query and goes.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index event_deliveries_pending on event_deliveries (event_id) where status = 'pending';
    drop index if exists event_deliveries_due;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index event_deliveries_due on event_deliveries (next_at) where status = 'pending';
    drop index if exists event_deliveries_pending;
  `.execute(db);
}
