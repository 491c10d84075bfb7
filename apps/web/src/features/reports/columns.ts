/**
 * Columns of the call report table (docs/reports-screens.md "Columns"): the grouping's key columns
 * always come first; the measure columns are the person's choice (a column preset of the report's
 * kind, spec 001 "Column preset"), in their order.
 */
import { TRAFFIC_SOURCE_LABELS, type CallReportGroup, type CallReportRow, type CallReportTarget, type ColumnPresetKind } from '@switchboard/contracts';
import { formatPhone } from '@switchboard/domain';
import { formatDay } from './ranges';
import { getDateDisplay } from '../../lib/dates';
import { formatSeconds } from './labels';

export interface MeasureColumn {
  key: keyof CallReportRow & string;
  label: string;
  format: (row: Partial<CallReportRow>) => string;
  numeric: true;
}

const count = (key: keyof CallReportRow) => (row: Partial<CallReportRow>) => {
  const v = row[key];
  return typeof v === 'number' ? v.toLocaleString('en-US') : '—';
};
const seconds = (key: keyof CallReportRow) => (row: Partial<CallReportRow>) => formatSeconds(row[key] as number | null | undefined);

/** Every measure a report row carries, in the default order. */
export const MEASURE_COLUMNS: MeasureColumn[] = [
  { key: 'calls', label: 'Calls', format: count('calls'), numeric: true },
  { key: 'answered', label: 'Answered', format: count('answered'), numeric: true },
  { key: 'missed', label: 'Missed', format: count('missed'), numeric: true },
  { key: 'voicemails', label: 'Voicemails', format: count('voicemails'), numeric: true },
  { key: 'blocked', label: 'Blocked', format: count('blocked'), numeric: true },
  { key: 'firstTimeCallers', label: 'First-time callers', format: count('firstTimeCallers'), numeric: true },
  { key: 'uniqueCallers', label: 'Unique callers', format: count('uniqueCallers'), numeric: true },
  { key: 'qualified', label: 'Qualified', format: count('qualified'), numeric: true },
  { key: 'leads', label: 'Leads', format: count('leads'), numeric: true },
  { key: 'totalDurationS', label: 'Talk time', format: seconds('totalDurationS'), numeric: true },
  { key: 'avgDurationS', label: 'Avg. duration', format: seconds('avgDurationS'), numeric: true },
  { key: 'avgAnswerTimeS', label: 'Avg. time to answer', format: seconds('avgAnswerTimeS'), numeric: true },
  {
    key: 'missedPct',
    label: 'Missed %',
    format: (row) => (typeof row.missedPct === 'number' ? `${row.missedPct.toFixed(1)}%` : '—'),
    numeric: true,
  },
];

export const DEFAULT_MEASURES = ['calls', 'answered', 'missed', 'voicemails', 'firstTimeCallers', 'avgDurationS', 'missedPct'];

/** The chosen measure columns (unknown keys dropped; none chosen = the defaults). */
export function chosenMeasures(keys: string[]): MeasureColumn[] {
  const picked = keys.map((k) => MEASURE_COLUMNS.find((c) => c.key === k)).filter((c): c is MeasureColumn => Boolean(c));
  return picked.length ? picked : DEFAULT_MEASURES.map((k) => MEASURE_COLUMNS.find((c) => c.key === k)!);
}

/** "12am", "9am", "1pm" (a local hour 0-23); "00:00" … "23:00" with the 24-hour clock of General settings. */
export function formatHour(hour: number): string {
  if (getDateDisplay().timeFormat === '24h') return `${String(hour).padStart(2, '0')}:00`;
  const h = hour % 12 === 0 ? 12 : hour % 12;
  return `${h}${hour < 12 ? 'am' : 'pm'}`;
}

export interface KeyColumn {
  key: string;
  label: string;
  value: (row: CallReportRow) => string;
  /** Sort value (days and hours sort in time order). */
  sort: (row: CallReportRow) => string | number;
}

const THIS_YEAR = new Date().getFullYear();
const dayCol: KeyColumn = { key: 'day', label: 'Day', value: (r) => (r.day ? formatDay(r.day, THIS_YEAR) : ''), sort: (r) => r.day ?? '' };
const hourCol: KeyColumn = { key: 'hour', label: 'Hour', value: (r) => (r.hour === undefined ? '' : formatHour(r.hour)), sort: (r) => r.hour ?? -1 };

/** The label of a row's group key (its number, person, tag, source, pool or location). */
export function keyLabel(group: CallReportGroup, r: CallReportRow): string {
  switch (group) {
    case 'number_day':
    case 'number':
      return r.numberLabel ? `${r.numberLabel} (${formatPhone(r.number ?? '')})` : r.number ? formatPhone(r.number) : 'Unknown number';
    case 'answered_by_day':
      return r.answeredByName || (r.answeredBy ? `User ${r.answeredBy}` : 'Not answered in the app');
    case 'tag_day':
      return r.tagName || (r.tagId ? `Tag ${r.tagId}` : 'Untagged');
    case 'traffic_source_day':
      return r.trafficSource ? ((TRAFFIC_SOURCE_LABELS as Record<string, string>)[r.trafficSource] ?? r.trafficSource) : 'Direct / untracked';
    case 'dni_pool_day':
      return r.dniPoolName || (r.dniPoolId ? `Pool ${r.dniPoolId}` : 'No tracking pool');
    case 'geo':
      return r.geo || 'Unknown';
    case 'day_hour':
      return `${r.day ? formatDay(r.day, THIS_YEAR) : ''} ${r.hour === undefined ? '' : formatHour(r.hour)}`.trim();
    case 'hour_day':
      return r.hour === undefined ? '' : formatHour(r.hour);
  }
}

const KEY_TITLES: Partial<Record<CallReportGroup, string>> = {
  number_day: 'Number',
  number: 'Number',
  answered_by_day: 'Answered by',
  tag_day: 'Tag',
  traffic_source_day: 'Traffic source',
  dni_pool_day: 'Tracking pool',
  geo: 'Caller location',
};

/** The key columns of a grouping, in order. */
export function keyColumns(group: CallReportGroup): KeyColumn[] {
  if (group === 'day_hour') return [dayCol, hourCol];
  if (group === 'hour_day') return [hourCol, dayCol];
  const main: KeyColumn = { key: 'key', label: KEY_TITLES[group]!, value: (r) => keyLabel(group, r), sort: (r) => keyLabel(group, r).toLowerCase() };
  return group === 'number' || group === 'geo' ? [main] : [main, dayCol];
}

/**
 * The column-preset kind (spec 001's 14 report kinds) a report's columns are saved under: the grouping's
 * own kind where there is one (traffic source → by_source, tracking pool → by_tracking_pool, answered by
 * → by_forwarding_number), else the measure's (talk time → by_duration, unique callers →
 * by_unique_caller, missed → by_missed_calls), else call_analytics_by_number.
 */
export function presetKindFor(group: CallReportGroup, target: CallReportTarget): ColumnPresetKind {
  if (group === 'traffic_source_day') return 'by_source';
  if (group === 'dni_pool_day') return 'by_tracking_pool';
  if (group === 'answered_by_day') return 'by_forwarding_number';
  if (target === 'duration') return 'by_duration';
  if (target === 'unique_callers') return 'by_unique_caller';
  if (target === 'missed') return 'by_missed_calls';
  return 'call_analytics_by_number';
}

/** One CSV field: quoted when it holds a comma, quote or line break; a leading =, +, - or @ is neutralised (formula injection). */
function csvField(value: string): string {
  const safe = /^[=+\-@]/.test(value) && !/^-?\d/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * The table as shown (key columns, then the chosen measures, then a Total line) as CSV text: the
 * grouped figures, while the server's export lists the calls themselves.
 */
export function tableCsv(group: CallReportGroup, rows: CallReportRow[], totals: Partial<CallReportRow>, measures: MeasureColumn[]): string {
  const keys = keyColumns(group);
  const lines = [[...keys.map((k) => k.label), ...measures.map((m) => m.label)]];
  for (const r of rows) lines.push([...keys.map((k) => k.value(r)), ...measures.map((m) => m.format(r))]);
  lines.push([...keys.map((_, i) => (i === 0 ? 'Total' : '')), ...measures.map((m) => m.format(totals))]);
  return lines.map((l) => l.map(csvField).join(',')).join('\r\n') + '\r\n';
}
