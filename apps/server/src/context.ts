/**
 * The composition root's bag of shared machinery handed to every module: configuration,
 * database, queue, realtime fan-out, blob store, mailer and the configured carrier adapter.
 * Services are stateless functions that take this context first.
 */
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { CarrierPort } from './carriers/carrier.port.js';
import type { Config } from './platform/config.js';
import type { Db } from './platform/db/db.js';
import type { Hooks } from './platform/hooks/hooks.js';
import type { BlobStore } from './platform/blob.js';
import type { Mailer } from './platform/mail/mailer.js';
import type { Queue } from './platform/queue.js';
import type { Realtime } from './platform/realtime.js';

export type AppContext = {
  config: Config;
  db: Db;
  pool: pg.Pool;
  queue: Queue;
  realtime: Realtime;
  blobs: BlobStore;
  mailer: Mailer;
  carrier: CarrierPort;
  log: FastifyBaseLogger;
  /** The hooks of this app (platform/hooks/registry.ts; docs/architecture.md "Hooks"): providers register in module setups, lower modules ask. */
  hooks: Hooks;
  /**
   * Whether the process is ready for users (docs/operations.md "Readiness"): false from start until the
   * migrations and the first-start seed are done (API requests then answer 503 with `Retry-After`).
   */
  readiness: { ready: boolean; reason: string | null };
};
