/**
 * Carrier webhook plumbing shared by the voice and messaging webhooks (docs/architecture.md "Webhooks"):
 * signature verification (the carrier's `signatureHeader`, e.g. `X-Twilio-Signature`, over PUBLIC_URL +
 * path, checked by the carrier adapter) and exactly-once handling of repeated deliveries.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { RenderedResponse } from '../../carriers/carrier.port.js';
import type { DbOrTx } from '../db/db.js';
import { AppError } from './errors.js';
import { webhookReceiptsRepository, type ReceiptRow } from './webhook-receipts.repository.js';

/** Form parameters of a webhook as strings (Twilio posts application/x-www-form-urlencoded). */
export function formParams(request: FastifyRequest): Record<string, string> {
  const body = (request.body ?? {}) as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(body)) if (v !== undefined && v !== null) out[k] = Array.isArray(v) ? String(v[0]) : String(v);
  return out;
}

/**
 * preHandler for webhook routes: 403 `{message}` unless the signature matches; nothing is changed.
 */
export function verifyCarrierSignature(ctx: AppContext) {
  return async (request: FastifyRequest): Promise<void> => {
    const sig = request.headers[ctx.carrier.signatureHeader];
    const url = ctx.config.publicUrl + request.url;
    if (!ctx.carrier.verifyWebhook(url, formParams(request), Array.isArray(sig) ? sig[0] : sig)) {
      request.log.warn({ url }, 'webhook signature rejected');
      throw new AppError(403, 'Invalid webhook signature.');
    }
  };
}

export type WebhookOutcome = { response: RenderedResponse; status?: number; afterCommit?: () => void | Promise<void> };

/**
 * Runs `handle` at most once per delivery `key` (e.g. `voice:CA123:start`). The first statement of
 * the transaction claims the key (a pending `webhook_receipts` row, `INSERT … ON CONFLICT DO
 * NOTHING`): a concurrent delivery of the same key waits on the primary key until this transaction
 * ends. The first delivery's writes (made through `tx`) and its answer commit together; later
 * deliveries get the stored answer without side effects; a failed delivery rolls back its claim,
 * so the carrier's retry runs `handle` again. `afterCommit` runs only for the first delivery,
 * after the answer is sent (publish live events there).
 * `handle` reads and writes through `tx` only: it must never wait on the pool while the claim's
 * transaction is open (docs/architecture.md "Transactions never wait on the pool"; refused by the
 * transaction guard in the tests). When no connection comes within DB_ACQUIRE_TIMEOUT_MS the
 * delivery answers 503 with Retry-After (the error handler) before anything is written.
 * `known`: the answer (200) when it does not depend on the handling (the messaging webhooks' empty response): stored
 * with the claim, one statement fewer; an outcome that differs from it is stored over it.
 */
export async function handleOnce(
  ctx: AppContext,
  reply: FastifyReply,
  key: string,
  handle: (tx: DbOrTx) => Promise<WebhookOutcome>,
  known?: RenderedResponse,
): Promise<FastifyReply> {
  let after: (() => void | Promise<void>) | undefined;
  const claimed = known ? { status_code: 200, content_type: known.contentType, body: known.body } : undefined;
  const stored = await ctx.db.transaction().execute(async (tx) => {
    for (let attempt = 0; ; attempt++) {
      if (await webhookReceiptsRepository.claim(tx, key, claimed)) break;
      const existing = await webhookReceiptsRepository.find(tx, key);
      if (existing) return existing;
      // The receipt was removed between the two statements (retention clean-up): claim again.
      if (attempt >= 2) throw new Error(`webhook receipt ${key} could not be claimed`);
    }
    const outcome = await handle(tx);
    const row = { key, status_code: outcome.status ?? 200, content_type: outcome.response.contentType, body: outcome.response.body };
    if (!claimed || claimed.status_code !== row.status_code || claimed.content_type !== row.content_type || claimed.body !== row.body)
      await webhookReceiptsRepository.complete(tx, row);
    after = outcome.afterCommit;
    return row;
  });
  return answer(ctx, reply, stored, after);
}

/** Answers the carrier first; live events and reactions (afterCommit) must not delay the call flow. */
function answer(ctx: AppContext, reply: FastifyReply, stored: Omit<ReceiptRow, 'key'>, after: (() => void | Promise<void>) | undefined): FastifyReply {
  const sent = reply.status(stored.status_code).type(stored.content_type).send(stored.body);
  if (after) {
    const run = after;
    setImmediate(() => {
      Promise.resolve()
        .then(run)
        .catch((e) => ctx.log.error({ err: e }, 'webhook afterCommit failed'));
    });
  }
  return sent;
}

/**
 * `handleOnce` for a delivery whose answer is known before anything is written and whose writes
 * fit in one statement (the voice webhook's common case; `bench/call-routing`): no explicit transaction.
 * `store(receipt)` must claim `receipt.key` WITH its answer and make its writes in the same
 * statement, only when it claimed the key (`webhookReceiptsRepository.claimWithAnswerCte`, or
 * `claimManyWithAnswersCte` for a group commit of many deliveries); it
 * returns undefined when the key was already claimed (nothing written), else the work to run after
 * the answer. A repeated delivery gets the stored answer; a concurrent repeat waits on the receipt's
 * primary key until the first statement commits; a failed statement leaves no claim behind.
 */
export async function handleOnceInOneStatement(
  ctx: AppContext,
  reply: FastifyReply,
  key: string,
  response: RenderedResponse,
  store: (receipt: ReceiptRow) => Promise<{ afterCommit?: () => void | Promise<void> } | undefined>,
): Promise<void> {
  // Resolves to nothing once the answer is sent: a FastifyReply is a thenable, so awaiting one
  // would wait for the response to finish and yield undefined.
  const row: ReceiptRow = { key, status_code: 200, content_type: response.contentType, body: response.body };
  for (let attempt = 0; ; attempt++) {
    const stored = await store(row);
    if (stored) {
      answer(ctx, reply, row, stored.afterCommit);
      return;
    }
    const existing = await webhookReceiptsRepository.find(ctx.db, key);
    if (existing) {
      answer(ctx, reply, existing, undefined);
      return;
    }
    // The receipt was removed between the two statements (retention clean-up): claim again.
    if (attempt >= 2) throw new Error(`webhook receipt ${key} could not be claimed`);
  }
}
