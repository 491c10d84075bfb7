/**
 * The number's menu after an invalid choice or no choice (docs/telephony.md "Menu replays and
 * fallback"; owned by modules/numbers): `menu_replays` how many times the menu is played again
 * (0 to 5, default 2), then `menu_fallback`: 'first' (connect the first extension), 'voicemail'
 * (the first extension's voicemail) or 'hangup' (say goodbye and hang up).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table numbers add column if not exists menu_replays smallint not null default 2`.execute(db);
  await sql`alter table numbers add column if not exists menu_fallback text not null default 'first'`.execute(db);
  await sql`alter table numbers drop constraint if exists numbers_menu_replays_range`.execute(db);
  await sql`alter table numbers add constraint numbers_menu_replays_range check (menu_replays between 0 and 5)`.execute(db);
  await sql`alter table numbers drop constraint if exists numbers_menu_fallback_kind`.execute(db);
  await sql`alter table numbers add constraint numbers_menu_fallback_kind check (menu_fallback in ('first', 'voicemail', 'hangup'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table numbers drop constraint if exists numbers_menu_fallback_kind`.execute(db);
  await sql`alter table numbers drop constraint if exists numbers_menu_replays_range`.execute(db);
  await sql`alter table numbers drop column if exists menu_fallback`.execute(db);
  await sql`alter table numbers drop column if exists menu_replays`.execute(db);
}
