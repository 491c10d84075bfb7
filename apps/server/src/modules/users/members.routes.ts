/**
 * Users of an account (spec 002 §7 "users, invites, activation, roles"; docs/accounts.md):
 * `GET /roles`, `GET /users?company_id` (the spec's `/users`), `PUT|DELETE /companies/{companyId}/users/{userId}`,
 * `POST .../activate`, `POST .../deactivate`. Owners and administrators only (`users.read`,
 * `users.manage`); the owner role is an owner's (`ownership.manage`, checked by the service).
 */
import {
  CompanyParams,
  CompanyUserParams,
  MemberList,
  MemberSaved,
  MessageBody,
  RolesBody,
  UpdateMemberInput,
  UsersQuery,
  errorResponses,
} from '@switchboard/contracts';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import { activateMember, deactivateMember, listMembers, listRoles, removeMember, updateMember } from './members.service.js';

const tags = ['users'];

/** Registers the member routes listed in the file header. */
export function registerMembersRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/roles',
    {
      config: { access: access.signedIn() },
      schema: { tags, summary: 'The roles list with what each may do', response: { 200: RolesBody, ...errorResponses } },
    },
    async () => listRoles(),
  );
  app.get(
    '/api/users',
    {
      config: { access: access.company('users.read') },
      schema: {
        tags,
        summary: 'Users of the account `company_id` with role, numbers and custom fields (spec 002 §7 "/users")',
        querystring: UsersQuery,
        response: { 200: MemberList, ...errorResponses },
      },
    },
    async (request) => {
      const { company_id, ...q } = request.query;
      return listMembers(ctx, request.auth!.userId, company_id, q);
    },
  );
  app.put(
    '/api/companies/:companyId/users/:userId',
    {
      config: { access: access.company('users.manage') },
      schema: {
        tags,
        summary: 'Change role, numbers, custom fields',
        params: CompanyUserParams,
        body: UpdateMemberInput,
        response: { 200: MemberSaved, ...errorResponses },
      },
    },
    async (request) => updateMember(ctx, request.auth!.userId, request.params.companyId, request.params.userId, request.body),
  );
  app.post(
    '/api/companies/:companyId/users/:userId/activate',
    {
      config: { access: access.company('users.manage') },
      schema: { tags, summary: 'Activate the user in this account', params: CompanyUserParams, response: { 200: MemberSaved, ...errorResponses } },
    },
    async (request) => activateMember(ctx, request.auth!.userId, request.params.companyId, request.params.userId),
  );
  app.post(
    '/api/companies/:companyId/users/:userId/deactivate',
    {
      config: { access: access.company('users.manage') },
      schema: { tags, summary: 'Deactivate the user in this account', params: CompanyUserParams, response: { 200: MemberSaved, ...errorResponses } },
    },
    async (request) => deactivateMember(ctx, request.auth!.userId, request.params.companyId, request.params.userId),
  );
  app.delete(
    '/api/companies/:companyId/users/:userId',
    {
      config: { access: access.company('users.manage') },
      schema: { tags, summary: 'Remove the user from this account', params: CompanyUserParams, response: { 200: MessageBody, ...errorResponses } },
    },
    async (request) => removeMember(ctx, request.auth!.userId, request.params.companyId, request.params.userId),
  );
}
