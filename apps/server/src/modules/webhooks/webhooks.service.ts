/**
 * Outbound webhooks (docs/api-and-webhooks.md "Outbound webhooks"): a company's endpoints (URL, event types, signing
 * secret), the fan-out of events into deliveries, the delivery log, replay and test sends. Managing endpoints is for
 * owners and administrators (MANAGER_ROLES); another company's endpoint answers 404.
 *
 * Every message body is `{type, timestamp (ISO 8601 UTC), data}` (Standard Webhooks' recommended shape); `data` is
 * the event's facts in snake_case. URLs must be http(s) with a public address (https in production): private,
 * loopback and link-local targets are refused at subscription time (422) and again at every connection.
 */
import crypto from 'node:crypto';
import dns from 'node:dns';
import {
  CreateWebhookInput,
  type UpdateWebhookInput,
  WEBHOOK_CREATED,
  WEBHOOK_DELETED,
  WEBHOOK_REPLAYED,
  WEBHOOK_SECRET_ROTATED,
  WEBHOOK_TEST_SENT,
  WEBHOOK_UPDATED,
  type WebhookAttempt,
  type WebhookDelivery,
  WebhookDeliveriesQuery,
  type WebhookEndpoint,
  type WebhookEventType,
} from '@switchboard/contracts';
import type { z } from 'zod';
import { newSigningSecret } from '../../platform/http/signed-post.js';
import type { AppContext } from '../../context.js';
import { assertFetchableUrl, isPublicAddress, UnsafeUrlError } from '../../platform/http/safe-fetch.js';
import { fieldError, NotFoundError } from '../../platform/http/errors.js';
import { pageMeta, type PageMeta } from '../../platform/http/page.js';
import { assertCompanyAccess, MANAGER_ROLES } from '../companies/companies.service.js';
import { cachedEndpoints, forgetEndpoints, storeEndpoints } from './webhooks.cache.js';
import { enqueueAttempt, webhookTuning } from './webhooks.delivery.js';
import { webhooksRepository, type AttemptRow, type DeliveryRow, type EndpointRow } from './webhooks.repository.js';

/** A new Standard Webhooks secret: `whsec_` + base64 of 24 random bytes (platform/http/signed-post.ts). */
export const newSecret = newSigningSecret;
/** A message id (`msg_` + 26 random base32-ish characters), the `webhook-id` header. */
function newMessageId(): string {
  return `msg_${crypto.randomBytes(16).toString('hex')}`;
}

function toEndpoint(e: EndpointRow): WebhookEndpoint {
  return {
    id: e.id,
    company_id: e.company_id,
    url: e.url,
    description: e.description,
    events: e.events,
    enabled: e.enabled,
    disabled_reason: e.disabled_reason,
    disabled_at: e.disabled_at?.toISOString() ?? null,
    failing_since: e.failing_since?.toISOString() ?? null,
    created_at: e.created_at.toISOString(),
  };
}
function toDelivery(d: DeliveryRow): WebhookDelivery {
  return {
    id: d.id,
    endpoint_id: d.endpoint_id,
    event_type: d.event_type,
    message_id: d.message_id,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: d.next_attempt_at?.toISOString() ?? null,
    last_status_code: d.last_status_code,
    last_duration_ms: d.last_duration_ms,
    last_error: d.last_error,
    replay_of: d.replay_of,
    created_at: d.created_at.toISOString(),
    finished_at: d.finished_at?.toISOString() ?? null,
  };
}
function toAttempt(a: AttemptRow): WebhookAttempt {
  return {
    attempt: a.attempt,
    attempted_at: a.attempted_at.toISOString(),
    status_code: a.status_code,
    duration_ms: a.duration_ms,
    error: a.error,
    response_body: a.response_body,
  };
}

/**
 * Refuses a URL a delivery must never reach: not http(s) (https only in production), credentials in it, or a host
 * that is or resolves to a non-public address.
 * @throws ValidationError (422) on `url`.
 */
export async function assertDeliverableUrl(ctx: AppContext, url: string): Promise<void> {
  const policy = webhookTuning.addressPolicy;
  let u: URL;
  try {
    u = assertFetchableUrl(url, policy);
  } catch (error) {
    if (error instanceof UnsafeUrlError) throw fieldError('url', `The url cannot receive webhooks: ${error.message}.`);
    throw error;
  }
  if (ctx.config.production && u.protocol !== 'https:') throw fieldError('url', 'The url must use https.');
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if ((policy.allowHosts ?? []).some((h) => h.toLowerCase() === host.toLowerCase())) return;
  let addresses: { address: string }[];
  try {
    addresses = policy.resolve ? await policy.resolve(host) : await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') throw fieldError('url', 'The url host name does not resolve.');
    throw error;
  }
  const bad = addresses.find((a) => !isPublicAddress(a.address));
  if (bad) throw fieldError('url', `The url cannot receive webhooks: ${host} resolves to a private address.`);
}

/** Loads an endpoint the user manages. @throws NotFoundError (404) for another company's or an unknown id. */
async function managedEndpoint(ctx: AppContext, userId: number, id: number): Promise<EndpointRow> {
  const e = await webhooksRepository.findEndpoint(ctx.db, id);
  if (!e) throw new NotFoundError('Webhook not found.');
  try {
    await assertCompanyAccess(ctx, userId, e.company_id, MANAGER_ROLES);
  } catch (error) {
    if (error instanceof Error && (error as { status?: number }).status === 403) throw new NotFoundError('Webhook not found.');
    throw error;
  }
  return e;
}

/** The company of an endpoint, or null (audit entries of entity routes). */
export async function endpointCompany(ctx: AppContext, id: number): Promise<number | null> {
  if (!Number.isSafeInteger(id) || id < 1) return null;
  return (await webhooksRepository.findEndpoint(ctx.db, id))?.company_id ?? null;
}

/** The company's endpoints. @throws ForbiddenError (403) outside owners and administrators. */
export async function listWebhooks(ctx: AppContext, userId: number, companyId: number): Promise<{ data: WebhookEndpoint[] }> {
  await assertCompanyAccess(ctx, userId, companyId, MANAGER_ROLES);
  return { data: (await webhooksRepository.listEndpoints(ctx.db, companyId)).map(toEndpoint) };
}

export async function getWebhook(ctx: AppContext, userId: number, id: number): Promise<{ data: WebhookEndpoint }> {
  return { data: toEndpoint(await managedEndpoint(ctx, userId, id)) };
}

/** Subscribes a URL. @throws ForbiddenError (403), ValidationError (422) for an undeliverable URL. */
export async function createWebhook(
  ctx: AppContext,
  userId: number,
  input: z.output<typeof CreateWebhookInput>,
): Promise<{ message: string; data: WebhookEndpoint }> {
  await assertCompanyAccess(ctx, userId, input.company_id, MANAGER_ROLES);
  await assertDeliverableUrl(ctx, input.url);
  const row = await webhooksRepository.insertEndpoint(ctx.db, {
    company_id: input.company_id,
    url: input.url,
    description: input.description,
    events: [...new Set(input.events)],
    secret: newSecret(),
    created_by: userId,
  });
  forgetEndpoints(ctx.db, input.company_id);
  return { message: WEBHOOK_CREATED, data: toEndpoint(row) };
}

/** Changes an endpoint; `enabled: true` re-enables it and starts its failure run over. */
export async function updateWebhook(
  ctx: AppContext,
  userId: number,
  id: number,
  input: UpdateWebhookInput,
): Promise<{ message: string; data: WebhookEndpoint }> {
  const e = await managedEndpoint(ctx, userId, id);
  if (input.url !== undefined && input.url !== e.url) await assertDeliverableUrl(ctx, input.url);
  const row = await webhooksRepository.updateEndpoint(ctx.db, id, {
    ...(input.url !== undefined ? { url: input.url } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.events !== undefined ? { events: [...new Set(input.events)] } : {}),
    ...(input.enabled === true ? { enabled: true, disabled_reason: null, disabled_at: null, failing_since: null } : {}),
    ...(input.enabled === false ? { enabled: false, disabled_reason: 'Disabled by a person.', disabled_at: new Date() } : {}),
  });
  if (!row) throw new NotFoundError('Webhook not found.');
  forgetEndpoints(ctx.db, e.company_id);
  return { message: WEBHOOK_UPDATED, data: toEndpoint(row) };
}

export async function deleteWebhook(ctx: AppContext, userId: number, id: number): Promise<{ message: string }> {
  const e = await managedEndpoint(ctx, userId, id);
  await webhooksRepository.deleteEndpoint(ctx.db, id);
  forgetEndpoints(ctx.db, e.company_id);
  return { message: WEBHOOK_DELETED };
}

/** The endpoint's signing secret (owners and administrators). */
export async function revealSecret(ctx: AppContext, userId: number, id: number): Promise<{ data: { secret: string } }> {
  return { data: { secret: (await managedEndpoint(ctx, userId, id)).secret } };
}

/** Replaces the signing secret; deliveries from now on are signed with the new one. */
export async function rotateSecret(ctx: AppContext, userId: number, id: number): Promise<{ message: string; data: { secret: string } }> {
  const e = await managedEndpoint(ctx, userId, id);
  const secret = newSecret();
  await webhooksRepository.updateEndpoint(ctx.db, id, { secret });
  forgetEndpoints(ctx.db, e.company_id);
  return { message: WEBHOOK_SECRET_ROTATED, data: { secret } };
}

/** A page of an endpoint's deliveries, newest first. */
export async function listDeliveries(
  ctx: AppContext,
  userId: number,
  id: number,
  q: z.output<typeof WebhookDeliveriesQuery>,
): Promise<{ data: WebhookDelivery[]; meta: PageMeta }> {
  await managedEndpoint(ctx, userId, id);
  const { rows, total } = await webhooksRepository.pageDeliveries(ctx.db, id, q.status, q.per_page, (q.page - 1) * q.per_page);
  return { data: rows.map(toDelivery), meta: pageMeta(q.page, q.per_page, total) };
}

async function endpointDelivery(ctx: AppContext, userId: number, id: number, deliveryId: number): Promise<DeliveryRow> {
  await managedEndpoint(ctx, userId, id);
  const d = await webhooksRepository.findDelivery(ctx.db, deliveryId);
  if (!d || d.endpoint_id !== id) throw new NotFoundError('Delivery not found.');
  return d;
}

/** One delivery with its payload and every attempt. */
export async function getDelivery(ctx: AppContext, userId: number, id: number, deliveryId: number) {
  const d = await endpointDelivery(ctx, userId, id, deliveryId);
  const attempts = await webhooksRepository.attempts(ctx.db, d.id);
  return { data: { ...toDelivery(d), payload: d.payload, attempts_log: attempts.map(toAttempt) } };
}

/**
 * Sends a delivery's message again as a new delivery (same `webhook-id`, so a receiver that already processed it
 * can tell; `replay_of` links it). The endpoint must be enabled.
 */
export async function replayDelivery(ctx: AppContext, userId: number, id: number, deliveryId: number): Promise<{ message: string; data: WebhookDelivery }> {
  const d = await endpointDelivery(ctx, userId, id, deliveryId);
  const e = await managedEndpoint(ctx, userId, id);
  if (!e.enabled) throw fieldError('endpoint', 'Enable the webhook before replaying deliveries.');
  const newId = await ctx.db.transaction().execute(async (tx) => {
    const nid = await webhooksRepository.insertDelivery(tx, {
      endpoint_id: id,
      company_id: d.company_id,
      event_type: d.event_type,
      event_key: `replay:${d.id}:${crypto.randomUUID()}`,
      message_id: d.message_id,
      payload: JSON.stringify(d.payload),
      replay_of: d.id,
    });
    if (nid === null) throw new Error('a replay key collided');
    await enqueueAttempt(ctx, nid, 1, undefined, tx);
    return nid;
  });
  return { message: WEBHOOK_REPLAYED, data: toDelivery((await webhooksRepository.findDelivery(ctx.db, newId))!) };
}

/** Queues a `webhook.test` message to the endpoint (sent even while it is disabled: a test is how one checks a fix). */
export async function sendTest(ctx: AppContext, userId: number, id: number): Promise<{ message: string; data: WebhookDelivery }> {
  const e = await managedEndpoint(ctx, userId, id);
  const payload = {
    type: 'webhook.test',
    timestamp: new Date().toISOString(),
    data: { endpoint_id: e.id, company_id: e.company_id, message: 'This is a test event from Switchboard.' },
  };
  const newId = await ctx.db.transaction().execute(async (tx) => {
    const nid = await webhooksRepository.insertDelivery(tx, {
      endpoint_id: e.id,
      company_id: e.company_id,
      event_type: 'webhook.test',
      event_key: `test:${crypto.randomUUID()}`,
      message_id: newMessageId(),
      payload: JSON.stringify(payload),
    });
    if (nid === null) throw new Error('a test key collided');
    await enqueueAttempt(ctx, nid, 1, undefined, tx);
    return nid;
  });
  return { message: WEBHOOK_TEST_SENT, data: toDelivery((await webhooksRepository.findDelivery(ctx.db, newId))!) };
}

function snake(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
/** A plain copy of `value` with object keys in snake_case and dates as ISO text. */
export function toSnakeData(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(toSnakeData);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [snake(k), toSnakeData(v)]));
  return value;
}

/**
 * Fans one event out to the company's enabled endpoints subscribed to `type`: one delivery per endpoint per
 * `eventKey` (a repeated event adds nothing), each queued at once. Called after the emitting transaction committed.
 */
export async function publishWebhookEvent(
  ctx: AppContext,
  companyId: number,
  type: WebhookEventType,
  eventKey: string,
  data: Record<string, unknown>,
): Promise<number> {
  let endpoints = cachedEndpoints(ctx.db, companyId);
  if (!endpoints) {
    endpoints = await webhooksRepository.enabledEndpoints(ctx.db, companyId);
    storeEndpoints(ctx.db, companyId, endpoints);
  }
  const targets = endpoints.filter((e) => e.events.includes(type));
  if (!targets.length) return 0;
  const payload = JSON.stringify({ type, timestamp: new Date().toISOString(), data: toSnakeData(data) });
  let created = 0;
  await ctx.db.transaction().execute(async (tx) => {
    for (const e of targets) {
      const id = await webhooksRepository.insertDelivery(tx, {
        endpoint_id: e.id,
        company_id: companyId,
        event_type: type,
        event_key: `${type}:${eventKey}`,
        message_id: newMessageId(),
        payload,
      });
      if (id === null) continue;
      created += 1;
      await enqueueAttempt(ctx, id, 1, undefined, tx);
    }
  });
  return created;
}
