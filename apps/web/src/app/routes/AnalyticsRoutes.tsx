/**
 * Route components of the dashboard and call reports; each page is its own chunk (app/router.tsx), so
 * the charting library (@mantine/charts, recharts) loads only with these screens. Features never
 * import each other: here the dashboard is composed with the reports feature's range pickers, exports
 * and live refresh, and both screens with the report preferences (column presets, favourites).
 * docs/reports-screens.md.
 */
import { COMPARISON_PERIODS, DASHBOARD_GROUP_BY, EXPORT_COLUMNS, type ColumnPresetKind, type ComparisonPeriod, type ExportKind } from '@switchboard/contracts';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { DashboardPage } from '../../features/dashboard';
import { ColumnChooser, FavoritesMenu, SaveFavoriteButton, filtersFromSearch, useColumnPreset } from '../../features/report-preferences';
import {
  DEFAULT_MEASURES,
  ExportButton,
  MEASURE_COLUMNS,
  RangeControls,
  ReportsPage,
  comparisonRange,
  isDay,
  presetKindFor,
  presetRange,
  readReportState,
  todayIn,
  useAnalyticsLive,
  useCompanyTimezone,
  RANGE_PRESETS,
  type ExportColumnPreset,
  type RangePreset,
} from '../../features/reports';
import { RequireAbility } from '../../components/RequireAbility';

const MEASURE_OPTIONS = MEASURE_COLUMNS.map((c) => ({ key: c.key, label: c.label }));

/**
 * The dashboard's lists (its exports of calls, messages, voicemails and faxes, spec 002 "Dashboard") and the column-preset
 * kind of each (spec 001 "Column preset": dashboard, dashboard_messages, dashboard_voicemails, dashboard_faxes).
 */
const DASHBOARD_LISTS: Array<{ kind: ExportKind; label: string; presetKind: ColumnPresetKind }> = [
  { kind: 'calls', label: 'Calls', presetKind: 'dashboard' },
  { kind: 'messages', label: 'Messages', presetKind: 'dashboard_messages' },
  { kind: 'voicemails', label: 'Voicemails', presetKind: 'dashboard_voicemails' },
  { kind: 'fax', label: 'Faxes', presetKind: 'dashboard_faxes' },
];

/**
 * One dashboard list's columns as a column preset: the export's columns (all, in the export's order, by default),
 * chosen, ordered and saved with the chooser. Presets are asked for only while the export dialog is open.
 */
function useDashboardListPreset(list: (typeof DASHBOARD_LISTS)[number], enabled: boolean): ExportColumnPreset {
  const options = useMemo(() => EXPORT_COLUMNS[list.kind].map((c) => ({ key: c.key, label: c.label })), [list.kind]);
  const keys = options.map((o) => o.key);
  const preset = useColumnPreset(list.presetKind, { defaultColumns: keys, available: keys, enabled });
  return { columns: preset.columns, tools: <ColumnChooser options={options} preset={preset} label="Columns" inline /> };
}

/**
 * `/dashboard?preset=&from=&to=&comparison=&groupBy=`: the dashboard for a range of the company's days
 * (default the last 30) beside its comparison period (default the same length before). Its lists (the
 * exports of calls, messages, voicemails and faxes) keep their columns as column presets of the four
 * dashboard kinds.
 */
export function DashboardRoute() {
  // A role without reports (a `user`, `billing`) gets the "not available with your role" state, not failing requests.
  return (
    <RequireAbility ability="reports.read" title="Dashboard">
      <Dashboard />
    </RequireAbility>
  );
}

function Dashboard() {
  useAnalyticsLive();
  const [params, setParams] = useSearchParams();
  const { timezone, ready } = useCompanyTimezone();
  const today = todayIn(timezone);
  const presetParam = params.get('preset');
  const from = params.get('from');
  const to = params.get('to');
  const custom = isDay(from) && isDay(to) ? { from, to } : null;
  const preset: RangePreset =
    RANGE_PRESETS.some((p) => p.value === presetParam) && (presetParam !== 'custom' || custom) ? (presetParam as RangePreset) : custom ? 'custom' : '30d';
  const range = presetRange(preset, today, custom);
  const comparisonParam = params.get('comparison');
  const comparison: ComparisonPeriod = (COMPARISON_PERIODS as readonly string[]).includes(comparisonParam ?? '')
    ? (comparisonParam as ComparisonPeriod)
    : 'previous';
  const groupByParam = params.get('groupBy');
  const groupBy = (DASHBOARD_GROUP_BY as readonly string[]).includes(groupByParam ?? '') ? (groupByParam as 'day' | 'hour') : null;

  const set = (patch: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(patch)) {
      if (v === null) next.delete(k);
      else next.set(k, v);
    }
    setParams(next, { replace: true });
  };
  const filters = { dates: { from: range.from, to: range.to }, timezone };
  const [exporting, setExporting] = useState(false);
  const presets = [
    useDashboardListPreset(DASHBOARD_LISTS[0]!, exporting),
    useDashboardListPreset(DASHBOARD_LISTS[1]!, exporting),
    useDashboardListPreset(DASHBOARD_LISTS[2]!, exporting),
    useDashboardListPreset(DASHBOARD_LISTS[3]!, exporting),
  ];

  return (
    <DashboardPage
      request={{ from: range.from, to: range.to, timezone, comparison, groupBy }}
      ready={ready}
      onGroupByChange={(g) => set({ groupBy: g })}
      toolbar={
        <RangeControls
          preset={preset}
          range={range}
          timezone={timezone}
          onChange={(p, c) => set({ preset: p, from: p === 'custom' && c ? c.from : null, to: p === 'custom' && c ? c.to : null })}
          comparison={{ value: comparison, onChange: (v) => set({ comparison: v === 'previous' ? null : v }), range: comparisonRange(range, comparison) }}
        />
      }
      actions={
        <>
          <FavoritesMenu path="/dashboard" />
          <SaveFavoriteButton
            defaultName="Dashboard"
            state={() => ({ path: '/dashboard', filters: filtersFromSearch(params), grouping: groupBy, columns: [] })}
          />
          <ExportButton
            disabled={!ready}
            onOpenChange={setExporting}
            choices={DASHBOARD_LISTS.map((list, i) => ({
              value: list.kind,
              label: list.label,
              columns: EXPORT_COLUMNS[list.kind],
              preset: presets[i],
              request: (columns) => ({ source: 'kind', kind: list.kind, filters, tz: timezone, columns }),
            }))}
          />
        </>
      }
    />
  );
}

/**
 * `/reports?group=&target=&preset=&…filters&columns=`: the grouped call reports, with the table's
 * columns kept as a column preset of the report's kind (spec 001 "Column presets"). A `columns` param
 * (an opened favourite) is applied to the table once, then left to the preset.
 */
export function ReportsRoute() {
  return (
    <RequireAbility ability="reports.read" title="Call reports">
      <Reports />
    </RequireAbility>
  );
}

function Reports() {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readReportState(params), [params]);
  const kind = presetKindFor(state.group, state.target);
  const preset = useColumnPreset(kind, { defaultColumns: DEFAULT_MEASURES, available: MEASURE_OPTIONS.map((o) => o.key) });
  const urlColumns = params.get('columns');
  // Apply an opened favourite's columns once, then drop them from the URL (the preset keeps them). Latest
  // values through refs: setColumns changes identity as the preset state changes, and re-running on that
  // would loop before the URL update lands.
  const latest = useRef({ setColumns: preset.setColumns, params, setParams });
  latest.current = { setColumns: preset.setColumns, params, setParams };
  const applied = useRef<string | null>(null);
  useEffect(() => {
    if (!urlColumns || applied.current === urlColumns) return;
    applied.current = urlColumns;
    const { setColumns, params: current, setParams: set } = latest.current;
    setColumns(urlColumns.split(','));
    const next = new URLSearchParams(current);
    next.delete('columns');
    set(next, { replace: true });
  }, [urlColumns]);

  return (
    <ReportsPage
      columns={preset.columns}
      columnTools={<ColumnChooser options={MEASURE_OPTIONS} preset={preset} />}
      renderFavorite={(s) => (
        <>
          <FavoritesMenu path="/reports" />
          <SaveFavoriteButton defaultName="Call report" state={{ path: s.path, filters: s.filters, grouping: s.grouping, columns: s.columns }} />
        </>
      )}
    />
  );
}
