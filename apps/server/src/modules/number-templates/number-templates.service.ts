/**
 * Number templates (spec 002 §7 "Number templates", §5 "Template update with ai_eav_enabled
 * omits the record and call_transcription_enabled settings"): a named routing setup (routes,
 * schedule) with recording, transcription and AI attribute flags, applied to numbers in one step.
 *
 * The §5 rule on the server: when a create or update carries `ai_eav_enabled: true`, any `record`
 * and `call_transcription_enabled` in the same payload are ignored (the stored values stay).
 */
import { defaultSchedule, newRouteEntry, type RouteEntry, type Schedule } from '@switchboard/domain';
import { scheduleView } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { NotFoundError } from '../../platform/http/errors.js';
import { MANAGER_ROLES, assertCompanyAccess } from '../companies/companies.service.js';
import { applyRoutingToNumbers, assertValidSchedule, callSettingsPatch, companyTimezone, validateRoutes, type RouteInput } from '../numbers/numbers.service.js';
import { numberTemplatesRepository, type TemplateRow } from './number-templates.repository.js';

export type TemplateInput = {
  name?: string;
  routes?: RouteInput[];
  schedule?: Schedule;
  record?: boolean;
  call_transcription_enabled?: boolean;
  ai_eav_enabled?: boolean;
};

/** The API shape of a template (contracts NumberTemplateSchema): schedules with their 24-hour blocks. */
export function toTemplateDto(t: TemplateRow) {
  const routes = (t.routes as RouteEntry[]).map((r) => ({ ...r, schedule: scheduleView(r.schedule) }));
  return {
    id: t.id,
    company_id: t.company_id,
    name: t.name,
    routes,
    schedule: scheduleView(t.schedule as Schedule),
    record: t.record,
    call_transcription_enabled: t.call_transcription_enabled,
    ai_eav_enabled: t.ai_eav_enabled,
    created_at: t.created_at.toISOString(),
    updated_at: t.updated_at.toISOString(),
  };
}

/** Validated column values of a payload; honours the ai_eav_enabled rule. @throws ValidationError 422. */
function columns(input: TemplateInput, timezone: string) {
  const out: { name?: string; routes?: string; schedule?: string; record?: boolean; call_transcription_enabled?: boolean; ai_eav_enabled?: boolean } = {};
  if (input.name !== undefined) out.name = input.name.trim();
  if (input.schedule !== undefined) {
    assertValidSchedule(input.schedule);
    out.schedule = JSON.stringify(input.schedule);
  }
  if (input.routes !== undefined) out.routes = JSON.stringify(validateRoutes(input.routes, input.schedule?.timezone ?? timezone));
  return { ...out, ...callSettingsPatch(input) };
}

/** The company's number templates (any member). @throws ForbiddenError (403). */
export async function listTemplates(ctx: AppContext, userId: number, companyId: number) {
  await assertCompanyAccess(ctx, userId, companyId);
  return (await numberTemplatesRepository.list(ctx.db, companyId)).map(toTemplateDto);
}

/** @throws NotFoundError 404 when the template is not the company's. */
export async function getTemplate(ctx: AppContext, userId: number, companyId: number, id: number) {
  await assertCompanyAccess(ctx, userId, companyId);
  const t = await numberTemplatesRepository.find(ctx.db, companyId, id);
  if (!t) throw new NotFoundError('Number template');
  return toTemplateDto(t);
}

/** Creates a template; missing routes/schedule get the defaults in the company's time zone. */
export async function createTemplate(ctx: AppContext, userId: number, companyId: number, input: TemplateInput & { name: string }) {
  await assertCompanyAccess(ctx, userId, companyId, MANAGER_ROLES);
  const tz = await companyTimezone(ctx, userId, companyId);
  const c = columns(input, tz);
  const t = await numberTemplatesRepository.insert(ctx.db, {
    company_id: companyId,
    name: c.name!,
    routes: c.routes ?? JSON.stringify([newRouteEntry(input.schedule?.timezone ?? tz)]),
    schedule: c.schedule ?? JSON.stringify(defaultSchedule(tz)),
    record: c.record ?? false,
    call_transcription_enabled: c.call_transcription_enabled ?? false,
    ai_eav_enabled: c.ai_eav_enabled ?? false,
  });
  return toTemplateDto(t);
}

/** Updates the given fields (see the ai_eav_enabled rule above). @throws NotFoundError 404, ValidationError 422. */
export async function updateTemplate(ctx: AppContext, userId: number, companyId: number, id: number, input: TemplateInput) {
  await assertCompanyAccess(ctx, userId, companyId, MANAGER_ROLES);
  const current = await numberTemplatesRepository.find(ctx.db, companyId, id);
  if (!current) throw new NotFoundError('Number template');
  const c = columns(input, (current.schedule as Schedule).timezone);
  const t = Object.keys(c).length ? await numberTemplatesRepository.update(ctx.db, companyId, id, c) : current;
  return toTemplateDto(t!);
}

/** Deletes one template (owner/administrator). @throws ForbiddenError (403), NotFoundError (404) when not the company's. */
export async function deleteTemplate(ctx: AppContext, userId: number, companyId: number, id: number): Promise<void> {
  await assertCompanyAccess(ctx, userId, companyId, MANAGER_ROLES);
  if (!(await numberTemplatesRepository.delete(ctx.db, companyId, id))) throw new NotFoundError('Number template');
}

/**
 * DELETE /companies/{companyId}/numberTemplates (spec 002 §7, on the collection): deletes the
 * company's templates `ids` together (owner/administrator), or none.
 * @throws NotFoundError 404 when any id is not the company's template (nothing is deleted then).
 */
export async function deleteTemplates(ctx: AppContext, userId: number, companyId: number, ids: number[]): Promise<number[]> {
  await assertCompanyAccess(ctx, userId, companyId, MANAGER_ROLES);
  const unique = [...new Set(ids)];
  return ctx.db.transaction().execute(async (tx) => {
    const deleted = await numberTemplatesRepository.deleteMany(tx, companyId, unique);
    if (deleted.length !== unique.length) throw new NotFoundError('Number template');
    return deleted.sort((a, b) => a - b);
  });
}

/**
 * Applies the template's routes, schedule and call settings (record, transcription, AI custom
 * fields; the ai_eav_enabled rule above applies) to the company's numbers (one transaction).
 * @throws NotFoundError 404 for an unknown template or a number that is not the company's.
 */
export async function applyTemplate(ctx: AppContext, userId: number, companyId: number, id: number, numberIds: number[]) {
  await assertCompanyAccess(ctx, userId, companyId, MANAGER_ROLES);
  const t = await numberTemplatesRepository.find(ctx.db, companyId, id);
  if (!t) throw new NotFoundError('Number template');
  return applyRoutingToNumbers(ctx, userId, companyId, numberIds, {
    routes: t.routes as RouteEntry[],
    schedule: t.schedule as Schedule,
    record: t.record,
    call_transcription_enabled: t.call_transcription_enabled,
    ai_eav_enabled: t.ai_eav_enabled,
  });
}
