/** Call report state in the URL (features/reports/report-state.ts) and the API filters it sends. */
import { describe, expect, it } from 'vitest';
import { reportQueryParams } from './api/get-call-report';
import { activeFilterCount, readReportState, reportParams, toApiFilters } from './report-state';

describe('report state', () => {
  it('falls back to the last 30 days grouped by number and day', () => {
    const s = readReportState(new URLSearchParams('group=nope&target=x&preset=custom'));
    expect(s).toMatchObject({ preset: '30d', custom: null, group: 'number_day', target: 'calls', columns: [] });
    expect(activeFilterCount(s.filters)).toBe(0);
  });

  it('round-trips a filtered report through its URL', () => {
    const url =
      'preset=custom&from=2026-11-20&to=2026-11-01&group=traffic_source_day&target=missed&number_ids=3,9&answerStatus=missed,voicemail&minDuration=20&isFirstContact=0&trafficSource=google,bing&trafficSourceOp=equals&outcomes=appt_booked&departments=sales&isQualified=1&dniPools=5&geo=CA&columns=calls,missed';
    const s = readReportState(new URLSearchParams(url));
    // A reversed custom range is put in order.
    expect(s.custom).toEqual({ from: '2026-11-01', to: '2026-11-20' });
    expect(s.filters.trafficSourceExact).toBe(true);
    expect(activeFilterCount(s.filters)).toBe(10);
    expect(readReportState(new URLSearchParams(reportParams(s)))).toEqual(s);
  });

  it('sends text filters with the exact-match operator in the bracket form', () => {
    const s = readReportState(new URLSearchParams('trafficSource=google&trafficSourceOp=equals&geo=CA&isLead=0'));
    const filters = toApiFilters(s.filters, { from: '2026-11-01', to: '2026-11-07' }, 'America/Chicago');
    expect(filters.trafficSource).toEqual([{ value: 'google', operator: 'equals' }]);
    expect(filters.geo).toEqual(['CA']);
    expect(filters.isLead).toBe(false);
    expect(filters.number_ids).toBeUndefined();
    expect(reportQueryParams(filters)).toEqual({
      dates: { from: '2026-11-01', to: '2026-11-07' },
      timezone: 'America/Chicago',
      geo: ['CA'],
      'trafficSource[0][value]': 'google',
      'trafficSource[0][operator]': 'equals',
      isLead: 0,
    });
  });
});
