/**
 * Contact files are read off the event loop (docs/operations.md "Bounds on outside input";
 * contacts.parse-worker.ts): previewing and importing a workbook of 20,000 rows and a 2 MB vCard
 * never hold the server's event loop the way reading the workbook inline does (its longest stall,
 * `perf_hooks.monitorEventLoopDelay`, stays a fraction of the inline read's), and `GET /api/health`
 * keeps answering; a workbook that needs more memory than the worker's heap limit is answered 422,
 * the server unharmed. (Stalls, not a probe's latency, are compared: on a shared, loaded machine a
 * probe waits for a CPU as much as for the loop.)
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, startTestServer, type TestServer } from '../../../test/harness.js';
import { importTuning } from './contacts.import.js';

let s: TestServer;
let a: Account;
let xlsx: Buffer;
let vcf: Buffer;
const ROWS = 20_000;
const heap = importTuning.parseWorkerHeapMb;
let inlineStallMs = 0;
/** A stall the worker path may show: half the inline read's, but never under the 100 ms a busy machine's scheduling adds. */
const stallLimit = () => Math.max(inlineStallMs / 2, 100);

/** Runs `work` and answers the longest stall of the event loop meanwhile (ms). */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  try {
    const result = await work();
    return { result, stallMs: h.max / 1e6 };
  } finally {
    h.disable();
  }
}

beforeAll(async () => {
  s = await startTestServer();
  a = await createAccount(s);
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Contacts');
  ws.addRow(['Name', 'Phone', 'Email', 'Notes']);
  for (let i = 0; i < ROWS; i++) ws.addRow([`Person ${i}`, `+1312${String(5550000 + i).padStart(7, '0')}`, `p${i}@example.com`, 'note '.repeat(10)]);
  xlsx = Buffer.from(await wb.xlsx.writeBuffer());
  let text = '';
  for (let i = 0; text.length < 2 * 1024 * 1024; i++)
    text += `BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Card ${i}\r\nN:Last${i};First${i};;;\r\nTEL;TYPE=CELL:+1646${String(5550000 + (i % 10000)).padStart(7, '0')}\r\nEND:VCARD\r\n`;
  vcf = Buffer.from(text);
}, 120_000);
afterEach(() => {
  importTuning.parseWorkerHeapMb = heap;
});
afterAll(async () => {
  await s?.close();
});

function form(data: Buffer, filename: string, type: string, fields: Record<string, string> = {}): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  f.append('file', new Blob([data], { type }), filename);
  return f;
}
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Runs `request` while probing `GET /api/health` every 10 ms (the test shares the server's loop): the slowest probe.
 */
async function whileProbingHealth<T>(request: () => Promise<T>): Promise<{ result: T; slowestHealthMs: number; probes: number }> {
  let done = false;
  let slowest = 0;
  let probes = 0;
  const probing = (async () => {
    while (!done) {
      const t0 = performance.now();
      const res = await fetch(`${s.url}/api/health`);
      await res.text();
      slowest = Math.max(slowest, performance.now() - t0);
      probes++;
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const result = await request();
  done = true;
  await probing;
  return { result, slowestHealthMs: slowest, probes };
}

describe('contact files are read on the parse worker', () => {
  it('reading the workbook inline holds the loop for a long stall (what the worker saves)', async () => {
    const run = await longestStall(async () => {
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(xlsx as unknown as ArrayBuffer);
    });
    inlineStallMs = run.stallMs;
    // How long depends on the machine (over 300 ms on a loaded two-core one); the stalls below are compared with it.
    expect(inlineStallMs).toBeGreaterThan(50);
  });

  it(`previews a workbook of ${ROWS.toLocaleString('en-US')} rows without such a stall, health answering meanwhile`, async () => {
    const run = await longestStall(() => a.client.request('POST', `/api/companies/${a.companyId}/contacts/import/preview`, form(xlsx, 'big.xlsx', XLSX)));
    expect(run.result.status, JSON.stringify(run.result.body)).toBe(200);
    expect(run.result.body.headers).toEqual(['Name', 'Phone', 'Email', 'Notes']);
    expect(run.result.body.rows).toHaveLength(10);
    expect(run.stallMs).toBeLessThan(stallLimit());

    const probed = await whileProbingHealth(() =>
      a.client.request('POST', `/api/companies/${a.companyId}/contacts/import/preview`, form(xlsx, 'big.xlsx', XLSX)),
    );
    expect(probed.result.status).toBe(200);
    expect(probed.slowestHealthMs).toBeLessThan(1000);
    expect(probed.probes).toBeGreaterThan(5);
  });

  it('imports the workbook and a 2 MB vCard with health answering throughout', async () => {
    for (const [data, name, type] of [
      [xlsx, 'big.xlsx', XLSX],
      [vcf, 'big.vcf', 'text/vcard'],
    ] as const) {
      const run = await whileProbingHealth(async () => {
        const r = await a.client.request('POST', `/api/companies/${a.companyId}/contacts/import`, form(data, name, type));
        expect(r.status, JSON.stringify(r.body)).toBe(202);
        return eventually(async () => {
          const p = await a.client.get(`/api/companies/${a.companyId}/contacts/progress/${r.body.batchId}`);
          return p.body.finishedAt ? p.body : null;
        }, 90_000);
      });
      expect(run.result.status, name).toBe('finished');
      expect(run.result.total, name).toBeGreaterThan(name.endsWith('.xlsx') ? ROWS - 1 : 10_000);
      // Writing rows in chunks is the job's own work on the loop; reading the file is not.
      expect(run.slowestHealthMs, name).toBeLessThan(1000);
    }
  }, 180_000);

  it('a workbook that needs more than the worker heap is answered 422, and the server keeps answering', async () => {
    importTuning.parseWorkerHeapMb = 8;
    const r = await a.client.request('POST', `/api/companies/${a.companyId}/contacts/import/preview`, form(xlsx, 'big.xlsx', XLSX));
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect(r.body.errors).toEqual({ file: ['The file could not be read.'] });
    expect((await fetch(`${s.url}/api/health`)).status).toBe(200);
  });
});
