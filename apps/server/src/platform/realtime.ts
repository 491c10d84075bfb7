/**
 * Live channels over Socket.IO (foundation §7 "Live channels"), fanned out across nodes with
 * the PostgreSQL adapter. Channels are private: `conversations.{companyId}`, `company.{companyId}`,
 * `campaigns.{companyId}`, `user.{userId}`; a socket may join only its own user's channel and
 * channels of companies it belongs to (checked by `canJoin`, supplied by the companies module).
 */
import type { Server as HttpServer } from 'node:http';
import { createAdapter } from '@socket.io/postgres-adapter';
import type pg from 'pg';
import { Server } from 'socket.io';
import { SESSION_COOKIE } from './auth/auth.plugin.js';
import { GroupCommit } from './db/group-commit.js';

export type ResolveUser = (sessionToken: string | undefined, bearer: string | undefined) => Promise<number | null>;
export type CanJoin = (userId: number, channel: string) => Promise<boolean>;

export const CHANNEL_PATTERN = /^(conversations|company|campaigns|user|bulk-purchase)\.(\d+)$/;

/** Publishes events to channels; the no-op default lets code run where no server is attached (scripts). */
export class Realtime {
  private io: Server | null = null;
  private notifies: GroupCommit<[string, string], void> | null = null;

  /** Attaches Socket.IO to the HTTP server. */
  attach(server: HttpServer, pool: pg.Pool, resolveUser: ResolveUser, canJoin: CanJoin): void {
    const io = new Server(server, { path: '/socket.io', serveClient: false, cors: { origin: true, credentials: true } });
    const shared = batchedNotifyPool(pool);
    this.notifies = shared.notifies;
    io.adapter(createAdapter(shared.pool, { tableName: 'socket_io_attachments', errorHandler: () => {} }));
    io.use(async (socket, next) => {
      const cookies = Object.fromEntries((socket.handshake.headers.cookie ?? '').split(';').map((c) => {
        const i = c.indexOf('=');
        return [c.slice(0, i).trim(), decodeURIComponent(c.slice(i + 1).trim())];
      }));
      const auth = socket.handshake.auth as { token?: string } | undefined;
      const userId = await resolveUser(cookies[SESSION_COOKIE], auth?.token).catch(() => null);
      if (!userId) return next(new Error('Unauthenticated.'));
      socket.data.userId = userId;
      next();
    });
    io.on('connection', (socket) => {
      socket.on('subscribe', async (channel: unknown, ack?: (r: { ok: boolean; message?: string }) => void) => {
        const ok = typeof channel === 'string' && CHANNEL_PATTERN.test(channel) && (await canJoin(socket.data.userId as number, channel).catch(() => false));
        if (ok) await socket.join(channel);
        if (typeof ack === 'function') ack(ok ? { ok } : { ok, message: "You're not authorized to perform this action" });
      });
      socket.on('unsubscribe', async (channel: unknown) => {
        if (typeof channel === 'string') await socket.leave(channel);
      });
    });
    this.io = io;
  }

  /** Sends `event` with `payload` to every socket in `channel`, on every node. Call after commit. */
  publish(channel: string, event: string, payload: unknown): void {
    const io = this.io;
    if (!io) return;
    // While no other node has announced itself, the event goes to this node's sockets only, without
    // a NOTIFY round trip through PostgreSQL. Otherwise through the adapter to every node.
    if (this.alone(io)) io.local.to(channel).emit(event, payload);
    else io.to(channel).emit(event, payload);
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
    return !this.alone(io) || (io.of('/').adapter.rooms.get(channel)?.size ?? 0) > 0;
  }

  /**
   * No other node has announced itself through the adapter's heartbeats (a starting node announces
   * itself before it accepts connections). False when the adapter does not say.
   */
  private alone(io: Server): boolean {
    const others = (io.of('/').adapter as unknown as { nodesMap?: Map<string, number> }).nodesMap;
    return others !== undefined && others.size === 0;
  }

  async close(): Promise<void> {
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
 * so batches stay in order (issue 3 bench: every inbound call publishes twice). Every other query
 * (attachments, the LISTEN client) goes to `pool` unchanged.
 */
function batchedNotifyPool(pool: pg.Pool): { pool: pg.Pool; notifies: GroupCommit<[string, string], void> } {
  const notifies = new GroupCommit<[string, string], void>({
    maxWaitMs: 0, maxItems: 500, concurrency: 1,
    run: async (items) => {
      await pool.query('select pg_notify(n.channel, n.payload) from unnest($1::text[], $2::text[]) as n(channel, payload)', [items.map((i) => i[0]), items.map((i) => i[1])]);
      return items.map(() => undefined);
    },
  });
  const shim = {
    query: (text: string, values?: unknown[]) => (text === ADAPTER_NOTIFY && values?.length === 2 ? notifies.submit([String(values[0]), String(values[1])]) : pool.query(text, values)),
    connect: () => pool.connect(),
  };
  return { pool: shim as unknown as pg.Pool, notifies };
}
