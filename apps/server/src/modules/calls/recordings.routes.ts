/**
 * Routes of call recordings (docs/transcription.md "Recordings"):
 * - POST {carrier path of `voice.recorded`}: the carrier's recording status callback (signed;
 *   handled once per recording id, key `recording:{RecordingSid}`).
 * - GET /api/calls/{id}/recording (and HEAD): streams the call's two-channel recording (audio/wav)
 *   to users who may see the call, with single byte ranges (206/416) so the player can seek.
 *   404 for another company's call, a call outside the user's numbers, or no stored recording.
 */
import { ErrorBody, IdParams, errorResponses } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { parseRange } from '../../platform/blob/serve.js';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import { formParams, handleOnce, verifyCarrierSignature } from '../../platform/http/webhooks.js';
import { afterCallChange, recordCallChange } from './call-changes.js';
import { callForUser } from './call-records.js';
import { handleRecordingStatus, storedRecordingKey } from './recordings.js';
import { fileAnswer } from '../../platform/http/openapi.js';

export async function registerRecordingRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    ctx.carrier.webhookPath('voice.recorded'),
    { config: { access: access.webhook() }, preHandler: verifyCarrierSignature(ctx), schema: { hide: true } },
    async (request, reply) => {
      const p = ctx.carrier.parseVoice(formParams(request));
      return handleOnce(ctx, reply, `recording:${p.recordingSid ?? p.callSid ?? 'none'}:${p.recordingStatus ?? ''}`, async (tx) => {
        const out = await recordCallChange(tx, { changed: await handleRecordingStatus(ctx, tx, p) }, { leaseTo: ctx.queue.workerId });
        return { response: ctx.carrier.renderVoice([]), afterCommit: () => afterCallChange(ctx, out) };
      });
    },
  );

  app.route({
    method: ['GET', 'HEAD'],
    url: '/api/calls/:id/recording',
    config: { access: access.company('calls.read') },
    schema: {
      tags: ['calls'],
      summary: "The call's two-channel recording (audio/wav; Range supported)",
      params: IdParams,
      response: {
        200: fileAnswer('audio/wav', 'The whole recording'),
        206: fileAnswer('audio/wav', 'The requested byte range (`Content-Range`)'),
        416: ErrorBody,
        ...errorResponses,
      },
    },
    handler: async (request, reply) => {
      const { id } = request.params as { id: number };
      const call = await callForUser(ctx, request.auth!.userId, id);
      const key = await storedRecordingKey(ctx, call.id);
      const info = await ctx.blobs.stat(key);
      if (!info) return reply.status(404).send({ message: 'Recording not found.' });
      reply.header('accept-ranges', 'bytes');
      reply.header('cache-control', 'private, max-age=0');
      reply.header('x-content-type-options', 'nosniff');
      const range = parseRange(request.headers.range, info.size);
      if (range === 'unsatisfiable') {
        reply.header('content-range', `bytes */${info.size}`);
        return reply.status(416).send({ message: 'Requested range not satisfiable.' });
      }
      reply.type('audio/wav');
      const length = range ? range.end - range.start + 1 : info.size;
      reply.header('content-length', String(length));
      if (range) {
        reply.status(206);
        reply.header('content-range', `bytes ${range.start}-${range.end}/${info.size}`);
      }
      if (request.method === 'HEAD') return reply.send();
      const body = await ctx.blobs.stream(key, range ?? undefined);
      if (!body) return reply.status(404).type('application/json; charset=utf-8').send({ message: 'Recording not found.' });
      return reply.send(body);
    },
  });
}
