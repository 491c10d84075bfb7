/**
 * bench/contacts-import (bench/README.md): a generated 1,000,000-row CSV imported end to end
 * through the real import job, rows per second printed beside a plain PostgreSQL `COPY` of the
 * same rows in the same run, and the ratio. Target: at least a quarter of the `COPY` rate.
 * Nothing is asserted: PASS/MISS is printed.
 *
 * One run:
 *  1. Generates the CSV in a temp dir (not timed): header `name,number,email`, BENCH_ROWS rows;
 *     numbers in mixed formats (+1…, (212) 200-0001, 212-200-0001); about 2 % invalid numbers and
 *     about 1 % rows repeating an earlier row's number in another format (a duplicate to merge).
 *  2. A throwaway embedded PostgreSQL (temp dir) and the real server on it (`startServer`:
 *     migrations, app, realtime, queue workers; sandbox carrier; WORKERS=1; LOG_LEVEL silent).
 *     A user and a company are inserted by SQL.
 *  3. Import, end to end: the file is handed to the contacts service exactly as
 *     `POST /api/companies/{id}/contacts/import` does (`startImport`: mapping detected from the
 *     header, file stored in the blob store, batch row + `contacts.import` job in one transaction);
 *     the clock runs until the batch is `finished` (the job streams the file, parses every number
 *     with the domain rules, merges duplicates, writes in chunks inside one transaction).
 *  4. Baseline: `COPY bench_copy (name, number, email) FROM STDIN (FORMAT csv, HEADER)` of the same
 *     file through pg-copy-streams into a table created `LIKE contacts INCLUDING ALL` (same columns,
 *     defaults and indexes), after a CHECKPOINT, on a fresh connection.
 *  5. Prints both rates, the ratio import ÷ COPY and PASS/MISS against 0.25, with the 1-minute
 *     load average of each phase (the machine may be shared), and the CPU seconds each phase cost
 *     the Node process (all threads) and PostgreSQL (from /proc; a floor, see `pgCpuS`).
 *
 * Usage: `cd bench && npm run bench:contacts-import` (or `npx tsx contacts-import/run.ts`).
 * Knobs: BENCH_ROWS (1000000), BENCH_CHUNK (the import job's chunk size; default: the job's own).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fmt, sleep, startBenchServer, tempDir } from '../lib/bench-server.js';

const env = (name: string, fallback: number): number => {
  const v = Number(process.env[name]);
  return process.env[name] !== undefined && process.env[name] !== '' && Number.isFinite(v) && v > 0 ? v : fallback;
};
const load = () => os.loadavg()[0]!.toFixed(2);

/**
 * CPU ticks (user + system, 1/100 s) used so far by each live process of the embedded PostgreSQL:
 * its postmaster and children (backends, checkpointer, WAL writer, autovacuum…), from /proc (Linux).
 */
function pgCpuTicks(dataDir: string): Map<number, number> {
  const out = new Map<number, number>();
  try {
    const postmaster = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    for (const pid of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      let stat: string;
      try {
        stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // the process ended
        throw error;
      }
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pid) === postmaster || Number(f[1]) === postmaster) out.set(Number(pid), Number(f[11]) + Number(f[12]));
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // else not Linux: no figure
  }
  return out;
}
/** PostgreSQL CPU seconds between two snapshots (a process that exited meanwhile is not counted: a floor). */
function pgCpuS(before: Map<number, number>, after: Map<number, number>): number {
  let ticks = 0;
  for (const [pid, t] of after) ticks += t - (before.get(pid) ?? 0);
  return ticks / 100;
}
const nodeCpuS = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

const AREAS = ['212', '310', '312', '415', '617', '646', '702', '713', '305', '404'];
const FIRST = [
  'James',
  'Mary',
  'John',
  'Patricia',
  'Robert',
  'Jennifer',
  'Michael',
  'Linda',
  'David',
  'Elizabeth',
  'William',
  'Barbara',
  'Richard',
  'Susan',
  'José',
  'Zoë',
];
const LAST = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  "O'Brien",
  'Martinez',
  'Hernández',
  'Lopez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
];

/** The i-th distinct valid US number as its 10 national digits. */
function digitsOf(i: number): string {
  const rest = Math.floor(i / AREAS.length);
  return `${AREAS[i % AREAS.length]}${200 + Math.floor(rest / 10_000)}${String(rest % 10_000).padStart(4, '0')}`;
}
function formatted(d: string, style: number): string {
  if (style === 0) return `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`;
  if (style === 1) return `${d.slice(0, 3)}-${d.slice(3, 6)}-${d.slice(6)}`;
  return `+1${d}`;
}
const csvCell = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** Writes the CSV; returns how many rows have an invalid number and how many repeat an earlier number. */
async function generateCsv(file: string, rows: number): Promise<{ invalid: number; duplicates: number }> {
  const out = fs.createWriteStream(file);
  let invalid = 0;
  let duplicates = 0;
  let distinct = 0;
  let buf = 'name,number,email\n';
  for (let i = 0; i < rows; i++) {
    const name = `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`;
    let number: string;
    const r = (i * 7919) % 100; // deterministic spread
    if (r < 2) {
      number = r === 0 ? `555-01${String(i % 100).padStart(2, '0')}` : `not a number ${i}`;
      invalid++;
    } else if (r === 2 && distinct > 0) {
      number = formatted(digitsOf((i * 31) % distinct), (i + 1) % 3);
      duplicates++;
    } else number = formatted(digitsOf(distinct++), i % 3);
    buf += `${csvCell(name)},${csvCell(number)},p${i}@example.test\n`;
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await new Promise((res) => out.once('drain', res));
      buf = '';
    }
  }
  out.end(buf);
  await new Promise((res, rej) => {
    out.on('finish', res);
    out.on('error', rej);
  });
  return { invalid, duplicates };
}

async function main(): Promise<void> {
  const N = env('BENCH_ROWS', 1_000_000);
  const [{ default: pg }, { from: copyFrom }, contactsImport] = await Promise.all([
    import('pg'),
    import('pg-copy-streams'),
    import('../../apps/server/src/modules/contacts/contacts.import.js'),
  ]);
  if (process.env.BENCH_CHUNK) contactsImport.importTuning.chunkSize = env('BENCH_CHUNK', contactsImport.importTuning.chunkSize);

  const dir = tempDir('bench-contacts-');
  const pgDir = tempDir('bench-contacts-pg-');
  const csv = path.join(dir, 'contacts.csv');
  console.log(
    `contacts-import: ${fmt(N)} rows, ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  const g0 = performance.now();
  const gen = await generateCsv(csv, N);
  const size = fs.statSync(csv).size;
  console.log(
    `  generated ${(size / 1e6).toFixed(1)} MB in ${((performance.now() - g0) / 1000).toFixed(1)} s: ${fmt(gen.invalid)} invalid numbers, ${fmt(gen.duplicates)} repeated numbers`,
  );

  const { server, client, dbUrl, stop } = await startBenchServer(dir, pgDir);
  try {
    const user = await client.query<{ id: number }>(
      `insert into users (email, first_name, last_name, password_hash, timezone) values ('bench@example.test', 'Bench', 'User', 'x', 'America/New_York') returning id`,
    );
    const userId = Number(user.rows[0]!.id);
    const company = await client.query<{ id: number }>(`insert into companies (name) values ('Bench Co') returning id`);
    const companyId = Number(company.rows[0]!.id);
    await client.query(`insert into company_users (company_id, user_id, role) values ($1, $2, 'owner')`, [companyId, userId]);
    await client.query('checkpoint');

    // ---- import, end to end through the job ----
    const loadImport: string[] = [load()];
    const pgDataDir = fs.existsSync(path.join(pgDir, 'postmaster.pid'))
      ? pgDir
      : (fs
          .readdirSync(pgDir)
          .map((d) => path.join(pgDir, d))
          .find((d) => fs.existsSync(path.join(d, 'postmaster.pid'))) ?? pgDir);
    const cpu0 = { node: nodeCpuS(), pg: pgCpuTicks(pgDataDir) };
    const t0 = performance.now();
    const data = await fs.promises.readFile(csv);
    const { batchId } = await contactsImport.startImport(server.ctx, userId, companyId, {
      file: { filename: 'contacts.csv', mimetype: 'text/csv', data },
      groupIds: [],
    });
    let lastLog = t0;
    let batch: { status: string; progress: number; inserted: number; merged: number; invalid: number; error: string | null };
    for (;;) {
      const r = await client.query('select status, progress, inserted, merged, invalid, error from contact_imports where id = $1', [batchId]);
      batch = r.rows[0];
      if (batch.status === 'finished' || batch.status === 'failed') break;
      if (performance.now() - lastLog > 5000) {
        lastLog = performance.now();
        loadImport.push(load());
        console.log(`  … import ${batch.status} ${batch.progress.toFixed(1)} % after ${((lastLog - t0) / 1000).toFixed(1)} s (load ${load()})`);
      }
      await sleep(50);
    }
    const importS = (performance.now() - t0) / 1000;
    const importCpu = { node: nodeCpuS() - cpu0.node, pg: pgCpuS(cpu0.pg, pgCpuTicks(pgDataDir)) };
    loadImport.push(load());
    const stored = await client.query<{ n: number; invalid: number }>(
      'select count(*)::int as n, count(*) filter (where is_invalid)::int as invalid from contacts where company_id = $1',
      [companyId],
    );
    const importRate = N / importS;

    // ---- baseline: COPY of the same file into a similar table ----
    await client.query(`create table bench_copy (like contacts including all)`);
    await client.query(`alter table bench_copy alter column company_id set default ${companyId}`);
    await client.query('checkpoint');
    const loadCopy: string[] = [load()];
    const copyClient = new pg.Client({ connectionString: dbUrl });
    await copyClient.connect();
    const cpu1 = { node: nodeCpuS(), pg: pgCpuTicks(pgDataDir) };
    const c0 = performance.now();
    await pipeline(fs.createReadStream(csv), copyClient.query(copyFrom('copy bench_copy (name, number, email) from stdin with (format csv, header true)')));
    const copyS = (performance.now() - c0) / 1000;
    const copyCpu = { node: nodeCpuS() - cpu1.node, pg: pgCpuS(cpu1.pg, pgCpuTicks(pgDataDir)) };
    loadCopy.push(load());
    await copyClient.end();
    const copied = await client.query<{ n: number }>('select count(*)::int as n from bench_copy');
    const copyRate = N / copyS;
    const ratio = importRate / copyRate;

    console.log('');
    console.log(
      `  import batch                        ${batch.status}${batch.error ? ` (${batch.error})` : ''}: inserted ${fmt(batch.inserted)}, merged ${fmt(batch.merged)}, invalid ${fmt(batch.invalid)}`,
    );
    console.log(`  contacts stored                     ${fmt(stored.rows[0]!.n)} (${fmt(stored.rows[0]!.invalid)} marked invalid)`);
    console.log(`  import end to end                   ${importS.toFixed(2)} s = ${fmt(importRate)} rows/s   (load ${loadImport.join(' → ')})`);
    console.log(
      `  COPY of the same rows               ${copyS.toFixed(2)} s = ${fmt(copyRate)} rows/s   (${fmt(copied.rows[0]!.n)} rows; load ${loadCopy.join(' → ')})`,
    );
    console.log(`  ratio import ÷ COPY                 ${ratio.toFixed(3)}   (target ≥ 0.25: ${ratio >= 0.25 ? 'PASS' : 'MISS'})`);
    console.log(
      `  CPU seconds, import                 node ${importCpu.node.toFixed(1)} + PostgreSQL ${importCpu.pg.toFixed(1)} = ${(importCpu.node + importCpu.pg).toFixed(1)} (wall ${importS.toFixed(1)})`,
    );
    console.log(
      `  CPU seconds, COPY                   node ${copyCpu.node.toFixed(1)} + PostgreSQL ${copyCpu.pg.toFixed(1)} = ${(copyCpu.node + copyCpu.pg).toFixed(1)} (wall ${copyS.toFixed(1)})`,
    );
  } finally {
    await stop();
  }
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
