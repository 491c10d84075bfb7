/**
 * Sending one webhook delivery (docs/api-and-webhooks.md "Outbound webhooks"): a POST of the stored JSON signed with
 * the Standard Webhooks scheme and the endpoint's `whsec_…` secret (`webhook-id` = the delivery's `message_id`, the
 * same on every retry), through the server-side request guard (platform/http/signed-post.ts).
 *
 * The job `webhooks.deliver` `{deliveryId, attempt}` is idempotent: it claims the attempt (`webhooksRepository.claim`)
 * or does nothing. A 2xx within 15 s succeeds; anything else is a failed attempt, logged with its status and response
 * time (ms), and retried after `webhookTuning.retryDelaysMs` (Standard Webhooks' schedule: 5 s, 5 min, 30 min, 2 h,
 * 5 h, 10 h, 10 h: about 28 hours in all); after the last, the delivery has failed. An endpoint failing without a
 * success for `disableAfterMs` (5 days) is disabled, its pending deliveries failed, and its company's owners
 * e-mailed.
 */
import type { AppContext } from '../../context.js';
import type { AddressPolicy } from '../../platform/http/safe-fetch.js';
import { postSigned, signatureHeaders, succeeded, type SendResult } from '../../platform/http/signed-post.js';
import { recordAudit } from '../audit/audit.service.js';
import { listActiveMembers } from '../companies/companies.service.js';
import { findUser } from '../users/users.service.js';
import { webhooksRepository, type DeliveryRow, type EndpointRow } from './webhooks.repository.js';
import { forgetEndpoints } from './webhooks.cache.js';

export const DELIVER_JOB = 'webhooks.deliver';

/** Timings (ms) and the address policy; tests lower the timings and allow their loopback receiver. */
export const webhookTuning: {
  retryDelaysMs: number[];
  disableAfterMs: number;
  timeoutMs: number;
  claimMs: number;
  /** Which addresses deliveries may reach; production: public unicast only ({}). Tests: `{allowHosts: ['127.0.0.1']}`. */
  addressPolicy: AddressPolicy;
} = {
  retryDelaysMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
  disableAfterMs: 5 * 86_400_000,
  timeoutMs: 15_000,
  // Twice the send timeout: a crashed attempt is made again within about half a minute.
  claimMs: 30_000,
  addressPolicy: {},
};

/** The most attempts a delivery gets (the first plus the retries). */
export function maxAttempts(): number {
  return webhookTuning.retryDelaysMs.length + 1;
}

/** POSTs a signed delivery body under the module's timeout and address policy (platform/http/signed-post.ts). */
function post(url: string, body: string, headers: Record<string, string>): Promise<SendResult> {
  return postSigned(url, body, headers, {
    timeoutMs: webhookTuning.timeoutMs,
    addressPolicy: webhookTuning.addressPolicy,
    userAgent: 'Switchboard-Webhooks/1',
  });
}

/** Enqueues attempt `attempt` of a delivery (now, or at `at`). Runs in `db` (a transaction) when given. */
export async function enqueueAttempt(
  ctx: AppContext,
  deliveryId: number,
  attempt: number,
  at?: Date,
  db?: Parameters<AppContext['queue']['enqueue']>[3],
): Promise<void> {
  await ctx.queue.enqueue(
    DELIVER_JOB,
    { deliveryId, attempt },
    { singletonKey: `webhook-${deliveryId}-${attempt}`, retryLimit: 6, retryDelay: 5, ...(at ? { startAfter: at } : {}) },
    db,
  );
}

/** The `webhooks.deliver` job: one attempt of one delivery (see the module doc). */
export async function runDeliveryAttempt(ctx: AppContext, deliveryId: number, attempt: number): Promise<void> {
  const delivery = await webhooksRepository.claim(ctx.db, deliveryId, attempt, webhookTuning.claimMs);
  if (!delivery) {
    // Still due but held by another run's claim (a worker that crashed mid-attempt, or one still sending): the job
    // retries after the claim ran out, so the attempt is made (never dropped); an attempt already made ends it here.
    if (await webhooksRepository.isHeld(ctx.db, deliveryId, attempt))
      throw new Error(`webhook delivery ${deliveryId} attempt ${attempt} is held by another run; retrying`);
    return;
  }
  const endpoint = await webhooksRepository.findEndpoint(ctx.db, delivery.endpoint_id);
  if (!endpoint || (!endpoint.enabled && delivery.event_type !== 'webhook.test')) {
    await settle(ctx, delivery, attempt, { statusCode: null, durationMs: 0, error: 'The endpoint is disabled.', body: null }, true);
    return;
  }
  const body = JSON.stringify(delivery.payload);
  const result = await post(endpoint.url, body, signatureHeaders(endpoint.secret, delivery.message_id, body));
  await settle(ctx, delivery, attempt, result, false);
  if (succeeded(result)) {
    await webhooksRepository.clearFailing(ctx.db, endpoint.id);
    return;
  }
  const since = await webhooksRepository.markFailing(ctx.db, endpoint.id);
  if (since && Date.now() - since.getTime() >= webhookTuning.disableAfterMs) await disableEndpoint(ctx, endpoint, since);
}

async function settle(ctx: AppContext, d: DeliveryRow, attempt: number, r: SendResult, final: boolean): Promise<void> {
  const ok = succeeded(r);
  const retry = !ok && !final && attempt < maxAttempts();
  const next = retry ? new Date(Date.now() + webhookTuning.retryDelaysMs[attempt - 1]!) : null;
  await ctx.db.transaction().execute(async (tx) => {
    await webhooksRepository.insertAttempt(tx, {
      delivery_id: d.id,
      attempt,
      status_code: r.statusCode,
      duration_ms: r.durationMs,
      error: r.error,
      response_body: r.body,
    });
    await webhooksRepository.settleAttempt(tx, d.id, {
      attempts: attempt,
      status: ok ? 'succeeded' : retry ? 'pending' : 'failed',
      next_attempt_at: next,
      last_status_code: r.statusCode,
      last_duration_ms: r.durationMs,
      last_error: ok ? null : (r.error ?? `HTTP ${r.statusCode}`),
      finished_at: retry ? null : new Date(),
    });
    if (next) await enqueueAttempt(ctx, d.id, attempt + 1, next, tx);
  });
}

/** Disables a failing endpoint, fails its pending deliveries, records it and e-mails the company's owners. */
async function disableEndpoint(ctx: AppContext, endpoint: EndpointRow, since: Date): Promise<void> {
  const days = Math.max(1, Math.round((Date.now() - since.getTime()) / 86_400_000));
  const reason = `Every delivery failed since ${since.toISOString()}.`;
  if (!(await webhooksRepository.disable(ctx.db, endpoint.id, reason))) return;
  forgetEndpoints(ctx.db, endpoint.company_id);
  await webhooksRepository.failPending(ctx.db, endpoint.id, 'The endpoint was disabled after failing.');
  await recordAudit(ctx, {
    company_id: endpoint.company_id,
    actor_kind: 'system',
    actor_user_id: null,
    actor_name: 'Webhook deliveries',
    api_key_id: null,
    operator_user_id: null,
    action: 'disable',
    entity_type: 'webhook-endpoints',
    entity_id: String(endpoint.id),
    method: null,
    path: null,
    status_code: null,
    outcome: 'success',
    changes: { enabled: false, reason, url: endpoint.url },
    ip: null,
    user_agent: null,
  });
  const owners = (await listActiveMembers(ctx, endpoint.company_id)).filter((m) => m.role === 'owner');
  for (const owner of owners) {
    const user = await findUser(ctx, owner.userId);
    if (!user) continue;
    await ctx.mailer.send({
      to: user.email,
      subject: 'A webhook endpoint was disabled',
      text:
        `Hello ${user.first_name},\n\nThe webhook endpoint ${endpoint.url} failed every delivery for ${days} day(s) and was disabled.\n` +
        `Reason: ${reason}\n\nFix the endpoint, then enable it again under Administration → Webhooks; failed deliveries can be replayed from its delivery log.\n`,
    });
  }
}
