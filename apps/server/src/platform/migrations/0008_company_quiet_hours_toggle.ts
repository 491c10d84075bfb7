/**
 * Quiet hours configurable per company (docs/quiet-hours.md): a per-company switch for campaign quiet
 * hours (owned by modules/companies). When false, campaigns send at any hour.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table companies add column if not exists quiet_hours_enabled boolean not null default true`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table companies drop column if exists quiet_hours_enabled`.execute(db);
}
