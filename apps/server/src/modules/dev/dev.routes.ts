/**
 * Development outbox: `GET /api/dev/outbox` lists recorded e-mails (newest first, 50) so a person
 * can read the product's mail without a mail server. Signed-in only: a person sees the mail
 * addressed to their own e-mail; an operator (modules/auth/operators) sees every mail
 * (docs/auth.md "Development outbox"). 404 when `SMTP_URL` is set or in production. Also
 * `GET /api/dev/outbox/invitations/{token}` (public): the invitation mail carrying that link, for an invitee without
 * an account.
 */
import { errorResponses, ErrorBody, InvitationTokenParams, OutboxList } from '@switchboard/contracts';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import { readDevOutbox, readInvitationMail } from './dev.service.js';

/** Registers `GET /api/dev/outbox`. */
export function registerDevRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/dev/outbox',
    {
      config: { access: access.signedIn() },
      schema: {
        tags: ['dev'],
        summary: "Development mail outbox: the caller's own mail (an operator's: all); 404 when SMTP is configured or in production",
        response: { 200: OutboxList, ...errorResponses },
      },
    },
    async (request) => readDevOutbox(ctx, request.auth!.userId),
  );
  app.get(
    '/api/dev/outbox/invitations/:token',
    {
      config: { access: access.public() },
      schema: {
        tags: ['dev'],
        summary: 'Development mail outbox through an invitation link (public): the mail carrying that link; 404 when SMTP is configured or in production',
        params: InvitationTokenParams,
        response: { 200: OutboxList, 410: ErrorBody, ...errorResponses },
      },
    },
    async (request) => readInvitationMail(ctx, request.params.token),
  );
}
