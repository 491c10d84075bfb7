import { describe, expect, it } from 'vitest';
import { DEFAULT_DATE_DISPLAY, displayDate, displayDateTime, displayStamp, displayTime, type DateDisplay } from './date-display.js';

const ny: DateDisplay = { timeZone: 'America/New_York', dateFormat: 'MMM D, YYYY', timeFormat: '12h' };
const at = '2026-11-29T02:29:00Z'; // Nov 28, 9:29 PM in New York, Nov 29 in UTC
const now = new Date('2026-11-29T03:00:00Z');

describe('date display', () => {
  it('reads the wall clock of the given zone in the specification formats by default', () => {
    expect(displayDateTime(at, ny, now)).toBe('Nov 28, 9:29 PM');
    expect(displayDateTime(at, DEFAULT_DATE_DISPLAY, now)).toBe('Nov 29, 2:29 AM');
    expect(displayDate('2025-03-08T15:00:00Z', ny, now)).toBe('Mar 8, 2025');
  });

  it('honours the date and clock formats', () => {
    expect(displayDateTime(at, { ...ny, dateFormat: 'DD/MM/YYYY', timeFormat: '24h' }, now)).toBe('28/11/2026 21:29');
    expect(displayDateTime(at, { ...ny, dateFormat: 'MM/DD/YYYY' }, now)).toBe('11/28/2026 9:29 PM');
    expect(displayDateTime(at, { ...ny, dateFormat: 'YYYY-MM-DD', timeFormat: '24h' }, now)).toBe('2026-11-28 21:29');
    expect(displayTime('2026-11-28T05:00:00Z', { ...ny, timeFormat: '24h' })).toBe('00:00');
    expect(displayTime('2026-11-28T05:00:00Z', ny)).toBe('12:00 AM');
  });

  it('stamps today with the time and other days with the date, today being the zone’s', () => {
    expect(displayStamp(at, ny, now)).toBe('9:29 PM');
    expect(displayStamp('2026-11-27T15:00:00Z', ny, now)).toBe('Nov 27');
    expect(displayStamp(at, { ...ny, timeZone: 'Asia/Tokyo' }, new Date('2026-11-30T03:00:00Z'))).toBe('Nov 29');
  });

  it('gives an empty text for no or an invalid date', () => {
    expect(displayDateTime(null, ny)).toBe('');
    expect(displayDate('not a date', ny)).toBe('');
    expect(displayStamp(undefined, ny)).toBe('');
  });
});
