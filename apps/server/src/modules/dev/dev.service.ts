/**
 * The development mail outbox (docs/auth.md "Development outbox"): the mail recorded while no
 * SMTP server is configured, so a person can read the product's mail without one.
 */
import type { AppContext } from '../../context.js';
import { NotFoundError } from '../../platform/http/errors.js';
import { isOperator } from '../auth/operators.js';
import { invitationOfToken } from '../users/invitations.service.js';
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

/**
 * The development outbox seen through an invitation link (public; docs/auth.md "Development outbox"): the invitee,
 * who has no account yet, reads the mail that carries this very link (addressed to the invitation's e-mail and
 * containing the token), and nothing else.
 * @throws NotFoundError (404) when `SMTP_URL` is set or in production; the invitation's 404/410 when the link is
 * unknown, used, cancelled or expired.
 */
export async function readInvitationMail(ctx: AppContext, token: string): Promise<{ data: OutboxEntry[] }> {
  if (ctx.config.smtpUrl || ctx.config.production) throw new NotFoundError('Route');
  const inv = await invitationOfToken(ctx, token);
  const rows = (await ctx.mailer.outbox(50, inv.email)).filter((r) => r.text_body.includes(encodeURIComponent(token)));
  return { data: rows.map((r) => ({ id: r.id, to: r.to_address, subject: r.subject, text: r.text_body, created_at: r.created_at.toISOString() })) };
}
