/**
 * Messaging job handlers: `messages.send` (deliver an outbound item), `messages.fetch-media`
 * (copy inbound media) and `messages.send-scheduled` (a scheduled message at its time).
 */
import { FetchMediaJob, SendMessageJob, SendScheduledMessageJob } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { FETCH_MEDIA_JOB, SEND_MESSAGE_JOB, SEND_SCHEDULED_JOB, deliverMessage, fetchInboundMedia, sendScheduledMessage } from './messaging.service.js';

/** Defines the messaging jobs on the queue (`messages.send` with 4 workers). */
export function registerMessagingJobs(ctx: AppContext): void {
  ctx.queue.define(SEND_MESSAGE_JOB, async (data) => deliverMessage(ctx, SendMessageJob.parse(data)), 4);
  ctx.queue.define(FETCH_MEDIA_JOB, async (data) => fetchInboundMedia(ctx, FetchMediaJob.parse(data)));
  ctx.queue.define(SEND_SCHEDULED_JOB, async (data) => sendScheduledMessage(ctx, SendScheduledMessageJob.parse(data)));
}
