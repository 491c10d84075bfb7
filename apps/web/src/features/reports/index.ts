/**
 * Call reports and the analytics toolkit the routes compose (app/routes/AnalyticsRoutes.tsx; features
 * never import each other): the reports page, its state in the URL, ranges, column definitions and the
 * preset kind of a report, the range picker, exports and the live refresh.
 */
export { ReportsPage, type ReportFavoriteState, type ReportsPageProps } from './components/ReportsPage';
export { RangeControls } from './components/RangeControls';
export { ExportButton, type ExportChoice, type ExportColumnPreset } from './components/ExportButton';
export { readReportState, reportParams, type ReportState } from './report-state';
export { DEFAULT_MEASURES, MEASURE_COLUMNS, presetKindFor } from './columns';
export { comparisonRange, presetRange, todayIn, isDay, RANGE_PRESETS, type ComparisonOption, type DayRange, type RangePreset } from './ranges';
export { useCompanyTimezone } from './api/company-timezone';
export { useAnalyticsLive } from './realtime/use-analytics-live';
export { GROUP_LABELS, formatSeconds } from './labels';
