/**
 * Development outbox: `GET /api/dev/outbox` lists recorded e-mails (newest first) so a person
 * can open a reset link without a mail server. Public, but only when `SMTP_URL` is unset and
 * not in production; otherwise 404.
 */
import { errorResponses, OutboxList } from '@switchboard/contracts';
import type { App } from '../../app.js';
import type { AppContext } from '../../context.js';
import { NotFoundError } from '../../platform/http/errors.js';

export function registerDevRoutes(app: App, ctx: AppContext): void {
  app.get('/api/dev/outbox', {
    config: { public: true },
    schema: { tags: ['dev'], summary: 'Development mail outbox (404 when SMTP is configured or in production)', response: { 200: OutboxList, ...errorResponses } },
  }, async () => {
    if (ctx.config.smtpUrl || ctx.config.production) throw new NotFoundError('Route');
    const rows = await ctx.mailer.outbox(50);
    return { data: rows.map((r) => ({ id: r.id, to: r.to_address, subject: r.subject, text: r.text_body, created_at: r.created_at.toISOString() })) };
  });
}
