/**
 * Real server processes for the crash tests (`node --import tsx --import ./apps/server/test/crash-child.ts
 * apps/server/src/main.ts`): each on its own port over a DATA_DIR with an embedded PostgreSQL, in a
 * process group of its own so a test can SIGKILL the server and its database together.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { eventually } from './harness.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** A started server process: its child, base URL and everything it printed so far. */
export type ServerProcess = { child: ChildProcess; url: string; log: () => string };

/**
 * Starts a server process on `port` over `dataDir` (SEED_DEMO=0, sandbox carrier, PUBLIC_URL on the port) with
 * `env` added; resolves once `/api/ready` answers 200. `detached` puts it in a process group of its own.
 * @throws Error with the process's output when it exits or is not healthy within 120 s.
 */
export async function startServerProcess(
  dataDir: string,
  port: number,
  env: Record<string, string> = {},
  options: { detached?: boolean } = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', './apps/server/test/crash-child.ts', 'apps/server/src/main.ts'], {
    cwd: root,
    detached: options.detached === true,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      NODE_ENV: 'test',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => {
    out += String(d);
  });
  child.stderr!.on('data', (d) => {
    out += String(d);
  });
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, reject) => child.once('exit', (code, signal) => reject(new Error(`server exited (${code ?? signal}):\n${out}`))));
  exited.catch(() => {});
  await Promise.race([
    exited,
    eventually(
      async () => {
        try {
          return (await fetch(`${url}/api/ready`)).ok;
        } catch {
          return false;
        }
      },
      120_000,
      250,
    ).catch((e) => {
      throw new Error(`${String(e)}\n${out}`);
    }),
  ]);
  return { child, url, log: () => out };
}

/** SIGKILLs a detached server's whole process group (the server and its embedded PostgreSQL) and waits for its exit. */
export async function killGroup(p: ServerProcess): Promise<void> {
  const exit = new Promise((r) => p.child.once('exit', r));
  try {
    process.kill(-p.child.pid!, 'SIGKILL');
  } catch {
    p.child.kill('SIGKILL');
  }
  await exit;
}

/** Stops a server process (SIGTERM, then SIGKILL after 15 s); a no-op when it has exited. */
export async function stopServerProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exit = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exit;
  clearTimeout(t);
}

/** A direct connection to the embedded database of `dataDir` (port from postmaster.pid, line 4). */
export async function connectDb(dataDir: string): Promise<pg.Client> {
  const port = fs
    .readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')
    .split('\n')[3]!
    .trim();
  const db = new pg.Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${port}/switchboard` });
  await db.connect();
  return db;
}
