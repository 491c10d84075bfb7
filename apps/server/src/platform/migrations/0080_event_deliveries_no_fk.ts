/**
 * The outbox's delivery rows lose their foreign key to `domain_events` (docs/architecture.md "Domain events"): the key
 * checked every delivery row as it was written (a `FOR KEY SHARE` lookup of its event, 25 per new call in
 * bench/call-routing, more PostgreSQL time than the rest of the emit). Deliveries are only ever written with their event
 * (the emit's one statement) or from it (a replay selects existing events), and the outbox's sweep removes an event and
 * its deliveries in one statement, so nothing can leave a delivery without its event.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table event_deliveries drop constraint if exists event_deliveries_event_id_fkey`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from event_deliveries d where not exists (select 1 from domain_events e where e.id = d.event_id);
    alter table event_deliveries add constraint event_deliveries_event_id_fkey foreign key (event_id) references domain_events (id) on delete cascade`.execute(db);
}
