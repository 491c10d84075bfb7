/**
 * Consumer sign-up, sign-in and passwords (docs/consumer-area.md "Accounts and sessions"): two steps each, the first
 * call (no `code`) sends a 6-digit code by e-mail or SMS and answers 202, the second (with it) answers the session.
 * Password change and reset by an e-mailed code.
 */
import type { CaddyAuthInput, CaddyCodeSent, CaddyMessageAnswer, CaddySessionAnswer, Infer } from '@switchboard/contracts';
import { caddyRequest, caddy } from './client';

export type AuthInput = Infer<typeof CaddyAuthInput>;
export type CodeSent = Infer<typeof CaddyCodeSent>;
type MessageAnswer = Infer<typeof CaddyMessageAnswer>;

/** What a step answered: a code was sent (202), or the session (200). */
export type AuthStep = { kind: 'code'; sent: CodeSent } | { kind: 'session'; session: Infer<typeof CaddySessionAnswer>['data'] };

/**
 * `POST /caddy/auth/register` or `/login` (`which`), first or second step.
 * @throws CaddyError: 409 (register: the account exists), 401 (login: no account, or wrong password), 422, 429.
 */
export async function authStep(which: 'register' | 'login', input: AuthInput): Promise<AuthStep> {
  const { data, status } = await caddyRequest<CodeSent | Infer<typeof CaddySessionAnswer>>(`/auth/${which}`, { method: 'POST', data: input });
  if (status === 202 || 'codeSent' in data) return { kind: 'code', sent: data as CodeSent };
  return { kind: 'session', session: (data as Infer<typeof CaddySessionAnswer>).data };
}

/** `POST /caddy/auth/password/reset/code {email}`: the same answer whether or not an account exists. */
export const sendResetCode = (email: string) => caddy.post<MessageAnswer>('/auth/password/reset/code', { email });

/** `POST /caddy/auth/password/reset {email, code, password}`: every session ends. */
export const resetPassword = (input: { email: string; code: string; password: string }) => caddy.post<MessageAnswer>('/auth/password/reset', input);

/** `PUT /caddy/auth/password {currentPassword?, password}`: the other sessions end. */
export const changePassword = (input: { currentPassword?: string; password: string }) => caddy.put<MessageAnswer>('/auth/password', input);

/** `POST /caddy/auth/logout`: ends this session on the server (the token is read at the call); offline, the browser still forgets it. */
export const logoutOnServer = () => caddy.post<MessageAnswer>('/auth/logout', {}).catch(() => undefined);
