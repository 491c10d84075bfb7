/**
 * Organizations (business units) routes (spec 002 §7 "Organizations and tenant: /business-units
 * CRUD; business-unit-companies (list, status, delete); business-unit-users"; docs/accounts.md):
 * `/business-units` CRUD, `POST /business-units/{id}/companies` (creation), `.../companies/bulk-update`,
 * `.../admins`; the spec's `GET /business-unit-companies?businessUnitId`, `PUT /business-unit-companies/{accountId}/status`,
 * `DELETE /business-unit-companies/{accountId}`, `GET /business-unit-users?businessUnitId`; and the owner's
 * `DELETE /companies/{companyId}` (the same deletion rule).
 * The business-unit routes are for a signed-in user; the service checks the caller administers the organization
 * (404 unknown, 403 not an administrator; an account of an organization the caller does not administer is 404).
 * Account ids in these paths are `accountId` (not `companyId`): an org-administrator acts on the account through
 * the organization, even when the account is deactivated.
 */
import {
  AddOrganizationAdminInput,
  BusinessUnitCompaniesQuery,
  BusinessUnitCompanyParams,
  BusinessUnitUsersQuery,
  CompanyParams,
  DeleteAccountInput,
  BulkAccountUpdated,
  BulkAccountUpdateInput,
  CompanyStatusInput,
  CreateOrganizationCompanyInput,
  CreateOrganizationInput,
  Id,
  MessageBody,
  OrganizationAdminList,
  OrganizationAdminSaved,
  OrganizationBody,
  OrganizationCompanyList,
  OrganizationCompanySaved,
  OrganizationList,
  OrganizationListQuery,
  OrganizationParams,
  OrganizationSaved,
  OrganizationUserList,
  UpdateOrganizationInput,
  errorResponses,
} from '@switchboard/contracts';
import { z } from 'zod';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import {
  addOrganizationAdministrator,
  bulkUpdateAccounts,
  createCompanyInOrganization,
  createOrganization,
  deleteBusinessUnitCompany,
  deleteOrganization,
  deleteOwnAccount,
  getOrganization,
  listOrganizationAdmins,
  listOrganizationCompanies,
  listOrganizations,
  listOrganizationUsers,
  removeOrganizationAdministrator,
  setBusinessUnitCompanyStatus,
  updateOrganization,
} from './business-units.service.js';

const tags = ['business-units'];
const AdminParams = z.object({ organizationId: Id, userId: Id });

/** Registers the business-unit routes listed in the file header. */
export function registerBusinessUnitsRoutes(app: App, ctx: AppContext): void {
  const cfg = { access: access.signedIn() };

  app.get(
    '/api/business-units',
    {
      config: cfg,
      schema: {
        tags,
        summary: 'Organizations the caller administers (perPage default 1000)',
        querystring: OrganizationListQuery,
        response: { 200: OrganizationList, ...errorResponses },
      },
    },
    async (request) => listOrganizations(ctx, request.auth!.userId, request.query),
  );
  app.post(
    '/api/business-units',
    {
      config: cfg,
      schema: {
        tags,
        summary: 'Create an organization (the caller becomes its owner and administrator)',
        body: CreateOrganizationInput,
        response: { 201: OrganizationSaved, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await createOrganization(ctx, request.auth!.userId, request.body.name)),
  );
  app.get(
    '/api/business-units/:organizationId',
    { config: cfg, schema: { tags, summary: 'One organization', params: OrganizationParams, response: { 200: OrganizationBody, ...errorResponses } } },
    async (request) => getOrganization(ctx, request.auth!.userId, request.params.organizationId),
  );
  app.put(
    '/api/business-units/:organizationId',
    {
      config: cfg,
      schema: {
        tags,
        summary: 'Rename, set custom fields (entity type Organization 4)',
        params: OrganizationParams,
        body: UpdateOrganizationInput,
        response: { 200: OrganizationSaved, ...errorResponses },
      },
    },
    async (request) => updateOrganization(ctx, request.auth!.userId, request.params.organizationId, request.body),
  );
  app.delete(
    '/api/business-units/:organizationId',
    {
      config: cfg,
      schema: {
        tags,
        summary: 'Delete an organization without accounts (its owner)',
        params: OrganizationParams,
        response: { 200: MessageBody, ...errorResponses },
      },
    },
    async (request) => deleteOrganization(ctx, request.auth!.userId, request.params.organizationId),
  );

  app.post(
    '/api/business-units/:organizationId/companies',
    {
      config: cfg,
      schema: {
        tags,
        summary: 'Create an account with company_info and billing_info',
        params: OrganizationParams,
        body: CreateOrganizationCompanyInput,
        response: { 201: OrganizationCompanySaved, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await createCompanyInOrganization(ctx, request.auth!.userId, request.params.organizationId, request.body)),
  );
  app.post(
    '/api/business-units/:organizationId/companies/bulk-update',
    {
      config: cfg,
      schema: {
        tags,
        summary: 'Bulk account update: status and settings of chosen or all accounts',
        params: OrganizationParams,
        body: BulkAccountUpdateInput,
        response: { 200: BulkAccountUpdated, ...errorResponses },
      },
    },
    async (request) => bulkUpdateAccounts(ctx, request.auth!.userId, request.params.organizationId, request.body),
  );

  app.get(
    '/api/business-units/:organizationId/admins',
    {
      config: cfg,
      schema: { tags, summary: 'Administrators of the organization', params: OrganizationParams, response: { 200: OrganizationAdminList, ...errorResponses } },
    },
    async (request) => listOrganizationAdmins(ctx, request.auth!.userId, request.params.organizationId),
  );
  app.post(
    '/api/business-units/:organizationId/admins',
    {
      config: cfg,
      schema: {
        tags,
        summary: 'Add an administrator (an existing user, by e-mail)',
        params: OrganizationParams,
        body: AddOrganizationAdminInput,
        response: { 201: OrganizationAdminSaved, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await addOrganizationAdministrator(ctx, request.auth!.userId, request.params.organizationId, request.body.email)),
  );
  app.delete(
    '/api/business-units/:organizationId/admins/:userId',
    {
      config: cfg,
      schema: {
        tags,
        summary: 'Remove an administrator (detaches them from the accounts)',
        params: AdminParams,
        response: { 200: MessageBody, ...errorResponses },
      },
    },
    async (request) => removeOrganizationAdministrator(ctx, request.auth!.userId, request.params.organizationId, request.params.userId),
  );

  // ---- the spec's own paths (spec 002 §7 "business-unit-companies (list, status, delete); business-unit-users")
  app.get(
    '/api/business-unit-companies',
    {
      config: cfg,
      schema: {
        tags,
        summary: 'Accounts of the business unit `businessUnitId` (page of 100, search, status)',
        querystring: BusinessUnitCompaniesQuery,
        response: { 200: OrganizationCompanyList, ...errorResponses },
      },
    },
    async (request) => {
      const { businessUnitId, ...q } = request.query;
      return listOrganizationCompanies(ctx, request.auth!.userId, businessUnitId, q);
    },
  );
  app.put(
    '/api/business-unit-companies/:accountId/status',
    {
      config: cfg,
      schema: {
        tags,
        summary: 'Account status: 0 active, 1 parked, 2 deactivated (an administrator of its business unit)',
        params: BusinessUnitCompanyParams,
        body: CompanyStatusInput,
        response: { 200: OrganizationCompanySaved, ...errorResponses },
      },
    },
    async (request) => setBusinessUnitCompanyStatus(ctx, request.auth!.userId, request.params.accountId, request.body.status),
  );
  app.delete(
    '/api/business-unit-companies/:accountId',
    {
      config: cfg,
      schema: {
        tags,
        summary: 'Delete an account without numbers or activity (an administrator of its business unit)',
        params: BusinessUnitCompanyParams,
        response: { 200: MessageBody, ...errorResponses },
      },
    },
    async (request) => deleteBusinessUnitCompany(ctx, request.auth!.userId, request.params.accountId),
  );
  app.get(
    '/api/business-unit-users',
    {
      config: cfg,
      schema: {
        tags,
        summary: 'Users of the accounts of the business unit `businessUnitId`, with their role in each',
        querystring: BusinessUnitUsersQuery,
        response: { 200: OrganizationUserList, ...errorResponses },
      },
    },
    async (request) => listOrganizationUsers(ctx, request.auth!.userId, request.query.businessUnitId),
  );

  // ---- the owner deletes their own account (ability `account.delete`; the same rule as the business unit's delete)
  app.delete(
    '/api/companies/:companyId',
    {
      config: { access: access.company('account.delete') },
      schema: {
        tags: ['companies'],
        summary: "Delete the account (its owner; `name` = the account's name to confirm); refused while it has numbers or activity",
        params: CompanyParams,
        body: DeleteAccountInput,
        response: { 200: MessageBody, ...errorResponses },
      },
    },
    async (request) => deleteOwnAccount(ctx, request.params.companyId, request.body),
  );
}
