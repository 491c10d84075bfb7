/**
 * Operators' command for the domain-event outbox (docs/operations.md "Domain-event outbox"):
 *
 *   npm run outbox -w apps/server -- status                          consumers: pending, retrying, dead, lag (s), last error
 *   npm run outbox -w apps/server -- dead [CONSUMER]                 the newest dead letters
 *   npm run outbox -w apps/server -- retry CONSUMER [EVENT_ID]       dead letters due again
 *   npm run outbox -w apps/server -- replay CONSUMER SINCE [COMPANY] deliver every event since SINCE (ISO time) again
 *
 * Uses DATABASE_URL when set; else the embedded PostgreSQL under DATA_DIR: the running server's (read from its
 * postmaster.pid), or started for the command and stopped after it. Exit code 1 on a bad command or an unknown consumer.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../platform/config.js';
import { createDb } from '../platform/db/db.js';
import { openDatabase } from '../platform/db/database.js';
import { deadLetters, outboxStatus, replayConsumer, retryDeadLetters } from '../platform/events/outbox.js';

const [command, arg1, arg2, arg3] = process.argv.slice(2);
const usage = 'Usage: outbox status | dead [CONSUMER] | retry CONSUMER [EVENT_ID] | replay CONSUMER SINCE [COMPANY_ID]';
if (
  !command ||
  !['status', 'dead', 'retry', 'replay'].includes(command) ||
  (['retry', 'replay'].includes(command) && !arg1) ||
  (command === 'replay' && !arg2)
) {
  console.error(usage);
  process.exit(1);
}
const config = loadConfig();

/** The running server's embedded database, when one is up (its port is line 4 of postmaster.pid). */
function runningEmbeddedUrl(): string | undefined {
  try {
    const port = fs
      .readFileSync(path.join(config.dataDir, 'postgres', 'postmaster.pid'), 'utf8')
      .split('\n')[3]
      ?.trim();
    return port ? `postgres://postgres:postgres@127.0.0.1:${port}/switchboard` : undefined;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined; // no server running on it
    throw e;
  }
}

const running = config.databaseUrl ? undefined : runningEmbeddedUrl();
const database = config.databaseUrl || running ? undefined : await openDatabase(undefined, config.dataDir);
const { db } = createDb(config.databaseUrl ?? running ?? database!.url, { max: 2 });
let code = 0;
try {
  if (command === 'status') {
    const rows = await outboxStatus({ db });
    if (!rows.length) console.log('No consumer has deliveries.');
    for (const r of rows)
      console.log(`${r.consumer}\tpending ${r.pending}\tretrying ${r.retrying}\tdead ${r.dead}\tlag ${r.lagS} s${r.lastError ? `\t${r.lastError}` : ''}`);
  } else if (command === 'dead') {
    for (const d of await deadLetters({ db }, arg1))
      console.log(`${d.createdAt}\t${d.consumer}\t#${d.eventId} ${d.name} ${d.aggregate}\t${d.attempts} attempts\t${d.lastError ?? ''}`);
  } else if (command === 'retry') {
    console.log(`${await retryDeadLetters({ db }, arg1!, arg2 ? Number(arg2) : undefined)} dead letter(s) will be retried.`);
  } else {
    const since = new Date(arg2!);
    if (Number.isNaN(since.getTime())) throw new Error(`SINCE must be a time, e.g. 2026-11-28T00:00:00Z (got ${arg2})`);
    console.log(`${await replayConsumer({ db }, arg1!, since, arg3 ? Number(arg3) : undefined)} event(s) will be delivered to ${arg1} again.`);
  }
} catch (e) {
  console.error(e instanceof Error ? e.message : String(e));
  code = 1;
} finally {
  await db.destroy();
  await database?.stop();
}
process.exit(code);
