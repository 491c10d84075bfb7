import { describe, it, expect } from 'vitest';
import { DEFAULT_QUIET_HOURS, isWithinSendingWindow, nextAllowedSendTime, recipientTimeZone } from './quiet-hours.js';

const NY = '+12125550123';
const LA = '+13105550123';
const PHOENIX = '+16025550123';
const TOLL_FREE = '+18005550123';
const at = (iso: string): Date => new Date(iso);

describe('DEFAULT_QUIET_HOURS (docs/quiet-hours.md: 8:00 to 21:00 by default)', () => {
  it('allows 08:00 to 21:00', () => {
    expect(DEFAULT_QUIET_HOURS).toEqual({ start: '08:00', end: '21:00' });
  });
});

describe('recipientTimeZone', () => {
  it('uses the area code, else the fallback, else UTC', () => {
    expect(recipientTimeZone(LA, 'America/New_York')).toBe('America/Los_Angeles');
    expect(recipientTimeZone(TOLL_FREE, 'America/Chicago')).toBe('America/Chicago');
    expect(recipientTimeZone(TOLL_FREE, 'Bogus/Zone')).toBe('UTC');
    expect(recipientTimeZone('+442071838750')).toBe('UTC');
  });
});

describe('isWithinSendingWindow (recipient local time from the area code)', () => {
  it('reads the local time of the recipient, not UTC', () => {
    // 14:00 UTC = 09:00 in New York, 06:00 in Los Angeles.
    expect(isWithinSendingWindow(NY, at('2025-01-15T14:00:00Z'))).toBe(true);
    expect(isWithinSendingWindow(LA, at('2025-01-15T14:00:00Z'))).toBe(false);
  });

  it('includes the start and excludes the end', () => {
    expect(isWithinSendingWindow(NY, at('2025-01-15T13:00:00Z'))).toBe(true); // 08:00 EST
    expect(isWithinSendingWindow(NY, at('2025-01-15T12:59:59Z'))).toBe(false); // 07:59:59
    expect(isWithinSendingWindow(NY, at('2025-01-16T01:59:59Z'))).toBe(true); // 20:59:59
    expect(isWithinSendingWindow(NY, at('2025-01-16T02:00:00Z'))).toBe(false); // 21:00
  });

  it('follows daylight-saving time', () => {
    // 12:30 UTC is 07:30 EST in January but 08:30 EDT in July.
    expect(isWithinSendingWindow(NY, at('2025-01-15T12:30:00Z'))).toBe(false);
    expect(isWithinSendingWindow(NY, at('2025-07-15T12:30:00Z'))).toBe(true);
  });

  it('uses the fallback zone for numbers without a geographic area code', () => {
    const instant = at('2025-01-15T13:30:00Z'); // 07:30 in Chicago, 13:30 UTC
    expect(isWithinSendingWindow(TOLL_FREE, instant, undefined, 'America/Chicago')).toBe(false);
    expect(isWithinSendingWindow(TOLL_FREE, instant)).toBe(true);
  });

  it('supports custom windows, windows across midnight and no quiet hours', () => {
    const evening = { start: '18:00', end: '23:00' };
    expect(isWithinSendingWindow(NY, at('2025-01-16T03:30:00Z'), evening)).toBe(true); // 22:30
    expect(isWithinSendingWindow(NY, at('2025-01-15T14:00:00Z'), evening)).toBe(false); // 09:00
    const night = { start: '22:00', end: '06:00' };
    expect(isWithinSendingWindow(NY, at('2025-01-15T08:00:00Z'), night)).toBe(true); // 03:00
    expect(isWithinSendingWindow(NY, at('2025-01-15T17:00:00Z'), night)).toBe(false); // 12:00
    expect(isWithinSendingWindow(NY, at('2025-01-15T08:00:00Z'), { start: '00:00', end: '00:00' })).toBe(true);
    expect(isWithinSendingWindow(NY, at('2025-01-16T04:59:00Z'), { start: '00:00', end: '24:00' })).toBe(true);
  });

  it('rejects malformed windows', () => {
    expect(() => isWithinSendingWindow(NY, new Date(), { start: '8am', end: '21:00' })).toThrow(RangeError);
    expect(() => isWithinSendingWindow(NY, new Date(), { start: '08:00', end: '25:00' })).toThrow(RangeError);
  });
});

describe('nextAllowedSendTime (messages outside wait for the next allowed time)', () => {
  it('returns the instant itself inside the window', () => {
    const instant = at('2025-01-15T15:00:00Z');
    const next = nextAllowedSendTime(NY, instant);
    expect(next.toISOString()).toBe('2025-01-15T15:00:00.000Z');
    expect(next).not.toBe(instant);
  });

  it('waits until 08:00 local the same morning', () => {
    expect(nextAllowedSendTime(NY, at('2025-01-15T12:00:00Z')).toISOString()).toBe('2025-01-15T13:00:00.000Z');
    expect(nextAllowedSendTime(LA, at('2025-01-15T15:30:00Z')).toISOString()).toBe('2025-01-15T16:00:00.000Z');
    expect(nextAllowedSendTime(PHOENIX, at('2025-07-01T14:00:00Z')).toISOString()).toBe('2025-07-01T15:00:00.000Z');
  });

  it('waits until 08:00 local the next morning after 21:00', () => {
    // 21:30 EST on Jan 15 → 08:00 EST on Jan 16.
    expect(nextAllowedSendTime(NY, at('2025-01-16T02:30:00Z')).toISOString()).toBe('2025-01-16T13:00:00.000Z');
    // Across a month and year end.
    expect(nextAllowedSendTime(NY, at('2026-01-01T03:00:00Z')).toISOString()).toBe('2026-01-01T13:00:00.000Z');
  });

  it('is correct across daylight-saving changes', () => {
    // 21:00 EST Mar 8 2025; clocks spring forward that night → 08:00 EDT = 12:00 UTC.
    expect(nextAllowedSendTime(NY, at('2025-03-09T02:00:00Z')).toISOString()).toBe('2025-03-09T12:00:00.000Z');
    // 22:00 EDT Nov 1 2025; clocks fall back that night → 08:00 EST = 13:00 UTC.
    expect(nextAllowedSendTime(NY, at('2025-11-02T02:00:00Z')).toISOString()).toBe('2025-11-02T13:00:00.000Z');
    // Los Angeles, same spring-forward night: 23:00 PST → 08:00 PDT = 15:00 UTC.
    expect(nextAllowedSendTime(LA, at('2025-03-09T07:00:00Z')).toISOString()).toBe('2025-03-09T15:00:00.000Z');
  });

  it('moves a start inside a skipped hour to the first instant after the gap', () => {
    // 02:30 does not exist in New York on 2025-03-09; 03:00 EDT = 07:00 UTC.
    const next = nextAllowedSendTime(NY, at('2025-03-09T05:00:00Z'), { start: '02:30', end: '05:00' });
    expect(next.toISOString()).toBe('2025-03-09T07:00:00.000Z');
    expect(isWithinSendingWindow(NY, next, { start: '02:30', end: '05:00' })).toBe(true);
  });

  it('handles windows across midnight and the fallback zone', () => {
    expect(nextAllowedSendTime(NY, at('2025-01-15T17:00:00Z'), { start: '22:00', end: '06:00' }).toISOString()).toBe('2025-01-16T03:00:00.000Z');
    expect(nextAllowedSendTime(TOLL_FREE, at('2025-01-15T13:30:00Z'), undefined, 'America/Chicago').toISOString()).toBe('2025-01-15T14:00:00.000Z');
  });

  it('always lands inside the window, at or after the instant', () => {
    for (let hour = 0; hour < 48; hour += 1) {
      const instant = new Date(Date.UTC(2025, 2, 8, hour, 17));
      const next = nextAllowedSendTime(NY, instant);
      expect(next.getTime()).toBeGreaterThanOrEqual(instant.getTime());
      expect(isWithinSendingWindow(NY, next)).toBe(true);
      expect(next.getTime() - instant.getTime()).toBeLessThan(12 * 3_600_000);
    }
  });
});
