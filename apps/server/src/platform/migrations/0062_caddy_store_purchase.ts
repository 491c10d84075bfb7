/**
 * The store purchase an account's subscription state comes from (modules/caddy/stores; docs/consumer-area.md "Store
 * subscriptions"): Apple's `originalTransactionId` or Google Play's `purchaseToken`. A notification that ends the
 * service of another purchase (the Play token an upgrade replaced, an old subscription group) then changes nothing.
 * Owned by caddy.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table caddy_accounts add column subscription_purchase_id text;
    alter table caddy_store_events add column purchase_id text;`.execute(db);
}
