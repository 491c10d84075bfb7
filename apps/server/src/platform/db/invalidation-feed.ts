/**
 * Cross-process cache invalidation over PostgreSQL LISTEN/NOTIFY (docs/architecture.md "The voice webhook's hot path").
 *
 * A module that caches data in process (platform/db/read-cache.ts) subscribes to a channel with
 * `invalidationFeed(ctx, channel, onInvalidate)` and, after every committed write of that data,
 * calls `notifyInvalidation(ctx, channel)`: every server process on the same database then drops
 * its entries within the notification's round trip instead of waiting for the cache's TTL.
 *
 * - One dedicated `pg.Client` per database handle (`ctx.db`), opened on first subscription, with
 *   the pool's connection settings; it LISTENs on every subscribed channel.
 * - `live()` is true only while that client is connected and LISTENing on the channel. Callers
 *   must keep a short TTL when it is false (notifications may be missed then).
 * - Robust to reconnects: when the client errors or ends, every subscriber's `onInvalidate` runs
 *   (notifications may be missed from now on) and the client reconnects with a backoff (0.5 s
 *   doubling to 30 s); once LISTENing again, `onInvalidate` runs again (missed ones).
 * - `closeInvalidationFeeds(ctx)` (bootstrap's close) ends the client and stops reconnecting.
 */
import { sql } from 'kysely';
import pg from 'pg';
import type { AppContext } from '../../context.js';

type Feed = {
  client: pg.Client | null;
  /** Channels LISTENed on by the current client. */
  listening: Set<string>;
  handlers: Map<string, Set<() => void>>;
  closed: boolean;
  timer: NodeJS.Timeout | null;
  backoffMs: number;
};

const feeds = new WeakMap<object, Feed>();
const MIN_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;

function runAll(feed: Feed, channels: Iterable<string> = feed.handlers.keys()): void {
  for (const ch of channels) for (const h of feed.handlers.get(ch) ?? []) h();
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function scheduleReconnect(ctx: AppContext, feed: Feed): void {
  if (feed.closed || feed.timer) return;
  const wait = feed.backoffMs;
  feed.backoffMs = Math.min(MAX_BACKOFF_MS, feed.backoffMs * 2);
  feed.timer = setTimeout(() => {
    feed.timer = null;
    void connect(ctx, feed);
  }, wait);
  feed.timer.unref();
}

function dropClient(ctx: AppContext, feed: Feed, client: pg.Client): void {
  if (feed.client !== client) return;
  feed.client = null;
  feed.listening.clear();
  runAll(feed);
  client.end().catch(() => {});
  scheduleReconnect(ctx, feed);
}

async function listen(feed: Feed, client: pg.Client, channel: string): Promise<void> {
  await client.query(`LISTEN ${quoteIdent(channel)}`);
  if (feed.client !== client) return;
  feed.listening.add(channel);
  runAll(feed, [channel]); // whatever was cached before LISTEN took effect may have missed a notification
}

async function connect(ctx: AppContext, feed: Feed): Promise<void> {
  if (feed.closed || feed.client) return;
  const options = ctx.pool.options;
  const client = new pg.Client({ ...options, keepAlive: true } as pg.ClientConfig);
  feed.client = client;
  client.on('error', (e) => {
    ctx.log.warn({ err: e }, 'invalidation feed connection lost');
    dropClient(ctx, feed, client);
  });
  client.on('end', () => dropClient(ctx, feed, client));
  client.on('notification', (msg) => {
    if (feed.client === client) runAll(feed, [msg.channel]);
  });
  try {
    await client.connect();
    for (const ch of feed.handlers.keys()) await listen(feed, client, ch);
    if (feed.closed) {
      await client.end().catch(() => {});
      return;
    }
    feed.backoffMs = MIN_BACKOFF_MS;
  } catch (e) {
    if (!feed.closed) ctx.log.warn({ err: e }, 'invalidation feed could not connect');
    dropClient(ctx, feed, client);
  }
}

/**
 * Subscribes `onInvalidate` to `channel` (a plain identifier) on `ctx`'s database; opens the
 * feed's connection on first use. `onInvalidate` runs on every NOTIFY of the channel (from any
 * process, this one included), when the connection is lost and when it is LISTENing again.
 * @returns `live()`: whether notifications of the channel are being received right now.
 */
export function invalidationFeed(ctx: AppContext, channel: string, onInvalidate: () => void): { live: () => boolean } {
  let feed = feeds.get(ctx.db);
  if (!feed) {
    feed = { client: null, listening: new Set(), handlers: new Map(), closed: false, timer: null, backoffMs: MIN_BACKOFF_MS };
    feeds.set(ctx.db, feed);
  }
  const f = feed;
  let set = f.handlers.get(channel);
  const isNewChannel = !set;
  if (!set) f.handlers.set(channel, (set = new Set()));
  set.add(onInvalidate);
  if (!f.closed && ctx.pool) {
    if (!f.client) void connect(ctx, f);
    else if (isNewChannel && f.client) {
      const client = f.client;
      listen(f, client, channel).catch(() => dropClient(ctx, f, client));
    }
  }
  return { live: () => f.client !== null && f.listening.has(channel) };
}

/**
 * Tells every process on the database that data of `channel` changed (call after the write has
 * committed; this process should also drop its own entries at once). Never throws: a failure is
 * logged and other processes then see the change within their cache's TTL.
 */
export function notifyInvalidation(ctx: AppContext, channel: string): void {
  sql`select pg_notify(${channel}, '')`.execute(ctx.db).catch((e: unknown) => ctx.log.warn({ err: e, channel }, 'invalidation notify failed'));
}

/** Ends the feed's connection of `ctx`'s database and stops reconnecting (server close). */
export async function closeInvalidationFeeds(ctx: AppContext): Promise<void> {
  const feed = feeds.get(ctx.db);
  if (!feed) return;
  feed.closed = true;
  if (feed.timer) clearTimeout(feed.timer);
  feed.timer = null;
  const client = feed.client;
  feed.client = null;
  feed.listening.clear();
  if (client) await client.end().catch(() => {});
}

/** Whether `ctx`'s feed is LISTENing on `channel` right now (tests, diagnostics). */
export function invalidationFeedLive(ctx: AppContext, channel: string): boolean {
  const feed = feeds.get(ctx.db);
  return Boolean(feed?.client && feed.listening.has(channel));
}
