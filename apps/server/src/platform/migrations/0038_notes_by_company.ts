/**
 * The activity feed's notes (modules/activity through modules/notes `companyNotesActivity`; docs/analytics.md
 * "Activity"): a company's notes newest first, optionally within a range, read by one index instead of a scan of
 * every company's notes.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index notes_company_created on notes (company_id, created_at desc, id desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index notes_company_created`.execute(db);
}
