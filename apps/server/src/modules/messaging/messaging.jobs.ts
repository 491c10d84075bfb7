/** Messaging job handlers: `messages.send` (deliver an outbound item) and `messages.fetch-media` (copy inbound media). */
import { FetchMediaJob, SendMessageJob } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { FETCH_MEDIA_JOB, SEND_MESSAGE_JOB, deliverMessage, fetchInboundMedia } from './messaging.service.js';

export function registerMessagingJobs(ctx: AppContext): void {
  ctx.queue.define(SEND_MESSAGE_JOB, async (data) => deliverMessage(ctx, SendMessageJob.parse(data)), 4);
  ctx.queue.define(FETCH_MEDIA_JOB, async (data) => fetchInboundMedia(ctx, FetchMediaJob.parse(data)));
}
