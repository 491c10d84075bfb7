/**
 * Which domain events become which webhook events (docs/api-and-webhooks.md "Event types"), subscribed in the module
 * setup. Each carries an event key so a repeated domain event adds no second delivery:
 *
 * | domain event (platform/events)      | webhook event                                          | key                       |
 * | ----------------------------------- | ------------------------------------------------------ | ------------------------- |
 * | `call.changed` (the first)          | `call.started`                                         | call id                   |
 * | `call.changed`, ended or final      | `call.completed`; also `call.missed` (missed, no answer)| call id                   |
 * | `call.changed` with a voicemail     | `voicemail.created`                                    | voicemail id              |
 * | `call.attributed`                   | `call.attributed` (the tracking match)                 | call id                   |
 * | `message.received`                  | `message.received`                                     | carrier SID               |
 * | `message.status-changed`            | `message.status_updated`                               | item id + state + error   |
 * | `number.batch-finished`             | `numbers.batch_finished`                               | batch id                  |
 * | `contact.created`                   | `contact.created`                                      | contact id                |
 * | `contact.updated`                   | `contact.updated`                                      | contact id + updated at   |
 * | `contact.deleted`                   | `contact.deleted` (one delivery per event, ≤ 1,000 ids) | deletion id               |
 * | `campaign.finished`                 | `campaign.finished`                                    | campaign id               |
 */
import { CALL_STATUS } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import { events } from '../../platform/events/index.js';
import { hasEnabledEndpoint } from './webhooks.repository.js';
import type { DomainEvents } from '../../platform/events/registry.js';
import { publishWebhookEvent } from './webhooks.service.js';

/** Call statuses of a call still going on (every other status is final). */
const LIVE: ReadonlySet<number> = new Set([CALL_STATUS.STARTED, CALL_STATUS.EXTENSION_SELECTED, CALL_STATUS.CONNECTED]);
const MISSED: ReadonlySet<number> = new Set([CALL_STATUS.MISSED, CALL_STATUS.NO_ANSWER, CALL_STATUS.NO_ANSWER_8]);

/**
 * A call's webhooks: `call.started` once (on its first event), then `call.completed` once when it reached its final
 * status: it ended (`endedAt`, e.g. an answered call ending 12 Connected) or its status is no live one (missed,
 * voicemail, …), with `call.missed` for a missed one. The outbox delivers a call's events in order, so
 * `call.started` always comes first; the keys make each at most once per endpoint.
 */
async function onCallChanged(ctx: AppContext, e: DomainEvents['call.changed']): Promise<void> {
  if (e.history) return; // a past call recorded after the fact is no event for integrations
  const data = { ...e };
  await publishWebhookEvent(ctx, e.companyId, 'call.started', `call:${e.callId}`, data);
  if (e.endedAt || !LIVE.has(e.status)) {
    await publishWebhookEvent(ctx, e.companyId, 'call.completed', `call:${e.callId}`, data);
    if (MISSED.has(e.status)) await publishWebhookEvent(ctx, e.companyId, 'call.missed', `call:${e.callId}`, data);
  }
  if (e.voicemailId) await publishWebhookEvent(ctx, e.companyId, 'voicemail.created', `voicemail:${e.voicemailId}`, data);
}

async function onCallAttributed(ctx: AppContext, e: DomainEvents['call.attributed']): Promise<void> {
  await publishWebhookEvent(ctx, e.companyId, 'call.attributed', `call:${e.callId}`, { ...e });
}

async function onMessageReceived(ctx: AppContext, e: DomainEvents['message.received']): Promise<void> {
  await publishWebhookEvent(ctx, e.companyId, 'message.received', `sid:${e.carrierSid}`, { ...e });
}

async function onMessageStatus(ctx: AppContext, e: DomainEvents['message.status-changed']): Promise<void> {
  await publishWebhookEvent(ctx, e.companyId, 'message.status_updated', `item:${e.itemId}:${e.state ?? ''}:${e.errorCode ?? ''}:${e.carrierSid ?? ''}`, {
    ...e,
  });
}

async function onBatchFinished(ctx: AppContext, e: DomainEvents['number.batch-finished']): Promise<void> {
  await publishWebhookEvent(ctx, e.companyId, 'numbers.batch_finished', `batch:${e.batchId}`, { ...e });
}

async function onContactCreated(ctx: AppContext, e: DomainEvents['contact.created']): Promise<void> {
  await publishWebhookEvent(ctx, e.companyId, 'contact.created', `contact:${e.contactId}`, { ...e });
}

async function onContactUpdated(ctx: AppContext, e: DomainEvents['contact.updated']): Promise<void> {
  await publishWebhookEvent(ctx, e.companyId, 'contact.updated', `contact:${e.contactId}:${e.updatedAt}`, { ...e });
}

async function onContactDeleted(ctx: AppContext, e: DomainEvents['contact.deleted']): Promise<void> {
  await publishWebhookEvent(ctx, e.companyId, 'contact.deleted', `deletion:${e.deletionId}`, { ...e });
}

async function onCampaignFinished(ctx: AppContext, e: DomainEvents['campaign.finished']): Promise<void> {
  await publishWebhookEvent(ctx, e.companyId, 'campaign.finished', `campaign:${e.campaignId}`, { ...e });
}

/** Subscribes the webhook fan-out to the domain events (idempotent per handler). */
export function registerWebhookSubscribers(): void {
  events.consume('webhooks.deliveries', 'call.changed', onCallChanged, { when: hasEnabledEndpoint });
  events.consume('webhooks.deliveries', 'call.attributed', onCallAttributed, { when: hasEnabledEndpoint });
  events.consume('webhooks.deliveries', 'message.received', onMessageReceived, { when: hasEnabledEndpoint });
  events.consume('webhooks.deliveries', 'message.status-changed', onMessageStatus, { when: hasEnabledEndpoint });
  events.consume('webhooks.deliveries', 'number.batch-finished', onBatchFinished, { when: hasEnabledEndpoint });
  events.consume('webhooks.deliveries', 'contact.created', onContactCreated, { when: hasEnabledEndpoint });
  events.consume('webhooks.deliveries', 'contact.updated', onContactUpdated, { when: hasEnabledEndpoint });
  events.consume('webhooks.deliveries', 'contact.deleted', onContactDeleted, { when: hasEnabledEndpoint });
  events.consume('webhooks.deliveries', 'campaign.finished', onCampaignFinished, { when: hasEnabledEndpoint });
}
