/**
 * Invitations to join an account (spec 002 §7 "users, invites"; spec 000 §8 "Invitation was
 * successfully resent"; docs/accounts.md "Invitations"). An owner or administrator invites an
 * e-mail address with a role (and optionally names and numbers). A new person gets a mailed,
 * single-use link that expires after 7 days (INVITATION_TTL_MS) to set a name and password and
 * join; a person who already has an account is added at once and told by e-mail. The link's
 * token is stored hashed (sha256); resending makes a new link (the old one stops working) and a
 * new expiry.
 */
import { INVITATION_TTL_MS, type AcceptInvitationInput, type InvitationOut, type InviteInput, type MemberOut } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { hashToken, randomToken } from '../../platform/auth/tokens.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { AppError, ForbiddenError, NotFoundError, fieldError } from '../../platform/http/errors.js';
import { MANAGER_ROLES, addCompanyMember, assertCompanyAccess, type Role } from '../companies/companies.service.js';
import { findCompany, storedMembership } from '../companies/accounts.service.js';
import { ROLE_LIST, assertCompanyNumbers, memberViews, replaceUserNumbers } from './members.service.js';
import { usersRepository, type InvitationRow } from './users.repository.js';
import { createUser, findUserByEmail, getUserNames, normalizeEmail } from './users.service.js';

export const MSG_INVITATION_SENT = 'Invitation was successfully sent';
export const MSG_INVITATION_RESENT = 'Invitation was successfully resent';
export const MSG_INVITATION_CANCELLED = 'Invitation was successfully cancelled';
export const MSG_USER_ADDED = 'The user was added to the account';
/** Accepted: the person is signed in by the accept route (docs/accounts.md "Invitations"). */
export const MSG_INVITATION_ACCEPTED = (company: string) => `Welcome to ${company}. You are signed in.`;
export const MSG_INVITATION_INVALID = 'This invitation link is invalid or has already been used.';
export const MSG_INVITATION_EXPIRED = 'This invitation has expired. Ask for a new one.';
export const MSG_INVITATION_REVOKED = 'This invitation was cancelled. Ask the person who invited you for a new one.';

/** 410: the invitation exists but its link expired (or, with {@link MSG_INVITATION_REVOKED}, it was cancelled). */
export class InvitationExpiredError extends AppError {
  constructor(message = MSG_INVITATION_EXPIRED) {
    super(410, message);
  }
}

/** The role's label as the users screens show it ("Administrator"). */
function roleLabel(role: string): string {
  return ROLE_LIST.find((r) => r.value === role)?.label ?? role;
}

/** Whether mail goes to the development outbox (no SMTP server, not production: docs/auth.md "Development outbox"). */
export function usesDevOutbox(ctx: AppContext): boolean {
  return !ctx.config.smtpUrl && !ctx.config.production;
}

/** The accept page's link of an invitation token. */
export function invitationLink(ctx: AppContext, token: string): string {
  return `${ctx.config.publicUrl}/accept-invitation?token=${encodeURIComponent(token)}`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

async function invitationViews(ctx: AppContext, rows: InvitationRow[], now = Date.now()): Promise<InvitationOut[]> {
  const names = await getUserNames(
    ctx,
    rows.map((r) => r.invited_by).filter((id): id is number => id !== null),
  );
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    first_name: r.first_name,
    last_name: r.last_name,
    role: r.role as InvitationOut['role'],
    numbers: r.numbers ?? [],
    invited_by: r.invited_by !== null ? (names.get(r.invited_by) ?? null) : null,
    expires_at: r.expires_at.toISOString(),
    expired: r.expires_at.getTime() <= now,
    sent_count: r.sent_count,
    last_sent_at: r.last_sent_at.toISOString(),
    created_at: r.created_at.toISOString(),
  }));
}

/** Mails the invitation link (in `tx`, so it is recorded with the invitation). */
async function mailInvitation(
  ctx: AppContext,
  tx: DbOrTx,
  inv: { email: string; first_name: string; role: string },
  token: string,
  companyName: string,
  inviter: string | null,
  expiresAt: Date,
) {
  const link = invitationLink(ctx, token);
  const by = inviter ? `${inviter} invited you` : 'You were invited';
  const role = roleLabel(inv.role);
  const days = Math.round(INVITATION_TTL_MS / 86_400_000);
  await ctx.mailer.send(
    {
      to: inv.email,
      subject: `You're invited to join ${companyName} as ${role}`,
      text: `Hello${inv.first_name ? ` ${inv.first_name}` : ''},\n\n${by} to join ${companyName} on Switchboard as ${role}.\nOpen this link to choose your name and password and sign in (it works once and expires in ${days} days, on ${expiresAt.toUTCString()}):\n\n${link}\n\nIf you did not expect this, you can ignore this e-mail.`,
      html: `<p>Hello${inv.first_name ? ` ${escapeHtml(inv.first_name)}` : ''},</p><p>${escapeHtml(by)} to join <strong>${escapeHtml(companyName)}</strong> on Switchboard as <strong>${escapeHtml(role)}</strong>.</p><p><a href="${escapeHtml(link)}">Accept the invitation</a> (the link works once and expires in ${days} days).</p><p>If you did not expect this, you can ignore this e-mail.</p>`,
    },
    tx,
  );
}

/**
 * `POST /companies/{companyId}/invitations` (owner or administrator; only an owner invites an owner).
 * @returns 201 `{ message, added: false, data: invitation }` for a new person, or `{ message, added: true, data: member }`
 * when the e-mail already has an account (added at once with the role and numbers, and told by e-mail).
 * @throws 403, 422 (`email` already a member or already invited; `numbers`).
 */
export async function invite(
  ctx: AppContext,
  callerId: number,
  companyId: number,
  input: InviteInput,
): Promise<{ message: string; added: boolean; data: InvitationOut | MemberOut; invitation_url?: string }> {
  const callerRole = await assertCompanyAccess(ctx, callerId, companyId, MANAGER_ROLES);
  if (input.role === 'owner' && callerRole !== 'owner') throw new ForbiddenError('Only an owner can invite an owner.');
  const email = normalizeEmail(input.email);
  const numbers = await assertCompanyNumbers(ctx, companyId, input.numbers ?? []);
  const company = await findCompany(ctx, companyId);
  if (!company) throw new NotFoundError('Company');
  const inviter = (await getUserNames(ctx, [callerId])).get(callerId) ?? null;
  const existing = await findUserByEmail(ctx, email);

  if (existing) {
    await ctx.db.transaction().execute(async (tx) => {
      const m = await storedMembership(ctx, companyId, existing.id, tx);
      if (m) {
        throw fieldError(
          'email',
          m.role === 'deactivated'
            ? 'This person is a deactivated user of this account: activate them instead.'
            : 'This person is already a user of this account.',
        );
      }
      await addCompanyMember(ctx, companyId, existing.id, input.role, tx);
      await replaceUserNumbers(ctx, companyId, existing.id, numbers, tx);
      const link = `${ctx.config.publicUrl}/`;
      await ctx.mailer.send(
        {
          to: existing.email,
          subject: `You now have access to ${company.name} as ${roleLabel(input.role)}`,
          text: `Hello ${existing.first_name || existing.email},\n\n${inviter ?? 'An administrator'} added you to ${company.name} as ${roleLabel(input.role)}. Sign in and choose it in the account switcher:\n\n${link}`,
          html: `<p>Hello ${escapeHtml(existing.first_name || existing.email)},</p><p>${escapeHtml(inviter ?? 'An administrator')} added you to <strong>${escapeHtml(company.name)}</strong> as <strong>${escapeHtml(roleLabel(input.role))}</strong>.</p><p><a href="${escapeHtml(link)}">Sign in</a> and choose it in the account switcher.</p>`,
        },
        tx,
      );
    });
    const [view] = await memberViews(ctx, companyId, [{ user_id: existing.id, role: input.role, created_at: new Date() }]);
    return { message: MSG_USER_ADDED, added: true, data: view! };
  }

  const token = randomToken(32);
  const expiresAt = new Date(Date.now() + INVITATION_TTL_MS);
  const row = await ctx.db.transaction().execute(async (tx) => {
    if (await usersRepository.pendingInvitationFor(tx, companyId, email)) {
      throw fieldError('email', 'This e-mail address has already been invited: resend the invitation instead.');
    }
    let inserted: InvitationRow;
    try {
      inserted = await usersRepository.insertInvitation(tx, {
        company_id: companyId,
        email,
        role: input.role,
        first_name: input.first_name?.trim() ?? '',
        last_name: input.last_name?.trim() ?? '',
        numbers: JSON.stringify(numbers),
        token_hash: hashToken(token),
        invited_by: callerId,
        expires_at: expiresAt,
      });
    } catch (e) {
      // Two invitations of the same address at once: the partial unique index keeps one.
      if ((e as { code?: string }).code === '23505') throw fieldError('email', 'This e-mail address has already been invited: resend the invitation instead.');
      throw e;
    }
    await mailInvitation(ctx, tx, inserted, token, company.name, inviter, expiresAt);
    return inserted;
  });
  const [view] = await invitationViews(ctx, [row]);
  // Without a mail server the invitee cannot receive the mail: the inviter is given the link to hand over.
  return { message: MSG_INVITATION_SENT, added: false, data: view!, ...(usesDevOutbox(ctx) ? { invitation_url: invitationLink(ctx, token) } : {}) };
}

/** `GET /companies/{companyId}/invitations`: pending invitations (expired ones flagged `expired`), newest first. */
export async function listInvitations(ctx: AppContext, callerId: number, companyId: number): Promise<{ data: InvitationOut[] }> {
  await assertCompanyAccess(ctx, callerId, companyId, MANAGER_ROLES);
  return { data: await invitationViews(ctx, await usersRepository.pendingInvitations(ctx.db, companyId)) };
}

async function pendingInvitation(ctx: AppContext, companyId: number, invitationId: number, db: DbOrTx = ctx.db): Promise<InvitationRow> {
  const row = await usersRepository.invitation(db, companyId, invitationId);
  if (!row || row.accepted_at || row.revoked_at) throw new NotFoundError('Invitation');
  return row;
}

/**
 * `POST /companies/{companyId}/invitations/{invitationId}/resend`: a new link (the previous one
 * stops working) valid 7 days from now, mailed again.
 * @returns `{ message: 'Invitation was successfully resent', data }`. @throws 403, 404 (unknown, accepted or cancelled).
 */
export async function resendInvitation(
  ctx: AppContext,
  callerId: number,
  companyId: number,
  invitationId: number,
): Promise<{ message: string; data: InvitationOut; invitation_url?: string }> {
  const callerRole = await assertCompanyAccess(ctx, callerId, companyId, MANAGER_ROLES);
  const company = await findCompany(ctx, companyId);
  if (!company) throw new NotFoundError('Company');
  const inviter = (await getUserNames(ctx, [callerId])).get(callerId) ?? null;
  const token = randomToken(32);
  const row = await ctx.db.transaction().execute(async (tx) => {
    const inv = await pendingInvitation(ctx, companyId, invitationId, tx);
    if (inv.role === 'owner' && callerRole !== 'owner') throw new ForbiddenError('Only an owner can invite an owner.');
    const renewed = await usersRepository.renewInvitation(tx, inv.id, hashToken(token), new Date(Date.now() + INVITATION_TTL_MS));
    await mailInvitation(ctx, tx, renewed, token, company.name, inviter, renewed.expires_at);
    return renewed;
  });
  const [view] = await invitationViews(ctx, [row]);
  return { message: MSG_INVITATION_RESENT, data: view!, ...(usesDevOutbox(ctx) ? { invitation_url: invitationLink(ctx, token) } : {}) };
}

/** `DELETE /companies/{companyId}/invitations/{invitationId}`: the link stops working. */
export async function cancelInvitation(ctx: AppContext, callerId: number, companyId: number, invitationId: number): Promise<{ message: string }> {
  await assertCompanyAccess(ctx, callerId, companyId, MANAGER_ROLES);
  const inv = await pendingInvitation(ctx, companyId, invitationId);
  await usersRepository.revokeInvitation(ctx.db, inv.id);
  return { message: MSG_INVITATION_CANCELLED };
}

/**
 * The pending invitation of a link. @throws AppError 404 (unknown or already used), InvitationExpiredError 410
 * (expired; or cancelled, with its own single message).
 */
function usable(row: InvitationRow | undefined): InvitationRow {
  if (!row || row.accepted_at) throw new AppError(404, MSG_INVITATION_INVALID);
  if (row.revoked_at) throw new InvitationExpiredError(MSG_INVITATION_REVOKED);
  if (row.expires_at.getTime() <= Date.now()) throw new InvitationExpiredError();
  return row;
}

/**
 * The e-mail address and sending time of a usable invitation link (for the development outbox's token-scoped view,
 * modules/dev). @throws like {@link usable}.
 */
export async function invitationOfToken(ctx: AppContext, token: string): Promise<{ email: string; lastSentAt: Date }> {
  const inv = usable(await usersRepository.invitationByTokenHash(ctx.db, hashToken(token)));
  return { email: inv.email, lastSentAt: inv.last_sent_at };
}

/** Public `GET /invitations/{token}`: what the accept page shows (e-mail, account, role, who invited). */
export async function previewInvitation(ctx: AppContext, token: string) {
  const inv = usable(await usersRepository.invitationByTokenHash(ctx.db, hashToken(token)));
  const company = await findCompany(ctx, inv.company_id);
  if (!company) throw new AppError(404, MSG_INVITATION_INVALID);
  const inviter = inv.invited_by !== null ? ((await getUserNames(ctx, [inv.invited_by])).get(inv.invited_by) ?? null) : null;
  return {
    data: {
      email: inv.email,
      company_name: company.name,
      role: inv.role as InvitationOut['role'],
      invited_by: inviter,
      expires_at: inv.expires_at.toISOString(),
      first_name: inv.first_name,
      last_name: inv.last_name,
      dev_outbox: usesDevOutbox(ctx),
    },
  };
}

/**
 * Public `POST /invitations/{token}/accept`: creates the person's account with the name and
 * password, joins the account with the invited role and numbers, and uses the link up. When an
 * account with the e-mail was created meanwhile, only that person, signed in, may accept.
 * @throws 404 (unknown, used or cancelled link), 410 (expired), 422 (`email` taken by someone else; password rules).
 */
export async function acceptInvitation(
  ctx: AppContext,
  token: string,
  input: AcceptInvitationInput,
  signedInUserId: number | undefined,
): Promise<{ message: string; email: string; company_id: number; user_id: number }> {
  const peek = usable(await usersRepository.invitationByTokenHash(ctx.db, hashToken(token)));
  const existing = await findUserByEmail(ctx, peek.email);
  if (existing && existing.id !== signedInUserId) {
    throw fieldError('email', 'An account with this e-mail address already exists: sign in with it, then open the link again.');
  }
  const out = await ctx.db.transaction().execute(async (tx) => {
    // Locked: two tabs accepting the same link at once join once.
    const inv = usable(await usersRepository.invitationByTokenHash(tx, hashToken(token), true));
    let userId = existing?.id;
    if (userId === undefined) {
      try {
        userId = await createUser(ctx, { email: inv.email, password: input.password, firstName: input.first_name, lastName: input.last_name }, tx);
      } catch (e) {
        if ((e as { code?: string }).code === '23505')
          throw fieldError('email', 'An account with this e-mail address already exists: sign in with it, then open the link again.');
        throw e;
      }
    }
    await addCompanyMember(ctx, inv.company_id, userId, inv.role as Role, tx);
    await usersRepository.markInvitationAccepted(tx, inv.id, userId);
    const company = await findCompany(ctx, inv.company_id, tx);
    return {
      userId,
      result: { message: MSG_INVITATION_ACCEPTED(company?.name ?? 'your team'), email: inv.email, company_id: inv.company_id, user_id: userId },
    };
  });
  // The numbers chosen at invitation, those still the company's (a released number is skipped).
  if (peek.numbers?.length) await assignNumbersStillThere(ctx, peek.company_id, out.userId, peek.numbers);
  return out.result;
}

/** Assigns each number that still exists and belongs to the company; a vanished one (foreign key, 23503) is skipped. */
async function assignNumbersStillThere(ctx: AppContext, companyId: number, userId: number, numberIds: number[]): Promise<void> {
  const kept: number[] = [];
  for (const id of numberIds) {
    try {
      await assertCompanyNumbers(ctx, companyId, [id]);
      await replaceUserNumbers(ctx, companyId, userId, [...kept, id], ctx.db);
      kept.push(id);
    } catch (e) {
      if (e instanceof AppError && e.status === 422) continue;
      throw e;
    }
  }
}
