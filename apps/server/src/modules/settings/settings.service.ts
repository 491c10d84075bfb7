/**
 * General settings (spec 002 "General settings": GET /general-settings and /general-settings/index, POST
 * /general-settings/bulk (companyIds), POST /general-settings (save), DELETE /general-settings (restore defaults);
 * messages "Settings were successfully updated" / "restored") and the `feature/ai-eav` toggle ("Feature enabled
 * successfully" / "Feature disabled successfully"). docs/workspace.md "General settings".
 *
 * A company without a saved row (or restored) has contracts `DEFAULT_GENERAL_SETTINGS`; a saved row holds every field,
 * so later defaults never change a company's choice silently. Reading: any active member; changing: owners and
 * administrators. Bulk applies the given fields to every listed company in one transaction, or to none (403 when the
 * caller manages not all of them).
 */
import { DEFAULT_GENERAL_SETTINGS, GeneralSettings as GeneralSettingsSchema, type GeneralSettings, type GeneralSettingsEntry } from '@switchboard/contracts';
import { FEATURE_DISABLED, FEATURE_ENABLED, SETTINGS_RESTORED, SETTINGS_UPDATED } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { ForbiddenError, fieldError } from '../../platform/http/errors.js';
import { MANAGER_ROLES, assertCompanyAccess, listCompanySummaries, type CompanySummaryOut } from '../companies/companies.service.js';
import { settingsRepository as repo, type GeneralSettingsRow } from './settings.repository.js';

/** The stored JSON read back: every known field, defaults for missing or invalid ones (a field added later). */
function effective(stored: Record<string, unknown> | null | undefined): GeneralSettings {
  if (!stored) return { ...DEFAULT_GENERAL_SETTINGS };
  const out: Record<string, unknown> = { ...DEFAULT_GENERAL_SETTINGS };
  for (const [k, schema] of Object.entries(GeneralSettingsSchema.shape)) {
    const parsed = schema.safeParse(stored[k]);
    if (parsed.success) out[k] = parsed.data;
  }
  return out as GeneralSettings;
}

function entry(c: CompanySummaryOut, row: GeneralSettingsRow | undefined): GeneralSettingsEntry {
  return {
    companyId: c.id,
    companyName: c.name,
    role: c.role,
    settings: effective(row?.settings),
    isDefault: !row?.settings,
    aiEavEnabled: row?.ai_eav_enabled ?? false,
    updatedAt: row?.settings ? row.updated_at.toISOString() : null,
  };
}

async function entries(ctx: AppContext, userId: number, companies: CompanySummaryOut[], db: DbOrTx = ctx.db): Promise<GeneralSettingsEntry[]> {
  const rows = new Map(
    (
      await repo.findMany(
        db,
        companies.map((c) => c.id),
      )
    ).map((r) => [Number(r.company_id), r]),
  );
  return companies.map((c) => entry(c, rows.get(c.id)));
}

async function companyOf(ctx: AppContext, userId: number, companyId: number | undefined): Promise<CompanySummaryOut> {
  if (!companyId) throw fieldError('companyId', 'The company id is required.');
  await assertCompanyAccess(ctx, userId, companyId);
  const c = (await listCompanySummaries(ctx, userId)).find((x) => x.id === companyId);
  if (!c) throw new ForbiddenError();
  return c;
}

/**
 * The effective settings of a company, for other modules (no access check). Defaults when none were saved.
 */
export async function getGeneralSettings(ctx: AppContext, companyId: number, db: DbOrTx = ctx.db): Promise<GeneralSettings & { ai_eav_enabled: boolean }> {
  const [row] = await repo.findMany(db, [companyId]);
  return { ...effective(row?.settings), ai_eav_enabled: row?.ai_eav_enabled ?? false };
}

/** `GET /general-settings?companyId`. @throws 403 outside the company, 422 without it. */
export async function getSettings(ctx: AppContext, userId: number, companyId: number | undefined) {
  const c = await companyOf(ctx, userId, companyId);
  const [e] = await entries(ctx, userId, [c]);
  return { data: e!, defaults: DEFAULT_GENERAL_SETTINGS };
}

/** `GET /general-settings/index?search`: every company the user reaches (name contains `search`), by name. */
export async function settingsIndex(ctx: AppContext, userId: number, search?: string) {
  const s = search?.trim().toLowerCase();
  const companies = (await listCompanySummaries(ctx, userId)).filter((c) => !s || c.name.toLowerCase().includes(s));
  return { data: await entries(ctx, userId, companies), defaults: DEFAULT_GENERAL_SETTINGS };
}

/** `POST /general-settings` {companyId, settings}: every field. @throws 403 unless owner or administrator. */
export async function saveSettings(ctx: AppContext, userId: number, input: { companyId: number; settings: GeneralSettings }) {
  const c = await companyOf(ctx, userId, input.companyId);
  await assertCompanyAccess(ctx, userId, input.companyId, MANAGER_ROLES);
  await repo.upsertSettings(ctx.db, input.companyId, JSON.stringify(input.settings), userId);
  const [e] = await entries(ctx, userId, [c]);
  return { message: SETTINGS_UPDATED, data: e! };
}

/**
 * `POST /general-settings/bulk` {companyIds, settings}: the given fields set in each company (its other fields kept),
 * in one transaction. @throws ForbiddenError 403 (nothing changed) unless the caller manages every company.
 */
export async function bulkSaveSettings(ctx: AppContext, userId: number, input: { companyIds: number[]; settings: Partial<GeneralSettings> }) {
  const ids = [...new Set(input.companyIds)];
  const mine = new Map((await listCompanySummaries(ctx, userId)).map((c) => [c.id, c]));
  const companies = ids.map((id) => mine.get(id));
  if (companies.some((c) => !c || !MANAGER_ROLES.includes(c.role))) throw new ForbiddenError();
  await ctx.db.transaction().execute(async (tx) => {
    const rows = new Map((await repo.findManyForUpdate(tx, ids)).map((r) => [Number(r.company_id), r]));
    for (const id of ids) {
      const next = { ...effective(rows.get(id)?.settings), ...input.settings };
      await repo.upsertSettings(tx, id, JSON.stringify(next), userId);
    }
  });
  return { message: SETTINGS_UPDATED, data: await entries(ctx, userId, companies as CompanySummaryOut[]) };
}

/** `DELETE /general-settings?companyId`: back to the defaults (the ai-eav feature is kept). @throws 403, 422. */
export async function restoreSettings(ctx: AppContext, userId: number, companyId: number | undefined) {
  const c = await companyOf(ctx, userId, companyId);
  await assertCompanyAccess(ctx, userId, c.id, MANAGER_ROLES);
  await repo.upsertSettings(ctx.db, c.id, null, userId);
  const [e] = await entries(ctx, userId, [c]);
  return { message: SETTINGS_RESTORED, data: e! };
}

/** `PUT /feature/ai-eav` {companyId, enabled}: owners and administrators. @throws 403. */
export async function setAiEavFeature(ctx: AppContext, userId: number, input: { companyId: number; enabled: boolean }) {
  await assertCompanyAccess(ctx, userId, input.companyId, MANAGER_ROLES);
  await repo.upsertAiEav(ctx.db, input.companyId, input.enabled, userId);
  return { message: input.enabled ? FEATURE_ENABLED : FEATURE_DISABLED, data: { companyId: input.companyId, enabled: input.enabled } };
}

/** `GET /feature/ai-eav?companyId`. @throws 403, 422. */
export async function getAiEavFeature(ctx: AppContext, userId: number, companyId: number | undefined) {
  const c = await companyOf(ctx, userId, companyId);
  const s = await getGeneralSettings(ctx, c.id);
  return { message: s.ai_eav_enabled ? FEATURE_ENABLED : FEATURE_DISABLED, data: { companyId: c.id, enabled: s.ai_eav_enabled } };
}
