/**
 * Shared inbox (docs/messaging.md): notification blocks (mute notifications per user, number and channel
 * type), one thread item per call with its status and length (calls and voicemails in the conversation thread), and indexes
 * for unread counts per type and for due scheduled messages.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table notification_blocks (
      id bigint generated always as identity primary key,
      company_id bigint not null references companies(id) on delete cascade,
      user_id bigint not null references users(id) on delete cascade,
      number_id bigint not null references numbers(id) on delete cascade,
      channel_type text not null,
      created_at timestamptz not null default now(),
      unique (user_id, number_id, channel_type)
    );
    create index notification_blocks_company on notification_blocks (company_id, user_id);
    alter table conversation_items add column call_status smallint, add column duration_s integer;
    create unique index conversation_items_call on conversation_items (call_id) where call_id is not null;
    create index conversation_items_company_unread on conversation_items (company_id, type, conversation_id) where not is_read;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index if exists conversation_items_company_unread;
    drop index if exists conversation_items_call;
    drop table if exists notification_blocks;
    alter table conversation_items drop column if exists call_status, drop column if exists duration_s;
  `.execute(db);
}
