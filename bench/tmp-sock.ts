import { startBenchDatabase, tempDir } from './lib/bench-server.js';
import pg from 'pg';
import fs from 'node:fs';
const { embedded, dbUrl } = await startBenchDatabase(tempDir('pgmb-'));
console.log(fs.readdirSync('/tmp').filter((f) => f.startsWith('.s.PGSQL')));
async function run(label: string, cfg: pg.PoolConfig) {
  const pool = new pg.Pool({ ...cfg, max: 10 });
  await pool.query('select 1');
  for (let round = 0; round < 2; round++) {
    const t0 = process.hrtime.bigint(); const c0 = process.cpuUsage();
    let n = 0; const end = Date.now() + 3000;
    await Promise.all(Array.from({ length: 20 }, async () => { while (Date.now() < end) { await pool.query('select $1::int as x', [n]); n++; } }));
    const dt = Number(process.hrtime.bigint() - t0) / 1e9; const cpu = process.cpuUsage(c0);
    console.log(label, Math.round(n / dt), 'q/s', ((cpu.user + cpu.system) / n).toFixed(1), 'us cpu/q (sys', (cpu.system / n).toFixed(1), ')');
  }
  await pool.end();
}
const port = Number(new URL(dbUrl).port);
await run('tcp ', { connectionString: dbUrl });
await run('unix', { host: '/tmp', port, user: 'postgres', password: 'postgres', database: 'bench' });
await embedded.stop();
