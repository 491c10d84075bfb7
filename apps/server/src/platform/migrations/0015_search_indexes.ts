/**
 * Index-served inbox and contact search (spec 001 §5 conversation search; docs/messaging.md
 * "Search"): trigram GIN indexes (pg_trgm) led by `company_id` (btree_gin) over the conversation's
 * recipient (E.164 digits), message bodies, and contact names and numbers, so a `%digits%` or
 * `%name%` match reads only the company's matching rows instead of scanning every conversation;
 * conversations by contact for a name search's contact ids.
 * Both extensions are trusted (PostgreSQL ≥ 13): a database owner may create them.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`create extension if not exists btree_gin`.execute(db);
  await sql`create index if not exists conversations_recipient_trgm on conversations using gin (company_id, recipient gin_trgm_ops)`.execute(db);
  await sql`create index if not exists conversation_items_body_trgm on conversation_items using gin (company_id, body gin_trgm_ops) where body is not null`.execute(db);
  await sql`create index if not exists conversations_contact on conversations (company_id, contact_id) where contact_id is not null`.execute(db);
  await sql`create index if not exists contacts_name_trgm on contacts using gin (company_id, name gin_trgm_ops)`.execute(db);
  await sql`create index if not exists contacts_number_trgm on contacts using gin (company_id, number gin_trgm_ops)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists contacts_number_trgm`.execute(db);
  await sql`drop index if exists contacts_name_trgm`.execute(db);
  await sql`drop index if exists conversations_contact`.execute(db);
  await sql`drop index if exists conversation_items_body_trgm`.execute(db);
  await sql`drop index if exists conversations_recipient_trgm`.execute(db);
}
