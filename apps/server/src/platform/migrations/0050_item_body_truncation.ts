/**
 * What was cut of an inbound message (docs/operations.md "Bounds on outside input", docs/messaging.md
 * "Long messages"): the carrier adapter keeps at most the carrier's own limit of a body (Twilio:
 * 1,600 characters) and says so. `body_truncated` marks an item whose body was cut;
 * `body_original_length` is then the number of characters (code points) received, null otherwise.
 * Adding a column with a constant default rewrites nothing (PostgreSQL 11+).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table conversation_items
      add column body_truncated boolean not null default false,
      add column body_original_length integer;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table conversation_items drop column if exists body_truncated, drop column if exists body_original_length;`.execute(db);
}
