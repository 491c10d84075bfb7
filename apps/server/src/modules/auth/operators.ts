/**
 * Operators: the people who run the deployment (foundation §1 "a privileged operator"; §3
 * Session `isAdmin`). A user flag (`users.is_operator`, migration 0009), off for everyone and
 * set by hand (docs/auth.md "Operators"). An operator may read every mail of the development
 * outbox; other modules may grant more through this one check.
 */
import type { AppContext } from '../../context.js';
import { findUser, type UserRow } from '../users/users.service.js';

/** Whether the user (a row already read, or an id) is an operator of the deployment; false for an unknown user. */
export async function isOperator(ctx: AppContext, user: number | Pick<UserRow, 'is_operator'> | undefined): Promise<boolean> {
  const row = typeof user === 'number' ? await findUser(ctx, user) : user;
  return Boolean(row?.is_operator);
}
