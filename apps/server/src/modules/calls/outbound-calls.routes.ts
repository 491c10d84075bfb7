/**
 * Outbound calling HTTP routes (docs/calling.md; spec 000 "in-app calling", spec 002 §7 "In-app
 * calling"; the spec's own `POST /api/v1/calls/token` stays in calls.routes.ts):
 *   GET  /api/companies/{companyId}/outbound-calls/caller-ids            → {data: CallerIdOption[], selected_id}
 *   PUT  /api/companies/{companyId}/outbound-calls/caller-id {number_id}  → {message, selected_id}
 *   POST /api/companies/{companyId}/outbound-calls {caller_id, to}        → token + call_id, from, to, params
 *   POST /api/companies/{companyId}/outbound-calls/{callId}/hangup        → {message}
 *   POST /api/companies/{companyId}/outbound-calls/{callId}/hold {hold}   → CallControlBody | 409 | 502
 *   POST /api/companies/{companyId}/outbound-calls/{callId}/mute {muted}  → CallControlBody
 *   POST /api/companies/{companyId}/outbound-calls/{callId}/dtmf {digits} → CallControlBody | 409 | 502
 *   POST /api/companies/{companyId}/outbound-calls/{callId}/transfer {user_id | number} → CallControlBody
 * Every route needs `calls.work` in the company.
 */
import {
  CallControlBody,
  CallerIdInput,
  CallerIdsBody,
  CompanyParams,
  DtmfInput,
  ErrorBody,
  HoldInput,
  MessageBody,
  MuteInput,
  OutboundCallParams,
  PlaceOutboundCallBody,
  PlaceOutboundCallInput,
  TransferInput,
  errorResponses,
} from '@switchboard/contracts';
import { z } from 'zod';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import { callerIdChoices, rememberCallerId } from '../in-app-calling/outbound.service.js';
import { hangupOutboundCall, holdOutboundCall, muteOutboundCall, placeOutboundCall, sendOutboundDigits, transferOutboundCall } from './outbound-calls.js';

const errors = { ...errorResponses, 409: ErrorBody, 502: ErrorBody };
const base = '/api/companies/:companyId/outbound-calls';
const calls = { config: { access: access.company('calls.work') } } as const;

/** Registers the outbound calling routes (HTTP only; the use cases check access). */
export async function registerOutboundCallRoutes(app: App, ctx: AppContext): Promise<void> {
  app.get(
    `${base}/caller-ids`,
    { ...calls, schema: { tags: ['outbound calls'], params: CompanyParams, response: { 200: CallerIdsBody, ...errors } } },
    async (request) => callerIdChoices(ctx, request.auth!.userId, request.params.companyId),
  );

  app.put(
    `${base}/caller-id`,
    {
      ...calls,
      schema: {
        tags: ['outbound calls'],
        params: CompanyParams,
        body: CallerIdInput,
        response: { 200: z.object({ message: z.string(), selected_id: z.number().int() }), ...errors },
      },
    },
    async (request) => rememberCallerId(ctx, request.auth!.userId, request.params.companyId, request.body.number_id),
  );

  app.post(
    base,
    {
      ...calls,
      schema: {
        tags: ['outbound calls'],
        summary: 'Places a call from the browser: stores it and answers the softphone token',
        params: CompanyParams,
        body: PlaceOutboundCallInput,
        response: { 200: PlaceOutboundCallBody, ...errors },
      },
    },
    async (request) => placeOutboundCall(ctx, request.auth!.userId, request.params.companyId, request.body),
  );

  app.post(
    `${base}/:callId/hangup`,
    { ...calls, schema: { tags: ['outbound calls'], params: OutboundCallParams, response: { 200: MessageBody, ...errors } } },
    async (request) => hangupOutboundCall(ctx, request.auth!.userId, request.params.companyId, request.params.callId),
  );

  app.post(
    `${base}/:callId/hold`,
    { ...calls, schema: { tags: ['outbound calls'], params: OutboundCallParams, body: HoldInput, response: { 200: CallControlBody, ...errors } } },
    async (request) => holdOutboundCall(ctx, request.auth!.userId, request.params.companyId, request.params.callId, request.body.hold),
  );

  app.post(
    `${base}/:callId/mute`,
    { ...calls, schema: { tags: ['outbound calls'], params: OutboundCallParams, body: MuteInput, response: { 200: CallControlBody, ...errors } } },
    async (request) => muteOutboundCall(ctx, request.auth!.userId, request.params.companyId, request.params.callId, request.body.muted),
  );

  app.post(
    `${base}/:callId/dtmf`,
    { ...calls, schema: { tags: ['outbound calls'], params: OutboundCallParams, body: DtmfInput, response: { 200: CallControlBody, ...errors } } },
    async (request) => sendOutboundDigits(ctx, request.auth!.userId, request.params.companyId, request.params.callId, request.body.digits),
  );

  app.post(
    `${base}/:callId/transfer`,
    { ...calls, schema: { tags: ['outbound calls'], params: OutboundCallParams, body: TransferInput, response: { 200: CallControlBody, ...errors } } },
    async (request) => transferOutboundCall(ctx, request.auth!.userId, request.params.companyId, request.params.callId, request.body),
  );
}
