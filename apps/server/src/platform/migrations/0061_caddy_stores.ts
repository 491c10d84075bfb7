/**
 * Consumer store subscriptions (modules/caddy/stores; docs/consumer-area.md "Store subscriptions"). Owned by caddy:
 * - `caddy_numbers.inactive_reason`: `subscription` when the store subscription's end made the number inactive (its
 *   30-day removal started by the subscription, not by the person), so a renewal after expiry restores exactly those;
 * - `caddy_store_events.product_id`, `expires_at`, `event_type`: what the notification said (support and tracing);
 * - `caddy_store_sandbox`: the sandbox store's own subscriptions (the offline stand-in for the App Store's and Google
 *   Play's records: the Play Developer API's `subscriptionsv2` resource is read back from here).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table caddy_numbers add column inactive_reason text check (inactive_reason in ('subscription'));
    create index caddy_numbers_subscription on caddy_numbers (account_id) where inactive_reason = 'subscription' and released_at is null;

    alter table caddy_store_events add column product_id text;
    alter table caddy_store_events add column expires_at timestamptz;
    create index caddy_store_events_account on caddy_store_events (account_id, received_at desc);

    create table caddy_store_sandbox (
      purchase_id text primary key,
      store text not null check (store in ('apple', 'google')),
      iap_id uuid not null,
      product_id text not null,
      state text not null,
      auto_renew boolean not null default true,
      expires_at timestamptz not null,
      last_event_ms bigint not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index caddy_store_sandbox_iap on caddy_store_sandbox (iap_id, updated_at desc);
  `.execute(db);
}
