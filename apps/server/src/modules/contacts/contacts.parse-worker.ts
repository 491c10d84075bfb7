/**
 * Worker thread that reads contact import files (contacts.import.ts `readFileRows`; docs/operations.md
 * "Bounds on outside input"): XLSX and vCard parsing costs seconds of CPU per MB and a workbook is a
 * zip that may inflate far beyond its upload size, so it runs here, under the worker's own heap limit,
 * never on the server's event loop. Message in (workerData): `{ source, type, limit?, batch?, keepBlank? }`
 * (`source`: the bytes or a file path); messages out: `{ kind: 'rows', rows, total }` per batch, then
 * `{ kind: 'done' }`, or `{ kind: 'error', unreadable, message }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { UnreadableFileError, fileRows } from './contacts.file-rows.js';

type Job = { source: Uint8Array | string; type: 'xlsx' | 'vcf'; limit?: number; batch?: number; keepBlank?: boolean };

async function run(job: Job): Promise<void> {
  try {
    for await (const b of fileRows(job.source, job.type, job)) parentPort!.postMessage({ kind: 'rows', rows: b.rows, total: b.total });
    parentPort!.postMessage({ kind: 'done' });
  } catch (e) {
    parentPort!.postMessage({ kind: 'error', unreadable: e instanceof UnreadableFileError, message: e instanceof Error ? e.message : String(e) });
  }
}

void run(workerData as Job);
