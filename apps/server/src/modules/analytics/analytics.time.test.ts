/**
 * The series buckets of `analytics.time.ts` (issue 23 item 6): hourly buckets step by LOCAL hours and
 * start at the local hour's start, in whole-hour, half-hour and quarter-hour zones, across both
 * daylight-saving changes (Australia/Adelaide, America/New_York, Australia/Lord_Howe) and in zones
 * without one (Asia/Kathmandu +5:45, Australia/Eucla +8:45).
 */
import { describe, expect, it } from 'vitest';
import { zonedDateTime } from '@switchboard/domain';
import { buckets, dayRange, resolveRange } from './analytics.time.js';

/** The hourly buckets of one local day. */
function hoursOf(date: string, tz: string) {
  return buckets(dayRange(date, date, tz), 'hour', tz);
}

/** Checks the invariants every hourly series must keep: labels of the day, in order, each `at` the first instant of its label. */
function expectLocalHours(series: Array<{ bucket: string; at: Date }>, date: string, tz: string) {
  for (const [i, b] of series.entries()) {
    expect(b.bucket.slice(0, 10), b.bucket).toBe(date);
    const z = zonedDateTime(b.at, tz);
    expect(`${z.date} ${String(z.hour).padStart(2, '0')}:00`, b.at.toISOString()).toBe(b.bucket);
    // The first instant of that local hour: one minute earlier is another hour (or before the range).
    const before = zonedDateTime(new Date(b.at.getTime() - 60_000), tz);
    expect(`${before.date} ${String(before.hour).padStart(2, '0')}:00`).not.toBe(b.bucket);
    if (i > 0) expect(b.at.getTime()).toBeGreaterThan(series[i - 1]!.at.getTime());
  }
}

describe('buckets(): hours', () => {
  it('Australia/Adelaide on an ordinary day: 24 local hours starting at :30 UTC, none from the day before', () => {
    const s = hoursOf('2026-06-15', 'Australia/Adelaide'); // +9:30
    expect(s).toHaveLength(24);
    expect(s[0]).toEqual({ bucket: '2026-06-15 00:00', at: new Date('2026-06-14T14:30:00Z') });
    expect(s[1]).toEqual({ bucket: '2026-06-15 01:00', at: new Date('2026-06-14T15:30:00Z') });
    expect(s[23]).toEqual({ bucket: '2026-06-15 23:00', at: new Date('2026-06-15T13:30:00Z') });
    expectLocalHours(s, '2026-06-15', 'Australia/Adelaide');
  });

  it('Australia/Adelaide, DST starts (2026-10-04, 02:00 → 03:00): 23 hours, no 02:00', () => {
    const s = hoursOf('2026-10-04', 'Australia/Adelaide');
    expect(s).toHaveLength(23);
    expect(s.map((b) => b.bucket)).not.toContain('2026-10-04 02:00');
    expect(s[0]).toEqual({ bucket: '2026-10-04 00:00', at: new Date('2026-10-03T14:30:00Z') });
    expect(s[2]).toEqual({ bucket: '2026-10-04 03:00', at: new Date('2026-10-03T16:30:00Z') });
    expect(s[22]).toEqual({ bucket: '2026-10-04 23:00', at: new Date('2026-10-04T12:30:00Z') });
    expectLocalHours(s, '2026-10-04', 'Australia/Adelaide');
  });

  it('Australia/Adelaide, DST ends (2026-04-05, 03:00 → 02:00): 24 buckets, the repeated 02:00 once, at its first start', () => {
    const s = hoursOf('2026-04-05', 'Australia/Adelaide');
    expect(s).toHaveLength(24);
    expect(s[0]).toEqual({ bucket: '2026-04-05 00:00', at: new Date('2026-04-04T13:30:00Z') });
    expect(s[2]).toEqual({ bucket: '2026-04-05 02:00', at: new Date('2026-04-04T15:30:00Z') });
    expect(s[3]).toEqual({ bucket: '2026-04-05 03:00', at: new Date('2026-04-04T17:30:00Z') });
    expect(new Set(s.map((b) => b.bucket)).size).toBe(24);
    expectLocalHours(s, '2026-04-05', 'Australia/Adelaide');
  });

  it('Asia/Kathmandu (+5:45) and Australia/Eucla (+8:45): hours start at :15 UTC', () => {
    const k = hoursOf('2026-11-28', 'Asia/Kathmandu');
    expect(k).toHaveLength(24);
    expect(k[0]).toEqual({ bucket: '2026-11-28 00:00', at: new Date('2026-11-27T18:15:00Z') });
    expect(k[5]).toEqual({ bucket: '2026-11-28 05:00', at: new Date('2026-11-27T23:15:00Z') });
    expectLocalHours(k, '2026-11-28', 'Asia/Kathmandu');
    const e = hoursOf('2026-11-28', 'Australia/Eucla');
    expect(e).toHaveLength(24);
    expect(e[0]).toEqual({ bucket: '2026-11-28 00:00', at: new Date('2026-11-27T15:15:00Z') });
    expectLocalHours(e, '2026-11-28', 'Australia/Eucla');
  });

  it('America/New_York on both DST days: 23 and 25 local hours collapse to 23 and 24 buckets on whole UTC hours', () => {
    const spring = hoursOf('2026-03-08', 'America/New_York');
    expect(spring).toHaveLength(23);
    expect(spring[0]).toEqual({ bucket: '2026-03-08 00:00', at: new Date('2026-03-08T05:00:00Z') });
    expect(spring[2]).toEqual({ bucket: '2026-03-08 03:00', at: new Date('2026-03-08T07:00:00Z') });
    expectLocalHours(spring, '2026-03-08', 'America/New_York');
    const autumn = hoursOf('2026-11-01', 'America/New_York');
    expect(autumn).toHaveLength(24);
    expect(autumn[1]).toEqual({ bucket: '2026-11-01 01:00', at: new Date('2026-11-01T05:00:00Z') });
    expect(autumn[2]).toEqual({ bucket: '2026-11-01 02:00', at: new Date('2026-11-01T07:00:00Z') });
    expectLocalHours(autumn, '2026-11-01', 'America/New_York');
  });

  it('Australia/Lord_Howe (a 30-minute change): the hour after the change starts where the clock jumps', () => {
    const s = hoursOf('2026-10-04', 'Australia/Lord_Howe'); // 02:00 +10:30 → 02:30 +11
    expect(s.map((b) => b.bucket)).toContain('2026-10-04 02:00');
    expectLocalHours(s, '2026-10-04', 'Australia/Lord_Howe');
  });

  it('a range given as instants: the first bucket starts at the range, the rest at local hour starts', () => {
    const tz = 'Australia/Adelaide';
    const range = resolveRange({ from: '2026-06-15T00:10:00Z', to: '2026-06-15T03:00:00Z' }, tz, new Date('2026-06-16T00:00:00Z'));
    const s = buckets(range, 'hour', tz);
    expect(s.map((b) => [b.bucket, b.at.toISOString()])).toEqual([
      ['2026-06-15 09:00', '2026-06-15T00:10:00.000Z'],
      ['2026-06-15 10:00', '2026-06-15T00:30:00.000Z'],
      ['2026-06-15 11:00', '2026-06-15T01:30:00.000Z'],
      ['2026-06-15 12:00', '2026-06-15T02:30:00.000Z'],
    ]);
  });
});

describe('buckets(): days', () => {
  it('local days start at local midnight in half-hour zones', () => {
    const tz = 'Australia/Adelaide';
    const s = buckets(dayRange('2026-10-03', '2026-10-05', tz), 'day', tz);
    expect(s.map((b) => [b.bucket, b.at.toISOString()])).toEqual([
      ['2026-10-03', '2026-10-02T14:30:00.000Z'],
      ['2026-10-04', '2026-10-03T14:30:00.000Z'],
      ['2026-10-05', '2026-10-04T13:30:00.000Z'],
    ]);
  });
});
