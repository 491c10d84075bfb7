/**
 * Number triggers fire (docs/numbers.md "Triggers"): on a missed inbound call (`call.missed`), a voicemail left
 * (`call.voicemail`) or a text received (`sms.received`) on a number, each of the number's triggers for that event
 * sends an e-mail to its target or POSTs a signed JSON event to its webhook URL.
 *
 * - After commit, the domain events `call.changed` and `message.received` (platform/events) record one firing per
 *   trigger and event key (call id, voicemail id, carrier message SID) in `number_trigger_firings`, unique per
 *   trigger and key, and enqueue the job `numbers.trigger-fire` in the same transaction: a repeated domain event fires
 *   nothing twice. Past calls imported after the fact (`history: true`) fire nothing.
 * - The job is idempotent: it works only on a pending firing. An e-mail is recorded in the mail outbox in the
 *   transaction that marks the firing delivered. A webhook is a POST of `{type, timestamp, data}` signed with the
 *   trigger's own secret by the Standard Webhooks scheme (`webhook-id` = `trg_{firingId}`, the same on every retry),
 *   through the server-side request guard (platform/http/signed-post.ts); a 2xx within `triggerTuning.timeoutMs`
 *   delivers it, anything else is retried by the queue (`retryLimit` 5, `retryDelay` 60 s) and recorded; after the
 *   last try the firing is failed. The Triggers card shows each trigger's latest firing.
 */
import { randomUUID } from 'node:crypto';
import { CALL_STATUS, formatPhone } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import { events } from '../../platform/events/index.js';
import type { DomainEvents } from '../../platform/events/registry.js';
import type { AddressPolicy } from '../../platform/http/safe-fetch.js';
import { postSigned, signatureHeaders, succeeded } from '../../platform/http/signed-post.js';
import { isLastAttempt, type JobHandler } from '../../platform/queue.js';
import { hasTrigger, numbersAdminRepository, numbersRepository } from './numbers.repository.js';

export const TRIGGER_FIRE_JOB = 'numbers.trigger-fire';

/** The answer deadline (ms), the queue's retries and the address policy; tests allow their loopback receiver. */
export const triggerTuning: { timeoutMs: number; retryLimit: number; retryDelayS: number; addressPolicy: AddressPolicy } = {
  timeoutMs: 15_000,
  retryLimit: 5,
  retryDelayS: 60,
  addressPolicy: {},
};

type TriggerEvent = 'call.missed' | 'call.voicemail' | 'sms.received';

/** Inbound call statuses that mean nobody answered (a voicemail is its own event). */
const MISSED: ReadonlySet<number> = new Set([CALL_STATUS.MISSED, CALL_STATUS.NO_ANSWER, CALL_STATUS.NO_ANSWER_8]);

/** The words of an event in an e-mail subject. */
const SUBJECT: Record<TriggerEvent, string> = { 'call.missed': 'Missed call', 'call.voicemail': 'New voicemail', 'sms.received': 'Text received' };

/**
 * Records a firing of each of the number's triggers for `event` under `key` and enqueues its job, in one transaction.
 * `data` is the event's `data` object as a webhook receives it.
 */
async function fire(ctx: AppContext, companyId: number, numberId: number, event: TriggerEvent, key: string, data: Record<string, unknown>): Promise<void> {
  const triggers = await numbersAdminRepository.triggersFor(ctx.db, numberId, event);
  if (!triggers.length) return;
  const number = await numbersRepository.find(ctx.db, numberId);
  if (!number || number.company_id !== companyId) return;
  const payload = {
    type: event,
    timestamp: new Date().toISOString(),
    data: { number: { id: number.id, number: number.number, label: number.label }, ...data },
  };
  await ctx.db.transaction().execute(async (tx) => {
    const ids = await numbersAdminRepository.insertFirings(
      tx,
      triggers.map((t) => ({
        trigger_id: t.id,
        company_id: companyId,
        event_key: key,
        payload: JSON.stringify({ ...payload, data: { ...payload.data, trigger_id: t.id } }),
      })),
    );
    for (const id of ids) {
      await ctx.queue.enqueue(
        TRIGGER_FIRE_JOB,
        { firingId: id },
        { singletonKey: `trigger-firing-${id}`, retryLimit: triggerTuning.retryLimit, retryDelay: triggerTuning.retryDelayS },
        tx,
      );
    }
  });
}

/** `call.changed` → `call.missed` (inbound, final, nobody answered) and `call.voicemail` (a voicemail was left). */
export async function onCallChanged(ctx: AppContext, e: DomainEvents['call.changed']): Promise<void> {
  if (e.history) return; // a past call recorded after the fact is no news
  const data = { call_id: e.callId, from: e.from, status: e.status, duration_s: e.durationS ?? null, started_at: e.startedAt ?? null };
  if (e.direction !== 'outbound' && MISSED.has(e.status)) await fire(ctx, e.companyId, e.numberId, 'call.missed', `call:${e.callId}`, data);
  if (e.voicemailId) await fire(ctx, e.companyId, e.numberId, 'call.voicemail', `voicemail:${e.voicemailId}`, { ...data, voicemail_id: e.voicemailId });
}

/** `message.received` → `sms.received` (keyed by the carrier's message SID). */
export async function onMessageReceived(ctx: AppContext, e: DomainEvents['message.received']): Promise<void> {
  await fire(ctx, e.companyId, e.numberId, 'sms.received', `sid:${e.carrierSid}`, {
    from: e.from,
    body: e.body,
    conversation_id: e.conversationId,
    message_id: e.itemId,
    received_at: e.receivedAt,
  });
}

/** The e-mail of a firing: subject and plain text, with a link to where the item is read in the app. */
function mailOf(ctx: AppContext, payload: { type: TriggerEvent; data: Record<string, any> }): { subject: string; text: string } {
  const d = payload.data;
  const phone = formatPhone(d.number.number);
  // A number's default label is the number itself: say it once.
  const named =
    d.number.label &&
    d.number.label.replace(/\D/g, '') !==
      String(d.number.number)
        .replace(/\D/g, '')
        .replace(/^1(?=\d{10}$)/, '');
  const numberName = named ? `${d.number.label} (${phone})` : phone;
  const from = typeof d.from === 'string' && d.from.startsWith('+') ? formatPhone(d.from) : String(d.from ?? 'an unknown caller');
  const app = ctx.config.publicUrl;
  const link = d.test
    ? `${app}/numbers/${Number(d.number.id)}`
    : payload.type === 'sms.received'
      ? d.conversation_id
        ? `${app}/inbox/${Number(d.conversation_id)}`
        : `${app}/inbox`
      : `${app}/calls/${Number(d.call_id)}`;
  const what =
    payload.type === 'sms.received'
      ? `${from} texted ${numberName}:\n\n${String(d.body ?? '')}\n`
      : payload.type === 'call.voicemail'
        ? `${from} called ${numberName} and left a voicemail.\n`
        : `${from} called ${numberName} and nobody answered.\n`;
  return {
    subject: `${d.test ? '[Test] ' : ''}${SUBJECT[payload.type]} from ${from} on ${numberName}`,
    text: `${what}\nOpen it in Switchboard: ${link}\n\nYou get this e-mail because a trigger on ${numberName} sends it; a manager of the account can remove it on the number's page.\n`,
  };
}

/** How a firing stands after a try. */
export type FiringOutcome = { state: 'pending' | 'delivered' | 'failed'; status_code: number | null; error: string | null };

/**
 * Sends one pending firing once (see the module doc); `last`: no try follows, a failure is final.
 * @returns the firing's state after this try, or null when it was not pending (gone or already settled).
 */
export async function deliverFiring(ctx: AppContext, firingId: number, last: boolean): Promise<FiringOutcome | null> {
  const f = await numbersAdminRepository.findPendingFiring(ctx.db, firingId);
  if (!f) return null;
  const payload = f.payload as unknown as { type: TriggerEvent; data: Record<string, any> };
  if (f.action === 'email') {
    const mail = mailOf(ctx, payload);
    await ctx.db.transaction().execute(async (tx) => {
      await ctx.mailer.send({ to: f.target, ...mail }, tx);
      await numbersAdminRepository.settleFiring(tx, f.id, { state: 'delivered', attempts: f.attempts + 1, finished_at: new Date(), last_error: null });
    });
    return { state: 'delivered', status_code: null, error: null };
  }
  const body = JSON.stringify(payload);
  const result = f.signing_secret
    ? await postSigned(f.target, body, signatureHeaders(f.signing_secret, `trg_${f.id}`, body), {
        timeoutMs: triggerTuning.timeoutMs,
        addressPolicy: triggerTuning.addressPolicy,
        userAgent: 'Switchboard-Triggers/1',
      })
    : { statusCode: null, durationMs: 0, error: 'The trigger has no signing secret.', body: null };
  const ok = succeeded(result);
  const outcome: FiringOutcome = {
    state: ok ? 'delivered' : last ? 'failed' : 'pending',
    status_code: result.statusCode,
    error: ok ? null : (result.error ?? `HTTP ${result.statusCode}`),
  };
  await numbersAdminRepository.settleFiring(ctx.db, f.id, {
    state: outcome.state,
    attempts: f.attempts + 1,
    last_status_code: outcome.status_code,
    last_error: outcome.error,
    finished_at: outcome.state === 'pending' ? null : new Date(),
  });
  return outcome;
}

/** The `numbers.trigger-fire` job: one try of a firing; a failure before the last try throws, so the queue retries. */
export const runTriggerFiring =
  (ctx: AppContext): JobHandler<{ firingId: number }> =>
  async ({ firingId }, job) => {
    const outcome = await deliverFiring(ctx, firingId, isLastAttempt(job));
    if (outcome?.state === 'pending') throw new Error(`Trigger webhook not delivered: ${outcome.error}`);
  };

/** What a test firing carries beside the number: a sample of the event's fields, marked `test: true`. */
function sampleData(event: TriggerEvent): Record<string, unknown> {
  const from = '+13125550100'; // 555-01xx: a fictional number
  if (event === 'sms.received')
    return { from, body: 'This is a test message from Switchboard.', conversation_id: null, message_id: null, received_at: new Date().toISOString() };
  return {
    call_id: null,
    from,
    status: event === 'call.missed' ? CALL_STATUS.MISSED : CALL_STATUS.VOICEMAIL,
    duration_s: 0,
    started_at: new Date().toISOString(),
    ...(event === 'call.voicemail' ? { voicemail_id: null } : {}),
  };
}

/**
 * Sends trigger `triggerId` (already checked to be the caller's company's) a test firing now, once, without retries:
 * the event's sample fields with `test: true` (an e-mail says "[Test]" in its subject).
 * @returns how the try went.
 */
export async function fireTest(ctx: AppContext, trigger: { id: number; company_id: number; number_id: number; event: string }): Promise<FiringOutcome> {
  const number = await numbersRepository.find(ctx.db, trigger.number_id);
  const event = trigger.event as TriggerEvent;
  const payload = {
    type: event,
    timestamp: new Date().toISOString(),
    data: {
      number: { id: trigger.number_id, number: number?.number ?? '', label: number?.label ?? '' },
      ...sampleData(event),
      trigger_id: trigger.id,
      test: true,
    },
  };
  const [id] = await numbersAdminRepository.insertFirings(ctx.db, [
    { trigger_id: trigger.id, company_id: trigger.company_id, event_key: `test:${randomUUID()}`, payload: JSON.stringify(payload) },
  ]);
  return (await deliverFiring(ctx, id!, true))!;
}

/** Subscribes the triggers to the domain events and defines their job (the numbers module's setup and jobs). */
export function registerTriggerFiring(ctx: AppContext): void {
  ctx.queue.define<{ firingId: number }>(TRIGGER_FIRE_JOB, runTriggerFiring(ctx));
}

/** Subscribes the triggers to the domain events they fire on (idempotent per handler). */
export function subscribeTriggers(): void {
  events.consume('numbers.triggers', 'call.changed', onCallChanged, { when: hasTrigger });
  events.consume('numbers.triggers', 'message.received', onMessageReceived, { when: hasTrigger });
}
