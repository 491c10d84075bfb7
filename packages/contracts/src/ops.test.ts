/** The operators' outbox bodies (docs/operations.md "Domain-event outbox"): what retry and replay accept and refuse. */
import { describe, expect, it } from 'vitest';
import { OutboxReplayBody, OutboxRetryBody, OutboxStatus } from './ops.js';

const messages = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('operators outbox contracts', () => {
  it('takes an ISO instant as since, and a company id as a number or its text', () => {
    expect(OutboxReplayBody.parse({ since: '2026-11-27T10:00:00Z', companyId: '7' })).toEqual({ since: new Date('2026-11-27T10:00:00Z'), companyId: 7 });
  });

  it('refuses a missing, empty, null, numeric or unreadable since with a field message (null is not 1970)', () => {
    for (const since of [undefined, '', null]) expect(messages(OutboxReplayBody.safeParse({ since }))).toEqual({ since: 'The since field is required.' });
    for (const since of [0, 'yesterday-ish', '2026-13-45T99:00'])
      expect(messages(OutboxReplayBody.safeParse({ since }))).toEqual({ since: 'The since field must be a valid date.' });
  });

  it('refuses a company id or event id that is not a positive integer, and unknown fields', () => {
    expect(messages(OutboxReplayBody.safeParse({ since: '2026-11-27T10:00:00Z', companyId: 'acme' }))).toEqual({
      companyId: 'The company id must be a number.',
    });
    expect(messages(OutboxRetryBody.safeParse({ eventId: -3 }))).toEqual({ eventId: 'The event id must be a number.' });
    expect(OutboxRetryBody.parse({})).toEqual({});
    expect(OutboxRetryBody.safeParse({ eventId: 1, consumer: 'x' }).success).toBe(false);
  });

  it('describes the status answer', () => {
    const status = {
      consumers: [{ consumer: 'analytics.facts', events: ['call.changed'], pending: 1, retrying: 0, dead: 0, doneLastHour: 4, lagS: 1.5, lastError: null }],
      deadLetters: [
        {
          consumer: 'webhooks.deliveries',
          eventId: 9,
          name: 'call.completed',
          aggregate: 'call:3',
          attempts: 8,
          lastError: 'HTTP 500',
          createdAt: '2026-11-28T09:00:00.000Z',
        },
      ],
    };
    expect(OutboxStatus.parse(status)).toEqual(status);
    expect(OutboxStatus.safeParse({ consumers: [{ ...status.consumers[0], pending: 1.5 }], deadLetters: [] }).success).toBe(false);
  });
});
