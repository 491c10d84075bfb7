/** Report table columns (features/reports/columns.ts): key columns per grouping, preset kinds, the table as CSV. */
import { describe, expect, it } from 'vitest';
import type { CallReportRow } from '@switchboard/contracts';
import { chosenMeasures, formatHour, keyColumns, presetKindFor, tableCsv } from './columns';

const row = (extra: Partial<CallReportRow>): CallReportRow => ({
  calls: 3,
  answered: 2,
  missed: 1,
  voicemails: 0,
  blocked: 0,
  firstTimeCallers: 1,
  uniqueCallers: null,
  qualified: 0,
  leads: 0,
  totalDurationS: 125,
  avgDurationS: 62.5,
  avgAnswerTimeS: 4,
  missedPct: 33.3,
  value: 3,
  ...extra,
});

describe('report columns', () => {
  it('puts the grouping keys first', () => {
    expect(keyColumns('number_day').map((k) => k.label)).toEqual(['Number', 'Day']);
    expect(keyColumns('hour_day').map((k) => k.label)).toEqual(['Hour', 'Day']);
    expect(keyColumns('geo').map((k) => k.label)).toEqual(['Caller location']);
    expect(formatHour(0)).toBe('12am');
    expect(formatHour(13)).toBe('1pm');
  });

  it('saves columns under the spec report kind of the grouping, else of the measure', () => {
    expect(presetKindFor('traffic_source_day', 'missed')).toBe('by_source');
    expect(presetKindFor('dni_pool_day', 'calls')).toBe('by_tracking_pool');
    expect(presetKindFor('answered_by_day', 'calls')).toBe('by_forwarding_number');
    expect(presetKindFor('number', 'duration')).toBe('by_duration');
    expect(presetKindFor('geo', 'unique_callers')).toBe('by_unique_caller');
    expect(presetKindFor('tag_day', 'missed')).toBe('by_missed_calls');
    expect(presetKindFor('number_day', 'calls')).toBe('call_analytics_by_number');
  });

  it('writes the table as shown, quoted where needed, with totals', () => {
    const measures = chosenMeasures(['calls', 'totalDurationS', 'uniqueCallers', 'nope']);
    expect(measures.map((m) => m.key)).toEqual(['calls', 'totalDurationS', 'uniqueCallers']);
    const y = new Date().getFullYear();
    const csv = tableCsv(
      'traffic_source_day',
      [row({ trafficSource: 'Google, paid', day: `${y}-11-03` }), row({ trafficSource: '=cmd', day: `${y}-11-04`, calls: 1200 })],
      row({ calls: 1203 }),
      measures,
    );
    expect(csv.split('\r\n')).toEqual([
      'Traffic source,Day,Calls,Talk time,Unique callers',
      '"Google, paid",Nov 3,3,2m 05s,—',
      '\'=cmd,Nov 4,"1,200",2m 05s,—',
      'Total,,"1,203",2m 05s,—',
      '',
    ]);
  });
});
