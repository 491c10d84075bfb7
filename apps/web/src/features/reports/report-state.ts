/**
 * The state of a call report as URL search params, so a report is a link: it survives a reload, can be
 * shared, and a favourite report (spec 002 "Favorite report") reopens it from its saved `filters`
 * (exactly these params), `grouping` (`group`) and `columns`. docs/reports-screens.md "Report state".
 *
 * Params: `preset` (RangePreset), `from`/`to` (custom range days), `group`, `target`, `columns`
 * (comma list) and one param per report filter of spec 001 §7 (lists comma-separated; text filters with
 * `<key>Op=equals` for an exact match).
 */
import {
  ATTRIBUTION_MODELS,
  ANSWER_STATUS_NAMES,
  CALL_OUTCOMES,
  CALL_REPORT_GROUPS,
  CALL_REPORT_TARGETS,
  DEPARTMENT_TYPES,
  type AnswerStatusName,
  type AttributionModel,
  type CallOutcome,
  type CallReportFiltersInput,
  type CallReportGroup,
  type CallReportTarget,
  type DepartmentType,
} from '@switchboard/contracts';
import { isDay, presetRange, RANGE_PRESETS, type DayRange, type RangePreset } from './ranges';

/** Report filters as the screens hold them (ids as numbers, flags tri-state: null = any). */
export interface ReportFilterState {
  number_ids: number[];
  tagIds: number[];
  companies: number[];
  businessUnits: number[];
  answerStatus: AnswerStatusName[];
  /** Seconds; null = no minimum. */
  minDuration: number | null;
  isFirstContact: boolean | null;
  answered_by: number[];
  geo: string[];
  geoExact: boolean;
  attributionModel: AttributionModel | null;
  trafficSource: string[];
  trafficSourceExact: boolean;
  outcomes: CallOutcome[];
  departments: DepartmentType[];
  isQualified: boolean | null;
  isLead: boolean | null;
  dniPools: number[];
  extensionLabels: string[];
  extensionLabelsExact: boolean;
}

export const EMPTY_FILTERS: ReportFilterState = {
  number_ids: [],
  tagIds: [],
  companies: [],
  businessUnits: [],
  answerStatus: [],
  minDuration: null,
  isFirstContact: null,
  answered_by: [],
  geo: [],
  geoExact: false,
  attributionModel: null,
  trafficSource: [],
  trafficSourceExact: false,
  outcomes: [],
  departments: [],
  isQualified: null,
  isLead: null,
  dniPools: [],
  extensionLabels: [],
  extensionLabelsExact: false,
};

export interface ReportState {
  preset: RangePreset;
  /** The custom range (used when preset is custom). */
  custom: DayRange | null;
  group: CallReportGroup;
  target: CallReportTarget;
  filters: ReportFilterState;
  /** Chosen table columns in order; empty = the report's default. */
  columns: string[];
}

const ID_LISTS = ['number_ids', 'tagIds', 'companies', 'businessUnits', 'answered_by', 'dniPools'] as const;
const TEXT_LISTS = ['geo', 'trafficSource', 'extensionLabels'] as const;
const FLAGS = ['isFirstContact', 'isQualified', 'isLead'] as const;

function ids(value: string | null): number[] {
  if (!value) return [];
  return value
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
}

function texts(value: string | null): string[] {
  if (!value) return [];
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function oneOf<T extends string>(value: string | null, allowed: readonly T[]): T | null {
  return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : null;
}

function flag(value: string | null): boolean | null {
  return value === '1' ? true : value === '0' ? false : null;
}

/** Reads a report's state from URL search params; unknown or malformed values fall back to defaults. */
export function readReportState(params: URLSearchParams, defaults: { group?: CallReportGroup; preset?: RangePreset } = {}): ReportState {
  const f: ReportFilterState = { ...EMPTY_FILTERS };
  for (const key of ID_LISTS) f[key] = ids(params.get(key));
  for (const key of TEXT_LISTS) f[key] = texts(params.get(key));
  for (const key of FLAGS) f[key] = flag(params.get(key));
  f.geoExact = params.get('geoOp') === 'equals';
  f.trafficSourceExact = params.get('trafficSourceOp') === 'equals';
  f.extensionLabelsExact = params.get('extensionLabelsOp') === 'equals';
  f.answerStatus = texts(params.get('answerStatus')).filter((s): s is AnswerStatusName => (ANSWER_STATUS_NAMES as readonly string[]).includes(s));
  f.outcomes = texts(params.get('outcomes')).filter((s): s is CallOutcome => (CALL_OUTCOMES as readonly string[]).includes(s));
  f.departments = texts(params.get('departments')).filter((s): s is DepartmentType => (DEPARTMENT_TYPES as readonly string[]).includes(s));
  f.attributionModel = oneOf(params.get('attributionModel'), ATTRIBUTION_MODELS);
  const min = Number(params.get('minDuration'));
  f.minDuration = params.get('minDuration') && Number.isInteger(min) && min >= 0 ? min : null;

  const from = params.get('from');
  const to = params.get('to');
  const custom = isDay(from) && isDay(to) ? (from <= to ? { from, to } : { from: to, to: from }) : null;
  const presetParam = oneOf(
    params.get('preset'),
    RANGE_PRESETS.map((p) => p.value),
  );
  const preset = presetParam ?? (custom ? 'custom' : (defaults.preset ?? '30d'));
  return {
    preset: preset === 'custom' && !custom ? '30d' : preset,
    custom,
    group: oneOf(params.get('group'), CALL_REPORT_GROUPS) ?? defaults.group ?? 'number_day',
    target: oneOf(params.get('target'), CALL_REPORT_TARGETS) ?? 'calls',
    filters: f,
    columns: texts(params.get('columns')),
  };
}

/** The search params of a report's filters only (no range, grouping or columns): flat scalars, as a favourite stores them. */
export function filterParams(f: ReportFilterState): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of ID_LISTS) if (f[key].length) out[key] = f[key].join(',');
  for (const key of TEXT_LISTS) if (f[key].length) out[key] = f[key].join(',');
  for (const key of FLAGS) if (f[key] !== null) out[key] = f[key] ? '1' : '0';
  if (f.geoExact && f.geo.length) out.geoOp = 'equals';
  if (f.trafficSourceExact && f.trafficSource.length) out.trafficSourceOp = 'equals';
  if (f.extensionLabelsExact && f.extensionLabels.length) out.extensionLabelsOp = 'equals';
  if (f.answerStatus.length) out.answerStatus = f.answerStatus.join(',');
  if (f.outcomes.length) out.outcomes = f.outcomes.join(',');
  if (f.departments.length) out.departments = f.departments.join(',');
  if (f.attributionModel) out.attributionModel = f.attributionModel;
  if (f.minDuration !== null) out.minDuration = String(f.minDuration);
  return out;
}

/** The search params of a whole report state (defaults left out, so links stay short). */
export function reportParams(state: ReportState): Record<string, string> {
  const out: Record<string, string> = { preset: state.preset };
  if (state.preset === 'custom' && state.custom) {
    out.from = state.custom.from;
    out.to = state.custom.to;
  }
  out.group = state.group;
  if (state.target !== 'calls') out.target = state.target;
  Object.assign(out, filterParams(state.filters));
  if (state.columns.length) out.columns = state.columns.join(',');
  return out;
}

/** How many filters are set (the badge on the Filters button). */
export function activeFilterCount(f: ReportFilterState): number {
  return Object.keys(filterParams(f)).filter((k) => !k.endsWith('Op')).length;
}

function textFilter(values: string[], exact: boolean) {
  return values.length ? values.map((value) => (exact ? { value, operator: 'equals' as const } : value)) : undefined;
}

/**
 * The report filters of the API (CallReportFilters of packages/contracts) for a state: the range as
 * local days of the company's zone (`timezone`), empty filters left out.
 */
export function toApiFilters(f: ReportFilterState, range: DayRange, timezone: string): CallReportFiltersInput {
  const list = <T>(v: T[]) => (v.length ? v : undefined);
  const bool = (v: boolean | null) => (v === null ? undefined : v);
  return {
    dates: { from: range.from, to: range.to },
    timezone,
    number_ids: list(f.number_ids),
    tagIds: list(f.tagIds),
    companies: list(f.companies),
    businessUnits: list(f.businessUnits),
    answerStatus: list(f.answerStatus),
    minDuration: f.minDuration ?? undefined,
    isFirstContact: bool(f.isFirstContact),
    answered_by: list(f.answered_by),
    geo: textFilter(f.geo, f.geoExact),
    attributionModel: f.attributionModel ?? undefined,
    trafficSource: textFilter(f.trafficSource, f.trafficSourceExact),
    outcomes: list(f.outcomes),
    departments: list(f.departments),
    isQualified: bool(f.isQualified),
    isLead: bool(f.isLead),
    dniPools: list(f.dniPools),
    extensionLabels: textFilter(f.extensionLabels, f.extensionLabelsExact),
  };
}

/** The range a state covers, `today` being the company's current day. */
export function stateRange(state: Pick<ReportState, 'preset' | 'custom'>, today: string): DayRange {
  return presetRange(state.preset, today, state.custom);
}
