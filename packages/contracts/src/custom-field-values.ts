/**
 * Custom-field (EAV) values on numbers, calls, companies and users (spec 001 "Custom fields";
 * docs/contacts.md "Custom fields (EAV)"), and the number override read (spec 000 §3 "Schedule"). Values are
 * `[{attribute_id, value}]` in, `[{attribute_id, value, name, type}]` out, as on contacts; a null
 * value clears it. Validation by the attribute's type happens in the custom-fields service (422
 * on `eavAttributeValues.{i}.attribute_id` / `.value`).
 */
import { z } from 'zod';
import { CompanySummary } from './auth.js';
import { Id } from './common.js';
import { EavAttributeValue, EavAttributeValueOut } from './contacts.js';
import { NumberSchema, UpdateNumberInput } from './telephony.js';

export const EavValuesInput = z.array(EavAttributeValue).max(500);

/** GET /numbers/{id}: the number with its custom-field values (spec 002 "Number"). */
export const NumberWithEavBody = NumberSchema.extend({ eavAttributeValues: z.array(EavAttributeValueOut) });
/** PUT /numbers/{id}: label, routes, schedule and custom-field values. */
export const UpdateNumberWithEavInput = UpdateNumberInput.extend({ eavAttributeValues: EavValuesInput.optional() });
export const NumberWithEavUpdatedBody = z.object({ message: z.string(), data: NumberWithEavBody });

/** GET /companies/{companyId}: the company with its custom-field values (spec 001 "Company records also carry eav_attribute_values"). */
export const CompanyWithEavBody = CompanySummary.extend({ eav_attribute_values: z.array(EavAttributeValueOut) });

/** PUT /companies/{companyId}/custom-fields (either spelling of the key). */
export const PutCompanyCustomFieldsInput = z.object({
  eavAttributeValues: EavValuesInput.optional(),
  eav_attribute_values: EavValuesInput.optional(),
});
/** Values of one entity: GET and PUT answers of the custom-fields endpoints. */
export const EavValuesBody = z.object({ data: z.array(EavAttributeValueOut) });
export const EavValuesSaved = z.object({ message: z.string(), data: z.array(EavAttributeValueOut) });

/** GET /user/custom-fields?company_id: the signed-in user's values for one company's User fields. */
export const UserCustomFieldsQuery = z.object({ company_id: Id });
/** PUT /user/custom-fields. */
export const PutUserCustomFieldsInput = z.object({ company_id: Id, eavAttributeValues: EavValuesInput });
/** PUT /companies/{companyId}/users/{userId}/custom-fields. */
export const PutMemberCustomFieldsInput = z.object({ eavAttributeValues: EavValuesInput });
export const CompanyUserParams = z.object({ companyId: Id, userId: Id });

/** GET /numbers/{id}/override: the stored manual override as it applies now ('auto' when none or expired). */
export const NumberOverrideStateBody = z.object({
  data: z.object({ number_id: z.number(), mode: z.enum(['auto', 'open', 'closed']), until: z.string().nullable(), is_open: z.boolean() }),
});
