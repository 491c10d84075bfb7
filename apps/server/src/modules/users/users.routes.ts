/**
 * `GET /api/user` and `POST /api/user/whats_new_read` (foundation §7 "Session and account calls");
 * user custom-field values (spec 001 §7 "Custom fields"): `GET|PUT /api/user/custom-fields` and
 * `GET|PUT /api/companies/{companyId}/users/{userId}/custom-fields` (see user-custom-fields.service.ts).
 */
import {
  CompanyUserParams,
  CurrentUser,
  EavValuesBody,
  EavValuesSaved,
  PutMemberCustomFieldsInput,
  PutUserCustomFieldsInput,
  UserCustomFieldsQuery,
  errorResponses,
} from '@switchboard/contracts';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import { getMemberEavValues, getOwnEavValues, putMemberEavValues, putOwnEavValues } from './user-custom-fields.service.js';
import { getCurrentUser, markWhatsNewRead } from './users.service.js';

/** Registers the current-user routes listed in the file header. */
export function registerUsersRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/user',
    {
      config: { access: access.signedIn() },
      schema: {
        tags: ['session'],
        summary: 'The signed-in user (`isAdmin`: the session is an admin session)',
        response: { 200: CurrentUser, ...errorResponses },
      },
    },
    async (request) => getCurrentUser(ctx, request.auth!.userId, { isAdmin: request.auth!.operatorUserId !== undefined }),
  );

  app.post(
    '/api/user/whats_new_read',
    {
      config: { access: access.signedIn() },
      schema: { tags: ['session'], summary: "Stamps What's New as read now", response: { 200: CurrentUser, ...errorResponses } },
    },
    async (request) => markWhatsNewRead(ctx, request.auth!.userId, { isAdmin: request.auth!.operatorUserId !== undefined }),
  );

  app.get(
    '/api/user/custom-fields',
    {
      config: { access: access.company('company.read') },
      schema: {
        tags: ['custom-fields'],
        summary: "The signed-in user's custom-field values for one company",
        querystring: UserCustomFieldsQuery,
        response: { 200: EavValuesBody, ...errorResponses },
      },
    },
    async (request) => getOwnEavValues(ctx, request.auth!.userId, request.query.company_id),
  );

  app.put(
    '/api/user/custom-fields',
    {
      config: { access: access.company('preferences.own') },
      schema: {
        tags: ['custom-fields'],
        summary: "Save the signed-in user's custom-field values",
        body: PutUserCustomFieldsInput,
        response: { 200: EavValuesSaved, ...errorResponses },
      },
    },
    async (request) => putOwnEavValues(ctx, request.auth!.userId, request.body.company_id, request.body.eavAttributeValues),
  );

  app.get(
    '/api/companies/:companyId/users/:userId/custom-fields',
    {
      config: { access: access.company('company.read') },
      schema: {
        tags: ['custom-fields'],
        summary: "A member's custom-field values (any member)",
        params: CompanyUserParams,
        response: { 200: EavValuesBody, ...errorResponses },
      },
    },
    async (request) => getMemberEavValues(ctx, request.auth!.userId, request.params.companyId, request.params.userId),
  );

  app.put(
    '/api/companies/:companyId/users/:userId/custom-fields',
    {
      config: { access: access.company('users.manage') },
      schema: {
        tags: ['custom-fields'],
        summary: "Save a member's custom-field values (owner or administrator)",
        params: CompanyUserParams,
        body: PutMemberCustomFieldsInput,
        response: { 200: EavValuesSaved, ...errorResponses },
      },
    },
    async (request) => putMemberEavValues(ctx, request.auth!.userId, request.params.companyId, request.params.userId, request.body.eavAttributeValues),
  );
}
