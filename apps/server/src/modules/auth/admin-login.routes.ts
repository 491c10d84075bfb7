/**
 * Admin mode over HTTP (spec 000 §4 "Admin login", §7 `GET /sanctum/remoteLogin/{x}`; docs/auth.md "Admin mode"):
 * - `GET /api/sanctum/remoteLogin/{x}`: an operator opens account `x`; the operator's own session ends and an
 *   admin session starts (cookie), answered `{user, admin}`; recorded in the audit log (`admin-session`
 *   `remote-login`: operator, account, address, user agent), and its end too (`end`: left, signed out, signed in
 *   again, or expired by the job at its end). A GET that signs in, so it requires `X-XSRF-TOKEN`
 *   like the sign-in POSTs (419 otherwise): a link or an image on another site cannot switch an operator's session.
 * - `GET /api/sanctum/admin-session`: the banner's facts (`isAdmin`, operator, company, end).
 * - `POST /api/sanctum/admin-session/leave`: ends the admin session and signs the operator back in as themselves.
 */
import { AdminSession, ErrorBody, errorResponses, RemoteLoginParams, RemoteLoginResponse, UserEnvelope } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { issueXsrfCookie, startAdminSession, startSession, XSRF_COOKIE } from '../../platform/auth/auth.plugin.js';
import { sessionsRepository } from '../../platform/auth/sessions.repository.js';
import { safeEqual } from '../../platform/auth/tokens.js';
import { access, setAccessResolvers } from '../../platform/http/access.js';
import type { App } from '../../platform/http/app-type.js';
import { ConflictError, CsrfError } from '../../platform/http/errors.js';
import { getCurrentUser } from '../users/users.service.js';
import { adminRoleOverride, adminSessionOf, auditAdminSessionEnd, auditRemoteLogin, remoteLoginTarget } from './admin-login.service.js';
import { endSessionById } from './auth.service.js';

/** Registers the admin-mode routes and the access check's role override for admin sessions. */
export function registerAdminLoginRoutes(app: App, ctx: AppContext): void {
  const secure = ctx.config.publicUrl.startsWith('https://');
  setAccessResolvers(app, { roleOverride: async (request, companyId) => adminRoleOverride(request.auth, companyId) });

  app.get(
    '/api/sanctum/remoteLogin/:x',
    {
      config: { access: access.operator() },
      schema: {
        tags: ['session'],
        summary: 'Admin mode: an operator opens account `x` (1 hour, recorded under the operator); needs X-XSRF-TOKEN',
        params: RemoteLoginParams,
        response: { 200: RemoteLoginResponse, ...errorResponses, 419: ErrorBody },
      },
    },
    async (request, reply) => {
      const cookie = request.cookies[XSRF_COOKIE];
      const sent = request.headers['x-xsrf-token'];
      const value = Array.isArray(sent) ? sent[0] : sent;
      if (!cookie || !value || !safeEqual(decodeURIComponent(value), decodeURIComponent(cookie))) throw new CsrfError();
      const auth = request.auth!;
      // From inside an admin session the acting person is not the operator: access.operator() already refused.
      const target = await remoteLoginTarget(ctx, auth.userId, request.params.x);
      if (auth.sessionId) await endSessionById(ctx, auth.sessionId);
      const session = await startAdminSession(
        ctx.db,
        request,
        reply,
        { userId: target.userId, operatorUserId: auth.userId, companyId: request.params.x },
        secure,
      );
      try {
        await auditRemoteLogin(ctx, request, {
          sessionId: session.id,
          companyId: request.params.x,
          operatorUserId: auth.userId,
          actingAsUserId: target.userId,
          expiresAt: session.expiresAt,
        });
      } catch (error) {
        // Opening an account unrecorded is not allowed: the admin session ends at once.
        await endSessionById(ctx, session.id);
        throw error;
      }
      issueXsrfCookie(reply, secure);
      request.log.info({ operator: auth.userId, company: request.params.x, actingAs: target.userId }, 'admin session started');
      const admin = await adminSessionOf(ctx, { userId: target.userId, via: 'session', sessionId: session.id, mfaPending: false, operatorUserId: auth.userId });
      return { user: await getCurrentUser(ctx, target.userId, { isAdmin: true }), admin };
    },
  );

  app.get(
    '/api/sanctum/admin-session',
    {
      config: { access: access.signedIn() },
      schema: {
        tags: ['session'],
        summary: 'Admin mode facts of the current session (`isAdmin`, operator, account, end)',
        response: { 200: AdminSession, ...errorResponses },
      },
    },
    async (request) => adminSessionOf(ctx, request.auth!),
  );

  app.post(
    '/api/sanctum/admin-session/leave',
    {
      // The handler records the session's end itself (`admin-session` `end`, reason `left`).
      config: { access: access.signedIn(), auditedByHandler: true },
      schema: {
        tags: ['session'],
        summary: 'Leaves admin mode: ends the admin session and signs the operator back in as themselves',
        response: { 200: UserEnvelope, ...errorResponses, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const auth = request.auth!;
      const admin = auth.sessionId ? await sessionsRepository.findAdmin(ctx.db, auth.sessionId) : undefined;
      if (!admin || !auth.sessionId) throw new ConflictError('This session is not in admin mode.');
      await auditAdminSessionEnd(ctx, request, 'left');
      await endSessionById(ctx, auth.sessionId);
      await startSession(ctx.db, request, reply, admin.operator_user_id, false, secure, false);
      issueXsrfCookie(reply, secure);
      return { user: await getCurrentUser(ctx, admin.operator_user_id) };
    },
  );
}
