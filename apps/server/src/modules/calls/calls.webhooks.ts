/**
 * Voice webhooks (spec 001 §7 "Calls"; docs/architecture.md "Webhooks"), all signature-checked and
 * handled at most once per delivery key; served on the carrier's paths (`carrier.webhookPath`) and
 * parsed by the carrier into `VoiceEvent`s (`carrier.parseVoice`). By webhook kind:
 *   voice                                  key voice:{callSid}:start
 *   voice.gather?attempt=N                 key voice:{callSid}:gather:{N}
 *   voice.dial?ext=E&i=I[&rr=C]            key voice:{callSid}:dial:{E}:{I}   (rr: round-robin cursor)
 *   voice.whisper?call=SID&ext=E           key voice:{callSid}:whisper  (the forward's leg)
 *   voice.confirm?call=SID&ext=E           key voice:{callSid}:confirm
 *   voice.recording?ext=E                  key voice:{callSid}:recording
 *   voice.status                           key voice:{callSid}:status:{callStatus}
 * and the legs of calls placed from the browser (in-app calling; the carrier's softphone app posts
 * the token's params, `VoiceEvent.clientParams`):
 *   voice.client                           key client:{callSid}
 *   voice.client.dial?call=ID              key client-dial:{callSid or ID}:{dialStatus}
 *   voice.client.hold?sid=SID&step=S&n=N   key client-hold:{callSid}:{S}:{N}:{callStatus}:{dialStatus}
 *                                          (hold on Twilio: the queued party's music and leaving, the
 *                                          waiting browser leg, the resumed Dial; browser-calls.ts)
 * Every answer's changes are announced after commit by `afterCallChange` (call-changes.ts).
 */
import type { FastifyReply } from 'fastify';
import { Id } from '@switchboard/contracts';
import { z } from 'zod';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import type { WebhookKind } from '../../carriers/carrier.port.js';
import type { VoiceEvent } from '../../carriers/carrier.events.js';
import { formParams, handleOnce, handleOnceInOneStatement, verifyCarrierSignature } from '../../platform/http/webhooks.js';
import { HOLD_STEPS, connectBrowserCall, finishOutboundCall, handleHoldWebhook, holdWaitSteps, type HoldStep } from './browser-calls.js';
import { storeInboundCall } from './call-batching.js';
import { afterCallChange, recordCallChange, type VoiceOutcome } from './call-changes.js';
import {
  confirmLeg,
  handleCallStatus,
  handleDialResult,
  handleMenuChoice,
  handleRecording,
  planInboundCall,
  routeInboundCall,
  whisperLeg,
} from './call-flow.js';

const Query = z
  .object({
    attempt: z.coerce.number().int().min(1).max(10).optional(),
    ext: z.coerce.number().int().min(0).optional(),
    i: z.coerce.number().int().min(0).optional(),
    rr: z.coerce.number().int().min(0).optional(),
    call: z.string().max(64).optional(),
  })
  .passthrough();
type Query = z.infer<typeof Query>;
/** A browser call's dial result names our call: `?call=ID` (422 when missing or malformed). */
const ClientDialQuery = Query.extend({ call: Id });
/** A held browser call's webhook names our call's carrier SID, the step and a delivery number (422 otherwise). */
const ClientHoldQuery = Query.extend({
  sid: z.string().regex(/^[A-Za-z0-9]{2,64}$/),
  step: z.enum(HOLD_STEPS),
  n: z.coerce.number().int().min(0).optional(),
});
type ClientHoldQuery = z.infer<typeof ClientHoldQuery>;

/** Registers the voice webhooks (HTTP only: parse, key, the use case in a transaction, the carrier's rendering). */
export async function registerVoiceWebhooks(app: App, ctx: AppContext): Promise<void> {
  const preHandler = verifyCarrierSignature(ctx);
  const route = (
    kind: WebhookKind,
    key: (p: VoiceEvent, q: Query) => string,
    handle: (tx: DbOrTx, p: VoiceEvent, q: Query) => Promise<VoiceOutcome>,
    opts: { fast?: (p: VoiceEvent, key: string, reply: FastifyReply) => Promise<boolean>; query?: z.ZodType<Query> } = {},
  ) => {
    const { fast } = opts;
    app.post(
      ctx.carrier.webhookPath(kind),
      { config: { access: access.webhook() }, preHandler, schema: { hide: true, querystring: opts.query ?? Query } },
      async (request, reply) => {
        const p = ctx.carrier.parseVoice(formParams(request));
        const q = request.query as Query;
        // `fast` answers (true) or leaves the delivery to the transactional path (false).
        if (fast && (await fast(p, key(p, q), reply))) return reply;
        return handleOnce(ctx, reply, key(p, q), async (tx) => {
          const out = await recordCallChange(tx, await handle(tx, p, q), { leaseTo: ctx.queue.workerId });
          return { response: ctx.carrier.renderVoice(out.steps), afterCommit: () => afterCallChange(ctx, out) };
        });
      },
    );
  };

  // A new call: decided from reads, then stored with its receipt in one statement (no transaction;
  // docs/architecture.md "The voice webhook's hot path"); round robin, in-app calling and rejects
  // take the transactional path.
  const inboundFast = async (p: VoiceEvent, key: string, reply: FastifyReply) => {
    const plan = await planInboundCall(ctx, p);
    if (!plan) return false;
    await handleOnceInOneStatement(ctx, reply, key, ctx.carrier.renderVoice(plan.steps), async (receipt) => {
      const stored = await storeInboundCall(ctx, plan, receipt);
      if (!stored) return undefined;
      return { afterCommit: () => afterCallChange(ctx, stored) };
    });
    return true;
  };
  route(
    'voice',
    (p) => `voice:${p.callSid ?? ''}:start`,
    (tx, p) => routeInboundCall(ctx, tx, p),
    { fast: inboundFast },
  );
  route(
    'voice.gather',
    (p, q) => `voice:${p.callSid ?? ''}:gather:${q.attempt ?? 1}`,
    (tx, p, q) => handleMenuChoice(ctx, tx, p, q.attempt ?? 1),
  );
  route(
    'voice.dial',
    (p, q) => `voice:${p.callSid ?? ''}:dial:${q.ext ?? 1}:${q.i ?? 0}`,
    (tx, p, q) => handleDialResult(ctx, tx, p, q.ext ?? 1, q.i ?? 0, new Date(), q.rr),
  );
  route(
    'voice.whisper',
    (p) => `voice:${p.callSid ?? ''}:whisper`,
    (tx, p, q) => whisperLeg(ctx, tx, q.call ?? p.parentCallSid ?? '', q.ext ?? 1),
  );
  route(
    'voice.confirm',
    (p) => `voice:${p.callSid ?? ''}:confirm`,
    (tx, p, q) => confirmLeg(ctx, tx, p, q.call ?? p.parentCallSid ?? '', q.ext ?? 1),
  );
  route(
    'voice.recording',
    (p) => `voice:${p.callSid ?? ''}:recording`,
    (tx, p, q) => handleRecording(ctx, tx, p, q.ext),
  );
  route(
    'voice.status',
    (p) => `voice:${p.callSid ?? ''}:status:${p.callStatus ?? ''}`,
    (tx, p) => handleCallStatus(ctx, tx, p),
  );

  // Calls placed from the browser.
  route(
    'voice.client',
    (p) => `client:${p.callSid ?? ''}`,
    (tx, p) => connectBrowserCall(ctx, tx, p),
  );
  route(
    'voice.client.dial',
    (p, q) => `client-dial:${p.callSid ?? q.call}:${p.dialStatus ?? ''}`,
    (tx, p, q) =>
      finishOutboundCall(ctx, tx, {
        callId: Number(q.call),
        dialStatus: p.dialStatus ?? 'failed',
        durationS: p.dialDurationS,
        legSid: p.callSid,
        firstDial: true,
      }),
    { query: ClientDialQuery as unknown as z.ZodType<Query> },
  );
  route(
    'voice.client.hold',
    (p, q) => {
      const h = q as ClientHoldQuery;
      return `client-hold:${p.callSid ?? h.sid}:${h.step}:${h.n ?? 0}:${p.callStatus ?? ''}:${p.dialStatus ?? ''}`;
    },
    (tx, p, q) => {
      const h = q as ClientHoldQuery;
      return handleHoldWebhook(ctx, tx, p, { sid: h.sid, step: h.step as HoldStep, n: h.n });
    },
    {
      query: ClientHoldQuery as unknown as z.ZodType<Query>,
      // The queue music is a read answered as often as asked (no receipt, no transaction).
      fast: async (p, _key, reply) => {
        const h = (reply.request.query ?? {}) as ClientHoldQuery;
        if (h.step !== 'wait') return false;
        const out = ctx.carrier.renderVoice(await holdWaitSteps(ctx, h.sid, h.n));
        reply.type(out.contentType).send(out.body);
        return true;
      },
    },
  );
}
