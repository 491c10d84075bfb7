/**
 * GET /api/calls/search (spec 001 §7; docs/call-intelligence.md "Search"): transcripts found by PostgreSQL full
 * text, ranked (`ts_rank`), with the matching passages highlighted, filtered by speaker and the call facts.
 *
 * - Scope: the request's company, or `companies` / `businessUnits` among the person's companies (403 for one they
 *   do not read); in each company a `user` sees only the numbers assigned to them (docs/permissions.md).
 * - `dates`: local days of `tz` (else the company's zone; `to` inclusive) or ISO timestamps; absent = all time.
 * - `format=csv`: the hits (up to {@link CSV_MAX_ROWS}, best first) as CSV; with `async=1` a job
 *   (`call-intelligence.export`) writes the file to the company's blob space and sends `export ready` (or
 *   `export failed`) on `user.{userId}` with its link — the same notice and blob space as the analytics exports.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  ANSWER_STATUS,
  ANSWER_STATUS_NAMES,
  CALL_SEARCH_CSV_COLUMNS,
  EXPORT_FAILED_MESSAGE,
  EXPORT_READY_MESSAGE,
  EXPORT_STARTED_MESSAGE,
  TRANSCRIPT_SPEAKER_LABELS,
  type CallSearchBody,
  type CallSearchHit,
  type CallSearchQuery,
  type ExportJob,
  type ExportStartedBody,
  type SearchPassage,
} from '@switchboard/contracts';
import { isValidTimeZone, parsePhone, zonedDateTime, zonedToInstant } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import { toCsv } from '../../platform/csv.js';
import { ForbiddenError, NotFoundError, ValidationError, fieldError } from '../../platform/http/errors.js';
import { assertCompanyAccess, companyTimeZone, listUserCompanies } from '../companies/companies.service.js';
import { getCompanyNumbers } from '../numbers/numbers.service.js';
import { numberScope } from '../users/members.service.js';
import { MARK_END, MARK_START, intelligenceRepository, type SearchExportRow, type SearchFilter } from './call-intelligence.repository.js';

export const SEARCH_EXPORT_JOB = 'call-intelligence.export';
/** Most rows a CSV of a search holds (best first). */
export const CSV_MAX_ROWS = 50_000;
/** Passages shown per hit. */
const PASSAGES_PER_HIT = 3;

const pad = (n: number) => String(n).padStart(2, '0');
/** `YYYY-MM-DD HH:mm:ss` of an instant in a zone. */
export function localTime(d: Date, timeZone: string): string {
  const z = zonedDateTime(d, timeZone);
  return `${z.year}-${pad(z.month)}-${pad(z.day)} ${pad(z.hour)}:${pad(z.minute)}:${pad(z.second)}`;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** The instant a `dates` bound names: a local day's midnight in `tz` (`end`: the next midnight) or an ISO timestamp (UTC when it has no offset). */
function boundOf(text: string, timeZone: string, end: boolean): Date {
  const m = DAY.exec(text);
  if (m) {
    const start = zonedToInstant(Number(m[1]), Number(m[2]), Number(m[3]), 0, timeZone);
    if (!end) return new Date(start);
    const next = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + 1));
    return new Date(zonedToInstant(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), 0, timeZone));
  }
  return new Date(/[zZ]|[+-]\d\d(:?\d\d)?$/.test(text.slice(10)) ? text : `${text.replace(' ', 'T')}Z`);
}

/** A caller filter value as E.164 (national US digits accepted). @throws ValidationError on `callers.{i}`. */
function callerOf(text: string, i: number): string {
  const e164 = parsePhone(text);
  if (!e164) throw fieldError(`callers.${i}`, 'The caller must be a phone number.');
  return e164;
}

/** The companies searched: the request's, or `companies` / `businessUnits` among the person's (403 otherwise). */
async function companiesOf(ctx: AppContext, userId: number, companyId: number, q: CallSearchQuery): Promise<number[]> {
  await assertCompanyAccess(ctx, userId, companyId);
  const wanted = q.companies ?? [];
  const units = q.businessUnits ?? [];
  if (wanted.length === 0 && units.length === 0) return [companyId];
  const mine = await listUserCompanies(ctx, userId);
  const readable = new Map(mine.map((c) => [Number(c.id), c.organization_id === null ? null : Number(c.organization_id)]));
  let ids = wanted.length > 0 ? [...new Set(wanted)] : [...readable.keys()];
  if (ids.some((id) => !readable.has(id))) throw new ForbiddenError();
  if (units.length > 0) {
    ids = ids.filter((id) => units.includes(readable.get(id) ?? -1));
    if (ids.length === 0) throw new ForbiddenError();
  }
  for (const id of ids) if (id !== companyId) await assertCompanyAccess(ctx, userId, id);
  return ids.sort((a, b) => a - b);
}

/** A resolved search: the repository's filter, the zone of local times. */
export type ResolvedSearch = { filter: SearchFilter; timeZone: string };

/**
 * Resolves the query: scope (403), zone (422 `tz`), dates (422 `dates.to`), callers (422), the words of `q` (422
 * when it has no searchable word).
 */
export async function resolveSearch(ctx: AppContext, userId: number, q: CallSearchQuery): Promise<ResolvedSearch> {
  const companyIds = await companiesOf(ctx, userId, q.company_id, q);
  if (q.tz !== undefined && q.tz !== '' && !isValidTimeZone(q.tz)) throw fieldError('tz', 'The timezone must be a valid zone.');
  const timeZone = q.tz && q.tz !== '' ? q.tz : await companyTimeZone(ctx, q.company_id);
  const from = q.dates?.from !== undefined ? boundOf(q.dates.from, timeZone, false) : undefined;
  const to = q.dates?.to !== undefined ? boundOf(q.dates.to, timeZone, true) : undefined;
  if (from && to && to.getTime() <= from.getTime()) throw fieldError('dates.to', 'The end date must be a date after or equal to the start date.');
  const callers = q.callers?.map(callerOf);
  const text = q.q?.trim() ? q.q.trim() : null;
  if (text !== null && (await intelligenceRepository.isEmptyQuery(ctx.db, text))) {
    throw new ValidationError({ q: ['The search has no searchable word (only common words such as "the" or "and").'] });
  }
  const scope = await Promise.all(
    companyIds.map(async (companyId) => {
      const s = await numberScope(ctx, userId, companyId);
      return { companyId, numberIds: s.all ? ('all' as const) : [...s.ids] };
    }),
  );
  return {
    timeZone,
    filter: {
      scope,
      q: text,
      speaker: q.speaker ?? 0,
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      numberIds: q.numbers,
      tagIds: q.tag_ids,
      callers,
      answerStatus: q.answerStatus?.map((n) => ANSWER_STATUS[n]),
      answeredBy: q.answered_by,
      isQualified: q.isQualified,
      minDuration: q.minDuration,
    },
  };
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** `ts_headline`'s markers → `<mark>`, everything else HTML-escaped. */
function markedHtml(marked: string): string {
  return escapeHtml(marked).split(MARK_START).join('<mark>').split(MARK_END).join('</mark>');
}

/** One page of hits with their passages and numbers. */
async function hitsPage(ctx: AppContext, r: ResolvedSearch, size: number, offset: number): Promise<{ hits: CallSearchHit[]; total: number }> {
  const { rows, total } = await intelligenceRepository.search(ctx.db, r.filter, size, offset);
  const ids = rows.map((x) => x.call_id);
  const [passages, numbers] = await Promise.all([
    intelligenceRepository.passages(ctx.db, ids, r.filter.q, r.filter.speaker),
    (async () => {
      const out = new Map<number, { id: number; number: string; label: string }>();
      for (const companyId of new Set(rows.map((x) => x.company_id))) {
        const mine = rows.filter((x) => x.company_id === companyId).map((x) => x.number_id);
        for (const n of await getCompanyNumbers(ctx, companyId, mine, { includeReleased: true })) out.set(n.id, n);
      }
      return out;
    })(),
  ]);
  const byCall = new Map<number, SearchPassage[]>();
  for (const p of passages) {
    const list = byCall.get(p.call_id) ?? [];
    if (list.length >= PASSAGES_PER_HIT) continue;
    list.push({
      speaker: p.speaker,
      speaker_label: TRANSCRIPT_SPEAKER_LABELS[p.speaker as 0 | 1 | 2] ?? 'Mixed',
      start: p.start,
      end: p.end,
      text: p.text,
      highlighted: markedHtml(p.marked),
    });
    byCall.set(p.call_id, list);
  }
  const hits = rows.map((x): CallSearchHit => ({
    call_id: x.call_id,
    company_id: x.company_id,
    number: numbers.get(x.number_id) ?? { id: x.number_id, number: '', label: '' },
    started_at: new Date(x.started_at).toISOString(),
    local_started_at: localTime(new Date(x.started_at), r.timeZone),
    duration_s: x.duration_s,
    direction: x.direction,
    caller: x.caller,
    answer_status: ANSWER_STATUS_NAMES[x.answer_status] ?? 'none',
    answered_by: x.answered_by,
    qualification: x.qualification,
    tag_ids: x.tag_ids,
    rank: Math.round(x.rank * 1e6) / 1e6,
    passages: byCall.get(x.call_id) ?? [],
  }));
  return { hits, total };
}

/** JSON answer of GET /calls/search. */
export async function searchCalls(ctx: AppContext, userId: number, q: CallSearchQuery): Promise<CallSearchBody> {
  const r = await resolveSearch(ctx, userId, q);
  const { hits, total } = await hitsPage(ctx, r, q.size, (q.page - 1) * q.size);
  return { data: hits, meta: { current_page: q.page, per_page: q.size, total, last_page: Math.max(1, Math.ceil(total / q.size)) } };
}

/** CSV text of the hits (best first, at most {@link CSV_MAX_ROWS}), pages of 1,000. */
export async function* searchCsvChunks(ctx: AppContext, r: ResolvedSearch, counter?: { rows: number }): AsyncGenerator<string> {
  yield toCsv([[...CALL_SEARCH_CSV_COLUMNS]]) + '\r\n';
  const PAGE = 1000;
  for (let offset = 0; offset < CSV_MAX_ROWS; offset += PAGE) {
    const { hits } = await hitsPage(ctx, r, PAGE, offset);
    if (hits.length === 0) return;
    if (counter) counter.rows += hits.length;
    yield (
      toCsv(
        hits.map((h) => [
          h.call_id,
          h.local_started_at,
          h.number.number,
          h.caller,
          h.direction,
          h.duration_s,
          h.answer_status,
          h.rank,
          h.passages.map((p) => `[${p.speaker_label} ${p.start.toFixed(1)}s] ${p.text}`).join(' | '),
        ]),
      ) + '\r\n'
    );
    if (hits.length < PAGE) return;
  }
}

export function searchFileName(timeZone: string, now = new Date()): string {
  return `call_search_${localTime(now, timeZone).slice(0, 10)}.csv`;
}

/** The job as the live notice shows it (the analytics `ExportJob` shape, kind `calls`). */
export function toExportJob(ctx: AppContext, r: SearchExportRow): ExportJob {
  return {
    id: Number(r.id),
    companyId: Number(r.company_id),
    kind: 'calls',
    status: r.status,
    columns: [...CALL_SEARCH_CSV_COLUMNS],
    rows: r.rows,
    fileName: r.file_name,
    url: r.status === 'done' && r.blob_key ? ctx.blobs.url(r.blob_key) : null,
    error: r.error,
    createdAt: new Date(r.created_at).toISOString(),
    finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null,
  };
}

/** Starts the export job (202 with the spec's result message). Validates the query first (403/422). */
export async function startSearchExport(ctx: AppContext, userId: number, q: CallSearchQuery): Promise<ExportStartedBody> {
  const r = await resolveSearch(ctx, userId, q);
  const row = await ctx.db.transaction().execute(async (tx) => {
    const e = await intelligenceRepository.insertExport(tx, {
      company_id: q.company_id,
      user_id: userId,
      params: JSON.stringify({ filter: r.filter, timeZone: r.timeZone }),
      file_name: searchFileName(r.timeZone),
      rows: null,
      blob_key: null,
      error: null,
      created_at: new Date(),
    });
    await ctx.queue.enqueue(SEARCH_EXPORT_JOB, { exportId: Number(e.id) }, { singletonKey: `call-search-export-${e.id}`, retryLimit: 2 }, tx);
    return e;
  });
  return { message: EXPORT_STARTED_MESSAGE, data: toExportJob(ctx, row) };
}

/** The `call-intelligence.export` job: writes the CSV to a temporary file, stores it, tells the person. Idempotent (a finished job is skipped). */
export async function runSearchExport(ctx: AppContext, exportId: number, lastAttempt: boolean): Promise<void> {
  const row = await intelligenceRepository.claimExport(ctx.db, exportId);
  if (!row) return;
  const stored = row.params as { filter: SearchFilter & { from?: string; to?: string }; timeZone: string };
  const filter: SearchFilter = {
    ...stored.filter,
    from: stored.filter.from ? new Date(stored.filter.from) : undefined,
    to: stored.filter.to ? new Date(stored.filter.to) : undefined,
  };
  const dir = await mkdtemp(path.join(tmpdir(), 'sb-search-export-'));
  const file = path.join(dir, 'export.csv');
  try {
    const counter = { rows: 0 };
    const out = createWriteStream(file);
    for await (const chunk of searchCsvChunks(ctx, { filter, timeZone: stored.timeZone }, counter)) {
      if (!out.write(chunk)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
    const key = ctx.blobs.newKey(Number(row.company_id), 'exports', '.csv');
    await ctx.blobs.putFile(key, file);
    const done = await intelligenceRepository.finishExport(ctx.db, exportId, { status: 'done', rows: counter.rows, blob_key: key, error: null });
    ctx.realtime.send(`user.${Number(row.user_id)}`, 'export ready', { message: EXPORT_READY_MESSAGE, export: toExportJob(ctx, done) });
  } catch (error) {
    ctx.log.error({ err: error, exportId }, 'call search export failed');
    if (!lastAttempt) throw error;
    const failed = await intelligenceRepository.finishExport(ctx.db, exportId, { status: 'failed', error: EXPORT_FAILED_MESSAGE });
    ctx.realtime.send(`user.${Number(row.user_id)}`, 'export failed', { message: EXPORT_FAILED_MESSAGE, export: toExportJob(ctx, failed) });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** GET /api/calls/search/exports/{id}: one export of the person. @throws NotFoundError */
export async function getSearchExport(ctx: AppContext, userId: number, id: number): Promise<{ data: ExportJob }> {
  const row = await intelligenceRepository.findExport(ctx.db, userId, id);
  if (!row) throw new NotFoundError('Export');
  return { data: toExportJob(ctx, row) };
}
