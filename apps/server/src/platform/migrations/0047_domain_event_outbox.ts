/**
 * The transactional outbox of domain events (docs/architecture.md "Domain events"): an event is
 * written in the same transaction as the change it describes, with one delivery row per consumer
 * that reacts to it. Workers run each delivery at least once; a consumer's deliveries of one
 * aggregate run in event order. Done deliveries and their events are kept for replay for
 * seven days and then removed by the outbox's sweep. `effect_at`: when a consumer that counts (not
 * upserts) applied the event's effect (`events.claimEffect`), so a redelivery or a replay counts nothing twice.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table domain_events (
      id bigserial primary key,
      name text not null,
      aggregate_type text not null,
      aggregate_id text not null,
      seq integer not null,
      payload jsonb not null,
      created_at timestamptz not null default now()
    );
    create index domain_events_aggregate on domain_events (aggregate_type, aggregate_id, seq);
    create index domain_events_created on domain_events (created_at);

    create table event_deliveries (
      consumer text not null,
      event_id bigint not null references domain_events (id) on delete cascade,
      aggregate_key text not null,
      status text not null default 'pending' check (status in ('pending', 'done', 'dead')),
      attempts integer not null default 0,
      next_at timestamptz not null default now(),
      locked_until timestamptz,
      locked_by text,
      last_error text,
      done_at timestamptz,
      effect_at timestamptz,
      created_at timestamptz not null default now(),
      primary key (consumer, event_id)
    );
    create index event_deliveries_due on event_deliveries (next_at) where status = 'pending';
    create index event_deliveries_open_aggregate on event_deliveries (consumer, aggregate_key, event_id) where status = 'pending';
    create index event_deliveries_dead on event_deliveries (consumer, event_id) where status = 'dead';
    create index event_deliveries_event on event_deliveries (event_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists event_deliveries; drop table if exists domain_events;`.execute(db);
}
