/**
 * Starts the whole product on an open database: migrations, context, app, HTTP listener,
 * realtime, queue workers. Used by `main.ts` and by the integration tests.
 */
import pino, { type Logger } from 'pino';
import pinoPretty from 'pino-pretty';
import { buildApp, registerJobs, type App } from './app.js';
import { createCarrier } from './carriers/carrier.factory.js';
import type { AppContext } from './context.js';
import { resolveSocketUser } from './modules/companies/companies.service.js';
import { liveChannelAccess } from './modules/users/members.service.js';
import { createBlobStore } from './platform/blob.js';
import type { Config } from './platform/config.js';
import { createDb, migrateDatabase } from './platform/db/db.js';
import { drainGroupCommits } from './platform/db/group-commit.js';
import { PoolWaitInTransactionError } from './platform/db/tx-guard.js';
import { closeInvalidationFeeds } from './platform/db/invalidation-feed.js';
import { Mailer } from './platform/mail/mailer.js';
import { Queue } from './platform/queue.js';
import { Realtime } from './platform/realtime.js';
import { OutboxWorkers } from './platform/events/outbox.js';
import { createHooks } from './platform/hooks/hooks.js';

export type Running = { app: App; ctx: AppContext; url: string; close: () => Promise<void> };

type ReplyLike = { statusCode?: number; request?: { method?: string; url?: string } };

/**
 * The process logger (pino). LOG_FORMAT 'json' (default outside a terminal): one JSON object per
 * line, Fastify's request lines included. 'pretty' (default in a terminal): pino-pretty in this
 * thread, one short line per request (`POST /api/message 201 12 ms`) instead of Fastify's
 * "incoming request" + "request completed" pair, other entries as time, level and message.
 */
export function createLogger(config: Pick<Config, 'logLevel' | 'logFormat'>): Logger {
  if (config.logFormat !== 'pretty') return pino({ level: config.logLevel });
  const stream = pinoPretty({
    colorize: Boolean(process.stdout.isTTY),
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,reqId,req,res,responseTime',
    messageFormat: (entry, messageKey) => {
      const res = entry.res as { method?: string; url?: string; statusCode?: number } | undefined;
      const message = String(entry[messageKey] ?? '');
      if (!res || typeof entry.responseTime !== 'number') return message;
      const line = `${res.method ?? ''} ${res.url ?? ''} ${res.statusCode ?? ''} ${Math.round(entry.responseTime)} ms`;
      return message === 'request completed' ? line : `${line} ${message}`;
    },
  });
  return pino(
    {
      level: config.logLevel,
      // Fastify serializes the reply as `res` on its request lines: carry the method and path too.
      serializers: { res: (reply: ReplyLike) => ({ statusCode: reply.statusCode, method: reply.request?.method, url: reply.request?.url }) },
      hooks: {
        logMethod(args, method) {
          // Fastify logs every request twice; in a terminal its completion line is enough.
          if (args[1] === 'incoming request') return;
          method.apply(this, args);
        },
      },
    },
    stream,
  );
}

/**
 * Migrates, builds and starts listening on `config.port` (0 = any free port; `publicUrl` is
 * then rewritten to the real address unless `PUBLIC_URL` was given).
 * `readyLater`: API requests answer 503 (starting) until the caller sets `ctx.readiness.ready`.
 * `close()` stops the queue, realtime and HTTP, lands batched writes and closes the pool; after
 * `config.shutdownTimeoutMs` it stops waiting, logs what was still open and resolves (the process
 * entry then exits).
 */
export async function startServer(config: Config, databaseUrl: string, options: { publicUrlFromPort?: boolean; readyLater?: boolean } = {}): Promise<Running> {
  const log = createLogger(config);
  const { db, pool, reactionsPool } = createDb(databaseUrl, {
    max: config.dbPoolMax,
    reactionsMax: config.dbReactionsPoolMax,
    acquireTimeoutMs: config.dbAcquireTimeoutMs,
    // A transaction asking the pool for another connection fails at once in the tests; elsewhere it is logged once per call site.
    txGuard: process.env.VITEST ? 'throw' : 'warn',
    onTxGuardViolation: (e: PoolWaitInTransactionError) => log.error({ err: e }, 'a transaction waited on the pool'),
    statementTimeoutMs: config.dbStatementTimeoutMs,
    lockTimeoutMs: config.dbLockTimeoutMs,
    onConnectionError: (e) => log.warn({ err: e }, 'a database connection broke (it is replaced on next use)'),
  });
  await migrateDatabase(databaseUrl);
  const queue = new Queue(databaseUrl, config.runWorkers);
  const realtime = new Realtime({ config, db });
  const blobs = createBlobStore(config);
  const mailer = new Mailer(db, queue, config.smtpUrl, config.mailFrom);
  const ctx: AppContext = {
    config,
    db,
    pool,
    queue,
    realtime,
    blobs,
    mailer,
    carrier: createCarrier(config, db, queue),
    log,
    hooks: createHooks(),
    readiness: { ready: false, reason: 'starting' },
  };
  registerJobs(ctx);
  const app = await buildApp(ctx);
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  if (options.publicUrlFromPort) {
    config.publicUrl = `http://127.0.0.1:${port}`;
    blobs.publicUrl = config.publicUrl;
  }
  realtime.attach(
    app.server,
    pool,
    (session, bearer) => resolveSocketUser(ctx, session, bearer),
    (userId, channel) => liveChannelAccess(ctx, userId, channel),
  );
  await queue.start();
  // The domain-event outbox's workers (docs/architecture.md "Domain events"): in processes that run workers.
  const outbox = config.runWorkers ? new OutboxWorkers(ctx) : undefined;
  outbox?.start();
  // Ready now, unless the caller still has first-start work to do (main.ts: the demo seed) and says when.
  if (!options.readyLater) ctx.readiness = { ready: true, reason: null };
  const url = `http://127.0.0.1:${port}`;
  let closing: Promise<void> | undefined;
  const close = async (): Promise<void> => {
    let step = 'the outbox workers';
    const steps = (async () => {
      await outbox?.stop();
      step = 'the job queue';
      await queue.stop();
      step = 'realtime';
      await realtime.close();
      step = 'HTTP requests in progress';
      await app.close();
      // Batched writes still queued (group commit, the inbox's coalesced call items) land before the pool closes.
      step = 'batched writes';
      await drainGroupCommits(ctx);
      step = 'the invalidation feed';
      await closeInvalidationFeeds(ctx);
      step = 'database connections';
      await db.destroy();
      blobs.close();
      step = 'done';
    })();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), config.shutdownTimeoutMs);
    });
    const outcome = await Promise.race([steps.then(() => 'done' as const), deadline]).finally(() => clearTimeout(timer));
    if (outcome === 'late') {
      const connections = await new Promise<number>((resolve) => app.server.getConnections((e, n) => resolve(e ? -1 : n)));
      log.error(
        {
          waitingOn: step,
          pool: { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount },
          reactionsPool: { total: reactionsPool.totalCount, idle: reactionsPool.idleCount, waiting: reactionsPool.waitingCount },
          httpConnections: connections,
        },
        `shutdown did not finish within ${config.shutdownTimeoutMs} ms (SHUTDOWN_TIMEOUT_MS); stopping anyway`,
      );
      steps.catch(() => {});
      return;
    }
    await steps;
  };
  return { app, ctx, url, close: () => (closing ??= close()) };
}
