/**
 * Contact import from CSV, XLSX and vCard (spec 001 §5 "A contact import file (CSV or XLSX) must have
 * valid name and number columns", §3 "Batch progress", §4 "Batch jobs", §8 import failure;
 * docs/contacts.md "Import").
 *
 * - `previewImport`: headers, the first 10 rows and the suggested mapping (domain
 *   `detectContactImportMapping`: Google Contacts, Outlook, vCard and plain headers).
 * - `startImport`: checks the mapping (422 `INVALID_CONTACT_FILE`) and the duplicates choice
 *   (skip | fill | overwrite, default skip), stores the file in the blob store, creates a
 *   `contact_imports` batch and enqueues `contacts.import` in the same transaction.
 * - `runContactImport` (the job): streams rows (CSV: papaparse in chunk mode over a file stream;
 *   XLSX: exceljs; vCard: ical.js, turned into rows with Google's headers), parses numbers with
 *   `parsePhone` on a worker thread (`PhoneParser`). Each row has exactly one outcome: added,
 *   updated (a duplicate that filled or overwrote something), skipped (a duplicate left as it was)
 *   or invalid (no valid number: NOT imported); so `inserted + merged + skipped + invalid = total`.
 *   Rows that did not simply add a contact go to `contact_import_rows` (the downloadable report).
 *   Chunks of `importTuning.chunkSize` rows are written with `INSERT ... SELECT FROM unnest(...)`
 *   (a chunk is written while the next is built), all inside ONE transaction, so a failure or a
 *   crash leaves nothing behind and a redelivered job redoes the batch from the start: exactly once.
 *   A transaction-scoped advisory lock on the batch keeps two deliveries from running it at once.
 *   Progress goes to `company.{companyId}` as `contact import progress` {batchId, progress} (0-100,
 *   at most every 250 ms) and the end as `contact import completed`.
 */
import { recordJobAudit } from '../audit/audit.service.js';
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { randomUUID } from 'node:crypto';
import {
  CONTACT_IMPORT_COMPLETED,
  CONTACT_IMPORT_PROGRESS,
  IMPORT_DUPLICATE_CHOICES,
  ImportMapping,
  type ContactImportCompletedEvent,
  type ImportDuplicateChoice,
} from '@switchboard/contracts';
import {
  AGE_RANGES,
  CONTACT_GENDERS,
  CONTACT_TYPES,
  IMPORT_FAILURE,
  IMPORT_SINGLE_FIELDS,
  deriveContactName,
  detectContactImportMapping,
  importColumnsError,
  parsePhone,
  phoneLabelColumn,
  pickRowNumber,
  splitMultiValue,
  type ContactImportMapping,
  type ImportSingleField,
  type RowPhone,
} from '@switchboard/domain';
import Papa from 'papaparse';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { outsideTransaction } from '../../platform/db/tx-guard.js';
import type { UploadedFile } from '../../platform/http/multipart.js';
import { toCsv } from '../../platform/csv.js';
import { NotFoundError, ValidationError, fieldError } from '../../platform/http/errors.js';
import { AGENT_ROLES, assertCompanyAccess } from '../companies/companies.service.js';
import { IMPORT_COLUMNS, contactsRepository, type ImportColumn, type ImportRecord, type ImportReportRow, type ImportValues } from './contacts.repository.js';
import { addContactsToGroups, assertGroupIds } from './groups.service.js';
import { UnreadableFileError, fileRows, type RowBatch } from './contacts.file-rows.js';

export const IMPORT_JOB = 'contacts.import';
/** Tunables (tests lower the chunk size to exercise several chunks). */
export const importTuning = {
  chunkSize: 5000,
  /** Heap limit of the XLSX/vCard parse worker (MB): a workbook that inflates beyond it is unreadable (422). */
  parseWorkerHeapMb: 512,
  /** Longest read of one XLSX/vCard file on the parse worker (ms). */
  parseTimeoutMs: 120_000,
  /** A vCard upload up to this size (bytes) is read inline: about 30 ms of CPU; bigger ones on the parse worker. */
  inlineVcardBytes: 128 * 1024,
  /** Parse phone numbers on a worker thread (falls back to the main thread when none can start). */
  phoneWorker: true,
};

export type { UploadedFile };
type FileType = 'csv' | 'xlsx' | 'vcf';

/**
 * What the job reads from a row (stored as the batch's `mapping`): the name columns, the phone
 * columns with their label column (Google) or header (Outlook), e-mail columns and single fields.
 */
type Plan = {
  v: 2;
  name?: number;
  first_name?: number;
  last_name?: number;
  numbers: Array<{ column: number; labelColumn?: number; header: string }>;
  emails: number[];
  single: Partial<Record<ImportSingleField, number>>;
};

/** CSV, XLSX or vCard from the name, the MIME type or the content. @throws 422 on `file` otherwise. */
function fileTypeOf(f: UploadedFile): FileType {
  const name = f.filename.toLowerCase();
  if (name.endsWith('.vcf') || name.endsWith('.vcard') || /vcard/.test(f.mimetype) || /^\uFEFF?\s*BEGIN:VCARD/i.test(f.data.subarray(0, 64).toString('utf8')))
    return 'vcf';
  if (name.endsWith('.xlsx') || f.mimetype.includes('spreadsheetml') || (f.data[0] === 0x50 && f.data[1] === 0x4b)) return 'xlsx';
  if (name.endsWith('.csv') || name.endsWith('.txt') || f.mimetype.includes('csv') || f.mimetype.startsWith('text/')) return 'csv';
  throw fieldError('file', 'The file must be a file of type: csv, xlsx, vcf.');
}

/** Worker options that load the TypeScript worker files: the tsx loader the server runs with (`--import tsx`), given when absent (tests). */
function workerLoader(): { execArgv?: string[] } {
  return process.execArgv.some((a) => a.includes('tsx')) ? {} : { execArgv: [...process.execArgv, '--import', 'tsx'] };
}

/**
 * Rows of an XLSX or vCard file (contacts.file-rows.ts `fileRows`) read on a worker thread
 * (contacts.parse-worker.ts) under a heap limit and a deadline, in batches as the worker sends them
 * (docs/operations.md "Bounds on outside input"). Falls back to reading inline only when no worker
 * can be started at all (the same rows either way).
 * @throws ValidationError (422 on `file`) when the file is unreadable, too big to inflate, or takes
 *   longer than `importTuning.parseTimeoutMs`.
 */
async function* readFileRows(source: Buffer | string, type: 'xlsx' | 'vcf', opts: { limit?: number; keepBlank?: boolean } = {}): AsyncGenerator<RowBatch> {
  const job = { source: typeof source === 'string' ? source : new Uint8Array(source), type, batch: 1000, ...opts };
  const inline = async function* (): AsyncGenerator<RowBatch> {
    try {
      yield* fileRows(job.source, type, job);
    } catch (e) {
      if (e instanceof UnreadableFileError) throw fieldError('file', e.message);
      throw e;
    }
  };
  // A small vCard is text and reads in milliseconds; a workbook is a zip (any size may inflate far).
  if (type === 'vcf' && typeof source !== 'string' && source.length <= importTuning.inlineVcardBytes) {
    yield* inline();
    return;
  }
  let worker: Worker;
  try {
    worker = new Worker(new URL('./contacts.parse-worker.ts', import.meta.url), {
      workerData: job,
      ...workerLoader(),
      resourceLimits: { maxOldGenerationSizeMb: importTuning.parseWorkerHeapMb },
    });
  } catch (startError) {
    void startError; // no thread support here: read inline (same rows)
    yield* inline();
    return;
  }
  type Message =
    { kind: 'rows'; rows: string[][]; total: number } | { kind: 'done' } | { kind: 'error'; unreadable: boolean; message: string } | { kind: 'unloadable' };
  const queue: Message[] = [];
  let heard = false;
  let wake: (() => void) | null = null;
  const push = (m: Message) => {
    queue.push(m);
    const w = wake;
    wake = null;
    w?.();
  };
  worker.on('message', (m: Message) => {
    heard = true;
    push(m);
  });
  worker.on('error', (e: Error & { code?: string }) => {
    // The worker's own code could not be loaded (no TypeScript loader): read inline instead.
    if (!heard && (e.code === 'ERR_UNKNOWN_FILE_EXTENSION' || e.code === 'ERR_MODULE_NOT_FOUND')) push({ kind: 'unloadable' });
    // Otherwise (heap limit reached: a zip bomb; a crash) the file reads as unreadable.
    else push({ kind: 'error', unreadable: true, message: e.message });
  });
  worker.on('exit', (code) => push({ kind: 'error', unreadable: true, message: `parse worker exited (${code})` }));
  const deadline = setTimeout(() => {
    push({ kind: 'error', unreadable: true, message: 'The file took too long to read.' });
    void worker.terminate();
  }, importTuning.parseTimeoutMs);
  try {
    for (;;) {
      const m = queue.shift();
      if (!m) {
        await new Promise<void>((r) => (wake = r));
        continue;
      }
      if (m.kind === 'done') return;
      if (m.kind === 'unloadable') {
        yield* inline();
        return;
      }
      if (m.kind === 'error') {
        if (m.unreadable) throw fieldError('file', 'The file could not be read.');
        throw new Error(`contact file parse failed: ${m.message}`);
      }
      yield { rows: m.rows, total: m.total };
    }
  } finally {
    clearTimeout(deadline);
    worker.removeAllListeners('exit');
    void worker.terminate();
  }
}

/** Bytes of a CSV upload decoded for a preview or its header row (a few rows; the whole file is read by the job). */
const CSV_PREVIEW_BYTES = 1024 * 1024;

/** Rows (header first) of a file, optionally at most `limit` (XLSX and vCard read on the parse worker). */
async function readRows(data: Buffer, type: FileType, limit?: number): Promise<string[][]> {
  if (type === 'csv') {
    // The first rows are in the first bytes: a preview decodes at most CSV_PREVIEW_BYTES, not the whole upload.
    const head = limit && data.length > CSV_PREVIEW_BYTES ? data.subarray(0, CSV_PREVIEW_BYTES) : data;
    const r = Papa.parse<string[]>(head.toString('utf8').replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy', ...(limit ? { preview: limit } : {}) });
    return r.data.map((row) => row.map((c) => String(c ?? '').trim()));
  }
  const rows: string[][] = [];
  for await (const b of readFileRows(data, type, limit ? { limit } : {})) rows.push(...b.rows);
  return rows;
}

const list = (v: number | number[] | undefined): number[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** An API mapping (old or new shape) → the domain mapping. */
function fromApi(m: ImportMapping): ContactImportMapping {
  const out: ContactImportMapping = {};
  if (typeof m.name === 'number') out.name = m.name;
  else if (m.name) {
    if (m.name.first !== undefined) out.first_name = m.name.first;
    if (m.name.last !== undefined) out.last_name = m.name.last;
  }
  if (m.first_name !== undefined) out.first_name = m.first_name;
  if (m.last_name !== undefined) out.last_name = m.last_name;
  if (m.number !== undefined) out.number = list(m.number);
  if (m.email !== undefined) out.email = list(m.email);
  if (m.labels !== undefined) out.labels = list(m.labels);
  for (const f of IMPORT_SINGLE_FIELDS) if (m[f] !== undefined) out[f] = m[f];
  return out;
}

/**
 * The domain mapping in the API's shape (`ImportMapping`): as before for simple files (`name` a
 * column or `{first, last}`, `number`/`email` one column), lists where several columns apply.
 */
function toApi(m: ContactImportMapping): ImportMapping {
  const out: ImportMapping = {};
  if (m.name !== undefined) {
    out.name = m.name;
    if (m.first_name !== undefined) out.first_name = m.first_name;
    if (m.last_name !== undefined) out.last_name = m.last_name;
  } else if (m.first_name !== undefined || m.last_name !== undefined) {
    out.name = { ...(m.first_name !== undefined ? { first: m.first_name } : {}), ...(m.last_name !== undefined ? { last: m.last_name } : {}) };
  }
  const one = (v: number[] | undefined) => (v === undefined || v.length === 0 ? undefined : v.length === 1 ? v[0] : v);
  if (one(m.number) !== undefined) out.number = one(m.number);
  if (one(m.email) !== undefined) out.email = one(m.email);
  if (one(m.labels) !== undefined) out.labels = one(m.labels);
  for (const f of IMPORT_SINGLE_FIELDS) if (m[f] !== undefined) out[f] = m[f];
  return out;
}

/** The spec 001 §5 rule on a mapping and the header count. */
function mappingError(m: ContactImportMapping, headerCount: number): string | null {
  const hasName = m.name !== undefined || m.first_name !== undefined || m.last_name !== undefined;
  const error = importColumnsError({ ...(hasName ? { name: 0 } : {}), ...(m.number?.length ? { number: 0 } : {}) });
  if (error) return error;
  const all = [m.name, m.first_name, m.last_name, ...(m.number ?? []), ...(m.email ?? []), ...(m.labels ?? []), ...IMPORT_SINGLE_FIELDS.map((f) => m[f])];
  return all.some((i) => i !== undefined && i >= headerCount) ? importColumnsError({}) : null;
}

/** The job's plan from a checked mapping and the header row. */
function planOf(m: ContactImportMapping, headers: string[]): Plan {
  const single: Plan['single'] = {};
  for (const f of IMPORT_SINGLE_FIELDS) if (m[f] !== undefined) single[f] = m[f];
  return {
    v: 2,
    name: m.name,
    first_name: m.first_name,
    last_name: m.last_name,
    numbers: (m.number ?? []).map((column) => ({ column, labelColumn: phoneLabelColumn(headers, column), header: headers[column] ?? '' })),
    emails: m.email ?? [],
    single,
  };
}

/** A stored plan; batches of the first version stored a flat field → column map. */
function loadPlan(stored: Record<string, unknown>): Plan {
  if (stored.v === 2) return stored as unknown as Plan;
  const flat = stored as Partial<Record<ImportColumn, number>>;
  const single: Plan['single'] = {};
  for (const f of IMPORT_SINGLE_FIELDS) if (flat[f] !== undefined) single[f] = flat[f];
  return {
    v: 2,
    name: flat.name,
    first_name: flat.first_name,
    last_name: flat.last_name,
    numbers: flat.number === undefined ? [] : [{ column: flat.number, header: '' }],
    emails: flat.email === undefined ? [] : [flat.email],
    single,
  };
}

/** `POST /companies/{companyId}/contacts/import/preview`. */
export async function previewImport(ctx: AppContext, userId: number, companyId: number, file: UploadedFile | undefined) {
  await assertCompanyAccess(ctx, userId, companyId, AGENT_ROLES);
  if (!file || file.data.length === 0) throw fieldError('file', 'The file field is required.');
  const rows = await readRows(file.data, fileTypeOf(file), 11);
  const headers = rows[0] ?? [];
  const detected = detectContactImportMapping(headers);
  return { headers, rows: rows.slice(1), mapping: toApi(detected), error: mappingError(detected, headers.length) };
}

/**
 * `POST /companies/{companyId}/contacts/import`. `mapping` omitted → detected from the headers;
 * `duplicates` skip (default) | fill | overwrite.
 * @returns `{batchId}`. @throws ValidationError (422) with `INVALID_CONTACT_FILE` when the file has no
 *   name and number columns, on `mapping` when it is malformed, on `duplicates` when unknown.
 */
export async function startImport(
  ctx: AppContext,
  userId: number,
  companyId: number,
  input: { file?: UploadedFile; mapping?: unknown; duplicates?: unknown; groupIds: number[] },
): Promise<{ batchId: string }> {
  await assertCompanyAccess(ctx, userId, companyId, AGENT_ROLES);
  const file = input.file;
  if (!file || file.data.length === 0) throw fieldError('file', 'The file field is required.');
  const duplicates = (input.duplicates === undefined || input.duplicates === '' ? 'skip' : input.duplicates) as ImportDuplicateChoice;
  if (!IMPORT_DUPLICATE_CHOICES.includes(duplicates)) throw fieldError('duplicates', 'The selected duplicates is invalid.');
  const type = fileTypeOf(file);
  const headers = (await readRows(file.data, type, 1))[0] ?? [];
  let mapping: ContactImportMapping;
  if (input.mapping !== undefined && input.mapping !== null && input.mapping !== '') {
    let raw = input.mapping;
    if (typeof raw === 'string') {
      try {
        raw = JSON.parse(raw);
      } catch (e) {
        if (e instanceof SyntaxError) throw fieldError('mapping', 'The mapping must be valid JSON.');
        throw e;
      }
    }
    const parsed = ImportMapping.safeParse(raw);
    if (!parsed.success) throw fieldError('mapping', 'The mapping is invalid.');
    mapping = fromApi(parsed.data);
  } else mapping = detectContactImportMapping(headers);
  const error = mappingError(mapping, headers.length);
  if (error) throw new ValidationError({ file: [error] }, error);
  const groupIds = await assertGroupIds(ctx, companyId, input.groupIds, 'group_ids');
  const batchId = randomUUID();
  const key = `imports/contacts/${companyId}/${batchId}.${type}`;
  await ctx.blobs.put(key, file.data);
  await ctx.db.transaction().execute(async (tx) => {
    await contactsRepository.insertImport(tx, {
      id: batchId,
      company_id: companyId,
      user_id: userId,
      file_key: key,
      file_type: type,
      duplicates,
      mapping: JSON.stringify(planOf(mapping, headers)),
      group_ids: JSON.stringify(groupIds),
    });
    await ctx.queue.enqueue(IMPORT_JOB, { batchId }, { singletonKey: batchId }, tx);
  });
  return { batchId };
}

/** Where the report of a batch is downloaded (`GET`, signed-in users of the company). */
function reportUrl(companyId: number, batchId: string): string {
  return `/api/companies/${companyId}/contacts/import/${batchId}/report`;
}

/** `GET /companies/{companyId}/contacts/progress/{batchId}`. @throws NotFoundError for another company's batch. */
export async function getImportProgress(ctx: AppContext, userId: number, companyId: number, batchId: string) {
  await assertCompanyAccess(ctx, userId, companyId);
  const b = await contactsRepository.findImport(ctx.db, batchId);
  if (!b || b.company_id !== companyId) throw new NotFoundError('Batch');
  return {
    progress: b.status === 'finished' ? 100 : Math.round(b.progress * 10) / 10,
    finishedAt: b.finished_at?.toISOString() ?? null,
    status: b.status,
    inserted: b.inserted,
    merged: b.merged,
    invalid: b.invalid,
    error: b.error,
    skipped: b.skipped,
    total: b.total,
    duplicates: b.duplicates,
    report_url: b.status === 'finished' ? reportUrl(companyId, batchId) : null,
  };
}

/**
 * `GET /companies/{companyId}/contacts/import/{batchId}/report`: the per-row report as CSV
 * (Row, Outcome, Reason, Name, Number), rows in file order; only rows that did not simply add a contact.
 * @throws NotFoundError for another company's batch, or one not finished.
 */
export async function importReportCsv(ctx: AppContext, userId: number, companyId: number, batchId: string): Promise<string> {
  await assertCompanyAccess(ctx, userId, companyId);
  const b = await contactsRepository.findImport(ctx.db, batchId);
  if (!b || b.company_id !== companyId || b.status !== 'finished') throw new NotFoundError('Batch');
  const rows = await contactsRepository.importReport(ctx.db, batchId);
  const data = rows.map((r) => [r.row_number, r.outcome, r.reason, r.name, r.number]);
  // Formula cells neutralised by the one CSV writer (platform/csv.ts; phone numbers kept as they are).
  return `\uFEFF${toCsv(data, { fields: ['Row', 'Outcome', 'Reason', 'Name', 'Number'] })}\r\n`;
}

function pick<T extends string>(allowed: readonly T[], v: string | null): T | null {
  if (!v) return null;
  return allowed.find((a) => a.toLowerCase() === v.trim().toLowerCase()) ?? null;
}

/** One row read: a record, an invalid row (with its reason), or null for a blank row. */
type RowResult =
  | { kind: 'record'; row: number; rec: ImportRecord; nameFromNumber: boolean }
  | { kind: 'invalid'; row: number; reason: string; name: string | null; number: string | null };

/** The phones of a row in column order (Google multi-value cells split), with their labels. */
function rowPhones(row: string[], plan: Plan): RowPhone[] {
  const out: RowPhone[] = [];
  for (const p of plan.numbers) {
    const values = splitMultiValue(row[p.column]);
    const label = p.labelColumn !== undefined ? (splitMultiValue(row[p.labelColumn])[0] ?? '') : p.header;
    for (const value of values) out.push({ value, label });
  }
  return out;
}

/** Every raw phone of a batch of rows (for the parser). */
function rawNumbers(rows: string[][], plan: Plan): string[] {
  const out: string[] = [];
  for (const r of rows) for (const p of rowPhones(r, plan)) out.push(p.value);
  return out;
}

/** One row → record / invalid / null (blank). `parsed`: raw number → E.164 or null. */
function toRecord(row: string[], rowNumber: number, plan: Plan, parsed: Map<string, string | null>): RowResult | null {
  if (row.every((c) => c === undefined || c === null || String(c).trim() === '')) return null;
  const cell = (i: number | undefined): string | null => {
    const v = i === undefined ? '' : String(row[i] ?? '').trim();
    return v === '' ? null : v;
  };
  const derived = deriveContactName({ name: cell(plan.name) ?? '', first_name: cell(plan.first_name) ?? '', last_name: cell(plan.last_name) ?? '' });
  const phones = rowPhones(row, plan);
  if (phones.length === 0) return { kind: 'invalid', row: rowNumber, reason: 'No phone number', name: derived || null, number: null };
  const pickd = pickRowNumber(phones, (raw) => parsed.get(raw) ?? parsePhone(raw));
  if (!pickd.chosen)
    return { kind: 'invalid', row: rowNumber, reason: `Invalid phone number: ${phones[0]!.value}`, name: derived || null, number: phones[0]!.value };
  const rec = {} as ImportRecord;
  for (const c of IMPORT_COLUMNS) rec[c] = null;
  for (const f of IMPORT_SINGLE_FIELDS) rec[f] = cell(plan.single[f]);
  rec.number = pickd.chosen;
  rec.is_invalid = false;
  rec.email = plan.emails.map((i) => splitMultiValue(row[i])[0]).find((e) => e !== undefined) ?? null;
  if (pickd.others.length) {
    // Other numbers are kept in the notes ("Other phones: Work +1 ..., Home ...").
    const others = `Other phones: ${pickd.others.map((p) => `${p.label ? `${p.label} ` : ''}${p.value}`).join(', ')}`;
    rec.notes = rec.notes ? `${rec.notes}\n${others}` : others;
  }
  const nameFromNumber = !derived;
  const name = (derived || phones[pickd.chosenIndex]!.value).slice(0, 255);
  rec.name = name;
  rec.first_name = cell(plan.first_name);
  rec.last_name = cell(plan.last_name);
  if (rec.first_name === null && rec.last_name === null && !nameFromNumber) {
    const [first = '', ...rest] = name.split(/\s+/);
    rec.first_name = first;
    rec.last_name = rest.join(' ');
  }
  rec.first_name ??= '';
  rec.last_name ??= '';
  rec.gender = pick(CONTACT_GENDERS, rec.gender);
  rec.age_range = pick(AGE_RANGES, rec.age_range);
  rec.type = pick(CONTACT_TYPES, rec.type);
  return { kind: 'record', row: rowNumber, rec, nameFromNumber };
}
/**
 * Rows of the stored file after the header, in batches, with the file row number of the batch's
 * first row (CSV/XLSX: the spreadsheet row, header = 1; vCard: the card's position, first = 1) and
 * the progress fraction (0-1) reached. CSV: papaparse over a file stream in `chunk` mode (one parse
 * per 256 KB read; the reader pauses while two batches wait, so memory stays bounded). Its row-by-row
 * stream mode pauses the parser every few rows and re-parses the rest of the chunk each time, which
 * is quadratic on big files. Blank lines are kept (and skipped later) so row numbers stay true.
 */
async function* streamRows(file: string, type: FileType): AsyncGenerator<{ rows: string[][]; firstRow: number; fraction: number }> {
  if (type === 'vcf' || type === 'xlsx') {
    // Read on the parse worker; the header row is dropped here. vCard rows are numbered by card
    // (first = 1), worksheet rows by their row in the sheet (header = 1, blank rows kept).
    let seen = 0;
    for await (const b of readFileRows(file, type, { keepBlank: true })) {
      let rows = b.rows;
      if (seen === 0) rows = rows.slice(1);
      const firstRow = type === 'vcf' ? Math.max(1, seen) : seen === 0 ? 2 : seen + 1;
      seen += b.rows.length;
      const data = Math.max(1, b.total - 1);
      if (rows.length) yield { rows, firstRow, fraction: Math.min(1, (seen - 1) / data) };
    }
    return;
  }
  if (type === 'csv') {
    const size = fs.statSync(file).size || 1;
    // 256 KB a parse: about 25 ms of the event loop each (1 MB took about 100 ms, docs/operations.md "Bounds on outside input").
    const input = fs.createReadStream(file, { highWaterMark: 256 * 1024 });
    const queue: Array<{ rows: string[][]; firstRow: number; fraction: number }> = [];
    let done = false;
    let failure: unknown = null;
    let paused: Papa.Parser | null = null;
    let wake: (() => void) | null = null;
    const signal = () => {
      const w = wake;
      wake = null;
      w?.();
    };
    let first = true;
    let nextRow = 2;
    input.on('error', (e) => {
      failure = e;
      signal();
    });
    Papa.parse(input as unknown as File, {
      skipEmptyLines: false,
      chunk: (res: Papa.ParseResult<string[]>, parser: Papa.Parser) => {
        // Cells are trimmed where they are read (toRecord); the header (with any BOM) is dropped.
        const rows = res.data;
        if (first) {
          first = false;
          rows.shift();
        }
        queue.push({ rows, firstRow: nextRow, fraction: Math.min(1, input.bytesRead / size) });
        nextRow += rows.length;
        if (queue.length >= 2) {
          parser.pause();
          input.pause();
          paused = parser;
        }
        signal();
      },
      complete: () => {
        done = true;
        signal();
      },
      error: (e: Error) => {
        failure = e;
        signal();
      },
    });
    for (;;) {
      if (failure) throw failure as Error;
      const next = queue.shift();
      if (next) {
        const p = paused as Papa.Parser | null;
        if (p && queue.length < 2) {
          paused = null;
          p.resume();
          input.resume();
        }
        if (next.rows.length) yield next;
        continue;
      }
      if (done) return;
      await new Promise<void>((r) => {
        wake = r;
      });
    }
  }
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
      const w = new Worker(new URL('./contacts.phone-worker.ts', import.meta.url), workerLoader());
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
      w.on('exit', (code) => {
        if (this.worker === w) fail(new Error(`phone worker exited (${code})`));
      });
      w.unref();
      this.worker = w;
    } catch (startError) {
      // No worker can be started here (e.g. no thread support): parse inline, same result.
      void startError;
      this.worker = null;
    }
  }

  /** E.164 or null per number, in order. */
  async parse(numbers: string[]): Promise<Array<string | null>> {
    const w = this.worker;
    if (w) {
      const id = ++this.seq;
      try {
        return await new Promise<Array<string | null>>((resolve, reject) => {
          this.pending.set(id, { resolve, reject });
          w.postMessage({ id, numbers });
        });
      } catch (workerError) {
        // The worker failed (its 'error' / 'exit' rejected the pending batch): parse this batch inline.
        void workerError;
      }
    }
    return numbers.map((n) => parsePhone(n));
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }
}

type Counters = { inserted: number; merged: number; skipped: number; invalid: number; processed: number };

/**
 * What this import knows across chunks: `added` maps each number it added to the row that added it
 * (a later duplicate says "Duplicate of row N"). When the company had no contact with a number when
 * the import started (`lookup` false), the only possible matches are this import's own earlier rows,
 * so only numbers in `added` are looked up in the database (about one row in a hundred instead of
 * every row); otherwise every chunk looks all its numbers up (the database also sees this import's
 * own rows, inside its transaction).
 */
type Known = { lookup: boolean; added: Map<string, number> };

/** Fields a duplicate may fill or overwrite (the number is the key; it never changes). */
const MERGE_FIELDS = IMPORT_COLUMNS.filter((c) => c !== 'number');
const NAME_FIELDS: ReadonlySet<ImportColumn> = new Set(['name', 'first_name', 'last_name']);
const blank = (v: string | null | undefined) => v === null || v === undefined || v === '';

/**
 * Applies a duplicate row to the values of its contact (in place) as the person chose.
 * fill: only the contact's empty fields take the row's values; overwrite: every non-empty value of
 * the row replaces the contact's (a name made up from the number never counts as a value).
 * @returns the fields that changed
 */
function applyDuplicate(mode: ImportDuplicateChoice, target: ImportValues, r: { rec: ImportRecord; nameFromNumber: boolean }): ImportColumn[] {
  const changed: ImportColumn[] = [];
  if (mode === 'skip') return changed;
  for (const f of MERGE_FIELDS) {
    const v = r.rec[f];
    if (blank(v) || (r.nameFromNumber && NAME_FIELDS.has(f))) continue;
    if (mode === 'fill' ? blank(target[f]) : target[f] !== v) {
      target[f] = v;
      changed.push(f);
    }
  }
  return changed;
}

/**
 * Writes one chunk: every row gets one outcome (added, updated, skipped, invalid), in file order, so
 * several rows with one number act one after the other on the same contact.
 */
async function writeChunk(
  ctx: AppContext,
  tx: DbOrTx,
  batch: { id: string; companyId: number; groupIds: number[]; mode: ImportDuplicateChoice },
  chunk: RowResult[],
  c: Counters,
  known: Known,
): Promise<void> {
  const { companyId, mode } = batch;
  const numbers = [...new Set(chunk.flatMap((r) => (r.kind === 'record' ? [r.rec.number!] : [])))];
  const candidates = known.lookup ? numbers : numbers.filter((k) => known.added.has(k));
  const existing = await contactsRepository.importValuesByNumbers(tx, companyId, candidates);
  type Target = { kind: 'new'; values: ImportRecord; row: number } | { kind: 'existing'; id: number; values: ImportValues; changed: boolean };
  const targets = new Map<string, Target>();
  const report: ImportReportRow[] = [];
  const toInsert: ImportRecord[] = [];
  for (const r of chunk) {
    if (r.kind === 'invalid') {
      c.invalid++;
      report.push({ import_id: batch.id, row_number: r.row, outcome: 'invalid', reason: r.reason, name: r.name, number: r.number });
      continue;
    }
    const key = r.rec.number!;
    let t = targets.get(key);
    if (!t) {
      const ex = existing.get(key);
      if (ex) targets.set(key, (t = { kind: 'existing', id: ex.id, values: ex, changed: false }));
    }
    if (!t) {
      targets.set(key, { kind: 'new', values: r.rec, row: r.row });
      toInsert.push(r.rec);
      c.inserted++;
      continue;
    }
    const firstRow = t.kind === 'new' ? t.row : known.added.get(key);
    const of = firstRow !== undefined ? `row ${firstRow}` : 'an existing contact';
    const changed = applyDuplicate(mode, t.values as ImportValues, r);
    const base = { import_id: batch.id, row_number: r.row, name: r.rec.name, number: key };
    if (changed.length) {
      if (t.kind === 'existing') t.changed = true;
      c.merged++;
      report.push({ ...base, outcome: 'updated', reason: `Duplicate of ${of}: ${mode === 'fill' ? 'filled' : 'overwrote'} ${changed.join(', ')}` });
    } else {
      c.skipped++;
      const why = mode === 'skip' ? '' : mode === 'fill' ? ': no empty field to fill' : ': nothing new';
      report.push({ ...base, outcome: 'skipped', reason: `Duplicate of ${of}${why}` });
    }
  }
  const updates = [...targets.values()].filter((t): t is Extract<Target, { kind: 'existing' }> => t.kind === 'existing' && t.changed);
  await contactsRepository.updateImportValues(
    tx,
    companyId,
    updates.map((t) => t.id),
    updates.map((t) => t.values),
  );
  const inserted = await contactsRepository.insertMany(tx, companyId, 'Import', toInsert, batch.groupIds.length > 0);
  await contactsRepository.insertImportRows(tx, report);
  for (const t of targets.values()) if (t.kind === 'new') known.added.set(t.values.number!, t.row);
  c.processed += chunk.length;
  // Duplicates join the chosen groups too (skip leaves a contact's fields, not the person's grouping).
  const existingIds = [...targets.values()].flatMap((t) => (t.kind === 'existing' ? [t.id] : []));
  if (batch.groupIds.length) await addContactsToGroups(ctx, batch.groupIds, [...existingIds, ...inserted], tx);
}

/**
 * The `contacts.import` job. Never throws for a bad file: the batch is marked failed and the failure
 * published. Runs the whole batch in one transaction under a transaction-scoped advisory lock on the
 * batch id; a delivery that finds the batch finished or failed (after the lock) does nothing.
 */
export async function runContactImport(ctx: AppContext, batchId: string): Promise<void> {
  const batch = await contactsRepository.findImport(ctx.db, batchId);
  if (!batch || batch.status === 'finished' || batch.status === 'failed') return;
  const companyId = batch.company_id;
  const channel = `company.${companyId}` as const;
  await contactsRepository.markImportRunning(ctx.db, batchId);
  const plan = loadPlan(batch.mapping as Record<string, unknown>);
  const groupIds = batch.group_ids as number[];
  const mode = (IMPORT_DUPLICATE_CHOICES as readonly string[]).includes(batch.duplicates) ? (batch.duplicates as ImportDuplicateChoice) : 'skip';
  const local = await ctx.blobs.localFile(batch.file_key);
  const file = local.path;
  let outcome: { counters: Counters; finishedAt: Date } | null;
  try {
    outcome = await ctx.db
      .transaction()
      .execute(async (tx) => {
        await contactsRepository.lockImport(tx, batchId);
        const fresh = await contactsRepository.findImport(tx, batchId);
        if (!fresh || fresh.status === 'finished' || fresh.status === 'failed') return null;
        const c: Counters = { inserted: 0, merged: 0, skipped: 0, invalid: 0, processed: 0 };
        const known: Known = { lookup: await contactsRepository.hasNumberedContacts(tx, companyId), added: new Map() };
        let chunk: RowResult[] = [];
        let lastPublish = 0;
        let fraction = 0;
        // One chunk is written while the next is parsed (one statement at a time on the transaction;
        // a chunk starts only after the previous one finished, so duplicates across chunks are seen).
        let writing: Promise<void> | null = null;
        const flush = async () => {
          const rows = chunk;
          chunk = [];
          if (writing) await writing;
          writing = (async () => {
            await writeChunk(ctx, tx, { id: batchId, companyId, groupIds, mode }, rows, c, known);
            if (Date.now() - lastPublish >= 250) {
              lastPublish = Date.now();
              const progress = Math.min(99, Math.round(fraction * 1000) / 10);
              // Not awaited: the transaction never waits for another pool connection (docs/architecture.md).
              void outsideTransaction(() => contactsRepository.updateImportProgress(ctx.db, batchId, c.processed, progress)).catch((err) =>
                ctx.log.warn({ err, batchId }, 'import progress not saved'),
              );
              ctx.realtime.send(channel, CONTACT_IMPORT_PROGRESS, { batchId, progress });
            }
          })();
          writing.catch(() => {}); // rethrown by the next await
        };
        // Batches of rows flow: read → numbers parsed on the worker (the next batch's while this one
        // is built) → records → chunks written (one while the next is built).
        const parser = new PhoneParser(importTuning.phoneWorker);
        type Ahead = { rows: string[][]; firstRow: number; fraction: number; raw: string[]; parsed: Promise<Array<string | null>> };
        const consume = async (b: Ahead) => {
          const values = await b.parsed;
          const parsed = new Map<string, string | null>();
          b.raw.forEach((raw, i) => parsed.set(raw, values[i] ?? null));
          for (let i = 0; i < b.rows.length; i++) {
            const rec = toRecord(b.rows[i]!, b.firstRow + i, plan, parsed);
            if (rec) chunk.push(rec);
            if (chunk.length >= importTuning.chunkSize) await flush();
          }
          fraction = b.fraction;
        };
        try {
          let ahead: Ahead | null = null;
          for await (const { rows, firstRow, fraction: f } of streamRows(file, batch.file_type as FileType)) {
            const raw = rawNumbers(rows, plan);
            const next: Ahead = { rows, firstRow, fraction: f, raw, parsed: parser.parse(raw) };
            if (ahead) await consume(ahead);
            ahead = next;
          }
          if (ahead) await consume(ahead);
        } finally {
          await parser.close();
        }
        if (chunk.length) await flush();
        if (writing) await writing;
        const finishedAt = new Date();
        await contactsRepository.updateImport(tx, batchId, {
          status: 'finished',
          progress: 100,
          finished_at: finishedAt,
          total: c.processed,
          processed: c.processed,
          inserted: c.inserted,
          merged: c.merged,
          skipped: c.skipped,
          invalid: c.invalid,
        });
        return { counters: c, finishedAt };
      })
      .finally(() => local.release());
  } catch (err) {
    ctx.log.warn({ err, batchId }, 'contact import failed');
    const finishedAt = new Date();
    await contactsRepository.updateImport(ctx.db, batchId, {
      status: 'failed',
      error: IMPORT_FAILURE,
      finished_at: finishedAt,
      inserted: 0,
      merged: 0,
      skipped: 0,
      invalid: 0,
    });
    const ev: ContactImportCompletedEvent = {
      batchId,
      finishedAt: finishedAt.toISOString(),
      inserted: 0,
      merged: 0,
      skipped: 0,
      invalid: 0,
      total: 0,
      failed: true,
      error: IMPORT_FAILURE,
    };
    ctx.realtime.send(channel, CONTACT_IMPORT_COMPLETED, ev);
    await recordJobAudit(ctx, {
      job: IMPORT_JOB,
      companyId,
      action: 'import',
      entityType: 'contacts',
      entityId: batchId,
      startedBy: batch.user_id,
      outcome: 'failed',
      once: true,
    });
    return;
  }
  if (!outcome) return;
  const { counters, finishedAt } = outcome;
  ctx.realtime.send(channel, CONTACT_IMPORT_PROGRESS, { batchId, progress: 100 });
  const ev: ContactImportCompletedEvent = {
    batchId,
    finishedAt: finishedAt.toISOString(),
    inserted: counters.inserted,
    merged: counters.merged,
    skipped: counters.skipped,
    invalid: counters.invalid,
    total: counters.processed,
    failed: false,
    error: null,
  };
  ctx.realtime.send(channel, CONTACT_IMPORT_COMPLETED, ev);
  await recordJobAudit(ctx, {
    job: IMPORT_JOB,
    companyId,
    action: 'import',
    entityType: 'contacts',
    entityId: batchId,
    startedBy: batch.user_id,
    changes: { inserted: counters.inserted, merged: counters.merged, skipped: counters.skipped, invalid: counters.invalid, total: counters.processed },
    once: true,
  });
}
