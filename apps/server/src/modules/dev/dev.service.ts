/**
 * The development mail outbox (docs/auth.md "Development outbox"): the mail recorded while no
 * SMTP server is configured, so a person can read the product's mail without one.
 */
import type { AppContext } from '../../context.js';
import { NotFoundError } from '../../platform/http/errors.js';
import { isOperator } from '../auth/operators.js';
import { findUser } from '../users/users.service.js';

/** One recorded e-mail as the outbox shows it. */
export type OutboxEntry = { id: number; to: string; subject: string; text: string; created_at: string };

/**
 * The newest 50 recorded e-mails: those addressed to the caller's own e-mail, or every one for an
 * operator (modules/auth/operators).
 * @throws NotFoundError (404, as if the route did not exist) when `SMTP_URL` is set, in
 * production, or when the caller's user no longer exists.
 */
export async function readDevOutbox(ctx: AppContext, userId: number): Promise<{ data: OutboxEntry[] }> {
  if (ctx.config.smtpUrl || ctx.config.production) throw new NotFoundError('Route');
  const user = await findUser(ctx, userId);
  if (!user) throw new NotFoundError('Route');
  const rows = await ctx.mailer.outbox(50, (await isOperator(ctx, user)) ? undefined : user.email);
  return { data: rows.map((r) => ({ id: r.id, to: r.to_address, subject: r.subject, text: r.text_body, created_at: r.created_at.toISOString() })) };
}
