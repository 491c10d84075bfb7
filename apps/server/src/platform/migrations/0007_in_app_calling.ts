/**
 * In-app calling (docs/telephony.md): one row per call that rang in-app users (or was placed from the
 * browser), owned by modules/in-app-calling. `answered_by` is claimed atomically
 * (`UPDATE ... WHERE answered_by IS NULL`): the first answer wins. `join_token` is the secret the
 * ringing users got on `user.{id}`; reject requires it. `rejected_by` lists users who declined.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table in_app_calls (
      call_id bigint primary key references calls(id) on delete cascade,
      company_id bigint not null references companies(id) on delete cascade,
      carrier_sid text not null,
      direction text not null default 'inbound',
      join_token text not null,
      rung_user_ids bigint[] not null default '{}',
      rejected_by bigint[] not null default '{}',
      answered_by bigint references users(id) on delete set null,
      answered_at timestamptz,
      ended_at timestamptz,
      end_reason text,
      placed_by bigint references users(id) on delete set null,
      created_at timestamptz not null default now()
    );
    create index in_app_calls_sid on in_app_calls (carrier_sid);
    create index in_app_calls_company on in_app_calls (company_id, created_at desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists in_app_calls`.execute(db);
}
