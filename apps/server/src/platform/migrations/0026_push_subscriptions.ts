/**
 * Tables of browser (Web Push) and APNs VoIP push (modules/push; docs/push.md): the devices a user
 * subscribed, the notifications pushed to a user (one per user and event, so a repeated event
 * pushes once) and each delivery attempt to a device (what the sandbox adapter records).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table push_subscriptions (
      id bigserial primary key,
      user_id bigint not null references users(id) on delete cascade,
      endpoint text not null unique,
      p256dh text not null,
      auth text not null,
      user_agent text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      last_success_at timestamptz,
      last_failure_at timestamptz
    );
    create index push_subscriptions_user on push_subscriptions (user_id);

    create table apns_voip_tokens (
      id bigserial primary key,
      user_id bigint not null references users(id) on delete cascade,
      token text not null unique,
      device_name text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      last_success_at timestamptz,
      last_failure_at timestamptz
    );
    create index apns_voip_tokens_user on apns_voip_tokens (user_id);

    create table push_notifications (
      id bigserial primary key,
      user_id bigint not null references users(id) on delete cascade,
      company_id bigint references companies(id) on delete cascade,
      kind text not null check (kind in ('message', 'call', 'test')),
      dedupe_key text not null,
      title text not null,
      body text not null,
      url text not null,
      data jsonb not null default '{}'::jsonb,
      ttl_s integer not null,
      created_at timestamptz not null default now(),
      unique (user_id, dedupe_key)
    );
    create index push_notifications_user_recent on push_notifications (user_id, id desc);

    create table push_deliveries (
      id bigserial primary key,
      notification_id bigint not null references push_notifications(id) on delete cascade,
      channel text not null check (channel in ('web', 'apns')),
      target text not null,
      adapter text not null check (adapter in ('sandbox', 'web-push', 'apns')),
      outcome text not null check (outcome in ('sent', 'recorded', 'gone', 'failed')),
      status_code integer,
      error text,
      created_at timestamptz not null default now(),
      unique (notification_id, channel, target)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table if exists push_deliveries;
    drop table if exists push_notifications;
    drop table if exists apns_voip_tokens;
    drop table if exists push_subscriptions;
  `.execute(db);
}
