/**
 * Live channels over Socket.IO (foundation §7 "Live channels"), fanned out across nodes with
 * the PostgreSQL adapter. Channels are private: `conversations.{companyId}`, `company.{companyId}`,
 * `campaigns.{companyId}`, `user.{userId}`; a socket may join only its own user's channel and
 * channels of companies it belongs to (checked by `canJoin`, supplied by the companies module).
 *
 * Safe by default (docs/auth.md "Live connection"):
 * - a handshake from a browser page of another origin is refused: the `Origin` header, when
 *   present, must be PUBLIC_URL's origin or name the same host as the request's `Host`;
 * - a socket lives only as long as the session or bearer token it signed in with: revoking one
 *   (`revoke`: logout, password reset, token revoke) disconnects its sockets on every node at once,
 *   and every node re-checks its sockets' credentials every REVALIDATE_EVERY_MS as a backstop
 *   (expiry, rows deleted by any other path, a node that missed the broadcast).
 */
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import { createAdapter } from '@socket.io/postgres-adapter';
import { LIVE_CHANNEL_PATTERN, type LiveChannel, type LiveChannelKind, type LiveEventName, type LivePayload } from '@switchboard/contracts';
import type pg from 'pg';
import { Server, type Namespace, type Socket } from 'socket.io';
import { SESSION_COOKIE } from './auth/auth.plugin.js';
import { sessionsRepository } from './auth/sessions.repository.js';
import { hashToken } from './auth/tokens.js';
import type { Config } from './config.js';
import type { Db } from './db/db.js';
import { GroupCommit } from './db/group-commit.js';

/** How often each node re-checks the credentials of its sockets (ms). */
export const REVALIDATE_EVERY_MS = 10_000;

/** What a socket signed in with (kept on `socket.data`). */
type SocketCredential = { userId: number; sessionId?: string; tokenHash?: string };

/** What to disconnect: the sockets of one session, of one bearer token, of every token of a user, or every socket of a user. */
export type RevokeTarget = { sessionId: string } | { tokenHash: string } | { tokensOfUser: number } | { user: number };

/** Internal rooms used to find a credential's sockets; `#` keeps them out of CHANNEL_PATTERN (clients cannot join or leave them). */
function revokeRoom(target: RevokeTarget): string {
  if ('sessionId' in target) return `#session:${target.sessionId}`;
  if ('tokenHash' in target) return `#token:${target.tokenHash}`;
  if ('tokensOfUser' in target) return `#user-tokens:${target.tokensOfUser}`;
  return `#user:${target.user}`;
}

/**
 * Whether a Socket.IO handshake may proceed: requests without `Origin` (non-browser clients; a
 * browser always sends it cross-origin) and those whose `Origin` is `publicUrl`'s origin or names
 * the request's own `Host`.
 */
export function originAllowed(req: Pick<IncomingMessage, 'headers'>, publicUrl: string | undefined): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch (error) {
    if (error instanceof TypeError) return false; // not a URL
    throw error;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (publicUrl) {
    try {
      if (new URL(publicUrl).origin === url.origin) return true;
    } catch (error) {
      if (!(error instanceof TypeError)) throw error; // else no usable PUBLIC_URL
    }
  }
  const host = req.headers.host;
  return typeof host === 'string' && host.toLowerCase() === url.host.toLowerCase();
}

function cookiesOf(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i <= 0) continue;
    try {
      out[part.slice(0, i).trim()] = decodeURIComponent(part.slice(i + 1).trim());
    } catch (error) {
      if (!(error instanceof URIError)) throw error; // else a malformed value: ignored
    }
  }
  return out;
}

export type ResolveUser = (sessionToken: string | undefined, bearer: string | undefined) => Promise<number | null>;
/**
 * Whether a user may join a channel: `false` no, `true` every event of it, or a list of scope ids (e.g. the numbers a
 * `user` sees, docs/permissions.md "Numbers a user sees"): then only events published with one of those scopes
 * (see {@link Realtime.publish}) and events sent to everyone in the channel (`scope: 'all'`).
 */
export type CanJoin = (userId: number, channel: string) => Promise<boolean | readonly number[]>;

/** Room of the sockets that joined `channel` with a scope list. `#` keeps it out of CHANNEL_PATTERN. */
const scopedRoom = (channel: string) => `${channel}#scoped`;
/** Room of the sockets that joined `channel` with scope id `id` among theirs. */
const scopeRoom = (channel: string, id: number) => `${channel}#s${id}`;

/**
 * Sets up a namespace of its own (the consumer area's `/caddy`, docs/consumer-area.md "Live updates"): its own
 * handshake check and rooms, none of the business sockets' channels. May return what to stop when the server closes.
 */
export type NamespaceSetup = (nsp: Namespace) => (() => void) | void;

/** Joinable channel names: the kinds of the live-event registry (packages/contracts `LIVE_EVENTS`) and an id. */
export const CHANNEL_PATTERN = LIVE_CHANNEL_PATTERN;

/** Publishes events to channels; the no-op default lets code run where no server is attached (scripts). */
export class Realtime {
  private io: Server | null = null;
  private notifies: GroupCommit<[string, string], void> | null = null;
  private revalidateTimer: NodeJS.Timeout | null = null;
  private revalidating: Promise<void> | null = null;
  private readonly namespaces = new Map<string, NamespaceSetup>();
  private readonly namespaceStops: Array<() => void> = [];

  /**
   * @param options.config PUBLIC_URL (read at each handshake) for the origin check.
   * @param options.db where sessions and tokens are re-checked; without it only `revoke` disconnects.
   */
  constructor(private readonly options: { config?: Pick<Config, 'publicUrl'>; db?: Db } = {}) {}

  /** Attaches Socket.IO to the HTTP server. */
  attach(server: HttpServer, pool: pg.Pool, resolveUser: ResolveUser, canJoin: CanJoin): void {
    const io = new Server(server, {
      path: '/socket.io',
      serveClient: false,
      // Same-origin only: no CORS headers, and a handshake from another origin's page is refused.
      allowRequest: (req, callback) => {
        const ok = originAllowed(req, this.options.config?.publicUrl);
        callback(ok ? null : 'Origin not allowed', ok);
      },
    });
    const shared = batchedNotifyPool(pool);
    this.notifies = shared.notifies;
    io.adapter(createAdapter(shared.pool, { tableName: 'socket_io_attachments', errorHandler: () => {} }));
    io.use(async (socket, next) => {
      const sessionToken = cookiesOf(socket.handshake.headers.cookie)[SESSION_COOKIE];
      const auth = socket.handshake.auth as { token?: unknown } | undefined;
      const bearer = typeof auth?.token === 'string' && auth.token ? auth.token : undefined;
      // The same precedence as the HTTP API (platform/auth): a valid bearer token, else the session cookie.
      let credential: SocketCredential | null = null;
      const byToken = bearer ? await resolveUser(undefined, bearer).catch(() => null) : null;
      if (byToken) credential = { userId: byToken, tokenHash: hashToken(bearer!) };
      else if (sessionToken) {
        const bySession = await resolveUser(sessionToken, undefined).catch(() => null);
        if (bySession) credential = { userId: bySession, sessionId: hashToken(sessionToken) };
      }
      if (!credential) return next(new Error('Unauthenticated.'));
      socket.data.userId = credential.userId;
      socket.data.credential = credential;
      next();
    });
    io.on('connection', (socket) => {
      const credential = socket.data.credential as SocketCredential;
      const rooms = [revokeRoom({ user: credential.userId })];
      if (credential.sessionId) rooms.push(revokeRoom({ sessionId: credential.sessionId }));
      if (credential.tokenHash) rooms.push(revokeRoom({ tokenHash: credential.tokenHash }), revokeRoom({ tokensOfUser: credential.userId }));
      void socket.join(rooms);
      socket.on('subscribe', async (channel: unknown, ack?: (r: { ok: boolean; message?: string }) => void) => {
        const rule =
          typeof channel === 'string' && CHANNEL_PATTERN.test(channel) ? await canJoin(socket.data.userId as number, channel).catch(() => false) : false;
        if (rule === true) await socket.join(channel as string);
        else if (rule !== false) await socket.join([scopedRoom(channel as string), ...rule.map((id) => scopeRoom(channel as string, id))]);
        const ok = rule !== false;
        if (typeof ack === 'function') ack(ok ? { ok } : { ok, message: "You're not authorized to perform this action" });
      });
      socket.on('unsubscribe', async (channel: unknown) => {
        if (typeof channel !== 'string' || !CHANNEL_PATTERN.test(channel)) return;
        await socket.leave(channel);
        for (const room of [...socket.rooms]) if (room.startsWith(`${channel}#`)) await socket.leave(room);
      });
    });
    this.io = io;
    for (const [name, setup] of this.namespaces) this.setUpNamespace(io, name, setup);
    if (this.options.db) {
      this.revalidateTimer = setInterval(() => void this.revalidate().catch(() => {}), REVALIDATE_EVERY_MS);
      this.revalidateTimer.unref();
    }
  }

  /**
   * Registers a namespace of its own (`name`, e.g. `/caddy`), set up when the server attaches (at once when attached):
   * it shares the origin check and the PostgreSQL adapter (events reach its sockets on every node), nothing else.
   */
  useNamespace(name: string, setup: NamespaceSetup): void {
    this.namespaces.set(name, setup);
    if (this.io) this.setUpNamespace(this.io, name, setup);
  }

  private setUpNamespace(io: Server, name: string, setup: NamespaceSetup): void {
    const stop = setup(io.of(name));
    if (stop) this.namespaceStops.push(stop);
  }

  /**
   * Sends `event` with `payload` to the sockets in `room` of namespace `namespace`, on every node, as `(event, payload,
   * room)` (like {@link publish} for the channels). Call after commit.
   */
  publishIn(namespace: string, room: string, event: string, payload: unknown): void {
    const io = this.io;
    if (!io) return;
    const nsp = io.of(namespace);
    if (this.alone(io, namespace)) nsp.local.to(room).emit(event, payload, room);
    else nsp.to(room).emit(event, payload, room);
  }

  /** Disconnects the sockets in `room` of namespace `namespace`, on every node (e.g. a consumer session that ended). */
  disconnectIn(namespace: string, room: string): void {
    const io = this.io;
    if (!io) return;
    const nsp = io.of(namespace);
    if (this.alone(io, namespace)) nsp.local.in(room).disconnectSockets(true);
    else nsp.in(room).disconnectSockets(true);
  }

  /**
   * Disconnects, on every node, the sockets signed in with `target` (call after the session or
   * token rows are gone and the transaction committed). Unknown targets are a no-op.
   */
  revoke(target: RevokeTarget): void {
    const io = this.io;
    if (!io) return;
    const room = revokeRoom(target);
    if (this.alone(io)) io.local.in(room).disconnectSockets(true);
    else io.in(room).disconnectSockets(true);
  }

  /**
   * Re-checks this node's sockets against the database (one query for sessions, one for tokens)
   * and disconnects those whose session or token has ended. Runs every REVALIDATE_EVERY_MS; one
   * run at a time (a call during a run waits for it).
   */
  async revalidate(): Promise<void> {
    if (this.revalidating) return this.revalidating;
    this.revalidating = (async () => {
      const io = this.io;
      const db = this.options.db;
      if (!io || !db) return;
      const sockets = [...io.of('/').sockets.values()] as Socket[];
      const credentialOf = (s: Socket) => s.data.credential as SocketCredential | undefined;
      const sessionIds = [...new Set(sockets.map((s) => credentialOf(s)?.sessionId).filter((v): v is string => Boolean(v)))];
      const tokenHashes = [...new Set(sockets.map((s) => credentialOf(s)?.tokenHash).filter((v): v is string => Boolean(v)))];
      const [liveSessions, liveTokens] = await Promise.all([
        sessionsRepository.liveSessionIds(db, sessionIds),
        sessionsRepository.liveTokenHashes(db, tokenHashes),
      ]);
      for (const socket of sockets) {
        const c = credentialOf(socket);
        const live = c?.sessionId ? liveSessions.has(c.sessionId) : c?.tokenHash ? liveTokens.has(c.tokenHash) : false;
        if (!live) socket.disconnect(true);
      }
    })().finally(() => {
      this.revalidating = null;
    });
    return this.revalidating;
  }

  /**
   * Publishes a registered live event (packages/contracts `LIVE_EVENTS`, docs/architecture.md):
   * the channel's kind decides which events and payloads are accepted. Call after commit.
   */
  send<K extends LiveChannelKind, E extends LiveEventName<K>>(channel: LiveChannel<K>, event: E, payload: LivePayload<K, E>, scope?: number | 'all'): void {
    this.publish(channel, event, payload, scope);
  }

  /**
   * Sends `event` with `payload` to every socket in `channel`, on every node, as `(event, payload,
   * channel)` so a client can dispatch by channel. Untyped: modules use `send`. Call after commit.
   * `scope`: none — only sockets that joined the whole channel; an id — also sockets that joined with that id in their
   * scope list ({@link CanJoin}); `'all'` — every socket of the channel, scoped or not (e.g. a deletion by id).
   */
  publish(channel: string, event: string, payload: unknown, scope?: number | 'all'): void {
    const io = this.io;
    if (!io) return;
    const rooms = scope === undefined ? [channel] : [channel, scope === 'all' ? scopedRoom(channel) : scopeRoom(channel, scope)];
    // While no other node has announced itself, the event goes to this node's sockets only, without
    // a NOTIFY round trip through PostgreSQL. Otherwise through the adapter to every node.
    if (this.alone(io)) io.local.to(rooms).emit(event, payload, channel);
    else io.to(rooms).emit(event, payload, channel);
  }

  /**
   * Whether an event on `channel` could reach anyone: false only when this node is alone (no
   * other node has announced itself) and none of its sockets joined the channel. Lets a publisher
   * skip building a payload nobody receives (e.g. the inbox's `conversation updated` while no one
   * has that company's inbox open).
   */
  mayHaveSubscribers(channel: string): boolean {
    const io = this.io;
    if (!io) return false;
    const rooms = io.of('/').adapter.rooms;
    return !this.alone(io) || (rooms.get(channel)?.size ?? 0) > 0 || (rooms.get(scopedRoom(channel))?.size ?? 0) > 0;
  }

  /**
   * No other node has announced itself through the adapter's heartbeats (a starting node announces
   * itself before it accepts connections). False when the adapter does not say.
   */
  private alone(io: Server, namespace = '/'): boolean {
    const others = (io.of(namespace).adapter as unknown as { nodesMap?: Map<string, number> }).nodesMap;
    return others !== undefined && others.size === 0;
  }

  async close(): Promise<void> {
    if (this.revalidateTimer) clearInterval(this.revalidateTimer);
    this.revalidateTimer = null;
    for (const stop of this.namespaceStops.splice(0)) stop();
    await this.revalidating?.catch(() => {});
    await new Promise<void>((resolve) => (this.io ? this.io.close(() => resolve()) : resolve()));
    this.io = null;
    await this.notifies?.flush();
  }
}

/** The statement @socket.io/postgres-adapter sends for every broadcast. */
const ADAPTER_NOTIFY = 'SELECT pg_notify($1, $2)';

/**
 * The pool as the Socket.IO adapter sees it, with its per-broadcast `pg_notify` batched: the
 * notifications published in the same turn of the event loop go out as ONE statement (one
 * transaction, so PostgreSQL delivers them in order, and identical ones once), one batch at a time
 * so batches stay in order (`bench/call-routing`: every inbound call publishes twice). Every other query
 * (attachments, the LISTEN client) goes to `pool` unchanged.
 */
function batchedNotifyPool(pool: pg.Pool): { pool: pg.Pool; notifies: GroupCommit<[string, string], void> } {
  const notifies = new GroupCommit<[string, string], void>({
    maxWaitMs: 0,
    maxItems: 500,
    concurrency: 1,
    detached: true, // publishing never holds up a transaction
    run: async (items) => {
      await pool.query('select pg_notify(n.channel, n.payload) from unnest((select $1::text[]), (select $2::text[])) as n(channel, payload)', [
        items.map((i) => i[0]),
        items.map((i) => i[1]),
      ]);
      return items.map(() => undefined);
    },
  });
  const shim = {
    query: (text: string, values?: unknown[]) =>
      text === ADAPTER_NOTIFY && values?.length === 2 ? notifies.submit([String(values[0]), String(values[1])]) : pool.query(text, values),
    // The adapter's LISTEN client: a broken connection (PostgreSQL restarted, the backend terminated) emits 'error',
    // which the adapter does not listen to; it reconnects on the 'end' that follows.
    connect: async () => {
      const client = await pool.connect();
      if (client.listenerCount('error') === 0) client.on('error', () => {});
      return client;
    },
  };
  return { pool: shim as unknown as pg.Pool, notifies };
}
