/**
 * Custom-field values of users (spec 001 §3 "Custom field (EAV attribute)", §7 "Custom fields"; spec "User: ... eavAttributeValues").
 * Entity type User 5, stored in the shared EAV store of the custom-fields service. A user belongs to
 * several companies, so values are read and written per company: only the User fields visible to
 * that company (its own and its business unit's) are answered or accepted.
 *
 * Design (the spec shows no such calls): `GET|PUT /api/user/custom-fields?company_id` for the
 * signed-in user (any active member may edit their own values), and
 * `GET|PUT /api/companies/{companyId}/users/{userId}/custom-fields` for colleagues (any member
 * reads, owner/administrator writes; a user who is not an active member of the company → 404).
 */
import { EAV_ENTITY_TYPES, SETTINGS_UPDATED } from '@switchboard/domain';
import type { EavAttributeValueOut } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { ForbiddenError, NotFoundError } from '../../platform/http/errors.js';
import { MANAGER_ROLES, assertCompanyAccess } from '../companies/companies.service.js';
import { getEavValues, listAttributes, setEavValues } from '../custom-fields/custom-fields.service.js';

type ValueIn = { attribute_id: number; value: unknown };

/** The user's values for the company's User fields (caller's access already checked). */
async function valuesFor(ctx: AppContext, callerId: number, companyId: number, userId: number): Promise<EavAttributeValueOut[]> {
  const [attrs, values] = await Promise.all([
    listAttributes(ctx, callerId, { companyId, entityType: EAV_ENTITY_TYPES.User }),
    getEavValues(ctx, EAV_ENTITY_TYPES.User, userId),
  ]);
  const visible = new Set(attrs.data.map((a) => a.id));
  return values.filter((v) => visible.has(v.attribute_id));
}

/** @throws NotFoundError (404) unless `userId` is an active member of the company. */
async function assertMember(ctx: AppContext, userId: number, companyId: number): Promise<void> {
  try {
    await assertCompanyAccess(ctx, userId, companyId);
  } catch (e) {
    if (e instanceof ForbiddenError) throw new NotFoundError('User');
    throw e;
  }
}

/** `GET /api/user/custom-fields?company_id`. @throws ForbiddenError 403 when not a member. */
export async function getOwnEavValues(ctx: AppContext, userId: number, companyId: number): Promise<{ data: EavAttributeValueOut[] }> {
  await assertCompanyAccess(ctx, userId, companyId);
  return { data: await valuesFor(ctx, userId, companyId, userId) };
}

/** `PUT /api/user/custom-fields {company_id, eavAttributeValues}`. @throws 403, 422 (`eavAttributeValues.{i}.*`). */
export async function putOwnEavValues(
  ctx: AppContext,
  userId: number,
  companyId: number,
  values: ValueIn[],
): Promise<{ message: string; data: EavAttributeValueOut[] }> {
  await assertCompanyAccess(ctx, userId, companyId);
  await ctx.db.transaction().execute((tx) => setEavValues(ctx, EAV_ENTITY_TYPES.User, userId, companyId, values, tx));
  return { message: SETTINGS_UPDATED, data: await valuesFor(ctx, userId, companyId, userId) };
}

/** `GET /api/companies/{companyId}/users/{userId}/custom-fields` (any member). @throws 403, 404. */
export async function getMemberEavValues(ctx: AppContext, callerId: number, companyId: number, userId: number): Promise<{ data: EavAttributeValueOut[] }> {
  await assertCompanyAccess(ctx, callerId, companyId);
  await assertMember(ctx, userId, companyId);
  return { data: await valuesFor(ctx, callerId, companyId, userId) };
}

/** `PUT /api/companies/{companyId}/users/{userId}/custom-fields` (owner/administrator). @throws 403, 404, 422. */
export async function putMemberEavValues(
  ctx: AppContext,
  callerId: number,
  companyId: number,
  userId: number,
  values: ValueIn[],
): Promise<{ message: string; data: EavAttributeValueOut[] }> {
  await assertCompanyAccess(ctx, callerId, companyId, MANAGER_ROLES);
  await assertMember(ctx, userId, companyId);
  await ctx.db.transaction().execute((tx) => setEavValues(ctx, EAV_ENTITY_TYPES.User, userId, companyId, values, tx));
  return { message: SETTINGS_UPDATED, data: await valuesFor(ctx, callerId, companyId, userId) };
}
