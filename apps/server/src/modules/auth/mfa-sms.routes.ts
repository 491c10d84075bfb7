/**
 * MFA by SMS over HTTP (spec 000 §7 MFA `sendCode`, `reactivate`; docs/auth.md "MFA by SMS"). The sign-in step
 * itself stays `POST /api/sanctum/mfa {code}` (a TOTP code or the texted one).
 */
import { ErrorBody, errorResponses, MfaCodeBody, SmsMfaDisableBody, SmsMfaEnrolBody, SmsMfaStatus } from '@switchboard/contracts';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { access } from '../../platform/http/access.js';
import type { App } from '../../platform/http/app-type.js';
import { confirmSmsEnrolment, disableSms, reactivateSms, sendSignInCode, smsMfaStatus, startSmsEnrolment } from './mfa-sms.service.js';

const withErrors = { ...errorResponses, 409: ErrorBody, 419: ErrorBody };

/** Registers the SMS second-factor routes. */
export function registerMfaSmsRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/api/sanctum/mfa/sendCode',
    {
      config: { access: access.signedIn(), allowMfaPending: true, signIn: true },
      schema: {
        tags: ['session'],
        summary: 'Texts a sign-in code to the phone on file (second step; 30 s apart, 5 per 15 min)',
        response: { 204: z.null().optional(), ...withErrors },
      },
    },
    async (request, reply) => {
      await sendSignInCode(ctx, request.auth!.userId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/user/mfa/sms',
    {
      config: { access: access.signedIn() },
      schema: { tags: ['mfa'], summary: 'Whether SMS codes are on', response: { 200: SmsMfaStatus, ...errorResponses } },
    },
    async (request) => smsMfaStatus(ctx, request.auth!.userId),
  );

  app.post(
    '/api/user/mfa/sms',
    {
      config: { access: access.signedIn() },
      schema: {
        tags: ['mfa'],
        summary: 'Enrols a phone for SMS codes and texts a code to confirm',
        body: SmsMfaEnrolBody,
        response: { 200: SmsMfaStatus, ...withErrors },
      },
    },
    async (request) => startSmsEnrolment(ctx, request.auth!.userId, request.body.phone),
  );

  app.post(
    '/api/user/mfa/sms/verify',
    {
      config: { access: access.signedIn() },
      schema: { tags: ['mfa'], summary: 'Confirms the texted code: SMS codes are on', body: MfaCodeBody, response: { 200: SmsMfaStatus, ...withErrors } },
    },
    async (request) => confirmSmsEnrolment(ctx, request.auth!.userId, request.body.code),
  );

  app.post(
    '/api/user/mfa/reactivate',
    {
      config: { access: access.signedIn() },
      schema: {
        tags: ['mfa'],
        summary: 'Turns SMS codes back on for the phone on file (texts a code to confirm)',
        response: { 200: SmsMfaStatus, ...withErrors },
      },
    },
    async (request) => reactivateSms(ctx, request.auth!.userId),
  );

  app.delete(
    '/api/user/mfa/sms',
    {
      config: { access: access.signedIn() },
      schema: {
        tags: ['mfa'],
        summary: 'Turns SMS codes off (the phone stays on file)',
        body: SmsMfaDisableBody,
        response: { 200: SmsMfaStatus, ...withErrors },
      },
    },
    async (request) => disableSms(ctx, request.auth!.userId, request.body.password),
  );
}
