/**
 * The scope of a contact-book request (spec 001 §5 bulk selections, §7 "Contacts", "Groups and
 * labels"): the company a company-implied call acts on, and the SQL selecting a selection's
 * contacts for bulk statements. Shared by the contacts and the groups/labels services.
 */
import type { BulkSelection } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { fieldError } from '../../platform/http/errors.js';
import { assertCompanyAccess, listUserCompanies, type Role } from '../companies/companies.service.js';
import { contactsRepository, type ContactSelectionInput } from './contacts.repository.js';

/**
 * The company a company-implied call acts on: `companyId` when given (access checked), otherwise
 * the caller's first company (by name).
 * @throws ForbiddenError (403) when not a member with one of `roles`; ValidationError when the user has no company.
 */
export async function resolveCompanyId(ctx: AppContext, userId: number, companyId: number | undefined, roles?: Role[]): Promise<number> {
  if (companyId === undefined) {
    const first = (await listUserCompanies(ctx, userId))[0];
    if (!first) throw fieldError('company_id', 'The company id field is required.');
    companyId = first.id;
  }
  await assertCompanyAccess(ctx, userId, companyId, roles);
  return companyId;
}

/** `select id from contacts` of the company for a selection (ids or all + filters), for bulk statements. */
export function contactIdsQuery(db: DbOrTx, companyId: number, selection: ContactSelectionInput | BulkSelection) {
  return contactsRepository.idsQuery(db, companyId, selection as ContactSelectionInput);
}
