/**
 * Starts the whole product on an open database: migrations, context, app, HTTP listener,
 * realtime, queue workers. Used by `main.ts` and by the integration tests.
 */
import pino from 'pino';
import { buildApp, registerJobs, type App } from './app.js';
import { createCarrier } from './carriers/carrier.factory.js';
import type { AppContext } from './context.js';
import { resolveSocketUser, canJoinChannel } from './modules/companies/companies.service.js';
import { createBlobStore } from './platform/blob.js';
import type { Config } from './platform/config.js';
import { createDb, migrate } from './platform/db/db.js';
import { drainGroupCommits } from './platform/db/group-commit.js';
import { closeInvalidationFeeds } from './platform/db/invalidation-feed.js';
import { Mailer } from './platform/mail/mailer.js';
import { Queue } from './platform/queue.js';
import { Realtime } from './platform/realtime.js';

export type Running = { app: App; ctx: AppContext; url: string; close: () => Promise<void> };

/**
 * Migrates, builds and starts listening on `config.port` (0 = any free port; `publicUrl` is
 * then rewritten to the real address unless `PUBLIC_URL` was given).
 */
export async function startServer(config: Config, databaseUrl: string, options: { publicUrlFromPort?: boolean } = {}): Promise<Running> {
  const log = pino({ level: config.logLevel, ...(config.production ? {} : { transport: undefined }) });
  const { db, pool } = createDb(databaseUrl, config.dbPoolMax);
  await migrate(db);
  const queue = new Queue(databaseUrl, config.runWorkers);
  const realtime = new Realtime();
  const blobs = createBlobStore(config);
  const mailer = new Mailer(db, queue, config.smtpUrl, config.mailFrom);
  const ctx: AppContext = { config, db, pool, queue, realtime, blobs, mailer, carrier: createCarrier(config, db, queue), log };
  registerJobs(ctx);
  const app = await buildApp(ctx);
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  if (options.publicUrlFromPort) {
    config.publicUrl = `http://127.0.0.1:${port}`;
    blobs.publicUrl = config.publicUrl;
  }
  realtime.attach(app.server, pool, (session, bearer) => resolveSocketUser(ctx, session, bearer), (userId, channel) => canJoinChannel(ctx, userId, channel));
  await queue.start();
  const url = `http://127.0.0.1:${port}`;
  return {
    app, ctx, url,
    close: async () => {
      await queue.stop();
      await realtime.close();
      await app.close();
      // Batched writes still queued (group commit, the inbox's coalesced call items) land before the pool closes.
      await drainGroupCommits(ctx);
      await closeInvalidationFeeds(ctx);
      await db.destroy();
      blobs.close();
    },
  };
}
