/** Dashboard ranges (features/dashboard/ranges.ts): presets, comparison periods, formatting. */
import { describe, expect, it } from 'vitest';
import { changePercent, comparisonRange, formatRange, isDay, presetRange, rangeLength, subtractMonths, todayIn } from './ranges';

describe('presetRange', () => {
  it('ends every preset today, today included', () => {
    expect(presetRange('today', '2026-11-23')).toEqual({ from: '2026-11-23', to: '2026-11-23' });
    expect(presetRange('7d', '2026-11-23')).toEqual({ from: '2026-11-17', to: '2026-11-23' });
    expect(presetRange('30d', '2026-11-23')).toEqual({ from: '2026-10-25', to: '2026-11-23' });
    expect(presetRange('90d', '2026-03-10')).toEqual({ from: '2025-12-11', to: '2026-03-10' });
    expect(presetRange('month', '2026-11-23')).toEqual({ from: '2026-11-01', to: '2026-11-23' });
    expect(presetRange('custom', '2026-11-23', { from: '2026-01-02', to: '2026-01-05' })).toEqual({ from: '2026-01-02', to: '2026-01-05' });
  });

  it('counts calendar days across a daylight-saving change', () => {
    // America/New_York moved to summer time on 2026-03-08: still 7 calendar days.
    expect(presetRange('7d', '2026-03-10')).toEqual({ from: '2026-03-04', to: '2026-03-10' });
    expect(rangeLength({ from: '2026-03-04', to: '2026-03-10' })).toBe(7);
  });
});

describe('comparisonRange', () => {
  it('defaults to the same-length range just before', () => {
    expect(comparisonRange({ from: '2026-11-17', to: '2026-11-23' }, 'previous')).toEqual({ from: '2026-11-10', to: '2026-11-16' });
    expect(comparisonRange({ from: '2026-11-23', to: '2026-11-23' }, 'previous')).toEqual({ from: '2026-11-22', to: '2026-11-22' });
    expect(comparisonRange({ from: '2026-03-01', to: '2026-03-31' }, 'previous')).toEqual({ from: '2026-01-29', to: '2026-02-28' });
  });

  it('shifts by months with the day clamped to the month', () => {
    expect(comparisonRange({ from: '2026-11-01', to: '2026-11-23' }, 'month')).toEqual({ from: '2026-10-01', to: '2026-10-23' });
    expect(comparisonRange({ from: '2026-03-01', to: '2026-03-31' }, 'month')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(comparisonRange({ from: '2026-02-10', to: '2026-02-20' }, '3_months')).toEqual({ from: '2025-11-10', to: '2025-11-20' });
    expect(comparisonRange({ from: '2026-08-31', to: '2026-08-31' }, '6_months')).toEqual({ from: '2026-02-28', to: '2026-02-28' });
    expect(comparisonRange({ from: '2028-02-29', to: '2028-03-01' }, 'year')).toEqual({ from: '2027-02-28', to: '2027-03-01' });
    expect(subtractMonths('2026-01-15', 1)).toBe('2025-12-15');
  });
});

describe('helpers', () => {
  it('knows real days', () => {
    expect(isDay('2026-02-28')).toBe(true);
    expect(isDay('2026-02-30')).toBe(false);
    expect(isDay('2026-2-3')).toBe(false);
    expect(isDay(null)).toBe(false);
  });

  it('reads today in the company zone', () => {
    const instant = new Date('2026-11-23T03:30:00Z');
    expect(todayIn('America/New_York', instant)).toBe('2026-11-22');
    expect(todayIn('Asia/Tokyo', instant)).toBe('2026-11-23');
  });

  it('formats ranges with the spec date format', () => {
    expect(formatRange({ from: '2026-11-01', to: '2026-11-23' })).toBe('Nov 1 – Nov 23, 2026');
    expect(formatRange({ from: '2025-12-30', to: '2026-01-02' })).toBe('Dec 30, 2025 – Jan 2, 2026');
    expect(formatRange({ from: '2026-11-23', to: '2026-11-23' })).toBe('Nov 23, 2026');
  });

  it('computes the change in percent, none against zero', () => {
    expect(changePercent(12, 10)).toBe(20);
    expect(changePercent(5, 8)).toBe(-37.5);
    expect(changePercent(1, 3)).toBe(-66.7);
    expect(changePercent(4, 0)).toBeNull();
    expect(changePercent(4, null)).toBeNull();
  });
});
