/**
 * Voice webhooks (issue 2 "Webhooks"), all signature-checked and handled at most once per delivery
 * key; served on the carrier's paths (`carrier.webhookPath`, shown here for Twilio's dialect) and
 * parsed by the carrier into `VoiceEvent`s (`carrier.parseVoice`):
 *   POST /webhooks/twilio/voice                         key voice:{CallSid}:start
 *   POST /webhooks/twilio/voice/gather?attempt=N        key voice:{CallSid}:gather:{N}
 *   POST /webhooks/twilio/voice/dial?ext=E&i=I[&rr=C]   key voice:{CallSid}:dial:{E}:{I}   (rr: round-robin cursor)
 *   POST /webhooks/twilio/voice/whisper?call=SID&ext=E  key voice:{CallSid}:whisper  (the forward's leg)
 *   POST /webhooks/twilio/voice/confirm?call=SID&ext=E  key voice:{CallSid}:confirm
 *   POST /webhooks/twilio/voice/recording?ext=E         key voice:{CallSid}:recording
 *   POST /webhooks/twilio/voice/status                  key voice:{CallSid}:status:{CallStatus}
 */
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { App } from '../../platform/http/app-type.js';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import type { WebhookKind } from '../../carriers/carrier.port.js';
import type { VoiceEvent } from '../../carriers/carrier.events.js';
import { formParams, handleOnce, handleOnceInOneStatement, verifyCarrierSignature } from '../../platform/http/webhooks.js';
import {
  announceCallChanged, confirmLeg, handleCallStatus, handleDialResult, handleMenuChoice, handleRecording, planInboundCall, publishCallUpdated, routeInboundCall, storeInboundCall,
  whisperLeg, type VoiceOutcome,
} from './calls.service.js';

const Query = z.object({
  attempt: z.coerce.number().int().min(1).max(10).optional(),
  ext: z.coerce.number().int().min(0).optional(),
  i: z.coerce.number().int().min(0).optional(),
  rr: z.coerce.number().int().min(0).optional(),
  call: z.string().max(64).optional(),
}).passthrough();

export async function registerVoiceWebhooks(app: App, ctx: AppContext): Promise<void> {
  const preHandler = verifyCarrierSignature(ctx);
  const route = (
    kind: WebhookKind,
    key: (p: VoiceEvent, q: z.infer<typeof Query>) => string,
    handle: (tx: DbOrTx, p: VoiceEvent, q: z.infer<typeof Query>) => Promise<VoiceOutcome>,
    fast?: (p: VoiceEvent, key: string, reply: FastifyReply) => Promise<boolean>,
  ) => {
    app.post(ctx.carrier.webhookPath(kind), { preHandler, schema: { hide: true, querystring: Query } }, async (request, reply) => {
      const p = ctx.carrier.parseVoice(formParams(request));
      const q = request.query;
      // `fast` answers (true) or leaves the delivery to the transactional path (false).
      if (fast && (await fast(p, key(p, q), reply))) return reply;
      return handleOnce(ctx, reply, key(p, q), async (tx) => {
        const out = await handle(tx, p, q);
        return { response: ctx.carrier.renderVoice(out.steps), afterCommit: async () => { publishCallUpdated(ctx, out.changed); out.after?.(); await announceCallChanged(ctx, out.changed, out.call); } };
      });
    });
  };

  // A new call: decided from reads, then stored with its receipt in one statement (no transaction,
  // issue 3 bench); round robin, in-app calling and rejects take the transactional path.
  const inboundFast = async (p: VoiceEvent, key: string, reply: FastifyReply) => {
    const plan = await planInboundCall(ctx, p);
    if (!plan) return false;
    await handleOnceInOneStatement(ctx, reply, key, ctx.carrier.renderVoice(plan.steps), async (receipt) => {
      const stored = await storeInboundCall(ctx, plan, receipt);
      if (!stored) return undefined;
      return { afterCommit: async () => { publishCallUpdated(ctx, stored.changed); await announceCallChanged(ctx, stored.changed, stored.call); } };
    });
    return true;
  };
  route('voice', (p) => `voice:${p.callSid ?? ''}:start`, (tx, p) => routeInboundCall(ctx, tx, p), inboundFast);
  route('voice.gather', (p, q) => `voice:${p.callSid ?? ''}:gather:${q.attempt ?? 1}`, (tx, p, q) => handleMenuChoice(ctx, tx, p, q.attempt ?? 1));
  route('voice.dial', (p, q) => `voice:${p.callSid ?? ''}:dial:${q.ext ?? 1}:${q.i ?? 0}`, (tx, p, q) => handleDialResult(ctx, tx, p, q.ext ?? 1, q.i ?? 0, new Date(), q.rr));
  route('voice.whisper', (p) => `voice:${p.callSid ?? ''}:whisper`, (tx, p, q) => whisperLeg(ctx, tx, q.call ?? p.parentCallSid ?? '', q.ext ?? 1));
  route('voice.confirm', (p) => `voice:${p.callSid ?? ''}:confirm`, (tx, p, q) => confirmLeg(ctx, tx, p, q.call ?? p.parentCallSid ?? '', q.ext ?? 1));
  route('voice.recording', (p) => `voice:${p.callSid ?? ''}:recording`, (tx, p, q) => handleRecording(ctx, tx, p, q.ext));
  route('voice.status', (p) => `voice:${p.callSid ?? ''}:status:${p.callStatus ?? ''}`, (tx, p) => handleCallStatus(ctx, tx, p));
}
