/**
 * A number's call settings of spec 002 §3 "Number" (owned by modules/numbers): `record` (record its
 * calls), `call_transcription_enabled` (transcribe them) and `ai_eav_enabled` (fill AI custom
 * fields), all off by default; set by PUT /numbers/{id} and by applying a number template
 * (docs/numbers.md "Spec fields of a number").
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table numbers add column if not exists record boolean not null default false`.execute(db);
  await sql`alter table numbers add column if not exists call_transcription_enabled boolean not null default false`.execute(db);
  await sql`alter table numbers add column if not exists ai_eav_enabled boolean not null default false`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table numbers drop column if exists ai_eav_enabled`.execute(db);
  await sql`alter table numbers drop column if exists call_transcription_enabled`.execute(db);
  await sql`alter table numbers drop column if exists record`.execute(db);
}
