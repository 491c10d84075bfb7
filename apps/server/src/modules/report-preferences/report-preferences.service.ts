/**
 * Report preferences (docs/alerts.md "Column presets", "Favourite reports"):
 *
 * - Column presets (spec 001 "Column preset", "Column presets"): the chosen, ordered columns of one of the 14 report
 *   kinds, shared by a company or by a business unit (all its companies). Any member who may read the company's
 *   reports may create one; its creator, or the company's owners and administrators (a business unit's: an owner or
 *   administrator of one of its companies), may change or remove it. Messages: "Column preset was successfully
 *   created", "... updated", "... removed".
 * - Favourite reports (spec 002 "Favorite report"): `{id, value}` where `value` is the JSON text of
 *   contracts `FavoriteReportState` (validated by the route); private to the person, per company; at most 100.
 *
 * Another person's or company's preset or favourite answers 404 (never revealed).
 */
import {
  COLUMN_PRESET_CREATED,
  COLUMN_PRESET_REMOVED,
  COLUMN_PRESET_UPDATED,
  FAVORITE_REPORT_DELETED,
  FAVORITE_REPORT_SAVED,
  FAVORITE_REPORT_UPDATED,
  MAX_FAVORITE_REPORTS,
  type ColumnPreset,
  type ColumnPresetData,
  type ColumnPresetKind,
  type FavoriteReport,
} from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { ForbiddenError, NotFoundError, ValidationError, deniedAsNotFound, fieldError } from '../../platform/http/errors.js';
import { MANAGER_ROLES, assertCompanyAccess, listCompanySummaries } from '../companies/companies.service.js';
import { reportPreferencesRepository as repo, type ColumnPresetRow, type FavoriteReportRow } from './report-preferences.repository.js';

function presetDto(r: ColumnPresetRow): ColumnPreset {
  return {
    id: r.id,
    kind: r.kind as ColumnPresetKind,
    name: r.name,
    data: { columns: r.data.columns, sort: r.data.sort ?? null },
    companyId: r.company_id,
    businessUnitId: r.business_unit_id,
    userId: r.user_id,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

function favoriteDto(r: FavoriteReportRow): FavoriteReport {
  return { id: r.id, value: r.value, companyId: r.company_id, createdAt: r.created_at.toISOString(), updatedAt: r.updated_at.toISOString() };
}

/** @throws ForbiddenError unless the user is an active member of a company of the business unit (a manager of one when `write`). */
async function assertBusinessUnitAccess(ctx: AppContext, userId: number, businessUnitId: number, write: boolean): Promise<void> {
  const companies = (await listCompanySummaries(ctx, userId)).filter((c) => c.organization_id === businessUnitId);
  const ok = write ? companies.some((c) => MANAGER_ROLES.includes(c.role)) : companies.length > 0;
  if (!ok) throw new ForbiddenError();
}

/**
 * `GET /column-presets`: a company's presets and its business unit's, or a business unit's own.
 * @throws ValidationError 422 without a scope, ForbiddenError 403 outside the caller's companies.
 */
export async function listColumnPresets(
  ctx: AppContext,
  userId: number,
  q: { companyId?: number; businessUnitId?: number; kind?: ColumnPresetKind },
): Promise<{ data: ColumnPreset[] }> {
  if (q.companyId) {
    await assertCompanyAccess(ctx, userId, q.companyId);
    const org = (await listCompanySummaries(ctx, userId)).find((c) => c.id === q.companyId)?.organization_id ?? null;
    return { data: (await repo.listPresets(ctx.db, { companyId: q.companyId, businessUnitId: org }, q.kind)).map(presetDto) };
  }
  if (q.businessUnitId) {
    await assertBusinessUnitAccess(ctx, userId, q.businessUnitId, false);
    return { data: (await repo.listPresets(ctx.db, { companyId: null, businessUnitId: q.businessUnitId }, q.kind)).map(presetDto) };
  }
  throw new ValidationError({ companyId: ['The company id or business unit id is required.'] });
}

/** Loads a preset the user may read (write: may change). @throws NotFoundError 404 otherwise. */
async function loadPreset(ctx: AppContext, userId: number, id: number, write: boolean): Promise<ColumnPresetRow> {
  const p = await repo.findPreset(ctx.db, id);
  if (!p) throw new NotFoundError('Column preset');
  const check = async () => {
    if (p.company_id !== null) {
      const role = await assertCompanyAccess(ctx, userId, p.company_id);
      if (write && p.user_id !== userId && !MANAGER_ROLES.includes(role)) throw new ForbiddenError();
    } else {
      await assertBusinessUnitAccess(ctx, userId, p.business_unit_id!, false);
      if (write && p.user_id !== userId) await assertBusinessUnitAccess(ctx, userId, p.business_unit_id!, true);
    }
  };
  await deniedAsNotFound(check(), 'Column preset');
  return p;
}

/** `GET /column-presets/{id}`. @throws NotFoundError 404 outside the caller's companies. */
export async function getColumnPreset(ctx: AppContext, userId: number, id: number): Promise<{ data: ColumnPreset }> {
  return { data: presetDto(await loadPreset(ctx, userId, id, false)) };
}

/**
 * `POST /column-presets`: exactly one of `companyId`/`businessUnitId` (422 otherwise). A business-unit preset needs
 * a manager of one of its companies (403).
 */
export async function createColumnPreset(
  ctx: AppContext,
  userId: number,
  input: { kind: ColumnPresetKind; name: string; data: ColumnPresetData; companyId?: number; businessUnitId?: number },
): Promise<{ message: string; data: ColumnPreset }> {
  if (input.companyId && input.businessUnitId) throw fieldError('businessUnitId', 'Give a company id or a business unit id, not both.');
  if (input.companyId) await assertCompanyAccess(ctx, userId, input.companyId);
  else if (input.businessUnitId) await assertBusinessUnitAccess(ctx, userId, input.businessUnitId, true);
  else throw fieldError('companyId', 'The company id or business unit id is required.');
  const row = await repo.insertPreset(ctx.db, {
    kind: input.kind,
    name: input.name,
    data: JSON.stringify(input.data),
    company_id: input.companyId ?? null,
    business_unit_id: input.companyId ? null : input.businessUnitId!,
    user_id: userId,
    updated_at: new Date(),
  });
  return { message: COLUMN_PRESET_CREATED, data: presetDto(row) };
}

/** `PUT /column-presets/{id}`: name and/or data. @throws NotFoundError 404 (not the caller's to change), 422 when empty. */
export async function updateColumnPreset(
  ctx: AppContext,
  userId: number,
  id: number,
  input: { name?: string; data?: ColumnPresetData },
): Promise<{ message: string; data: ColumnPreset }> {
  await loadPreset(ctx, userId, id, true);
  if (input.name === undefined && input.data === undefined) throw fieldError('data', 'Nothing to update.');
  const row = await repo.updatePreset(ctx.db, id, {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.data !== undefined ? { data: JSON.stringify(input.data) } : {}),
  });
  return { message: COLUMN_PRESET_UPDATED, data: presetDto(row) };
}

/** `DELETE /column-presets/{id}`. @throws NotFoundError 404 (not the caller's to remove). */
export async function deleteColumnPreset(ctx: AppContext, userId: number, id: number): Promise<{ message: string }> {
  await loadPreset(ctx, userId, id, true);
  await repo.deletePreset(ctx.db, id);
  return { message: COLUMN_PRESET_REMOVED };
}

/** `GET /favorite-reports?companyId`: the caller's favourites in the company, oldest first. @throws 403, 422 without a company. */
export async function listFavoriteReports(ctx: AppContext, userId: number, companyId: number | undefined): Promise<{ data: FavoriteReport[] }> {
  if (!companyId) throw fieldError('companyId', 'The company id is required.');
  await assertCompanyAccess(ctx, userId, companyId);
  return { data: (await repo.listFavorites(ctx.db, userId, companyId)).map(favoriteDto) };
}

/** `POST /favorite-reports`. @throws ForbiddenError 403, ValidationError 422 past {@link MAX_FAVORITE_REPORTS}. */
export async function createFavoriteReport(
  ctx: AppContext,
  userId: number,
  input: { companyId: number; value: string },
): Promise<{ message: string; data: FavoriteReport }> {
  await assertCompanyAccess(ctx, userId, input.companyId);
  if ((await repo.countFavorites(ctx.db, userId, input.companyId)) >= MAX_FAVORITE_REPORTS)
    throw fieldError('value', `You can keep at most ${MAX_FAVORITE_REPORTS} favorite reports; delete one first.`);
  const row = await repo.insertFavorite(ctx.db, { user_id: userId, company_id: input.companyId, value: input.value, updated_at: new Date() });
  return { message: FAVORITE_REPORT_SAVED, data: favoriteDto(row) };
}

/** The caller's own favourite, still a member of its company. @throws NotFoundError 404 otherwise. */
async function loadFavorite(ctx: AppContext, userId: number, id: number): Promise<FavoriteReportRow> {
  const f = await repo.findFavorite(ctx.db, id);
  if (!f || f.user_id !== userId) throw new NotFoundError('Favorite report');
  await deniedAsNotFound(assertCompanyAccess(ctx, userId, f.company_id), 'Favorite report');
  return f;
}

/** `PUT /favorite-reports/{id}`: a new value (rename, new state). @throws NotFoundError 404. */
export async function updateFavoriteReport(ctx: AppContext, userId: number, id: number, value: string): Promise<{ message: string; data: FavoriteReport }> {
  await loadFavorite(ctx, userId, id);
  return { message: FAVORITE_REPORT_UPDATED, data: favoriteDto(await repo.updateFavorite(ctx.db, id, value)) };
}

/** `DELETE /favorite-reports/{id}`. @throws NotFoundError 404. */
export async function deleteFavoriteReport(ctx: AppContext, userId: number, id: number): Promise<{ message: string }> {
  await loadFavorite(ctx, userId, id);
  await repo.deleteFavorite(ctx.db, id);
  return { message: FAVORITE_REPORT_DELETED };
}
