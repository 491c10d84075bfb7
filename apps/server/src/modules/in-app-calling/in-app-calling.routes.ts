/**
 * In-app calling HTTP routes (spec 002 §7 "In-app calling"; docs/telephony.md "In-app calling"):
 *   POST /api/companies/{companyId}/in-app-calling/token                      → {token, identity, carrier, ttl}
 *   GET  /api/companies/{companyId}/in-app-calling/users                      → {data: InAppUser[]}
 *   POST /api/companies/{companyId}/in-app-calling/status {status}            → {message, data: InAppUser}
 *   GET  /api/companies/{companyId}/in-app-calling/calls/{callId}/can-answer-call → {canAnswer, reason?}
 *   POST /api/companies/{companyId}/in-app-calling/calls/{callId}/answer      → {message, data} | 409
 *   POST /api/companies/{companyId}/in-app-calling/calls/{callId}/reject {joinToken}
 *   POST /api/companies/{companyId}/in-app-calling/calls/{callId}/hangup
 * (`POST /api/v1/calls/token`, a call placed from the browser, is the calls module's: it stores the call.)
 */
import {
  CanAnswerBody,
  CompanyParams,
  ErrorBody,
  InAppAnswerBody,
  InAppCallParams,
  InAppStatusBody,
  InAppStatusInput,
  InAppTokenBody,
  InAppUsersBody,
  JoinTokenInput,
  MessageBody,
  errorResponses,
} from '@switchboard/contracts';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import { answerCall, canAnswerCall, createInAppToken, hangupCall, listInAppUsers, rejectCall, setInAppStatus } from './in-app-calling.service.js';

const errors = { ...errorResponses, 409: ErrorBody };
const base = '/api/companies/:companyId/in-app-calling';

/** Registers the in-app calling routes (HTTP only; the service checks access). */
export async function registerInAppCallingRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    `${base}/token`,
    {
      config: { access: access.company('calls.work') },
      schema: {
        tags: ['in-app calling'],
        summary: 'Softphone access token (Twilio Voice grant or sandbox token)',
        params: CompanyParams,
        response: { 200: InAppTokenBody, ...errors },
      },
    },
    async (request) => createInAppToken(ctx, request.auth!.userId, request.params.companyId),
  );

  app.get(
    `${base}/users`,
    {
      config: { access: access.company('calls.work') },
      schema: { tags: ['in-app calling'], params: CompanyParams, response: { 200: InAppUsersBody, ...errors } },
    },
    async (request) => listInAppUsers(ctx, request.auth!.userId, request.params.companyId),
  );

  app.post(
    `${base}/status`,
    {
      config: { access: access.company('calls.work') },
      schema: {
        tags: ['in-app calling'],
        summary: 'Active or away; going active provisions SIP credentials when the carrier can',
        params: CompanyParams,
        body: InAppStatusInput,
        response: { 200: InAppStatusBody, ...errors },
      },
    },
    async (request) => setInAppStatus(ctx, request.auth!.userId, request.params.companyId, request.body.status),
  );

  app.get(
    `${base}/calls/:callId/can-answer-call`,
    {
      config: { access: access.company('calls.work') },
      schema: { tags: ['in-app calling'], params: InAppCallParams, response: { 200: CanAnswerBody, ...errors } },
    },
    async (request) => canAnswerCall(ctx, request.auth!.userId, request.params.companyId, request.params.callId),
  );

  app.post(
    `${base}/calls/:callId/answer`,
    {
      config: { access: access.company('calls.work') },
      schema: {
        tags: ['in-app calling'],
        summary: 'First answer wins; later answers get 409',
        params: InAppCallParams,
        response: { 200: InAppAnswerBody, ...errors },
      },
    },
    async (request) => answerCall(ctx, request.auth!.userId, request.params.companyId, request.params.callId),
  );

  app.post(
    `${base}/calls/:callId/reject`,
    {
      config: { access: access.company('calls.work') },
      schema: { tags: ['in-app calling'], params: InAppCallParams, body: JoinTokenInput, response: { 200: MessageBody, ...errors } },
    },
    async (request) => rejectCall(ctx, request.auth!.userId, request.params.companyId, request.params.callId, request.body.joinToken),
  );

  app.post(
    `${base}/calls/:callId/hangup`,
    {
      config: { access: access.company('calls.work') },
      schema: { tags: ['in-app calling'], params: InAppCallParams, response: { 200: MessageBody, ...errors } },
    },
    async (request) => hangupCall(ctx, request.auth!.userId, request.params.companyId, request.params.callId),
  );
}
