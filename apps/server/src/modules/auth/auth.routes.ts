/**
 * HTTP for sign-in and accounts (foundation §7 "Session and account calls"; paths under /api).
 * Session cookies and the XSRF cookie come from platform/auth; decisions live in auth.service.
 * Design of what the spec leaves "not shown" (MFA paths, lifetimes, throttles): docs/auth.md.
 */
import {
  ErrorBody,
  errorResponses,
  ForgotPasswordBody,
  LoginBody,
  LoginResponse,
  MessageBody,
  MfaCodeBody,
  MfaDisableBody,
  MfaQr,
  MfaStatus,
  MfaTokenBody,
  ResetPasswordBody,
  SignupBody,
  SignupCheckResponse,
  SignupCreateResponse,
  TokenResponse,
  TokenSessionBody,
  TokenSessionResponse,
  UserEnvelope,
} from '@switchboard/contracts';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import { endSession, issueXsrfCookie, startSession } from '../../platform/auth/auth.plugin.js';
import { getCurrentUser } from '../users/users.service.js';
import { auditAdminSessionEnd } from './admin-login.service.js';
import {
  checkCredentials,
  clearTokenSessions,
  completeTokenMfa,
  confirmMfaEnrolment,
  createTokenSession,
  disableMfa,
  endSessionById,
  forgotPassword,
  mfaStatus,
  resetPassword,
  signup,
  startMfaEnrolment,
  validateSignup,
  verifySignInCode,
} from './auth.service.js';
import { NO_CONTENT } from '../../platform/http/openapi.js';

/** Browser sign-in routes: anti-forgery required even without cookies (route access is declared on each route). */
const signInConfig = { signIn: true } as const;
const withErrors = { ...errorResponses, 419: ErrorBody };

/** Registers sign-in, session, MFA, password-reset and signup routes. */
export function registerAuthRoutes(app: App, ctx: AppContext): void {
  const secure = ctx.config.publicUrl.startsWith('https://');

  /** Rotation: the request's current session (if any) ends before a new one starts (its live connections too). */
  async function dropCurrentSession(request: FastifyRequest): Promise<void> {
    const id = request.auth?.sessionId;
    if (!id) return;
    await auditAdminSessionEnd(ctx, request, 'signed-in-again');
    await endSessionById(ctx, id);
  }

  app.get(
    '/api/csrf-cookie',
    {
      config: { access: access.public() },
      schema: { tags: ['session'], summary: 'Sets the XSRF-TOKEN cookie (204)', response: { 204: NO_CONTENT } },
    },
    async (_request, reply) => {
      issueXsrfCookie(reply, secure);
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/sanctum/login',
    {
      config: { ...signInConfig, access: access.public() },
      schema: {
        tags: ['session'],
        summary: 'Password sign-in: `{user}`, or `{mfa_required:true}` when a TOTP code is needed next',
        body: LoginBody,
        response: { 200: LoginResponse, ...withErrors },
      },
    },
    async (request, reply) => {
      const outcome = await checkCredentials(ctx, request.body.email, request.body.password, request.ip);
      await dropCurrentSession(request);
      // `remember` (docs/auth.md "Remember me"): a 14-day cookie; otherwise a browser-session cookie.
      await startSession(ctx.db, request, reply, outcome.userId, outcome.mfaRequired, secure, request.body.remember === true);
      issueXsrfCookie(reply, secure);
      if (outcome.mfaRequired) return { mfa_required: true as const };
      return { user: await getCurrentUser(ctx, outcome.userId) };
    },
  );

  app.post(
    '/api/sanctum/mfa',
    {
      config: { access: access.signedIn(), allowMfaPending: true, signIn: true },
      schema: { tags: ['session'], summary: 'Second sign-in step with a 6-digit TOTP code', body: MfaCodeBody, response: { 200: UserEnvelope, ...withErrors } },
    },
    async (request, reply) => {
      const auth = request.auth!;
      if (auth.mfaPending) {
        await verifySignInCode(ctx, auth.userId, request.body.code, request.ip);
        await dropCurrentSession(request);
        await startSession(ctx.db, request, reply, auth.userId, false, secure, auth.remember === true);
        issueXsrfCookie(reply, secure);
      }
      return { user: await getCurrentUser(ctx, auth.userId) };
    },
  );

  // Logout is a POST (the spec lists GET): a state change behind the anti-forgery check, so another
  // site cannot sign a person out with a link or an image (docs/auth.md "Logout").
  app.post(
    '/api/sanctum/logout',
    {
      config: { access: access.public() },
      schema: {
        tags: ['session'],
        summary: 'Ends the session, clears its cookie and disconnects its live connections (204; works signed out)',
        response: { 204: NO_CONTENT },
      },
    },
    async (request, reply) => {
      await auditAdminSessionEnd(ctx, request, 'signed-out');
      const ended = await endSession(ctx.db, request, reply);
      if (ended) ctx.realtime.revoke({ sessionId: ended });
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/sanctum/logout',
    {
      config: { access: access.public() },
      schema: { tags: ['session'], summary: 'Refused (405): logout is POST /api/sanctum/logout', response: { 405: ErrorBody } },
    },
    async (_request, reply) => reply.code(405).header('Allow', 'POST').send({ message: 'Sign out with POST /api/sanctum/logout.' }),
  );

  app.post(
    '/api/sanctum/createTokenSession',
    {
      config: { access: access.public() },
      schema: {
        tags: ['session'],
        summary: 'Mobile sign-in: a bearer token, or `{mfa_required, mfa_token}`',
        body: TokenSessionBody,
        response: { 200: TokenSessionResponse, ...withErrors },
      },
    },
    async (request) => createTokenSession(ctx, request.body, request.ip),
  );

  app.post(
    '/api/sanctum/mfaToken',
    {
      config: { access: access.public() },
      schema: {
        tags: ['session'],
        summary: 'Mobile second step: `mfa_token` + code → bearer token',
        body: MfaTokenBody,
        response: { 200: TokenResponse, ...withErrors },
      },
    },
    async (request) => completeTokenMfa(ctx, request.body, request.ip),
  );

  app.post(
    '/api/sanctum/clearTokenSessions',
    {
      config: { access: access.signedIn() },
      schema: { tags: ['session'], summary: 'Deletes every bearer token of the caller (204)', response: { 204: NO_CONTENT, 401: ErrorBody, 429: ErrorBody } },
    },
    async (request, reply) => {
      await clearTokenSessions(ctx, request.auth!.userId);
      return reply.code(204).send();
    },
  );

  // ---- MFA enrolment (paths designed here; the spec lists "get, qr, verify, delete" without shapes)
  app.get(
    '/api/user/mfa',
    { config: { access: access.signedIn() }, schema: { tags: ['mfa'], summary: 'Whether TOTP is enabled', response: { 200: MfaStatus, ...withErrors } } },
    async (request) => mfaStatus(ctx, request.auth!.userId),
  );

  app.get(
    '/api/user/mfa/qr',
    {
      config: { access: access.signedIn() },
      schema: {
        tags: ['mfa'],
        summary: 'New pending TOTP secret with otpauth URL and PNG QR data URL (409 when enabled)',
        response: { 200: MfaQr, 409: ErrorBody, ...withErrors },
      },
    },
    async (request) => startMfaEnrolment(ctx, request.auth!.userId),
  );

  app.post(
    '/api/user/mfa/verify',
    {
      config: { access: access.signedIn() },
      schema: {
        tags: ['mfa'],
        summary: 'Enables TOTP when the code matches the pending secret',
        body: MfaCodeBody,
        response: { 200: MfaStatus, ...withErrors },
      },
    },
    async (request) => confirmMfaEnrolment(ctx, request.auth!.userId, request.body.code, request.ip),
  );

  app.delete(
    '/api/user/mfa',
    {
      config: { access: access.signedIn() },
      schema: { tags: ['mfa'], summary: 'Disables TOTP; body `{code}` or `{password}`', body: MfaDisableBody, response: { 200: MfaStatus, ...withErrors } },
    },
    async (request) => disableMfa(ctx, request.auth!.userId, request.body, request.ip),
  );

  // ---- password reset
  app.post(
    '/api/password/forgot',
    {
      config: { ...signInConfig, access: access.public() },
      schema: {
        tags: ['password'],
        summary: 'E-mails a reset link when the account exists (always the same answer)',
        body: ForgotPasswordBody,
        response: { 200: MessageBody, ...withErrors },
      },
    },
    async (request) => forgotPassword(ctx, request.body.email),
  );

  app.post(
    '/api/password/reset',
    {
      config: { ...signInConfig, access: access.public() },
      schema: {
        tags: ['password'],
        summary: 'Sets a new password with a reset link token',
        body: ResetPasswordBody,
        response: { 200: MessageBody, ...withErrors },
      },
    },
    async (request) => resetPassword(ctx, request.body),
  );

  // ---- signup
  app.post(
    '/api/client/signup/check',
    {
      config: { ...signInConfig, access: access.public() },
      schema: { tags: ['signup'], summary: 'Validates signup fields', body: SignupBody, response: { 200: SignupCheckResponse, ...withErrors } },
    },
    async (request) => {
      await validateSignup(ctx, request.body);
      return { ok: true as const };
    },
  );

  app.post(
    '/api/client/signup/create',
    {
      config: { ...signInConfig, access: access.public() },
      schema: {
        tags: ['signup'],
        summary: 'Creates the user and a company (creator = owner) and signs in',
        body: SignupBody,
        response: { 201: SignupCreateResponse, ...withErrors },
      },
    },
    async (request, reply) => {
      const r = await signup(ctx, request.body);
      await dropCurrentSession(request);
      // A new account stays signed in like a remembered sign-in (docs/auth.md "Remember me").
      await startSession(ctx.db, request, reply, r.userId, false, secure, true);
      issueXsrfCookie(reply, secure);
      return reply.code(201).send({ user: await getCurrentUser(ctx, r.userId), company: r.company });
    },
  );
}
