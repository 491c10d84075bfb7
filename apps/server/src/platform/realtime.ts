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

export type ResolveUser = (sessionToken: string | undefined, bearer: string | undefined) => Promise<number | null>;
export type CanJoin = (userId: number, channel: string) => Promise<boolean>;

export const CHANNEL_PATTERN = /^(conversations|company|campaigns|user|bulk-purchase)\.(\d+)$/;

/** Publishes events to channels; the no-op default lets code run where no server is attached (scripts). */
export class Realtime {
  private io: Server | null = null;

  /** Attaches Socket.IO to the HTTP server. */
  attach(server: HttpServer, pool: pg.Pool, resolveUser: ResolveUser, canJoin: CanJoin): void {
    const io = new Server(server, { path: '/socket.io', serveClient: false, cors: { origin: true, credentials: true } });
    io.adapter(createAdapter(pool, { tableName: 'socket_io_attachments', errorHandler: () => {} }));
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
    this.io?.to(channel).emit(event, payload);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.io ? this.io.close(() => resolve()) : resolve()));
    this.io = null;
  }
}
