/**
 * Exports of calls, messages, faxes and voicemails (spec 001 §7 "GET /analytics/calls" with format
 * csv, async 1 and columns; spec 002 "Dashboard": POST /calls/export, /messages/export, /fax/export,
 * /voicemails/export with async, columns, tz; docs/analytics.md "Exports").
 *
 * - Columns: `EXPORT_COLUMNS` of the contracts, in the order asked (default: all); an unknown column
 *   is a 422 on `columns`.
 * - Rows are read in keyset pages of 10,000, the next read while one is formatted (never the whole result in memory) and written through
 *   `platform/csv.ts` (formula cells neutralised). Times are local to `tz` (else the company's zone),
 *   `YYYY-MM-DD HH:mm:ss`.
 * - `async` (the default of the POST calls; `async=1` on GET /analytics/calls): an `analytics_exports`
 *   row and the `analytics.export` job, which streams the pages to a temporary file, stores it in the
 *   company's blob space (`c/{companyId}/exports/…`, served only to the company's members) and tells the
 *   person on `user.{userId}` (`export ready` with the link, or `export failed`).
 * - Otherwise the CSV is the answer itself, streamed page by page.
 * - Faxes: one row per fax sent or received in the range (the fax module's `faxesForExport`).
 */
import { recordJobAudit } from '../audit/audit.service.js';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { once } from 'node:events';
import {
  ANSWER_STATUS_NAMES,
  EXPORT_COLUMNS,
  EXPORT_FAILED_MESSAGE,
  EXPORT_READY_MESSAGE,
  EXPORT_STARTED_MESSAGE,
  type CallReportFilters,
  type ExportJob,
  type ExportKind,
  type ExportStartedBody,
} from '@switchboard/contracts';
import { CALL_STATUS_LABELS, callStatusLabel, zonedDateTime } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import { toCsv } from '../../platform/csv.js';
import { deniedAsNotFound, fieldError, NotFoundError } from '../../platform/http/errors.js';
import { isLastAttempt } from '../../platform/queue.js';
import { knownParties, tagNamesOf, voicemailsPage } from '../calls/calls.service.js';
import { assertCompanyAccess, listUserCompanies } from '../companies/companies.service.js';
import { messagesPage } from '../conversations/conversations.service.js';
import { faxesForExport } from '../fax/fax.reporting.js';
import { getCompanyNumbers } from '../numbers/numbers.service.js';
import { poolNamesOf } from '../tracking/tracking.service.js';
import { getUserNames } from '../users/users.service.js';
import { analyticsRepository, csvCells, type CsvCellSpec, type ExportRow, type FactFilter, type FactRow } from './analytics.repository.js';
import { factFilterOf, rangeOf, resolveScope, resolveZone } from './analytics.reports.js';

export const EXPORT_JOB = 'analytics.export';
/** Rows per page read from the store (keyset pages; the next page is read while this one is formatted). */
export const EXPORT_PAGE = 10_000;
/** Rows per page when PostgreSQL formats the CSV (one text value per page). */
export const EXPORT_SQL_PAGE = 20_000;

type Cell = string | number | null;

/** What an export was asked for (stored with the job). */
export type ExportParams = { userId: number; companyIds: number[]; timeZone: string; from: string; to: string; filters: CallReportFilters };

/**
 * The export's columns in the order asked (default: every column of the kind).
 * @throws ValidationError (422 on `columns`) for an unknown column.
 */
export function exportColumns(kind: ExportKind, asked: readonly string[] | undefined): string[] {
  const known = EXPORT_COLUMNS[kind].map((c) => c.key);
  if (!asked || asked.length === 0) return known;
  const unknown = asked.filter((c) => !known.includes(c));
  if (unknown.length > 0) throw fieldError('columns', `Unknown column: ${unknown.join(', ')}. The columns are: ${known.join(', ')}.`);
  return [...new Set(asked)];
}

const pad = (n: number) => String(n).padStart(2, '0');
/** Offsets (ms) of a zone per half hour of UTC: the zone database is asked once per half hour, not per row. */
const offsetCache = new Map<string, Map<number, number>>();
function localTime(d: Date, timeZone: string): string {
  const t = new Date(d).getTime();
  const slot = Math.floor(t / 1_800_000);
  let perZone = offsetCache.get(timeZone);
  if (!perZone) offsetCache.set(timeZone, (perZone = new Map()));
  if (perZone.size > 50_000) perZone.clear();
  let offset = perZone.get(slot);
  if (offset === undefined) {
    const z = zonedDateTime(new Date(slot * 1_800_000), timeZone);
    offset = Date.UTC(z.year, z.month - 1, z.day, z.hour, z.minute, z.second) - slot * 1_800_000;
    perZone.set(slot, offset);
  }
  const l = new Date(t + offset);
  return `${l.getUTCFullYear()}-${pad(l.getUTCMonth() + 1)}-${pad(l.getUTCDate())} ${pad(l.getUTCHours())}:${pad(l.getUTCMinutes())}:${pad(l.getUTCSeconds())}`;
}

/**
 * Resolves the request into stored params: scope (403), zone (422 `tz`), range (422), columns (422).
 */
async function prepare(
  ctx: AppContext,
  userId: number,
  kind: ExportKind,
  companyId: number,
  input: { columns?: string[]; tz?: string; filters?: CallReportFilters },
): Promise<{ columns: string[]; params: ExportParams }> {
  const filters = input.filters ?? ({} as CallReportFilters);
  const columns = exportColumns(kind, input.columns);
  const companyIds = await resolveScope(ctx, userId, companyId, filters);
  const timeZone = await resolveZone(ctx, companyId, input.tz ?? filters.timezone, 'tz');
  const range = rangeOf(filters.dates, timeZone, 'filters.dates');
  return { columns, params: { userId, companyIds, timeZone, from: range.from.toISOString(), to: range.to.toISOString(), filters } };
}

function fileNameOf(kind: ExportKind, params: ExportParams): string {
  const day = (iso: string) => localTime(new Date(iso), params.timeZone).slice(0, 10);
  const last = localTime(new Date(new Date(params.to).getTime() - 1), params.timeZone).slice(0, 10);
  return `${kind}_${day(params.from)}_${last}.csv`;
}

/** The job as the API shows it (`url` once done: the blob's URL, served to the company's members). */
export function toExportJob(ctx: AppContext, r: ExportRow): ExportJob {
  return {
    id: Number(r.id),
    companyId: Number(r.company_id),
    kind: r.kind as ExportKind,
    status: r.status as ExportJob['status'],
    columns: r.columns,
    rows: r.rows,
    fileName: r.file_name,
    url: r.status === 'done' && r.blob_key ? ctx.blobs.url(r.blob_key) : null,
    error: r.error,
    createdAt: new Date(r.created_at).toISOString(),
    finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null,
  };
}

/**
 * Starts an export in the background (202): stores the job and enqueues `analytics.export`.
 * @returns the spec's result message and the job.
 * @throws ForbiddenError (403), ValidationError (422: columns, tz, dates).
 */
export async function startExport(
  ctx: AppContext,
  userId: number,
  kind: ExportKind,
  companyId: number,
  input: { columns?: string[]; tz?: string; filters?: CallReportFilters },
): Promise<ExportStartedBody> {
  const { columns, params } = await prepare(ctx, userId, kind, companyId, input);
  const row = await ctx.db.transaction().execute(async (tx) => {
    const r = await analyticsRepository.insertExport(tx, {
      company_id: companyId,
      user_id: userId,
      kind,
      columns: JSON.stringify(columns),
      params: JSON.stringify(params),
      rows: null,
      blob_key: null,
      file_name: fileNameOf(kind, params),
      error: null,
    });
    await ctx.queue.enqueue(EXPORT_JOB, { exportId: Number(r.id) }, { singletonKey: `export-${r.id}`, retryLimit: 2 }, tx);
    return r;
  });
  return { message: EXPORT_STARTED_MESSAGE, data: toExportJob(ctx, row) };
}

/**
 * The CSV of an export as a stream (answered directly when not async): header row, then pages.
 * @throws ForbiddenError (403), ValidationError (422).
 */
export async function exportCsvStream(
  ctx: AppContext,
  userId: number,
  kind: ExportKind,
  companyId: number,
  input: { columns?: string[]; tz?: string; filters?: CallReportFilters },
): Promise<{ fileName: string; stream: Readable }> {
  const { columns, params } = await prepare(ctx, userId, kind, companyId, input);
  return { fileName: fileNameOf(kind, params), stream: Readable.from(csvChunks(ctx, kind, columns, params)) };
}

/**
 * Header and pages of CSV text (CRLF line ends), never more than one page in memory. A call export
 * whose columns are all in `SQL_FORMATTED` is formatted by PostgreSQL (one text value per page of
 * 20,000 rows; byte for byte what the JavaScript writer gives, tested); otherwise the rows are read
 * and written through `platform/csv.ts`. `options.sqlFormat: false` forces the latter (tests).
 */
export async function* csvChunks(
  ctx: AppContext,
  kind: ExportKind,
  columns: string[],
  params: ExportParams,
  counter?: { rows: number },
  options: { sqlFormat?: boolean } = {},
): AsyncGenerator<string> {
  const labels = columns.map((k) => EXPORT_COLUMNS[kind].find((c) => c.key === k)!.label);
  yield toCsv([labels]) + '\r\n';
  if (kind === 'calls' && (options.sqlFormat ?? true) && columns.every((c) => SQL_FORMATTED.has(c))) {
    for await (const page of sqlCsvPages(ctx, columns, params)) {
      if (counter) counter.rows += page.rows;
      yield page.text + '\r\n';
    }
    return;
  }
  for await (const page of pagesOf(ctx, kind, columns, params)) {
    if (page.length === 0) continue;
    if (counter) counter.rows += page.length;
    yield toCsv(page) + '\r\n';
  }
}

/** Call export columns PostgreSQL formats itself; the others need names looked up per page (tags, people, pools, contacts). */
const SQL_FORMATTED: ReadonlySet<string> = new Set([
  'id',
  'started_at',
  'company',
  'number',
  'number_label',
  'from',
  'to',
  'direction',
  'status',
  'answer_status',
  'duration_s',
  'answer_time_s',
  'first_contact',
  'qualification',
  'outcome',
  'department',
  'extension_label',
  'geo',
  'traffic_source',
  'source',
  'medium',
  'campaign',
  'keyword',
]);

/** One cell as `platform/csv.ts` writes it (the lookups handed to PostgreSQL are formatted here). */
const csvCell = (v: string) => toCsv([[v]]);

/** Pages of CSV lines formatted by PostgreSQL (keyset pages, the next one read while this one is written). */
async function* sqlCsvPages(ctx: AppContext, columns: string[], params: ExportParams): AsyncGenerator<{ text: string; rows: number }> {
  const from = new Date(params.from);
  const to = new Date(params.to);
  const filter: FactFilter = factFilterOf(params.filters, params.companyIds, { from, to });
  const lookups = await callLookups(ctx, params, columns);
  if (columns.includes('number') || columns.includes('number_label')) {
    const ids = await analyticsRepository.numberIdsWithCalls(ctx.db, params.companyIds, from, to);
    for (const companyId of params.companyIds) {
      if (ids.length) for (const n of await getCompanyNumbers(ctx, companyId, ids, { includeReleased: true })) lookups.numbers.set(n.id, n);
    }
  }
  const cellsOf = (m: Map<number, string>) => new Map([...m].map(([id, v]) => [id, csvCell(v)]));
  const codes = (labels: (code: number) => string, max: number) => Array.from({ length: max + 1 }, (_, code) => csvCell(labels(code)));
  const maxStatus = Math.max(...Object.keys(CALL_STATUS_LABELS).map(Number));
  const specs: CsvCellSpec[] = columns.map((c): CsvCellSpec => {
    switch (c) {
      case 'id':
        return { int: 'call_id' };
      case 'started_at':
        return { localTime: params.timeZone };
      case 'company':
        return { lookup: 'company_id', values: cellsOf(lookups.companies) };
      case 'number':
        return { lookup: 'number_id', values: cellsOf(new Map([...lookups.numbers].map(([id, n]) => [id, n.number]))) };
      case 'number_label':
        return { lookup: 'number_id', values: cellsOf(new Map([...lookups.numbers].map(([id, n]) => [id, n.label]))) };
      case 'from':
        return { text: 'from_number' };
      case 'to':
        return { text: 'to_number' };
      case 'status':
        return { code: 'status', cells: codes(callStatusLabel, maxStatus) };
      case 'answer_status':
        return { code: 'answer_status', cells: ANSWER_STATUS_NAMES.map(csvCell) };
      case 'duration_s':
      case 'answer_time_s':
        return { int: c };
      case 'first_contact':
        return { yesNo: 'is_first_contact' };
      case 'qualification':
        return { code: 'qualification', cells: codes((q) => QUALIFICATION[q] ?? '', 3) };
      case 'direction':
      case 'outcome':
      case 'department':
      case 'extension_label':
      case 'geo':
      case 'traffic_source':
      case 'source':
      case 'medium':
      case 'campaign':
      case 'keyword':
        return { text: c };
      default:
        throw new Error(`export column ${c} is not formatted by the database`);
    }
  });
  const { cells, joins } = csvCells(specs);
  type Page = Awaited<ReturnType<typeof analyticsRepository.factsCsvPage>>;
  const read = (after: { startedAt: string; callId: number } | null): Promise<Page> =>
    analyticsRepository.factsCsvPage(ctx.db, filter, after, EXPORT_SQL_PAGE, cells, joins);
  let next: Promise<Page> | null = read(null);
  while (next) {
    const page: Page = await next;
    if (!page) return;
    next = page.rows < EXPORT_SQL_PAGE ? null : read(page.last);
    try {
      yield page;
    } catch (error) {
      await next?.catch(() => undefined);
      throw error;
    }
  }
}

async function* pagesOf(ctx: AppContext, kind: ExportKind, columns: string[], params: ExportParams): AsyncGenerator<Cell[][]> {
  const from = new Date(params.from);
  const to = new Date(params.to);
  if (kind === 'calls') {
    const filter: FactFilter = factFilterOf(params.filters, params.companyIds, { from, to });
    const lookups = await callLookups(ctx, params, columns);
    const factColumns = columns.flatMap((c) => FACT_COLUMNS_OF[c] ?? []);
    // The next page is asked for before this one is formatted: the database and the formatting overlap.
    let next: Promise<FactRow[]> | null = analyticsRepository.factsPage(ctx.db, filter, null, EXPORT_PAGE, factColumns);
    while (next) {
      const facts: FactRow[] = await next;
      if (facts.length === 0) return;
      const last = facts[facts.length - 1]!;
      next =
        facts.length < EXPORT_PAGE
          ? null
          : analyticsRepository.factsPage(ctx.db, filter, { startedAt: new Date(last.started_at), callId: Number(last.call_id) }, EXPORT_PAGE, factColumns);
      try {
        yield await callRows(ctx, facts, columns, params.timeZone, lookups);
      } catch (error) {
        // A failed or abandoned formatting still settles the page already asked for (no unhandled rejection).
        await next?.catch(() => undefined);
        throw error;
      }
    }
    return;
  }
  const numbers = new Map<number, { number: string; label: string }>();
  const numberOf = async (companyId: number, id: number) => {
    if (!numbers.has(id)) for (const n of await getCompanyNumbers(ctx, companyId, [id], { includeReleased: true })) numbers.set(n.id, n);
    return numbers.get(id) ?? { number: '', label: '' };
  };
  const scope = { companyIds: params.companyIds, from, to, numberIds: params.filters.number_ids };
  let afterId = 0;
  for (;;) {
    if (kind === 'fax') {
      // One row per fax sent or received (the fax module's read-only query, docs/fax.md "Reports").
      const rows = await faxesForExport(ctx, { ...scope, afterId, limit: EXPORT_PAGE });
      if (rows.length === 0) return;
      afterId = rows[rows.length - 1]!.id;
      const out: Cell[][] = [];
      for (const f of rows) {
        const n = await numberOf(f.company_id, f.number_id);
        const v: Record<string, Cell> = {
          id: f.id,
          created_at: localTime(f.created_at, params.timeZone),
          number: n.number,
          from: f.from,
          to: f.to,
          direction: f.direction,
          pages: f.pages,
          status: f.status,
        };
        out.push(columns.map((c) => v[c] ?? null));
      }
      yield out;
      if (rows.length < EXPORT_PAGE) return;
      continue;
    }
    if (kind === 'messages') {
      const rows = await messagesPage(ctx, { ...scope, afterId, limit: EXPORT_PAGE });
      if (rows.length === 0) return;
      afterId = rows[rows.length - 1]!.id;
      const contacts = columns.includes('contact_name')
        ? await contactsOf(
            ctx,
            rows.map((r) => ({ companyId: r.company_id, contactId: r.contact_id, party: r.recipient })),
          )
        : [];
      const out: Cell[][] = [];
      for (const [i, m] of rows.entries()) {
        const n = await numberOf(m.company_id, m.number_id);
        const v: Record<string, Cell> = {
          id: m.id,
          created_at: localTime(m.created_at, params.timeZone),
          number: n.number,
          number_label: n.label,
          from: m.is_inbound ? m.recipient : n.number,
          to: m.is_inbound ? n.number : m.recipient,
          direction: m.is_inbound ? 'inbound' : 'outbound',
          content: m.body ?? '',
          media_count: m.media_count,
          delivery_state: m.delivery_state ?? '',
          error_code: m.error_code,
          contact_name: contacts[i]?.name ?? '',
        };
        out.push(columns.map((c) => v[c] ?? null));
      }
      yield out;
      if (rows.length < EXPORT_PAGE) return;
    } else {
      const rows = await voicemailsPage(ctx, { ...scope, afterId, limit: EXPORT_PAGE });
      if (rows.length === 0) return;
      afterId = rows[rows.length - 1]!.id;
      const contacts = columns.includes('contact_name')
        ? await contactsOf(
            ctx,
            rows.map((r) => ({ companyId: r.company_id, contactId: r.contact_id, party: r.from_number })),
          )
        : [];
      const out: Cell[][] = [];
      for (const [i, v0] of rows.entries()) {
        const n = await numberOf(v0.company_id, v0.number_id);
        const v: Record<string, Cell> = {
          id: v0.id,
          created_at: localTime(v0.created_at, params.timeZone),
          number: n.number,
          number_label: n.label,
          from: v0.from_number,
          duration_s: v0.duration_s,
          is_read: v0.is_read ? 'yes' : 'no',
          recording_url: v0.recording_url,
          contact_name: contacts[i]?.name ?? '',
        };
        out.push(columns.map((c) => v[c] ?? null));
      }
      yield out;
      if (rows.length < EXPORT_PAGE) return;
    }
  }
}

/** Contacts of parties across companies, in input order. */
async function contactsOf(
  ctx: AppContext,
  list: Array<{ companyId: number; contactId: number | null; party: string }>,
): Promise<Array<{ id: number; name: string } | null>> {
  const out: Array<{ id: number; name: string } | null> = new Array(list.length).fill(null);
  const companies = [...new Set(list.map((x) => x.companyId))];
  for (const companyId of companies) {
    const idx = list.flatMap((x, i) => (x.companyId === companyId ? [i] : []));
    const found = await knownParties(
      ctx,
      companyId,
      idx.map((i) => ({ contactId: list[i]!.contactId, party: list[i]!.party })),
    );
    idx.forEach((i, j) => (out[i] = found[j] ?? null));
  }
  return out;
}

type CallLookups = {
  companies: Map<number, string>;
  numbers: Map<number, { number: string; label: string }>;
  tags: Map<number, string>;
  pools: Map<number, string>;
  users: Map<number, string>;
};

async function callLookups(ctx: AppContext, params: ExportParams, columns: string[]): Promise<CallLookups> {
  const companyIds = params.companyIds;
  return {
    // The scope holds only companies the person reads (checked when the export was asked for).
    companies: columns.includes('company')
      ? new Map((await listUserCompanies(ctx, params.userId)).filter((c) => companyIds.includes(Number(c.id))).map((c) => [Number(c.id), c.name]))
      : new Map(),
    numbers: new Map(),
    tags: columns.includes('tags') ? await tagNamesOf(ctx, companyIds) : new Map(),
    pools: new Map(),
    users: new Map(),
  };
}

/** The fact columns each export column reads. */
const FACT_COLUMNS_OF: Readonly<Record<string, readonly (keyof FactRow)[]>> = {
  id: ['call_id'],
  started_at: ['started_at'],
  company: ['company_id'],
  number: ['number_id'],
  number_label: ['number_id'],
  from: ['from_number'],
  to: ['to_number'],
  direction: ['direction'],
  status: ['status'],
  answer_status: ['answer_status'],
  duration_s: ['duration_s'],
  answer_time_s: ['answer_time_s'],
  answered_by: ['answered_by'],
  contact_name: ['contact_id', 'caller'],
  first_contact: ['is_first_contact'],
  tags: ['tag_ids'],
  qualification: ['qualification'],
  outcome: ['outcome'],
  department: ['department'],
  extension_label: ['extension_label'],
  geo: ['geo'],
  traffic_source: ['traffic_source'],
  source: ['source'],
  medium: ['medium'],
  campaign: ['campaign'],
  keyword: ['keyword'],
  dni_pool: ['dni_pool_id'],
};

const QUALIFICATION = { 1: 'Qualified', 2: 'Not qualified', 3: 'Lead' } as Record<number, string>;

async function callRows(ctx: AppContext, facts: FactRow[], columns: string[], timeZone: string, l: CallLookups): Promise<Cell[][]> {
  const want = (c: string) => columns.includes(c);
  // Names missing from the lookups, one statement each per page.
  const byCompany = new Map<number, FactRow[]>();
  for (const f of facts) {
    const list = byCompany.get(Number(f.company_id));
    if (list) list.push(f);
    else byCompany.set(Number(f.company_id), [f]);
  }
  for (const [companyId, rows] of byCompany) {
    if (want('number') || want('number_label')) {
      const missing = [...new Set(rows.map((r) => Number(r.number_id)))].filter((id) => !l.numbers.has(id));
      if (missing.length) for (const n of await getCompanyNumbers(ctx, companyId, missing, { includeReleased: true })) l.numbers.set(n.id, n);
    }
    if (want('dni_pool')) {
      const missing = [...new Set(rows.map((r) => r.dni_pool_id))].filter((id): id is number => id !== null && !l.pools.has(Number(id)));
      if (missing.length) for (const [id, name] of await poolNamesOf(ctx, companyId, missing.map(Number))) l.pools.set(id, name);
    }
  }
  if (want('answered_by')) {
    const missing = [...new Set(facts.map((r) => r.answered_by).filter((id): id is number => id !== null && !l.users.has(Number(id))))].map(Number);
    if (missing.length) for (const [id, name] of await getUserNames(ctx, missing)) l.users.set(id, name);
  }
  const contacts = want('contact_name')
    ? await contactsOf(
        ctx,
        facts.map((f) => ({ companyId: Number(f.company_id), contactId: f.contact_id === null ? null : Number(f.contact_id), party: f.caller })),
      )
    : [];
  return facts.map((f, i) => {
    const n = l.numbers.get(Number(f.number_id));
    const value = (c: string): Cell => {
      switch (c) {
        case 'id':
          return Number(f.call_id);
        case 'started_at':
          return localTime(new Date(f.started_at), timeZone);
        case 'company':
          return l.companies.get(Number(f.company_id)) ?? '';
        case 'number':
          return n?.number ?? '';
        case 'number_label':
          return n?.label ?? '';
        case 'from':
          return f.from_number;
        case 'to':
          return f.to_number;
        case 'direction':
          return f.direction;
        case 'status':
          return callStatusLabel(f.status);
        case 'answer_status':
          return ANSWER_STATUS_NAMES[f.answer_status] ?? '';
        case 'duration_s':
          return f.duration_s;
        case 'answer_time_s':
          return f.answer_time_s;
        case 'answered_by':
          return f.answered_by !== null ? (l.users.get(Number(f.answered_by)) ?? '') : '';
        case 'contact_name':
          return contacts[i]?.name ?? '';
        case 'first_contact':
          return f.is_first_contact ? 'yes' : 'no';
        case 'tags':
          return f.tag_ids
            .map((t) => l.tags.get(Number(t)) ?? '')
            .filter((t) => t !== '')
            .join('; ');
        case 'qualification':
          return f.qualification !== null ? (QUALIFICATION[f.qualification] ?? '') : '';
        case 'outcome':
          return f.outcome ?? '';
        case 'department':
          return f.department ?? '';
        case 'extension_label':
          return f.extension_label;
        case 'geo':
          return f.geo;
        case 'traffic_source':
          return f.traffic_source;
        case 'source':
          return f.source ?? '';
        case 'medium':
          return f.medium ?? '';
        case 'campaign':
          return f.campaign ?? '';
        case 'keyword':
          return f.keyword ?? '';
        case 'dni_pool':
          return f.dni_pool_id !== null ? (l.pools.get(Number(f.dni_pool_id)) ?? '') : '';
        default:
          return null;
      }
    };
    return columns.map(value);
  });
}

/**
 * The `analytics.export` job: streams the export to a temporary file, stores it in the company's blob
 * space and tells the person (`export ready` / `export failed` on `user.{userId}`). Idempotent: a
 * done or failed export is not run again; a retry of an interrupted run writes the file again.
 */
export async function runExport(ctx: AppContext, exportId: number, lastAttempt: boolean): Promise<void> {
  const row = await analyticsRepository.claimExport(ctx.db, exportId);
  if (!row) return;
  const kind = row.kind as ExportKind;
  const params = row.params as unknown as ExportParams;
  const dir = await mkdtemp(path.join(tmpdir(), 'sb-export-'));
  const file = path.join(dir, 'export.csv');
  try {
    const counter = { rows: 0 };
    const out = createWriteStream(file);
    for await (const chunk of csvChunks(ctx, kind, row.columns, params, counter)) {
      if (!out.write(chunk)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
    const key = ctx.blobs.newKey(Number(row.company_id), 'exports', '.csv');
    // Streamed into the blob store (a kernel copy locally, a streamed PUT to S3): never the whole file in memory.
    await ctx.blobs.putFile(key, file);
    const done = await analyticsRepository.finishExport(ctx.db, exportId, { status: 'done', rows: counter.rows, blob_key: key, error: null });
    ctx.realtime.send(`user.${Number(row.user_id)}`, 'export ready', { message: EXPORT_READY_MESSAGE, export: toExportJob(ctx, done) });
    await recordJobAudit(ctx, {
      job: EXPORT_JOB,
      companyId: Number(row.company_id),
      action: 'export',
      entityType: 'exports',
      entityId: exportId,
      startedBy: Number(row.user_id),
      changes: { kind, rows: counter.rows, columns: row.columns },
      once: true,
    });
  } catch (error) {
    ctx.log.error({ err: error, exportId }, 'analytics export failed');
    if (lastAttempt) {
      const failed = await analyticsRepository.finishExport(ctx.db, exportId, { status: 'failed', error: EXPORT_FAILED_MESSAGE });
      ctx.realtime.send(`user.${Number(row.user_id)}`, 'export failed', { message: EXPORT_FAILED_MESSAGE, export: toExportJob(ctx, failed) });
      await recordJobAudit(ctx, {
        job: EXPORT_JOB,
        companyId: Number(row.company_id),
        action: 'export',
        entityType: 'exports',
        entityId: exportId,
        startedBy: Number(row.user_id),
        changes: { kind },
        outcome: 'failed',
        once: true,
      });
      return;
    }
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Defines the export job (two at a time). */
export function registerExportJob(ctx: AppContext): void {
  ctx.queue.define<{ exportId: number }>(EXPORT_JOB, async (data, job) => runExport(ctx, data.exportId, isLastAttempt(job)), 2);
}

/**
 * One export of the current user (`GET /analytics/exports/{id}`).
 * @throws NotFoundError (404) for another person's export or one of a company they no longer read.
 */
export async function getExport(ctx: AppContext, userId: number, id: number): Promise<{ data: ExportJob }> {
  const row = await analyticsRepository.findExport(ctx.db, id);
  if (!row || Number(row.user_id) !== userId) throw new NotFoundError('Export');
  await deniedAsNotFound(assertCompanyAccess(ctx, userId, Number(row.company_id)), 'Export');
  return { data: toExportJob(ctx, row) };
}

/** The current user's recent exports of a company (20, newest first). @throws ForbiddenError (403). */
export async function listExports(ctx: AppContext, userId: number, companyId: number): Promise<{ data: ExportJob[] }> {
  await assertCompanyAccess(ctx, userId, companyId);
  return { data: (await analyticsRepository.listExports(ctx.db, userId, companyId, 20)).map((r) => toExportJob(ctx, r)) };
}

/** For the download route: the export's file as a stream, to its company's members only. @throws NotFoundError (404). */
export async function exportFile(ctx: AppContext, userId: number, id: number): Promise<{ fileName: string; stream: Readable }> {
  const { data } = await getExport(ctx, userId, id);
  const row = (await analyticsRepository.findExport(ctx.db, id))!;
  if (data.status !== 'done' || !row.blob_key) throw new NotFoundError('Export');
  const stream = await ctx.blobs.stream(row.blob_key);
  if (!stream) throw new NotFoundError('Export');
  return { fileName: row.file_name, stream };
}
