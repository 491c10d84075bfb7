/**
 * Bulk attribute update (spec 002 "DNI": `GET, POST /bulkAttributeUpdate/companies/{companyId}` or
 * `/businessUnits/{id}`; docs/tracking.md "Bulk attribute update"): one CSV row per tracking number
 * sets the marketing attributes of its static source (created when the number has none).
 *
 * - Template (GET): the header `company_id,number,name,traffic_source,source,medium,campaign,keyword`
 *   and one row per active number of the company (or of every company of the business unit the
 *   person manages) that is not in a pool, with its static source's attributes if it has one.
 * - Upload (POST, multipart field `file`): every row is checked first; any bad row (reported by its
 *   row number, 1 = the first line after the header, with its column) and nothing is applied (422).
 *   Otherwise all rows are applied in one transaction.
 * Owner/administrator of the company (for a business unit: of each company it touches).
 */
import {
  BULK_ATTRIBUTE_COLUMNS,
  TRAFFIC_SOURCES,
  type BulkAttributeRowError,
  type BulkAttributeUpdateResult,
  type TrafficSource,
} from '@switchboard/contracts';
import { formatPhone, parsePhone } from '@switchboard/domain';
import Papa from 'papaparse';
import type { AppContext } from '../../context.js';
import { toCsv } from '../../platform/csv.js';
import { NotFoundError, ValidationError, fieldError } from '../../platform/http/errors.js';
import { MANAGER_ROLES, assertCompanyAccess, listCompanySummaries } from '../companies/companies.service.js';
import { findNumberByE164, listCompanyNumbers } from '../numbers/numbers.service.js';
import { trackingRepository, type StaticSourceRow } from './tracking.repository.js';

/** Most data rows in one upload. */
export const BULK_ATTRIBUTE_MAX_ROWS = 5000;

/** Where an upload applies: one company, or the companies of a business unit the person manages. */
export type BulkScope = { kind: 'company'; companyId: number } | { kind: 'businessUnit'; id: number };

/** Company ids of the scope the person manages. @throws ForbiddenError 403 (company), NotFoundError 404 (business unit without a managed company). */
async function companiesOf(ctx: AppContext, userId: number, scope: BulkScope): Promise<number[]> {
  if (scope.kind === 'company') {
    await assertCompanyAccess(ctx, userId, scope.companyId, MANAGER_ROLES);
    return [scope.companyId];
  }
  const ids = (await listCompanySummaries(ctx, userId)).filter((c) => c.organization_id === scope.id && MANAGER_ROLES.includes(c.role)).map((c) => c.id);
  if (!ids.length) throw new NotFoundError('Business unit');
  return ids;
}

/** `GET /bulkAttributeUpdate/...`: the CSV template with the scope's trackable numbers. @returns the file name and CSV text. */
export async function bulkTemplate(ctx: AppContext, userId: number, scope: BulkScope): Promise<{ filename: string; csv: string }> {
  const companyIds = await companiesOf(ctx, userId, scope);
  const rows: Array<Array<string | number | null>> = [];
  for (const companyId of companyIds) {
    const numbers = await listCompanyNumbers(ctx, userId, companyId);
    const inPools = new Set(
      await trackingRepository.numbersTaken(
        ctx.db,
        companyId,
        numbers.map((n) => n.id),
        null,
      ),
    );
    const statics = new Map(
      (
        await trackingRepository.staticSourcesOfNumbers(
          ctx.db,
          numbers.map((n) => n.id),
        )
      ).map((s) => [s.number_id, s]),
    );
    for (const n of numbers) {
      const s = statics.get(n.id);
      if (inPools.has(n.id) && !s) continue;
      rows.push([companyId, n.number, s?.name ?? '', s?.traffic_source ?? '', s?.source ?? '', s?.medium ?? '', s?.campaign ?? '', s?.keyword ?? '']);
    }
  }
  const name = scope.kind === 'company' ? `tracking-attributes-company-${scope.companyId}.csv` : `tracking-attributes-business-unit-${scope.id}.csv`;
  return { filename: name, csv: toCsv(rows, { fields: BULK_ATTRIBUTE_COLUMNS }) };
}

type Planned = {
  companyId: number;
  numberId: number;
  number: string;
  existing: StaticSourceRow | undefined;
  values: Omit<StaticSourceRow, 'id' | 'company_id' | 'number_id' | 'number' | 'created_at' | 'updated_at'>;
};

const cell = (v: string | undefined): string | null => {
  const t = (v ?? '').trim();
  return t ? t : null;
};

/**
 * `POST /bulkAttributeUpdate/...` with the CSV `file`: checks every row, then applies all or none.
 * @throws ValidationError 422 (no file, no rows, too many rows, unknown header; or row errors with `row_errors`).
 */
export async function bulkUpload(ctx: AppContext, userId: number, scope: BulkScope, file: Buffer | undefined): Promise<BulkAttributeUpdateResult> {
  const companyIds = await companiesOf(ctx, userId, scope);
  if (!file) throw fieldError('file', 'The file field is required.');
  const parsed = Papa.parse<string[]>(file.toString('utf8').replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
  const [header, ...data] = parsed.data;
  if (!header) throw fieldError('file', 'The file has no rows.');
  const columns = header.map((h) => h.trim().toLowerCase());
  const unknown = columns.filter((c) => !(BULK_ATTRIBUTE_COLUMNS as readonly string[]).includes(c));
  if (unknown.length) throw fieldError('file', `Unknown column: ${unknown[0]}. The columns are ${BULK_ATTRIBUTE_COLUMNS.join(', ')}.`);
  if (!columns.includes('number')) throw fieldError('file', 'The number column is required.');
  if (!data.length) throw fieldError('file', 'The file has no data rows.');
  if (data.length > BULK_ATTRIBUTE_MAX_ROWS) throw fieldError('file', `The file can have at most ${BULK_ATTRIBUTE_MAX_ROWS} rows.`);

  const errors: BulkAttributeRowError[] = [];
  const planned: Planned[] = [];
  const seen = new Map<string, number>();
  for (let i = 0; i < data.length; i++) {
    const row = i + 1;
    const get = (c: string) => {
      const idx = columns.indexOf(c);
      return idx < 0 ? undefined : data[i]![idx];
    };
    const bad = (column: string | null, message: string) => errors.push({ row, column, message });
    const companyText = cell(get('company_id'));
    let companyId: number;
    if (companyText === null) {
      if (scope.kind === 'businessUnit') {
        bad('company_id', 'The company_id is required for a business unit.');
        continue;
      }
      companyId = scope.companyId;
    } else {
      companyId = Number(companyText);
      if (!Number.isInteger(companyId) || !companyIds.includes(companyId)) {
        bad('company_id', 'The company is not one you manage here.');
        continue;
      }
    }
    const e164 = parsePhone(cell(get('number')) ?? '');
    if (!e164) {
      bad('number', 'The number is not a valid phone number.');
      continue;
    }
    if (seen.has(e164)) {
      bad('number', `The number is listed twice (row ${seen.get(e164)}).`);
      continue;
    }
    seen.set(e164, row);
    const n = await findNumberByE164(ctx, e164);
    if (!n || n.company_id !== companyId) {
      bad('number', "The number is not one of the company's numbers.");
      continue;
    }
    const existing = await trackingRepository.staticSourceOfNumber(ctx.db, n.id);
    if (!existing && (await trackingRepository.numbersTaken(ctx.db, companyId, [n.id], null)).length) {
      bad('number', 'The number is in a tracking pool.');
      continue;
    }
    const traffic = cell(get('traffic_source'));
    if (traffic !== null && !(TRAFFIC_SOURCES as readonly string[]).includes(traffic)) {
      bad('traffic_source', `The traffic source must be one of ${TRAFFIC_SOURCES.join(', ')}.`);
      continue;
    }
    const lengths: Array<[string, number]> = [
      ['name', 100],
      ['source', 100],
      ['medium', 100],
      ['campaign', 200],
      ['keyword', 200],
    ];
    const tooLong = lengths.find(([c, max]) => (cell(get(c)) ?? '').length > max);
    if (tooLong) {
      bad(tooLong[0], `The ${tooLong[0]} may not be greater than ${tooLong[1]} characters.`);
      continue;
    }
    const keep = (c: 'source' | 'medium' | 'campaign' | 'keyword') => (columns.includes(c) ? cell(get(c)) : (existing?.[c] ?? null));
    planned.push({
      companyId,
      numberId: n.id,
      number: n.number,
      existing,
      values: {
        name: cell(get('name')) ?? existing?.name ?? formatPhone(n.number),
        traffic_source: (traffic as TrafficSource | null) ?? existing?.traffic_source ?? 'static',
        source: keep('source'),
        medium: keep('medium'),
        campaign: keep('campaign'),
        keyword: keep('keyword'),
      },
    });
  }
  if (errors.length) {
    const byRow: Record<string, string[]> = {};
    for (const e of errors) (byRow[`row.${e.row}`] ??= []).push(e.column ? `${e.column}: ${e.message}` : e.message);
    throw new BulkRowsError({
      message: `${errors.length} row(s) have errors; nothing was applied.`,
      rows: data.length,
      created: 0,
      updated: 0,
      unchanged: 0,
      row_errors: errors,
      errors: byRow,
    });
  }
  let created = 0;
  let updated = 0;
  let unchanged = 0;
  await ctx.db.transaction().execute(async (tx) => {
    for (const p of planned) {
      if (!p.existing) {
        await trackingRepository.insertStaticSource(tx, { company_id: p.companyId, number_id: p.numberId, number: p.number, ...p.values });
        created++;
      } else if ((Object.keys(p.values) as Array<keyof Planned['values']>).some((k) => p.values[k] !== p.existing![k])) {
        await trackingRepository.updateStaticSource(tx, p.existing.id, p.values);
        updated++;
      } else unchanged++;
    }
  });
  return { message: `${planned.length} row(s) applied.`, rows: planned.length, created, updated, unchanged, row_errors: [] };
}

/** 422 with the whole result (row errors) as the body, not only `{message, errors}`. */
export class BulkRowsError extends ValidationError {
  constructor(readonly result: BulkAttributeUpdateResult) {
    super(result.errors ?? {}, result.message);
  }
}
