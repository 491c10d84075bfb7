/**
 * Consumer area HTTP routes (spec 002 "Consumer area": the 23 calls under `/api/caddy`; docs/consumer-area.md "Calls").
 * HTTP only: zod in, service call, zod out.
 *
 * Access is declared once per route with `consumer(...)`: `'anyone'` (sign-up, sign-in, password reset by code) or
 * `'account'` (a consumer session: `Authorization: Bearer <token>` of `POST /caddy/auth/login` or `/register`). The
 * business guard sees these routes as public (`access.public()`: a business session is not needed, and is not
 * enough); the consumer guard of this file's scope (an `onRequest` hook, before the body is read) resolves the bearer
 * token against the consumer sessions only, so a business session or API key answers 401 here, and a consumer token
 * answers 401 on every business route (the business guard never finds it). Operators read support files through
 * `access.operator()`.
 *
 * Also, beyond the 23: `GET /caddy/numbers/{id}/activity` and `POST /caddy/numbers/{id}/messages` (the screens' calls
 * and texts of a number), calls in the browser (`GET /caddy/calling`, `POST /caddy/numbers/{id}/calls`,
 * `POST /caddy/calls/connect`, `POST /caddy/calls/{callId}/answer|reject|hangup`; caddy.calling.ts),
 * `GET /caddy/support/files/{id}` (operators), the store notification webhooks and the sandbox store (stores/).
 * Live updates are not HTTP: Socket.IO namespace `/caddy` (caddy.usage.ts `registerCaddyLive`).
 */
import {
  CADDY_UPLOAD_TYPES,
  CaddyActivateInput,
  CaddyActivityList,
  CaddyAddInput,
  CaddyAuthInput,
  CaddyCallAnswer,
  CaddyCallInput,
  CaddyCallingAnswer,
  CaddyCallParams,
  CaddyCatalogList,
  CaddyConnectAnswer,
  CaddyConnectInput,
  CaddyRejectInput,
  CaddyCatalogQuery,
  CaddyCodeSent,
  CaddyInactivity,
  CaddyInvitationAnswer,
  CaddyInvitationInput,
  CaddyInvitationList,
  CaddyInvitationsQuery,
  CaddyMessageAnswer,
  CaddyNumberAnswer,
  CaddyNumberList,
  CaddyNumberParams,
  CaddyPasswordInput,
  CaddyProfileAnswer,
  CaddyProfileInput,
  CaddyRandomQuery,
  CaddyReplaceInput,
  CaddyReportAnswer,
  CaddyReportFields,
  CaddyResetCodeInput,
  CaddyResetInput,
  CaddyReviewAnswer,
  CaddyReviewInput,
  CaddyReviewSaved,
  CaddySendInput,
  CaddySessionAnswer,
  CaddySupportFileParams,
  CaddyUploadAnswer,
  CaddyUsageAnswer,
  ErrorBody,
  errorResponses,
} from '@switchboard/contracts';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { access, type AccessRule } from '../../platform/http/access.js';
import type { App } from '../../platform/http/app-type.js';
import { UnauthenticatedError, ValidationError } from '../../platform/http/errors.js';
import { readMultipart } from '../../platform/http/multipart.js';
import { fileAnswer } from '../../platform/http/openapi.js';
import {
  accountOfToken,
  changePassword,
  logout,
  codeSentBody,
  CodeSent,
  login,
  register,
  resetPassword,
  sendResetCode,
  type AuthInput,
  type CaddySessionOut,
} from './caddy.accounts.js';
import {
  customerReport,
  deleteAccount,
  getProfile,
  getReview,
  invite,
  listInvitations,
  numberActivity,
  saveReview,
  sendText,
  supportFile,
  updateProfile,
  uploadSupportFile,
} from './caddy.community.js';
import { activateNumbers, addNumber, catalog, inactivity, listNumbers, randomCatalog, removeNumber, replaceNumber } from './caddy.numbers.js';
import type { CaddyAccountRow } from './caddy.repository.js';
import { endLiveSession, usageOf } from './caddy.usage.js';
import { answerConsumerCall, callingReady, connectSandboxCall, hangupConsumerCall, placeCall, rejectConsumerCall } from './caddy.calling.js';

/** Who may call a consumer route: anyone, or a consumer session. */
export type ConsumerAccess = 'anyone' | 'account';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Consumer area routes: who may call (modules/caddy/caddy.routes.ts). */
    consumer?: ConsumerAccess;
  }
  interface FastifyRequest {
    /** The consumer account of the request's bearer token (routes declared `consumer('account')`). */
    caddy?: { account: CaddyAccountRow; sessionId: string };
  }
}

/** The route config of a consumer route (declared once per route). */
export function consumer(who: ConsumerAccess): { access: AccessRule; consumer: ConsumerAccess } {
  return { access: access.public(), consumer: who };
}

const DESCRIBE: Record<ConsumerAccess, string> = {
  anyone: 'Access: anyone (consumer area; no session needed).',
  account: 'Access: a consumer session (`Authorization: Bearer <token>` of `POST /caddy/auth/login`); business sessions and API keys are refused (401).',
};

/** The caller's consumer account (routes declared `consumer('account')`; the guard has set it). */
function me(request: FastifyRequest): CaddyAccountRow {
  if (!request.caddy) throw new UnauthenticatedError();
  return request.caddy.account;
}

/** Parses a multipart form's text fields with `schema`. @throws ValidationError (422) with the fields' errors. */
function parseFields<T extends z.ZodType>(schema: T, fields: Record<string, unknown>): z.output<T> {
  const r = schema.safeParse(fields);
  if (r.success) return r.data;
  const errors: Record<string, string[]> = {};
  for (const issue of r.error.issues) (errors[issue.path.join('.') || 'body'] ??= []).push(issue.message);
  throw new ValidationError(errors);
}

const tags = ['caddy'];
const AuthAnswers = { 200: CaddySessionAnswer, 202: CaddyCodeSent, 409: ErrorBody, ...errorResponses };

/** Registers the consumer area's routes in their own scope (with the consumer guard). */
export async function registerCaddyRoutes(app: App, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    const s = scope as unknown as App;
    // The OpenAPI document says who may call each consumer route (instead of the business guard's "anyone").
    s.addHook('onRoute', (route) => {
      const who = (route.config as { consumer?: ConsumerAccess } | undefined)?.consumer;
      const schema = route.schema as { description?: string } | undefined;
      if (!who || !schema) return;
      route.schema = {
        ...route.schema,
        'x-access': { kind: `consumer-${who}` },
        description: (schema.description ?? '').replace('Access: anyone, signed in or not.', DESCRIBE[who]),
      } as typeof route.schema;
    });
    // The consumer guard: a consumer session only (never a business session or API key).
    s.addHook('onRequest', async (request) => {
      if (request.routeOptions.config?.consumer !== 'account') return;
      const header = request.headers.authorization;
      const bearer = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
      const found = bearer ? await accountOfToken(ctx, bearer) : null;
      if (!found) throw new UnauthenticatedError();
      request.caddy = found;
    });
    registerAll(s, ctx);
  });
}

function registerAll(app: App, ctx: AppContext): void {
  const answerAuth = (out: CodeSent | CaddySessionOut, reply: { status: (n: number) => unknown }) => {
    if (out instanceof CodeSent) {
      reply.status(202);
      return codeSentBody(out);
    }
    return { data: out };
  };

  // --- accounts ---------------------------------------------------------------------------------------------------
  app.post(
    '/api/caddy/auth/register',
    {
      config: consumer('anyone'),
      schema: {
        operationId: 'registerCaddyAccount',
        tags,
        summary: 'Sign up in two steps: without `code` a code is sent (202); with it, the session (409: the account exists)',
        body: CaddyAuthInput,
        response: AuthAnswers,
      },
    },
    async (request, reply) => answerAuth(await register(ctx, request.body as AuthInput), reply),
  );
  app.post(
    '/api/caddy/auth/login',
    {
      config: consumer('anyone'),
      schema: {
        operationId: 'signInCaddyAccount',
        tags,
        summary: 'Sign in in two steps: without `code` a code is sent (202); with it, the session (401: no account, or another provider)',
        body: CaddyAuthInput,
        response: AuthAnswers,
      },
    },
    async (request, reply) => answerAuth(await login(ctx, request.body as AuthInput, request.ip), reply),
  );
  app.put(
    '/api/caddy/auth/password',
    {
      config: consumer('account'),
      schema: {
        operationId: 'changeCaddyPassword',
        tags,
        summary: 'Change the password (the current one when set); other sessions end',
        body: CaddyPasswordInput,
        response: { 200: CaddyMessageAnswer, ...errorResponses },
      },
    },
    async (request) => changePassword(ctx, me(request), request.caddy!.sessionId, request.body),
  );
  app.post(
    '/api/caddy/auth/logout',
    {
      config: consumer('account'),
      schema: {
        operationId: 'logoutCaddy',
        tags,
        summary: 'Sign out: ends this session on the server (the token stops working at once)',
        response: { 200: CaddyMessageAnswer, ...errorResponses },
      },
    },
    async (request) => {
      const out = await logout(ctx, request.caddy!.sessionId);
      endLiveSession(ctx, request.caddy!.sessionId);
      return out;
    },
  );
  app.post(
    '/api/caddy/auth/password/reset/code',
    {
      config: consumer('anyone'),
      schema: {
        operationId: 'sendCaddyPasswordResetCode',
        tags,
        summary: 'E-mail a password reset code (same answer whether or not the account exists)',
        body: CaddyResetCodeInput,
        response: { 200: CaddyMessageAnswer, ...errorResponses },
      },
    },
    async (request) => sendResetCode(ctx, request.body.email),
  );
  app.post(
    '/api/caddy/auth/password/reset',
    {
      config: consumer('anyone'),
      schema: {
        operationId: 'resetCaddyPassword',
        tags,
        summary: 'Reset the password with the e-mailed code; every session ends',
        body: CaddyResetInput,
        response: { 200: CaddyMessageAnswer, ...errorResponses },
      },
    },
    async (request) => resetPassword(ctx, request.body),
  );
  app.get(
    '/api/caddy/profile',
    {
      config: consumer('account'),
      schema: {
        operationId: 'getCaddyProfile',
        tags,
        summary: 'The profile, plan and subscription state',
        response: { 200: CaddyProfileAnswer, ...errorResponses },
      },
    },
    async (request) => getProfile(me(request)),
  );
  app.put(
    '/api/caddy/profile',
    {
      config: consumer('account'),
      schema: {
        operationId: 'updateCaddyProfile',
        tags,
        summary: 'Update the profile',
        body: CaddyProfileInput,
        response: { 200: CaddyMessageAnswer, ...errorResponses },
      },
    },
    async (request) => updateProfile(ctx, me(request), request.body),
  );
  app.delete(
    '/api/caddy/accounts',
    {
      config: consumer('account'),
      schema: {
        operationId: 'deleteCaddyAccount',
        tags,
        summary: 'Delete the account: numbers released, messages deleted, audit-logged; the store subscription is not cancelled',
        response: { 200: CaddyMessageAnswer, ...errorResponses },
      },
    },
    async (request) => deleteAccount(ctx, me(request), { ip: request.ip, userAgent: request.headers['user-agent'] ?? null }),
  );

  // --- catalogue and numbers --------------------------------------------------------------------------------------
  app.get(
    '/api/caddy/catalog',
    {
      config: consumer('account'),
      schema: {
        operationId: 'searchCaddyCatalog',
        tags,
        summary: 'Numbers on offer in an area code',
        querystring: CaddyCatalogQuery,
        response: { 200: CaddyCatalogList, ...errorResponses },
      },
    },
    async (request) => catalog(ctx, request.query.areaCode, request.query.limit),
  );
  app.get(
    '/api/caddy/catalog/random',
    {
      config: consumer('account'),
      schema: {
        operationId: 'getRandomCaddyCatalog',
        tags,
        summary: 'Numbers on offer in a random area code',
        querystring: CaddyRandomQuery,
        response: { 200: CaddyCatalogList, ...errorResponses },
      },
    },
    async (request) => randomCatalog(ctx, request.query.limit),
  );
  app.post(
    '/api/caddy/catalog/add',
    {
      config: consumer('account'),
      schema: {
        operationId: 'addCaddyCatalogNumber',
        tags,
        summary: 'Add a number from the catalogue (active)',
        body: CaddyAddInput,
        response: { 200: CaddyNumberAnswer, ...errorResponses },
      },
    },
    async (request) => addNumber(ctx, me(request), request.body.number),
  );
  app.post(
    '/api/caddy/catalog/replace',
    {
      config: consumer('account'),
      schema: {
        operationId: 'replaceCaddyNumber',
        tags,
        summary: 'Replace one of your numbers with a number from the catalogue',
        body: CaddyReplaceInput,
        response: { 200: CaddyNumberAnswer, ...errorResponses },
      },
    },
    async (request) => replaceNumber(ctx, me(request), request.body.id, request.body.number),
  );
  app.get(
    '/api/caddy/numbers',
    {
      config: consumer('account'),
      schema: {
        operationId: 'listCaddyNumbers',
        tags,
        summary: 'Your numbers with their state and removal dates',
        response: { 200: CaddyNumberList, ...errorResponses },
      },
    },
    async (request) => listNumbers(ctx, me(request)),
  );
  app.put(
    '/api/caddy/numbers/activate',
    {
      config: consumer('account'),
      schema: {
        operationId: 'activateCaddyNumbers',
        tags,
        summary: 'Activate the chosen numbers; every other becomes inactive and is removed 30 days later',
        body: CaddyActivateInput,
        response: { 200: CaddyNumberList.extend({ message: z.string() }), ...errorResponses },
      },
    },
    async (request) => activateNumbers(ctx, me(request), request.body.ids),
  );
  app.delete(
    '/api/caddy/numbers/:id',
    {
      config: consumer('account'),
      schema: {
        operationId: 'removeCaddyNumber',
        tags,
        summary: 'Remove (release) one of your numbers now',
        params: CaddyNumberParams,
        response: { 200: CaddyMessageAnswer, ...errorResponses },
      },
    },
    async (request) => removeNumber(ctx, me(request), request.params.id),
  );
  app.get(
    '/api/caddy/inactivity',
    {
      config: consumer('account'),
      schema: {
        operationId: 'getCaddyInactivity',
        tags,
        summary: 'Which numbers will be removed, and when',
        response: { 200: CaddyInactivity, ...errorResponses },
      },
    },
    async (request) => inactivity(ctx, me(request)),
  );
  app.get(
    '/api/caddy/numbers/:id/activity',
    {
      config: consumer('account'),
      schema: {
        operationId: 'listCaddyNumberActivity',
        tags,
        summary: 'Recent calls and texts of one of your numbers',
        params: CaddyNumberParams,
        response: { 200: CaddyActivityList, ...errorResponses },
      },
    },
    async (request) => numberActivity(ctx, me(request), request.params.id),
  );
  app.post(
    '/api/caddy/numbers/:id/messages',
    {
      config: consumer('account'),
      schema: {
        operationId: 'sendCaddyText',
        tags,
        summary: 'Send a text from one of your active numbers (refused when the plan has no texts left)',
        params: CaddyNumberParams,
        body: CaddySendInput,
        response: { 200: z.object({ message: z.string(), data: z.object({ id: z.number().int() }) }), ...errorResponses },
      },
    },
    async (request) => sendText(ctx, me(request), request.params.id, request.body),
  );

  // --- calls in the browser (in-app calling of the business product) ----------------------------------------------
  app.get(
    '/api/caddy/calling',
    {
      config: consumer('account'),
      schema: {
        operationId: 'getCaddyCalling',
        tags,
        summary: 'Ready calls in the browser: your softphone identity, carrier and token (your numbers ring your screens)',
        response: { 200: CaddyCallingAnswer, ...errorResponses },
      },
    },
    async (request) => callingReady(ctx, me(request)),
  );
  app.post(
    '/api/caddy/numbers/:id/calls',
    {
      config: consumer('account'),
      schema: {
        operationId: 'placeCaddyCall',
        tags,
        summary: 'Place a call from one of your active numbers (refused when the plan has no minutes left); answers the softphone token',
        params: CaddyNumberParams,
        body: CaddyCallInput,
        response: { 200: CaddyCallAnswer, ...errorResponses },
      },
    },
    async (request) => placeCall(ctx, me(request), request.params.id, request.body.to),
  );
  app.post(
    '/api/caddy/calls/connect',
    {
      config: consumer('account'),
      schema: {
        operationId: 'connectCaddySandboxCall',
        tags,
        summary: 'Sandbox carrier only: connect the call your token was issued for (the browser softphone of the sandbox)',
        body: CaddyConnectInput,
        response: { 200: CaddyConnectAnswer, ...errorResponses },
      },
    },
    async (request) => connectSandboxCall(ctx, me(request), request.body.token),
  );
  app.post(
    '/api/caddy/calls/:callId/answer',
    {
      config: consumer('account'),
      schema: {
        operationId: 'answerCaddyCall',
        tags,
        summary: 'Answer a call ringing your screens (409 when answered elsewhere or ended)',
        params: CaddyCallParams,
        response: { 200: CaddyMessageAnswer, 409: ErrorBody, ...errorResponses },
      },
    },
    async (request) => answerConsumerCall(ctx, me(request), request.params.callId),
  );
  app.post(
    '/api/caddy/calls/:callId/reject',
    {
      config: consumer('account'),
      schema: {
        operationId: 'rejectCaddyCall',
        tags,
        summary: 'Decline a call ringing your screens (the caller reaches your voicemail)',
        params: CaddyCallParams,
        body: CaddyRejectInput,
        response: { 200: CaddyMessageAnswer, 409: ErrorBody, ...errorResponses },
      },
    },
    async (request) => rejectConsumerCall(ctx, me(request), request.params.callId, request.body.joinToken),
  );
  app.post(
    '/api/caddy/calls/:callId/hangup',
    {
      config: consumer('account'),
      schema: {
        operationId: 'hangupCaddyCall',
        tags,
        summary: 'Hang up your call (placed or answered in the browser)',
        params: CaddyCallParams,
        response: { 200: CaddyMessageAnswer, ...errorResponses },
      },
    },
    async (request) => hangupConsumerCall(ctx, me(request), request.params.callId),
  );

  // --- usage ------------------------------------------------------------------------------------------------------
  app.get(
    '/api/caddy/billing/usage',
    {
      config: consumer('account'),
      schema: {
        operationId: 'getCaddyUsage',
        tags,
        summary: 'Usage this month against the plan (live: `usage updated` on the `caddy.{accountId}` channel, Socket.IO namespace `/caddy`)',
        response: { 200: CaddyUsageAnswer, ...errorResponses },
      },
    },
    async (request) => ({ data: await usageOf(ctx, me(request)) }),
  );

  // --- invitations, reviews ---------------------------------------------------------------------------------------
  app.post(
    '/api/caddy/invitations',
    {
      config: consumer('account'),
      schema: {
        operationId: 'createCaddyInvitation',
        tags,
        summary: 'Invite a phone number by SMS (limits: 10 a day, one per number a week, opt-outs honoured)',
        body: CaddyInvitationInput,
        response: { 200: CaddyInvitationAnswer, ...errorResponses },
      },
    },
    async (request) => invite(ctx, me(request), request.body.phoneNumber),
  );
  app.get(
    '/api/caddy/invitations',
    {
      config: consumer('account'),
      schema: {
        operationId: 'listCaddyInvitations',
        tags,
        summary: 'Your invitations and who joined (page 1, perPage 1000 by default)',
        querystring: CaddyInvitationsQuery,
        response: { 200: CaddyInvitationList, ...errorResponses },
      },
    },
    async (request) => listInvitations(ctx, me(request), request.query),
  );
  app.get(
    '/api/caddy/reviews',
    {
      config: consumer('account'),
      schema: { operationId: 'getCaddyReview', tags, summary: 'Your review (null when none)', response: { 200: CaddyReviewAnswer, ...errorResponses } },
    },
    async (request) => getReview(ctx, me(request)),
  );
  app.post(
    '/api/caddy/reviews',
    {
      config: consumer('account'),
      schema: {
        operationId: 'saveCaddyReview',
        tags,
        summary: 'Leave or edit your one review',
        body: CaddyReviewInput,
        response: { 200: CaddyReviewSaved, ...errorResponses },
      },
    },
    async (request) => saveReview(ctx, me(request), request.body),
  );

  // --- support ----------------------------------------------------------------------------------------------------
  app.post(
    '/api/caddy/support/upload-file',
    {
      config: consumer('account'),
      schema: {
        operationId: 'uploadCaddySupportFile',
        tags,
        summary: 'Upload a file for support (multipart `file`; at most 10 MB; images, PDF or text)',
        response: { 200: CaddyUploadAnswer, ...errorResponses },
      },
    },
    async (request) => {
      const form = await readMultipart(request, { fileFields: ['file'] });
      return uploadSupportFile(ctx, me(request), form.files[0]);
    },
  );
  app.post(
    '/api/caddy/support/customer-report',
    {
      config: consumer('account'),
      schema: {
        operationId: 'sendCaddyCustomerReport',
        tags,
        summary: 'Send a report to support (multipart: subject, message, email?, files[], fileIds[])',
        response: { 200: CaddyReportAnswer, ...errorResponses },
      },
    },
    async (request) => {
      const form = await readMultipart(request, { fileFields: ['files', 'file'], arrays: ['fileIds'] });
      const fields = parseFields(CaddyReportFields, form.fields);
      return customerReport(ctx, me(request), fields, form.files);
    },
  );
  app.get(
    '/api/caddy/support/files/:id',
    {
      config: { access: access.operator() },
      schema: {
        operationId: 'getCaddySupportFile',
        tags,
        summary: 'A file a consumer uploaded for support (operators only)',
        params: CaddySupportFileParams,
        response: { 200: fileAnswer([...CADDY_UPLOAD_TYPES], 'The uploaded file'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const f = await supportFile(ctx, request.params.id);
      return reply
        .type(f.contentType)
        .header('content-disposition', `attachment; filename="${f.filename.replace(/["\\\r\n]/g, '_')}"`)
        .header('x-content-type-options', 'nosniff')
        .send(f.data);
    },
  );
}
