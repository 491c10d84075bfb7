/**
 * Route components of the dashboard and call reports; each page is its own chunk (app/router.tsx), so
 * the charting library (@mantine/charts, recharts) loads only with these screens. Features never
 * import each other: here the dashboard is composed with the reports feature's range pickers, exports
 * and live refresh, and both screens with the report preferences (column presets, favourites).
 * docs/reports-screens.md.
 */
import { COMPARISON_PERIODS, DASHBOARD_GROUP_BY, EXPORT_COLUMNS, type ComparisonPeriod } from '@switchboard/contracts';
import { useEffect, useMemo, useRef } from 'react';
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
  type RangePreset,
} from '../../features/reports';

const MEASURE_OPTIONS = MEASURE_COLUMNS.map((c) => ({ key: c.key, label: c.label }));

/**
 * `/dashboard?preset=&from=&to=&comparison=&groupBy=`: the dashboard for a range of the company's days
 * (default the last 30) beside its comparison period (default the same length before).
 */
export function DashboardRoute() {
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
            choices={[
              {
                value: 'calls',
                label: 'Calls',
                columns: EXPORT_COLUMNS.calls,
                request: (columns) => ({ source: 'kind', kind: 'calls', filters, tz: timezone, columns }),
              },
              {
                value: 'messages',
                label: 'Messages',
                columns: EXPORT_COLUMNS.messages,
                request: (columns) => ({ source: 'kind', kind: 'messages', filters, tz: timezone, columns }),
              },
              {
                value: 'voicemails',
                label: 'Voicemails',
                columns: EXPORT_COLUMNS.voicemails,
                request: (columns) => ({ source: 'kind', kind: 'voicemails', filters, tz: timezone, columns }),
              },
              {
                value: 'fax',
                label: 'Faxes',
                columns: EXPORT_COLUMNS.fax,
                request: (columns) => ({ source: 'kind', kind: 'fax', filters, tz: timezone, columns }),
              },
            ]}
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
