/**
 * Custom fields (EAV) (spec 001 §3 "Custom field (EAV attribute)", §6 business-unit scope, §7
 * "Custom fields"). An attribute belongs to one entity type (Number 1 ... Contact 7) and is scoped
 * to a company (`companyId`) or a business unit (`businessUnitId` = organization id). A company
 * may override a business-unit attribute (name, defaultValue, choices) with an override row
 * (`parentId` = the business-unit attribute). Values live in `eav_values`, keyed by
 * (attribute, entity id); `getEavValues` / `setEavValues` are the API for other modules.
 */
import { CUSTOM_FIELD_CREATED, CUSTOM_FIELD_DELETED, CUSTOM_FIELD_OVERRIDE_DELETED, CUSTOM_FIELD_UPDATED, EAV_ENTITY_TYPES } from '@switchboard/domain';
import type { EavAttribute, EavAttributeValueOut } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../platform/http/errors.js';
import { MANAGER_ROLES, assertCompanyAccess, getCompanyOrganizationId, listCompanySummaries } from '../companies/companies.service.js';
import { customFieldsRepository, type AttributeRow } from './custom-fields.repository.js';

/** Base attributes among `ids` usable by the company: its own and its business unit's (read in `db`). */
async function attributesVisibleToCompany(ctx: AppContext, db: DbOrTx, companyId: number, ids: number[]): Promise<AttributeRow[]> {
  if (ids.length === 0) return [];
  return customFieldsRepository.visibleToCompany(db, companyId, await getCompanyOrganizationId(ctx, companyId, db), ids);
}

type Choice = { id: number; value: string; sort_order: number; description: string | null };
type ChoiceIn = { id?: number; value: string; sort_order?: number; description?: string | null };

/** `GET /eavEntityTypes`: `[{id, name}]` in id order. */
export function listEntityTypes(): { data: Array<{ id: number; name: string }> } {
  return {
    data: Object.entries(EAV_ENTITY_TYPES)
      .map(([name, id]) => ({ id, name }))
      .sort((a, b) => a.id - b.id),
  };
}

function toOut(a: AttributeRow, override?: AttributeRow): EavAttribute {
  const src = override ?? a;
  return {
    id: a.id,
    entityType: a.entity_type,
    name: src.name,
    type: a.type as EavAttribute['type'],
    defaultValue: src.default_value ?? null,
    choices: (src.choices as Choice[]) ?? [],
    companyId: override ? override.company_id : a.company_id,
    businessUnitId: a.business_unit_id,
    parentId: a.parent_id,
    isOverridden: !!override,
    createdAt: a.created_at.toISOString(),
    updatedAt: src.updated_at.toISOString(),
  };
}

/** @throws ForbiddenError unless the user is in a company of the business unit (managers only when `write`). */
async function assertBusinessUnitAccess(ctx: AppContext, userId: number, businessUnitId: number, write: boolean): Promise<void> {
  const companies = (await listCompanySummaries(ctx, userId)).filter((c) => c.organization_id === businessUnitId);
  const ok = write ? companies.some((c) => MANAGER_ROLES.includes(c.role)) : companies.length > 0;
  if (!ok) throw new ForbiddenError();
}

/** Checks access to an attribute's scope. @throws NotFoundError (404) when outside the caller's companies. */
async function loadAttribute(ctx: AppContext, userId: number, id: number, write: boolean): Promise<AttributeRow> {
  const a = await customFieldsRepository.findAttribute(ctx.db, id);
  if (!a) throw new NotFoundError('Custom field');
  try {
    if (a.company_id !== null) await assertCompanyAccess(ctx, userId, a.company_id, write ? MANAGER_ROLES : undefined);
    else await assertBusinessUnitAccess(ctx, userId, a.business_unit_id!, write);
  } catch (e) {
    if (e instanceof ForbiddenError && !write) throw new NotFoundError('Custom field');
    throw e;
  }
  return a;
}

/**
 * `GET /eavAttributes`: a company's attributes plus its business unit's (with the company's
 * overrides applied), or a business unit's own attributes.
 */
export async function listAttributes(
  ctx: AppContext,
  userId: number,
  q: { companyId?: number; businessUnitId?: number; entityType?: number },
): Promise<{ data: EavAttribute[] }> {
  if (q.companyId) {
    await assertCompanyAccess(ctx, userId, q.companyId);
    const org = (await listCompanySummaries(ctx, userId)).find((c) => c.id === q.companyId)?.organization_id ?? null;
    const rows = await customFieldsRepository.listScoped(ctx.db, { companyId: q.companyId, businessUnitId: org }, q.entityType);
    const overrides = await customFieldsRepository.overridesFor(
      ctx.db,
      rows.filter((r) => r.business_unit_id !== null).map((r) => r.id),
      q.companyId,
    );
    const byParent = new Map(overrides.map((o) => [o.parent_id!, o]));
    return { data: rows.map((r) => toOut(r, byParent.get(r.id))) };
  }
  if (q.businessUnitId) {
    await assertBusinessUnitAccess(ctx, userId, q.businessUnitId, false);
    return { data: (await customFieldsRepository.listScoped(ctx.db, { businessUnitId: q.businessUnitId }, q.entityType)).map((r) => toOut(r)) };
  }
  throw new ValidationError({ companyId: ['The company id or business unit id is required.'] });
}

/** Choices with ids (kept when given, else numbered after the largest) and sort orders. */
function normalizeChoices(type: string, choices: ChoiceIn[]): Choice[] {
  if (type !== 'select' && type !== 'multiselect') return [];
  let next = Math.max(0, ...choices.map((c) => c.id ?? 0)) + 1;
  const out = choices.map((c, i) => ({ id: c.id ?? next++, value: c.value.trim(), sort_order: c.sort_order ?? i, description: c.description ?? null }));
  if (new Set(out.map((c) => c.value.toLowerCase())).size !== out.length) throw new ValidationError({ choices: ['The choices must be unique.'] });
  return out.sort((a, b) => a.sort_order - b.sort_order);
}

/**
 * Coerces one value to the attribute's type. null/undefined/'' → null (clears the value).
 * @throws ValidationError (422) on `field` when the value does not fit the type or the choices.
 */
export function coerceEavValue(a: { type: string; choices: unknown; name: string }, value: unknown, field: string): unknown {
  if (value === null || value === undefined || value === '') return null;
  const bad = (msg: string) => new ValidationError({ [field]: [msg] });
  const choices = (a.choices as Choice[]) ?? [];
  const choiceOf = (v: unknown): number => {
    const c = choices.find((x) => x.id === Number(v) || x.value === v);
    if (!c) throw bad(`The selected ${a.name} is invalid.`);
    return c.id;
  };
  switch (a.type) {
    case 'text':
      if (typeof value !== 'string' && typeof value !== 'number') throw bad(`The ${a.name} must be a string.`);
      return String(value).slice(0, 10_000);
    case 'number': {
      const n = typeof value === 'number' ? value : Number(value);
      if (!Number.isFinite(n)) throw bad(`The ${a.name} must be a number.`);
      return n;
    }
    case 'date': {
      if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(Date.parse(value))) throw bad(`The ${a.name} is not a valid date.`);
      return value;
    }
    case 'boolean': {
      if (typeof value === 'boolean') return value;
      if (['1', 'true', 1].includes(value as never)) return true;
      if (['0', 'false', 0].includes(value as never)) return false;
      throw bad(`The ${a.name} field must be true or false.`);
    }
    case 'select':
      return choiceOf(value);
    case 'multiselect': {
      const list = Array.isArray(value) ? value : [value];
      return [...new Set(list.map(choiceOf))];
    }
    default:
      return value;
  }
}

type AttributeInput = {
  name: string;
  type: string;
  defaultValue?: unknown;
  choices?: ChoiceIn[];
  companyId?: number;
  businessUnitId?: number;
  parentId?: number;
};

/**
 * `POST /eavEntityTypes/{type}/eavAttributes`. With `parentId` + `companyId` creates (or replaces)
 * the company's override of a business-unit attribute.
 * @throws ValidationError 422 (scope missing, bad default), ForbiddenError 403 (not a manager).
 */
export async function createAttribute(
  ctx: AppContext,
  userId: number,
  entityType: number,
  input: AttributeInput,
): Promise<{ message: string; data: EavAttribute }> {
  if (input.parentId) {
    if (!input.companyId) throw new ValidationError({ companyId: ['The company id is required for an override.'] });
    await assertCompanyAccess(ctx, userId, input.companyId, MANAGER_ROLES);
    const parent = await customFieldsRepository.findAttribute(ctx.db, input.parentId);
    const visible = parent ? await attributesVisibleToCompany(ctx, ctx.db, input.companyId, [parent.id]) : [];
    if (!parent || parent.business_unit_id === null || visible.length === 0 || parent.entity_type !== entityType)
      throw new ValidationError({ parentId: ['The selected parent is invalid.'] });
    const choices = normalizeChoices(parent.type, input.choices ?? (parent.choices as Choice[]));
    const def = coerceEavValue({ type: parent.type, choices, name: 'default value' }, input.defaultValue, 'defaultValue');
    const existing = await customFieldsRepository.overridesFor(ctx.db, [parent.id], input.companyId);
    const row = { name: input.name.trim(), default_value: JSON.stringify(def), choices: JSON.stringify(choices) };
    const o = existing[0]
      ? await customFieldsRepository.updateAttribute(ctx.db, existing[0].id, row)
      : await customFieldsRepository.insertAttribute(ctx.db, {
          ...row,
          entity_type: entityType,
          type: parent.type,
          company_id: input.companyId,
          parent_id: parent.id,
        });
    return { message: CUSTOM_FIELD_CREATED, data: toOut(parent, o) };
  }
  if (input.companyId) await assertCompanyAccess(ctx, userId, input.companyId, MANAGER_ROLES);
  else if (input.businessUnitId) await assertBusinessUnitAccess(ctx, userId, input.businessUnitId, true);
  else throw new ValidationError({ companyId: ['The company id or business unit id is required.'] });
  const choices = normalizeChoices(input.type, input.choices ?? []);
  if ((input.type === 'select' || input.type === 'multiselect') && choices.length === 0)
    throw new ValidationError({ choices: ['The choices field is required.'] });
  const def = coerceEavValue({ type: input.type, choices, name: 'default value' }, input.defaultValue, 'defaultValue');
  const a = await customFieldsRepository.insertAttribute(ctx.db, {
    entity_type: entityType,
    name: input.name.trim(),
    type: input.type,
    default_value: JSON.stringify(def),
    choices: JSON.stringify(choices),
    company_id: input.companyId ?? null,
    business_unit_id: input.companyId ? null : input.businessUnitId!,
  });
  return { message: CUSTOM_FIELD_CREATED, data: toOut(a) };
}

/** `PUT /eavEntityTypes/{type}/eavAttributes/{id}`. The type can change only while no values exist. */
export async function updateAttribute(
  ctx: AppContext,
  userId: number,
  entityType: number,
  id: number,
  input: Partial<AttributeInput>,
): Promise<{ message: string; data: EavAttribute }> {
  const a = await loadAttribute(ctx, userId, id, true);
  if (a.entity_type !== entityType) throw new NotFoundError('Custom field');
  const type = input.type ?? a.type;
  if (type !== a.type && (await customFieldsRepository.countStats(ctx.db, a.id)).total > 0)
    throw new ValidationError({ type: ['The type cannot change while values exist.'] });
  const choices = normalizeChoices(type, input.choices ?? (a.choices as Choice[]));
  const def = coerceEavValue({ type, choices, name: 'default value' }, input.defaultValue !== undefined ? input.defaultValue : a.default_value, 'defaultValue');
  const u = await customFieldsRepository.updateAttribute(ctx.db, a.id, {
    ...(input.name !== undefined ? { name: input.name.trim() } : {}),
    type,
    choices: JSON.stringify(choices),
    default_value: JSON.stringify(def),
  });
  return { message: CUSTOM_FIELD_UPDATED, data: toOut(u) };
}

/** `DELETE /eavAttributes/{id}`: an attribute (with its values and overrides) or one override. */
export async function deleteAttribute(ctx: AppContext, userId: number, id: number): Promise<{ message: string }> {
  const a = await loadAttribute(ctx, userId, id, true);
  await customFieldsRepository.deleteAttribute(ctx.db, a.id);
  return { message: a.parent_id !== null ? CUSTOM_FIELD_OVERRIDE_DELETED : CUSTOM_FIELD_DELETED };
}

/** `GET /eavAttributes/{id}/countStats`: values stored, distinct entities, companies, and per-value counts. */
export async function attributeCountStats(ctx: AppContext, userId: number, id: number) {
  const a = await loadAttribute(ctx, userId, id, false);
  return { data: await customFieldsRepository.countStats(ctx.db, a.id) };
}

/** `GET /eavAttributes/{id}/overrides`: company overrides of a business-unit attribute (only the caller's companies). */
export async function attributeOverrides(ctx: AppContext, userId: number, id: number): Promise<{ data: EavAttribute[] }> {
  const a = await loadAttribute(ctx, userId, id, false);
  const mine = new Set((await listCompanySummaries(ctx, userId)).map((c) => c.id));
  const rows = (await customFieldsRepository.overridesFor(ctx.db, [a.id])).filter((o) => o.company_id !== null && mine.has(o.company_id));
  return { data: rows.map((o) => ({ ...toOut(a, o), id: o.id, parentId: a.id })) };
}

/** Values of one entity: `[{attribute_id, value, name, type}]`. */
export async function getEavValues(ctx: AppContext, entityType: number, entityId: number, db: DbOrTx = ctx.db): Promise<EavAttributeValueOut[]> {
  return (await getEavValuesMany(ctx, entityType, [entityId], db)).get(entityId) ?? [];
}

/** Values of many entities of one type: entity id → values. */
export async function getEavValuesMany(
  ctx: AppContext,
  entityType: number,
  entityIds: number[],
  db: DbOrTx = ctx.db,
): Promise<Map<number, EavAttributeValueOut[]>> {
  const out = new Map<number, EavAttributeValueOut[]>();
  for (const v of await customFieldsRepository.valuesOf(db, entityType, entityIds)) {
    out.set(v.entity_id, [...(out.get(v.entity_id) ?? []), { attribute_id: v.attribute_id, value: v.value, name: v.name, type: v.type }]);
  }
  return out;
}

/**
 * Writes values of one entity (only the attributes listed; a null value removes it). Each attribute
 * must be of `entityType` and belong to the company or its business unit.
 * @throws ValidationError (422) on `eavAttributeValues.{i}.attribute_id` / `.value`.
 */
export async function setEavValues(
  ctx: AppContext,
  entityType: number,
  entityId: number,
  companyId: number,
  values: Array<{ attribute_id: number; value: unknown }>,
  tx: DbOrTx = ctx.db,
): Promise<void> {
  if (values.length === 0) return;
  const attrs = new Map(
    (
      await attributesVisibleToCompany(
        ctx,
        tx,
        companyId,
        values.map((v) => v.attribute_id),
      )
    ).map((a) => [a.id, a]),
  );
  const checked = values.map((v, i) => {
    const a = attrs.get(v.attribute_id);
    if (!a || a.entity_type !== entityType) throw new ValidationError({ [`eavAttributeValues.${i}.attribute_id`]: ['The selected custom field is invalid.'] });
    return { a, value: coerceEavValue(a, v.value, `eavAttributeValues.${i}.value`) };
  });
  for (const { a, value } of checked) {
    if (value === null) await customFieldsRepository.deleteValue(tx, a.id, entityId);
    else await customFieldsRepository.upsertValue(tx, { attribute_id: a.id, entity_type: entityType, entity_id: entityId, company_id: companyId, value });
  }
}

/** Removes every value of the entities (call when deleting them). */
export async function deleteEavValuesOf(ctx: AppContext, entityType: number, entityIds: number[], tx: DbOrTx = ctx.db): Promise<void> {
  if (entityIds.length === 0) return;
  await customFieldsRepository.deleteValuesOf(tx, entityType, entityIds);
}
