/**
 * Custom-field values of a company (spec 001 §7 "Custom fields": values on companies; "Company
 * records also carry eav_attribute_values"). Entity type Company 2, stored in this module's EAV
 * store. The companies module shows them in `GET /api/companies/{companyId}` through the reader
 * this module registers in its setup (companies imports no module).
 */
import { EAV_ENTITY_TYPES, SETTINGS_UPDATED } from '@switchboard/domain';
import type { EavAttributeValueOut } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { MANAGER_ROLES, assertCompanyAccess } from '../companies/companies.service.js';
import { getEavValues, setEavValues } from './custom-fields.service.js';

/** The company's custom-field values `[{attribute_id, value, name, type}]` (no access check). */
export async function readCompanyEavValues(ctx: AppContext, companyId: number): Promise<EavAttributeValueOut[]> {
  return getEavValues(ctx, EAV_ENTITY_TYPES.Company, companyId);
}

/**
 * `PUT /api/companies/{companyId}/custom-fields` (owner or administrator): writes the listed
 * values (null clears one), validated by each attribute's type.
 * @returns `{ message: 'Settings were successfully updated', data: values }`.
 * @throws ForbiddenError 403, ValidationError 422 on `eavAttributeValues.{i}.attribute_id|value`.
 */
export async function putCompanyEavValues(
  ctx: AppContext,
  userId: number,
  companyId: number,
  values: Array<{ attribute_id: number; value: unknown }>,
): Promise<{ message: string; data: EavAttributeValueOut[] }> {
  await assertCompanyAccess(ctx, userId, companyId, MANAGER_ROLES);
  await ctx.db.transaction().execute((tx) => setEavValues(ctx, EAV_ENTITY_TYPES.Company, companyId, companyId, values, tx));
  return { message: SETTINGS_UPDATED, data: await readCompanyEavValues(ctx, companyId) };
}

/** Module setup: lets the companies module show a company's values (the `companyCustomFields` hook). */
export function registerCustomFieldsHooks(ctx: AppContext): void {
  ctx.hooks.provide('companyCustomFields', readCompanyEavValues);
}
