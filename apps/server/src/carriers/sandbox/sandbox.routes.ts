/**
 * The Phone simulator's API (sandbox carrier only; absent, hence 404, when CARRIER is not
 * sandbox). Any signed-in user may use it: it plays outside callers and texters.
 *
 * - POST /api/simulator/calls     {from, to, digits?, forwards?, confirm?, voicemail_seconds?, talk_seconds?} → {sid, status, log}
 * - POST /api/simulator/messages  {from, to, body, media_urls?} → {data: HandsetMessage, webhook_status}
 * - GET  /api/simulator/handsets/{number}/messages → {data: HandsetMessage[]} (oldest first)
 */
import { HandsetMessagesBody, HandsetParams, SimulateCallBody, SimulateCallInput, SimulateMessageBody, SimulateMessageInput, errorResponses } from '@switchboard/contracts';
import { parsePhone } from '@switchboard/domain';
import type { App } from '../../app.js';
import type { AppContext } from '../../context.js';
import { fieldError } from '../../platform/http/errors.js';
import type { SandboxMessageRow } from './sandbox.repository.js';
import { sandboxRepository } from './sandbox.repository.js';
import { simulateCall, simulateMessage } from './sandbox.simulator.js';

const NOT_SANDBOX_NUMBER = 'This number is not served by the sandbox carrier.';

function phone(field: string, value: string): string {
  const e164 = parsePhone(value);
  if (!e164) throw fieldError(field, 'The number is not a valid phone number.');
  return e164;
}

function handsetMessage(m: SandboxMessageRow) {
  const inbound = m.direction === 'inbound';
  return {
    sid: m.sid, direction: m.direction as 'inbound' | 'outbound', from: m.from_number, to: m.to_number,
    business_number: inbound ? m.to_number : m.from_number, body: m.body, media: m.media, status: m.status,
    error_code: m.error_code, created_at: m.created_at.toISOString(),
  };
}

export async function registerSandboxRoutes(app: App, ctx: AppContext): Promise<void> {
  if (ctx.config.carrier !== 'sandbox') return;

  app.post('/api/simulator/calls', {
    schema: { tags: ['simulator'], body: SimulateCallInput, response: { 200: SimulateCallBody, ...errorResponses } },
  }, async (request) => {
    const b = request.body;
    const from = phone('from', b.from);
    const to = phone('to', b.to);
    const forwards = b.forwards ? Object.fromEntries(Object.entries(b.forwards).map(([k, v]) => [parsePhone(k) ?? k, v])) : undefined;
    const result = await simulateCall(ctx, { ...b, from, to, forwards });
    if (!result) throw fieldError('to', NOT_SANDBOX_NUMBER);
    return result;
  });

  app.post('/api/simulator/messages', {
    schema: { tags: ['simulator'], body: SimulateMessageInput, response: { 200: SimulateMessageBody, ...errorResponses } },
  }, async (request) => {
    const b = request.body;
    const result = await simulateMessage(ctx, { from: phone('from', b.from), to: phone('to', b.to), body: b.body, media_urls: b.media_urls });
    if (!result) throw fieldError('to', NOT_SANDBOX_NUMBER);
    return { data: handsetMessage(result.row), webhook_status: result.webhookStatus };
  });

  app.get('/api/simulator/handsets/:number/messages', {
    schema: { tags: ['simulator'], params: HandsetParams, response: { 200: HandsetMessagesBody, ...errorResponses } },
  }, async (request) => {
    const number = phone('number', request.params.number);
    return { data: (await sandboxRepository.handsetMessages(ctx.db, number)).map(handsetMessage) };
  });
}
