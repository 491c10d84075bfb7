/**
 * Development outbox: `GET /api/dev/outbox` lists recorded e-mails (newest first, 50) so a person
 * can read the product's mail without a mail server. Signed-in only: a person sees the mail
 * addressed to their own e-mail; an operator (modules/auth/operators) sees every mail
 * (docs/auth.md "Development outbox"). 404 when `SMTP_URL` is set or in production.
 */
import { errorResponses, OutboxList } from '@switchboard/contracts';
import type { App } from '../../platform/http/app-type.js';
import type { AppContext } from '../../context.js';
import { isOperator } from '../auth/operators.js';
import { NotFoundError } from '../../platform/http/errors.js';
import { findUser } from '../users/users.service.js';

export function registerDevRoutes(app: App, ctx: AppContext): void {
  app.get('/api/dev/outbox', {
    schema: { tags: ['dev'], summary: "Development mail outbox: the caller's own mail (an operator's: all); 404 when SMTP is configured or in production", response: { 200: OutboxList, ...errorResponses } },
  }, async (request) => {
    if (ctx.config.smtpUrl || ctx.config.production) throw new NotFoundError('Route');
    const user = await findUser(ctx, request.auth!.userId);
    if (!user) throw new NotFoundError('Route');
    const rows = await ctx.mailer.outbox(50, (await isOperator(ctx, user)) ? undefined : user.email);
    return { data: rows.map((r) => ({ id: r.id, to: r.to_address, subject: r.subject, text: r.text_body, created_at: r.created_at.toISOString() })) };
  });
}
