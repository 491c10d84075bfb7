/**
 * Custom-field values of a company (issue 4: "values on ... companies"; spec 001 "Company records
 * also carry eav_attribute_values"). Entity type Company 2; values live in the shared EAV store
 * of the custom-fields service. Kept apart from companies.service.ts because the custom-fields
 * service itself depends on companies.service (access checks).
 */
import { EAV_ENTITY_TYPES, SETTINGS_UPDATED } from '@switchboard/domain';
import type { EavAttributeValueOut } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { getEavValues, setEavValues } from '../custom-fields/custom-fields.service.js';
import { MANAGER_ROLES, assertCompanyAccess, getCompanySummary, type CompanySummaryOut } from './companies.service.js';

/**
 * `GET /api/companies/{companyId}`: the summary plus `eav_attribute_values`.
 * @throws ForbiddenError (403) when the caller is not an active member.
 */
export async function getCompanyWithEav(ctx: AppContext, userId: number, companyId: number): Promise<CompanySummaryOut & { eav_attribute_values: EavAttributeValueOut[] }> {
  const summary = await getCompanySummary(ctx, userId, companyId);
  return { ...summary, eav_attribute_values: await getEavValues(ctx, EAV_ENTITY_TYPES.Company, companyId) };
}

/**
 * `PUT /api/companies/{companyId}/custom-fields` (owner or administrator): writes the listed
 * values (null clears one), validated by each attribute's type.
 * @returns `{ message: 'Settings were successfully updated', data: values }`.
 * @throws ForbiddenError 403, ValidationError 422 on `eavAttributeValues.{i}.attribute_id|value`.
 */
export async function putCompanyEavValues(ctx: AppContext, userId: number, companyId: number, values: Array<{ attribute_id: number; value: unknown }>): Promise<{ message: string; data: EavAttributeValueOut[] }> {
  await assertCompanyAccess(ctx, userId, companyId, MANAGER_ROLES);
  await ctx.db.transaction().execute((tx) => setEavValues(ctx, EAV_ENTITY_TYPES.Company, companyId, companyId, values, tx));
  return { message: SETTINGS_UPDATED, data: await getEavValues(ctx, EAV_ENTITY_TYPES.Company, companyId) };
}
