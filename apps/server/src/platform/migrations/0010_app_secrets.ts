/**
 * Server secrets shared by every node (platform/blob/secret.ts): when SECRET_KEY is not set, the
 * key signing file URLs is generated once and kept here (docs/operations.md "Files").
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table if not exists app_secrets (
    name text primary key,
    value text not null,
    created_at timestamptz not null default now()
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists app_secrets`.execute(db);
}
