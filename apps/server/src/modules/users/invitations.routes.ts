/**
 * Invitations (docs/accounts.md "Invitations"): `GET|POST /companies/{companyId}/invitations`,
 * `POST .../{invitationId}/resend`, `DELETE .../{invitationId}` (owners and administrators), and the
 * public accept page's `GET /invitations/{token}` and `POST /invitations/{token}/accept`.
 */
import {
  AcceptInvitationInput,
  CompanyParams,
  ErrorBody,
  InvitationAccepted,
  InvitationList,
  InvitationParams,
  InvitationPreview,
  InvitationSaved,
  InvitationTokenParams,
  InviteInput,
  InviteSaved,
  MessageBody,
  errorResponses,
} from '@switchboard/contracts';
import { endSession, issueXsrfCookie, startSession } from '../../platform/auth/auth.plugin.js';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import { acceptInvitation, cancelInvitation, invite, listInvitations, previewInvitation, resendInvitation } from './invitations.service.js';

const tags = ['users'];

/** Registers the invitation routes listed in the file header. */
export function registerInvitationsRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/companies/:companyId/invitations',
    {
      config: { access: access.company('users.read') },
      schema: { tags, summary: 'Pending invitations', params: CompanyParams, response: { 200: InvitationList, ...errorResponses } },
    },
    async (request) => listInvitations(ctx, request.auth!.userId, request.params.companyId),
  );
  app.post(
    '/api/companies/:companyId/invitations',
    {
      config: { access: access.company('users.manage') },
      schema: {
        tags,
        summary: 'Invite by e-mail with a role (an existing user is added at once)',
        params: CompanyParams,
        body: InviteInput,
        response: { 200: InviteSaved, 201: InviteSaved, ...errorResponses },
      },
    },
    async (request, reply) => {
      const out = await invite(ctx, request.auth!.userId, request.params.companyId, request.body);
      return reply.code(out.added ? 200 : 201).send(out);
    },
  );
  app.post(
    '/api/companies/:companyId/invitations/:invitationId/resend',
    {
      config: { access: access.company('users.manage') },
      schema: { tags, summary: 'Resend with a new link', params: InvitationParams, response: { 200: InvitationSaved, ...errorResponses } },
    },
    async (request) => resendInvitation(ctx, request.auth!.userId, request.params.companyId, request.params.invitationId),
  );
  app.delete(
    '/api/companies/:companyId/invitations/:invitationId',
    {
      config: { access: access.company('users.manage') },
      schema: { tags, summary: 'Cancel an invitation', params: InvitationParams, response: { 200: MessageBody, ...errorResponses } },
    },
    async (request) => cancelInvitation(ctx, request.auth!.userId, request.params.companyId, request.params.invitationId),
  );
  app.get(
    '/api/invitations/:token',
    {
      config: { access: access.public() },
      schema: {
        tags,
        summary: 'What an invitation link invites to (public)',
        params: InvitationTokenParams,
        response: { 200: InvitationPreview, 410: ErrorBody, ...errorResponses },
      },
    },
    async (request) => previewInvitation(ctx, request.params.token),
  );
  app.post(
    '/api/invitations/:token/accept',
    {
      config: { access: access.public() },
      schema: {
        tags,
        summary: 'Accept: set name and password, join the account (public, single use)',
        params: InvitationTokenParams,
        body: AcceptInvitationInput,
        response: { 200: InvitationAccepted, 410: ErrorBody, ...errorResponses },
      },
    },
    async (request, reply) => {
      const out = await acceptInvitation(ctx, request.params.token, request.body, request.auth?.userId);
      // The invitee lands signed in (docs/accounts.md "Invitations"): a new account gets a session like a sign-up's
      // (remembered); someone else's session in this browser ends first; a person already signed in keeps theirs.
      if (request.auth?.userId !== out.user_id) {
        const secure = ctx.config.publicUrl.startsWith('https://');
        if (request.auth?.sessionId) await endSession(ctx.db, request, reply);
        await startSession(ctx.db, request, reply, out.user_id, false, secure, true);
        issueXsrfCookie(reply, secure);
      }
      return { message: out.message, email: out.email, company_id: out.company_id, signed_in: true };
    },
  );
}
