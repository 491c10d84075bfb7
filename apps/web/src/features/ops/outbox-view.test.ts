/** The rules of the operators' "Event delivery" screen: warnings, lag and age texts, the replay dialog's time and sentence. */
import type { OutboxConsumerStatus, OutboxDeadLetter } from '@switchboard/contracts';
import { describe, expect, it } from 'vitest';
import { consumerHealth, defaultReplaySince, formatLag, groupDeadLetters, localInputToIso, replaySentence, toLocalInput, updatedAgo } from './outbox-view';

const consumer = (name: string, over: Partial<OutboxConsumerStatus> = {}): OutboxConsumerStatus => ({
  consumer: name,
  events: ['call.changed'],
  pending: 0,
  retrying: 0,
  dead: 0,
  doneLastHour: 0,
  lagS: 0,
  lastError: null,
  ...over,
});
const letter = (name: string, eventId: number): OutboxDeadLetter => ({
  consumer: name,
  eventId,
  name: 'call.changed',
  aggregate: 'call:1',
  attempts: 8,
  lastError: 'boom',
  createdAt: '2026-11-28T09:00:00.000Z',
});

describe('event delivery screen', () => {
  it('marks a consumer with dead letters, or more than 60 s behind', () => {
    expect(consumerHealth({ dead: 0, lagS: 60 })).toBe('ok');
    expect(consumerHealth({ dead: 0, lagS: 60.1 })).toBe('behind');
    expect(consumerHealth({ dead: 1, lagS: 0 })).toBe('dead');
    expect(consumerHealth({ dead: 2, lagS: 500 })).toBe('dead');
  });

  it('reads lag and the age of the last answer as people do', () => {
    expect([0, 4.24, 59.4, 61, 185, 3600, 7440].map(formatLag)).toEqual(['0 s', '4.2 s', '59 s', '1 min 1 s', '3 min 5 s', '1 h', '2 h 4 min']);
    expect(updatedAgo(10_000, 10_400)).toBe('updated just now');
    expect(updatedAgo(10_000, 17_900)).toBe('updated 7 s ago');
    expect(updatedAgo(10_000, 200_000)).toBe('updated 3 min ago');
  });

  it('starts the replay at the same minute yesterday and sends it as UTC', () => {
    const now = new Date(2026, 10, 28, 14, 35, 50);
    expect(defaultReplaySince(now)).toBe('2026-11-27T14:35');
    expect(localInputToIso('2026-11-27T14:35')).toBe(new Date(2026, 10, 27, 14, 35).toISOString());
    expect(localInputToIso(toLocalInput(now))).toBe(new Date(2026, 10, 28, 14, 35).toISOString());
    for (const bad of ['', 'yesterday', '2026-11-27', '2026-13-40T10:00']) expect(localInputToIso(bad)).toBeNull();
  });

  it('says what a replay will do, for every company or one', () => {
    expect(replaySentence('analytics.facts', '2026-11-27T15:00:00.000Z', undefined, 'America/New_York')).toBe(
      'Every event since Nov 27, 2026, 10:00 AM EST will be delivered to analytics.facts again.',
    );
    expect(replaySentence('webhooks.deliveries', '2026-11-27T15:00:00.000Z', 7, 'UTC')).toBe(
      'Every event of company 7 since Nov 27, 2026, 3:00 PM UTC will be delivered to webhooks.deliveries again.',
    );
  });

  it('groups dead letters by consumer, counting those beyond the listed ones', () => {
    const groups = groupDeadLetters(
      [consumer('a.one', { dead: 3 }), consumer('b.two'), consumer('c.three', { dead: 1 })],
      [letter('c.three', 9), letter('a.one', 8), letter('a.one', 5)],
    );
    expect(groups.map((g) => [g.consumer, g.letters.map((l) => l.eventId), g.more])).toEqual([
      ['a.one', [8, 5], 1],
      ['c.three', [9], 0],
    ]);
    expect(groupDeadLetters([consumer('a.one')], [])).toEqual([]);
  });
});
