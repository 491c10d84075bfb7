import { afterEach, describe, expect, it } from 'vitest';
import { formatDateTime, formatDay, formatStamp, getDateDisplay, setDateDisplay } from './dates';

const initial = getDateDisplay();
afterEach(() => setDateDisplay(initial));

describe('lib/dates', () => {
  it("formats in the company's zone and General settings once they are known", () => {
    setDateDisplay({ timeZone: 'America/New_York', dateFormat: 'MMM D, YYYY', timeFormat: '12h' });
    const at = '2026-11-29T02:29:00Z'; // Nov 28, 9:29 PM in New York
    expect(formatDateTime(at)).toMatch(/^Nov 28(, 2026)?, 9:29 PM$/);
    setDateDisplay({ timeZone: 'America/New_York', dateFormat: 'DD/MM/YYYY', timeFormat: '24h' });
    expect(formatDateTime(at)).toBe('28/11/2026 21:29');
    expect(formatDay('2026-12-25')).toBe('25/12/2026');
    expect(formatStamp(null)).toBe('');
  });

  it('tells listeners only when something changed', () => {
    setDateDisplay({ timeZone: 'UTC', dateFormat: 'YYYY-MM-DD', timeFormat: '24h' });
    const before = getDateDisplay();
    setDateDisplay({ timeZone: 'UTC', dateFormat: 'YYYY-MM-DD', timeFormat: '24h' });
    expect(getDateDisplay()).toBe(before);
  });
});
