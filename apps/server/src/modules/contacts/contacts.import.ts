/**
 * Contact import from CSV and XLSX (spec 001 §5 "A contact import file (CSV or XLSX) must have valid
 * name and number columns", §3 "Batch progress", §4 "Batch jobs", §8 import failure).
 *
 * - `previewImport`: headers, the first 10 rows and the suggested mapping (domain `detectImportColumns`).
 * - `startImport`: checks the mapping (422 `INVALID_CONTACT_FILE`), stores the file in the blob store,
 *   creates a `contact_imports` batch and enqueues `contacts.import` in the same transaction.
 * - `runContactImport` (the job): streams rows (CSV: papaparse in chunk mode over a file stream;
 *   XLSX: exceljs), parses numbers with `parsePhone` on a worker thread (`PhoneParser`; invalid ones
 *   kept with `is_invalid`), merges duplicates by number (within the file and with existing
 *   contacts: non-empty values replace stored ones), writes chunks of `importTuning.chunkSize` rows
 *   with `INSERT ... SELECT FROM unnest(...)` (a chunk is written while the next is built), all
 *   inside ONE transaction so a failure leaves nothing behind. 1,000,000 rows take about 40 s on
 *   2 shared vCPUs (bench/contacts-import). Progress goes to `company.{companyId}` as
 *   `contact import progress` {batchId, progress} (0-100, at most every 250 ms) and the end as
 *   `contact import completed` {batchId, finishedAt, inserted, merged, invalid, failed, error}.
 *   A redelivered job of a finished or failed batch does nothing.
 */
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { randomUUID } from 'node:crypto';
import {
  CONTACT_IMPORT_COMPLETED, CONTACT_IMPORT_PROGRESS, ImportMapping, type ContactImportCompletedEvent,
} from '@switchboard/contracts';
import {
  AGE_RANGES, CONTACT_GENDERS, CONTACT_TYPES, IMPORT_FAILURE, deriveContactName, detectImportColumns, importColumnsError, parsePhone,
  type ImportColumns,
} from '@switchboard/domain';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { NotFoundError, ValidationError, fieldError } from '../../platform/http/errors.js';
import { AGENT_ROLES, assertCompanyAccess } from '../companies/companies.service.js';
import { addContactsToGroups, assertGroupIds } from '../groups/groups.service.js';
import { IMPORT_COLUMNS, contactsRepository, type ImportColumn, type ImportRecord } from './contacts.repository.js';

export const IMPORT_JOB = 'contacts.import';
/** Tunables (tests lower the chunk size to exercise several chunks). */
export const importTuning = {
  chunkSize: 5000,
  /** Parse phone numbers on a worker thread (falls back to the main thread when none can start). */
  phoneWorker: true,
};

export type UploadedFile = { filename: string; mimetype: string; data: Buffer };
type FileType = 'csv' | 'xlsx';
type Flat = Partial<Record<ImportColumn, number>>;

/** CSV or XLSX from the name, the MIME type or the zip signature. @throws 422 on `file` otherwise. */
function fileTypeOf(f: UploadedFile): FileType {
  const name = f.filename.toLowerCase();
  if (name.endsWith('.xlsx') || f.mimetype.includes('spreadsheetml') || (f.data[0] === 0x50 && f.data[1] === 0x4b)) return 'xlsx';
  if (name.endsWith('.csv') || name.endsWith('.txt') || f.mimetype.includes('csv') || f.mimetype.startsWith('text/')) return 'csv';
  throw fieldError('file', 'The file must be a file of type: csv, xlsx.');
}

/** A cell of exceljs as text (rich text, hyperlinks, formulas and dates included). */
function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    const o = v as { richText?: Array<{ text: string }>; text?: unknown; result?: unknown };
    if (o.richText) return o.richText.map((r) => r.text).join('');
    if (o.text !== undefined) return cellText(o.text);
    if (o.result !== undefined) return cellText(o.result);
    return '';
  }
  return String(v).trim();
}

function xlsxRowValues(row: ExcelJS.Row): string[] {
  const values = row.values as unknown[]; // 1-based
  const out: string[] = [];
  for (let i = 1; i < values.length; i++) out.push(cellText(values[i]));
  return out;
}

/** Rows (header first) of a file, optionally at most `limit`. */
async function readRows(data: Buffer, type: FileType, limit?: number): Promise<string[][]> {
  if (type === 'csv') {
    const r = Papa.parse<string[]>(data.toString('utf8').replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy', ...(limit ? { preview: limit } : {}) });
    return r.data.map((row) => row.map((c) => String(c ?? '').trim()));
  }
  const wb = new ExcelJS.Workbook();
  try { await wb.xlsx.load(data as unknown as ArrayBuffer); } catch { throw fieldError('file', 'The file could not be read.'); }
  const ws = wb.worksheets[0];
  const rows: string[][] = [];
  ws?.eachRow((row) => { if (!limit || rows.length < limit) rows.push(xlsxRowValues(row)); });
  return rows;
}

/** Mapping as flat field → column index (name may be one column or first/last columns). */
function flatten(m: ImportColumns | ImportMapping): Flat {
  const out: Flat = {};
  for (const [k, v] of Object.entries(m)) {
    if (k === 'name' && v !== null && typeof v === 'object') {
      const nv = v as { first?: number; last?: number };
      if (nv.first !== undefined) out.first_name = nv.first;
      if (nv.last !== undefined) out.last_name = nv.last;
    } else if (typeof v === 'number' && (IMPORT_COLUMNS as readonly string[]).includes(k)) out[k as ImportColumn] = v;
  }
  return out;
}

/** The file rule of spec 001 §5 on a flat mapping and the header count. @throws ValidationError (422) `INVALID_CONTACT_FILE`. */
function assertMapping(flat: Flat, headerCount: number): void {
  const columns: ImportColumns = {};
  if (flat.name !== undefined) columns.name = flat.name;
  else if (flat.first_name !== undefined || flat.last_name !== undefined) columns.name = { first: flat.first_name, last: flat.last_name };
  if (flat.number !== undefined) columns.number = flat.number;
  const error = importColumnsError(columns) ?? (Object.values(flat).some((i) => i! >= headerCount) ? importColumnsError({}) : null);
  if (error) throw new ValidationError({ file: [error] }, error);
}

/** `POST /companies/{companyId}/contacts/import/preview`. */
export async function previewImport(ctx: AppContext, userId: number, companyId: number, file: UploadedFile | undefined) {
  await assertCompanyAccess(ctx, userId, companyId, AGENT_ROLES);
  if (!file || file.data.length === 0) throw fieldError('file', 'The file field is required.');
  const rows = await readRows(file.data, fileTypeOf(file), 11);
  const headers = rows[0] ?? [];
  const detected = detectImportColumns(headers);
  const mapping = ImportMapping.parse(detected);
  const columns = detected;
  return { headers, rows: rows.slice(1), mapping, error: importColumnsError(columns) };
}

/**
 * `POST /companies/{companyId}/contacts/import`. `mapping` omitted → detected from the headers.
 * @returns `{batchId}`. @throws ValidationError (422) with `INVALID_CONTACT_FILE` when the file has no name and number columns.
 */
export async function startImport(ctx: AppContext, userId: number, companyId: number, input: { file?: UploadedFile; mapping?: unknown; groupIds: number[] }): Promise<{ batchId: string }> {
  await assertCompanyAccess(ctx, userId, companyId, AGENT_ROLES);
  const file = input.file;
  if (!file || file.data.length === 0) throw fieldError('file', 'The file field is required.');
  const type = fileTypeOf(file);
  const headers = (await readRows(file.data, type, 1))[0] ?? [];
  let flat: Flat;
  if (input.mapping !== undefined && input.mapping !== null && input.mapping !== '') {
    let raw = input.mapping;
    if (typeof raw === 'string') { try { raw = JSON.parse(raw); } catch { throw fieldError('mapping', 'The mapping must be valid JSON.'); } }
    const parsed = ImportMapping.safeParse(raw);
    if (!parsed.success) throw fieldError('mapping', 'The mapping is invalid.');
    flat = flatten(parsed.data);
  } else flat = flatten(detectImportColumns(headers));
  assertMapping(flat, headers.length);
  const groupIds = await assertGroupIds(ctx, companyId, input.groupIds, 'group_ids');
  const batchId = randomUUID();
  const key = `imports/contacts/${companyId}/${batchId}.${type}`;
  await ctx.blobs.put(key, file.data);
  await ctx.db.transaction().execute(async (tx) => {
    await contactsRepository.insertImport(tx, { id: batchId, company_id: companyId, user_id: userId, file_key: key, file_type: type, mapping: JSON.stringify(flat), group_ids: JSON.stringify(groupIds) });
    await ctx.queue.enqueue(IMPORT_JOB, { batchId }, { singletonKey: batchId }, tx);
  });
  return { batchId };
}

/** `GET /companies/{companyId}/contacts/progress/{batchId}`. @throws NotFoundError for another company's batch. */
export async function getImportProgress(ctx: AppContext, userId: number, companyId: number, batchId: string) {
  await assertCompanyAccess(ctx, userId, companyId);
  const b = await contactsRepository.findImport(ctx.db, batchId);
  if (!b || b.company_id !== companyId) throw new NotFoundError('Batch');
  return {
    progress: b.status === 'finished' ? 100 : Math.round(b.progress * 10) / 10, finishedAt: b.finished_at?.toISOString() ?? null,
    status: b.status, inserted: b.inserted, merged: b.merged, invalid: b.invalid, error: b.error,
  };
}

function pick<T extends string>(allowed: readonly T[], v: string | null): T | null {
  if (!v) return null;
  return allowed.find((a) => a.toLowerCase() === v.trim().toLowerCase()) ?? null;
}

/** One row → record, or null for a blank row. `parsed`: its number already parsed (PhoneParser), if so. */
function toRecord(row: string[], flat: Flat, parsed?: string | null): ImportRecord | null {
  if (row.every((c) => c === undefined || c === null || String(c).trim() === '')) return null;
  const get = (c: ImportColumn): string | null => { const i = flat[c]; const v = i === undefined ? '' : String(row[i] ?? '').trim(); return v === '' ? null : v; };
  const rec = {} as ImportRecord;
  for (const c of IMPORT_COLUMNS) rec[c] = get(c);
  const raw = rec.number;
  const e164 = !raw ? null : parsed !== undefined ? parsed : parsePhone(raw);
  rec.number = e164 ?? raw;
  rec.is_invalid = !e164;
  let name = deriveContactName({ name: rec.name ?? '', first_name: rec.first_name ?? '', last_name: rec.last_name ?? '' });
  if (!name) name = raw ?? '';
  rec.name = name.slice(0, 255);
  if (rec.first_name === null && rec.last_name === null && rec.name) {
    const [first = '', ...rest] = rec.name.split(/\s+/);
    rec.first_name = first; rec.last_name = rest.join(' ');
  }
  rec.first_name ??= '';
  rec.last_name ??= '';
  rec.gender = pick(CONTACT_GENDERS, rec.gender);
  rec.age_range = pick(AGE_RANGES, rec.age_range);
  rec.type = pick(CONTACT_TYPES, rec.type);
  return rec;
}

/**
 * Rows of the stored file after the header, in batches, with the progress fraction (0-1) reached.
 * CSV: papaparse over a file stream in `chunk` mode (one parse per 1 MB read; the reader pauses
 * while two batches wait, so memory stays bounded). Its row-by-row stream mode pauses the parser
 * every few rows and re-parses the rest of the chunk each time, which is quadratic on big files.
 */
async function* streamRows(file: string, type: FileType): AsyncGenerator<{ rows: string[][]; fraction: number }> {
  if (type === 'csv') {
    const size = fs.statSync(file).size || 1;
    const input = fs.createReadStream(file, { highWaterMark: 1 << 20 });
    const queue: Array<{ rows: string[][]; fraction: number }> = [];
    let done = false;
    let failure: unknown = null;
    let paused: Papa.Parser | null = null;
    let wake: (() => void) | null = null;
    const signal = () => { const w = wake; wake = null; w?.(); };
    let first = true;
    input.on('error', (e) => { failure = e; signal(); });
    Papa.parse(input as unknown as File, {
      skipEmptyLines: 'greedy',
      chunk: (res: Papa.ParseResult<string[]>, parser: Papa.Parser) => {
        // Cells are trimmed where they are read (toRecord); the header (with any BOM) is dropped.
        const rows = res.data;
        if (first) { first = false; rows.shift(); }
        queue.push({ rows, fraction: Math.min(1, input.bytesRead / size) });
        if (queue.length >= 2) { parser.pause(); input.pause(); paused = parser; }
        signal();
      },
      complete: () => { done = true; signal(); },
      error: (e: Error) => { failure = e; signal(); },
    });
    for (;;) {
      if (failure) throw failure as Error;
      const next = queue.shift();
      if (next) {
        const p = paused as Papa.Parser | null;
        if (p && queue.length < 2) { paused = null; p.resume(); input.resume(); }
        if (next.rows.length) yield next;
        continue;
      }
      if (done) return;
      await new Promise<void>((r) => { wake = r; });
    }
  }
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const ws = wb.worksheets[0];
  if (!ws) return;
  const total = Math.max(1, ws.rowCount - 1);
  let rows: string[][] = [];
  for (let r = 2; r <= ws.rowCount; r++) {
    rows.push(xlsxRowValues(ws.getRow(r)));
    if (rows.length >= 1000 || r === ws.rowCount) {
      yield { rows, fraction: (r - 1) / total };
      rows = [];
    }
  }
}

/** The raw (trimmed) number cell of each row, or null. */
function rawNumbers(rows: string[][], flat: Flat): Array<string | null> {
  const i = flat.number;
  return rows.map((r) => { const v = i === undefined ? '' : String(r[i] ?? '').trim(); return v === '' ? null : v; });
}

/**
 * Parses phone numbers with the domain's `parsePhone` on a worker thread (contacts.phone-worker.ts),
 * so the import's main thread builds and writes the previous rows meanwhile (parsing is most of an
 * import's CPU). Falls back to parsing inline when no worker can be started (or one fails), so the
 * result is the same either way. One worker per import, ended with `close()`.
 */
class PhoneParser {
  private worker: Worker | null = null;
  private seq = 0;
  private readonly pending = new Map<number, { resolve: (v: Array<string | null>) => void; reject: (e: unknown) => void }>();

  constructor(enabled: boolean) {
    if (!enabled) return;
    try {
      const w = new Worker(new URL('./contacts.phone-worker.ts', import.meta.url));
      w.on('message', (m: { id: number; parsed: Array<string | null> }) => {
        const p = this.pending.get(m.id);
        this.pending.delete(m.id);
        p?.resolve(m.parsed);
      });
      const fail = (e: unknown) => {
        this.worker = null;
        for (const p of this.pending.values()) p.reject(e);
        this.pending.clear();
      };
      w.on('error', fail);
      w.on('exit', (code) => { if (this.worker === w) fail(new Error(`phone worker exited (${code})`)); });
      w.unref();
      this.worker = w;
    } catch {
      this.worker = null;
    }
  }

  /** E.164 or null per number, in order. */
  async parse(numbers: Array<string | null>): Promise<Array<string | null>> {
    const w = this.worker;
    if (w) {
      const id = ++this.seq;
      try {
        return await new Promise<Array<string | null>>((resolve, reject) => {
          this.pending.set(id, { resolve, reject });
          w.postMessage({ id, numbers });
        });
      } catch { /* the worker failed: parse here */ }
    }
    return numbers.map((n) => (n ? parsePhone(n) : null));
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }
}

type Counters = { inserted: number; merged: number; invalid: number; processed: number };

/**
 * How a chunk finds the contacts its numbers already belong to. When the company had no contact with
 * a number when the import started, the only possible matches are this import's own earlier rows:
 * their numbers are kept in `seen` and only numbers seen before are looked up in the database (about
 * one row in a hundred instead of every row); otherwise every chunk looks all its numbers up (the
 * database also sees this import's own rows, inside its transaction).
 */
type Known = { lookup: boolean; seen: Set<string> };

/** Writes one chunk: merges duplicates within it, then merges into / inserts beside existing contacts. */
async function writeChunk(ctx: AppContext, tx: DbOrTx, companyId: number, groupIds: number[], chunk: ImportRecord[], c: Counters, known: Known): Promise<void> {
  const byKey = new Map<string, ImportRecord>();
  const keyless: ImportRecord[] = [];
  for (const r of chunk) {
    if (!r.number) { keyless.push(r); continue; }
    const prev = byKey.get(r.number);
    if (prev) {
      for (const col of IMPORT_COLUMNS) if (r[col]) prev[col] = r[col];
      c.merged++;
    } else byKey.set(r.number, r);
  }
  const candidates = known.lookup ? [...byKey.keys()] : [...byKey.keys()].filter((k) => known.seen.has(k));
  const existing = await contactsRepository.idsByNumbers(tx, companyId, candidates);
  const toMerge: ImportRecord[] = [];
  const mergeIds: number[] = [];
  const toInsert: ImportRecord[] = [...keyless];
  for (const [k, r] of byKey) {
    const id = existing.get(k);
    if (id !== undefined) { toMerge.push(r); mergeIds.push(id); } else toInsert.push(r);
  }
  await contactsRepository.mergeMany(tx, companyId, mergeIds, toMerge);
  const inserted = await contactsRepository.insertMany(tx, companyId, 'Import', toInsert, groupIds.length > 0);
  if (!known.lookup) for (const r of toInsert) if (r.number) known.seen.add(r.number);
  c.merged += toMerge.length;
  c.inserted += toInsert.length;
  c.invalid += toInsert.filter((r) => r.is_invalid).length;
  c.processed += chunk.length;
  if (groupIds.length) await addContactsToGroups(ctx, groupIds, [...mergeIds, ...inserted], tx);
}

/** The `contacts.import` job. Never throws for a bad file: the batch is marked failed and the failure published. */
export async function runContactImport(ctx: AppContext, batchId: string): Promise<void> {
  const batch = await contactsRepository.findImport(ctx.db, batchId);
  if (!batch || batch.status === 'finished' || batch.status === 'failed') return;
  const companyId = batch.company_id;
  const channel = `company.${companyId}`;
  await contactsRepository.updateImport(ctx.db, batchId, { status: 'running', processed: 0, progress: 0, inserted: 0, merged: 0, invalid: 0 });
  const flat = batch.mapping as Flat;
  const groupIds = batch.group_ids as number[];
  const local = await ctx.blobs.localFile(batch.file_key);
  const file = local.path;
  let counters: Counters;
  try {
    counters = await ctx.db.transaction().execute(async (tx) => {
      const c: Counters = { inserted: 0, merged: 0, invalid: 0, processed: 0 };
      const known: Known = { lookup: await contactsRepository.hasNumberedContacts(tx, companyId), seen: new Set() };
      let chunk: ImportRecord[] = [];
      let lastPublish = 0;
      let fraction = 0;
      // One chunk is written while the next is parsed (one statement at a time on the transaction;
      // a chunk starts only after the previous one finished, so duplicates across chunks are merged).
      let writing: Promise<void> | null = null;
      const flush = async () => {
        const rows = chunk;
        chunk = [];
        if (writing) await writing;
        writing = (async () => {
          await writeChunk(ctx, tx, companyId, groupIds, rows, c, known);
          if (Date.now() - lastPublish >= 250) {
            lastPublish = Date.now();
            const progress = Math.min(99, Math.round(fraction * 1000) / 10);
            await contactsRepository.updateImport(ctx.db, batchId, { processed: c.processed, progress });
            ctx.realtime.publish(channel, CONTACT_IMPORT_PROGRESS, { batchId, progress });
          }
        })();
        writing.catch(() => {}); // rethrown by the next await
      };
      // Batches of rows flow: read → numbers parsed on the worker (the next batch's while this one
      // is built) → records → chunks written (one while the next is built).
      const parser = new PhoneParser(importTuning.phoneWorker);
      const consume = async (b: { rows: string[][]; fraction: number; parsed: Promise<Array<string | null>> }) => {
        const parsed = await b.parsed;
        for (let i = 0; i < b.rows.length; i++) {
          const rec = toRecord(b.rows[i]!, flat, parsed[i]);
          if (rec) chunk.push(rec);
          if (chunk.length >= importTuning.chunkSize) await flush();
        }
        fraction = b.fraction;
      };
      try {
        let ahead: { rows: string[][]; fraction: number; parsed: Promise<Array<string | null>> } | null = null;
        for await (const { rows, fraction: f } of streamRows(file, batch.file_type as FileType)) {
          const next = { rows, fraction: f, parsed: parser.parse(rawNumbers(rows, flat)) };
          if (ahead) await consume(ahead);
          ahead = next;
        }
        if (ahead) await consume(ahead);
      } finally {
        await parser.close();
      }
      if (chunk.length) await flush();
      if (writing) await writing;
      return c;
    }).finally(() => local.release());
  } catch (err) {
    ctx.log.warn({ err, batchId }, 'contact import failed');
    const finishedAt = new Date();
    await contactsRepository.updateImport(ctx.db, batchId, { status: 'failed', error: IMPORT_FAILURE, finished_at: finishedAt, inserted: 0, merged: 0, invalid: 0 });
    const ev: ContactImportCompletedEvent = { batchId, finishedAt: finishedAt.toISOString(), inserted: 0, merged: 0, invalid: 0, failed: true, error: IMPORT_FAILURE };
    ctx.realtime.publish(channel, CONTACT_IMPORT_COMPLETED, ev);
    return;
  }
  const finishedAt = new Date();
  await contactsRepository.updateImport(ctx.db, batchId, { status: 'finished', progress: 100, finished_at: finishedAt, ...counters, total: counters.processed });
  ctx.realtime.publish(channel, CONTACT_IMPORT_PROGRESS, { batchId, progress: 100 });
  const ev: ContactImportCompletedEvent = { batchId, finishedAt: finishedAt.toISOString(), inserted: counters.inserted, merged: counters.merged, invalid: counters.invalid, failed: false, error: null };
  ctx.realtime.publish(channel, CONTACT_IMPORT_COMPLETED, ev);
}
