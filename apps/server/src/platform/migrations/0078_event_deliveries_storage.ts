/**
 * The outbox's delivery rows (docs/architecture.md "Domain events") are written once and updated twice (the claim,
 * the done mark) within milliseconds. Two storage changes make that cheaper:
 * - `fillfactor` 70: room on each page, so the claim (lease, attempts: no indexed column) is a HOT update and adds no
 *   index entries;
 * - the primary key leads with the event id (`(event_id, consumer)`), which also serves every lookup by event (the
 *   cascade from `domain_events`, the sweep), so `event_deliveries_event` goes: one index fewer to write per row
 *   version. Lookups by consumer and event id (done marks, `claimEffect`) use the same key.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table event_deliveries set (fillfactor = 70);
    alter table event_deliveries drop constraint event_deliveries_pkey;
    alter table event_deliveries add constraint event_deliveries_pkey primary key (event_id, consumer);
    drop index if exists event_deliveries_event;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index event_deliveries_event on event_deliveries (event_id);
    alter table event_deliveries drop constraint event_deliveries_pkey;
    alter table event_deliveries add constraint event_deliveries_pkey primary key (consumer, event_id);
    alter table event_deliveries reset (fillfactor);
  `.execute(db);
}
