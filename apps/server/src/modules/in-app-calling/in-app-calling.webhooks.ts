/**
 * Carrier webhooks for calls placed from the browser (issue 3 "In-app calling"): Twilio's Voice
 * SDK connects through the TwiML app whose Voice URL is the carrier's `voice.client` webhook
 * (`/webhooks/twilio/voice/client`), posting the call's id, `From` = `client:user_{id}` and the
 * token's params (`call_id`, `To`; `VoiceEvent.clientParams`). Signed and
 * handled once per delivery like every carrier webhook.
 */
import { Id } from '@switchboard/contracts';
import { z } from 'zod';
import type { App } from '../../platform/http/app-type.js';
import type { AppContext } from '../../context.js';
import { formParams, handleOnce, verifyCarrierSignature } from '../../platform/http/webhooks.js';
import { announceCallChanged, connectOutboundCall, finishOutboundCall, publishCallUpdated } from '../calls/calls.service.js';
import { inAppCallingRepository } from './in-app-calling.repository.js';

const DialQuery = z.object({ call: Id });

export async function registerInAppCallingWebhooks(app: App, ctx: AppContext): Promise<void> {
  const preHandler = verifyCarrierSignature(ctx);

  app.post(ctx.carrier.webhookPath('voice.client'), { preHandler, schema: { hide: true } }, async (request, reply) => {
    const p = ctx.carrier.parseVoice(formParams(request));
    const userId = Number(/^client:user_(\d+)$/.exec(p.from ?? '')?.[1]);
    const callId = Number(p.clientParams.call_id);
    return handleOnce(ctx, reply, `client:${p.callSid ?? ''}`, async (tx) => {
      // Only the user the token was issued to, and only once: the call still carries the token's SID.
      const placed = Number.isInteger(callId) && callId > 0 ? await inAppCallingRepository.find(tx, callId) : undefined;
      const out = placed && placed.direction === 'outbound' && placed.placed_by === userId && p.callSid
        ? await connectOutboundCall(ctx, tx, { callId, carrierSid: p.callSid, userId, tokenSid: placed.carrier_sid })
        : null;
      if (!out) return { response: ctx.carrier.renderVoice([{ kind: 'say', text: 'This call cannot be placed.' }, { kind: 'hangup' }]) };
      return { response: ctx.carrier.renderVoice(out.steps), afterCommit: () => publishCallUpdated(ctx, out.changed) };
    });
  });

  app.post(ctx.carrier.webhookPath('voice.client.dial'), { preHandler, schema: { hide: true, querystring: DialQuery } }, async (request, reply) => {
    const p = ctx.carrier.parseVoice(formParams(request));
    const { call } = request.query;
    return handleOnce(ctx, reply, `client-dial:${p.callSid ?? call}:${p.dialStatus ?? ''}`, async (tx) => {
      const out = await finishOutboundCall(ctx, tx, { callId: call, dialStatus: p.dialStatus ?? 'failed', durationS: p.dialDurationS });
      return { response: ctx.carrier.renderVoice(out.steps), afterCommit: async () => { publishCallUpdated(ctx, out.changed); await announceCallChanged(ctx, out.changed); } };
    });
  });
}
