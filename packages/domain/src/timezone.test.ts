import { describe, it, expect } from 'vitest';
import { DEFAULT_TIME_ZONE, currentZoneName, isValidTimeZone, localTimeZone, resolveTimeZone, timeZoneNames, zonedDateTime } from './timezone.js';

describe('isValidTimeZone', () => {
  it('accepts known IANA zones', () => {
    expect(isValidTimeZone('America/New_York')).toBe(true);
    expect(isValidTimeZone('Europe/London')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
  });

  it('rejects unknown names and non-strings', () => {
    expect(isValidTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
    expect(isValidTimeZone('  ')).toBe(false);
    expect(isValidTimeZone(null)).toBe(false);
    expect(isValidTimeZone(undefined)).toBe(false);
    expect(isValidTimeZone(42)).toBe(false);
  });
});

describe('resolveTimeZone (foundation §3: an unknown stored zone uses a default zone)', () => {
  it('keeps a known zone', () => {
    expect(resolveTimeZone('America/Chicago')).toBe('America/Chicago');
  });

  it('falls back to UTC, or to the given fallback', () => {
    expect(DEFAULT_TIME_ZONE).toBe('UTC');
    expect(resolveTimeZone('Not/AZone')).toBe('UTC');
    expect(resolveTimeZone(null)).toBe('UTC');
    expect(resolveTimeZone(undefined, 'America/Denver')).toBe('America/Denver');
    expect(resolveTimeZone('Not/AZone', 'Europe/Paris')).toBe('Europe/Paris');
  });

  it('localTimeZone returns a usable zone', () => {
    expect(isValidTimeZone(localTimeZone())).toBe(true);
  });
});

describe('zonedDateTime', () => {
  it('reads each zone right when zones alternate within one second, and never hands out a mutable answer', () => {
    const t = new Date('2026-03-08T07:30:15.250Z'); // 03:30:15 EDT (after the spring change), 23:30:15 PST the day before
    const ny = zonedDateTime(t, 'America/New_York');
    expect(zonedDateTime(t, 'America/Los_Angeles')).toMatchObject({ date: '2026-03-07', time: '23:30', second: 15 });
    expect(zonedDateTime(new Date(t.getTime() + 500), 'America/New_York')).toEqual(ny);
    expect(ny).toMatchObject({ date: '2026-03-08', time: '03:30', second: 15 });
    expect(zonedDateTime(new Date(t.getTime() + 1000), 'America/New_York').second).toBe(16);
    expect(Object.isFrozen(ny)).toBe(true);
  });

  it('reads the wall clock of an instant in a zone', () => {
    const instant = new Date('2026-07-04T16:05:09Z');
    expect(zonedDateTime(instant, 'America/New_York')).toEqual({
      year: 2026,
      month: 7,
      day: 4,
      hour: 12,
      minute: 5,
      second: 9,
      dayOfWeek: 6,
      date: '2026-07-04',
      time: '12:05',
    });
  });

  it('crosses the date line with the zone', () => {
    const instant = new Date('2026-01-01T03:30:00Z');
    expect(zonedDateTime(instant, 'America/Los_Angeles').date).toBe('2025-12-31');
    expect(zonedDateTime(instant, 'America/Los_Angeles').dayOfWeek).toBe(3); // Wednesday
    expect(zonedDateTime(instant, 'Asia/Tokyo').time).toBe('12:30');
  });

  it('reports midnight as hour 0', () => {
    expect(zonedDateTime(new Date('2026-05-01T04:00:00Z'), 'America/New_York').time).toBe('00:00');
  });

  it('follows daylight-saving changes', () => {
    // 2026-03-08 02:00 EST jumps to 03:00 EDT; 2026-11-01 02:00 EDT falls back to 01:00 EST.
    expect(zonedDateTime(new Date('2026-03-08T06:59:00Z'), 'America/New_York').time).toBe('01:59');
    expect(zonedDateTime(new Date('2026-03-08T07:00:00Z'), 'America/New_York').time).toBe('03:00');
    expect(zonedDateTime(new Date('2026-11-01T05:30:00Z'), 'America/New_York').time).toBe('01:30');
    expect(zonedDateTime(new Date('2026-11-01T06:30:00Z'), 'America/New_York').time).toBe('01:30');
  });

  it('uses UTC for an unknown zone', () => {
    expect(zonedDateTime(new Date('2026-07-04T16:05:00Z'), 'Nowhere/Land').time).toBe('16:05');
  });
});

describe('time-zone names', () => {
  it("uses today's IANA names where ICU still reports old ones", () => {
    expect(currentZoneName('Asia/Calcutta')).toBe('Asia/Kolkata');
    expect(currentZoneName('Europe/Kiev')).toBe('Europe/Kyiv');
    expect(currentZoneName('America/New_York')).toBe('America/New_York');
    const names = timeZoneNames();
    expect(names[0]).toBe('UTC');
    expect(names).toContain('Asia/Kolkata');
    expect(names).toContain('Asia/Ho_Chi_Minh');
    expect(names).not.toContain('Asia/Calcutta');
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeGreaterThan(300);
    expect(names.every(isValidTimeZone)).toBe(true);
    expect(names.slice(1)).toEqual([...names.slice(1)].sort());
  });
});
