import { Badge, Button, Card, CloseButton, Group, Select, Skeleton, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { CALL_EXPORT_COLUMNS, CALL_REPORT_GROUPS, CALL_REPORT_TARGETS } from '@switchboard/contracts';
import { IconTableExport } from '@tabler/icons-react';
import { IconChartBar, IconFilter, IconSearch } from '@tabler/icons-react';
import { useMemo, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyBlock, LoadError } from '../../../components/EmptyBlock';
import { PageHeader } from '../../../components/PageHeader';
import { useCompanyId } from '../../../lib/session';
import { downloadCallReportPdf, useCallReport } from '../api/get-call-report';
import { useCompanyTimezone } from '../api/company-timezone';
import { chosenMeasures, MEASURE_COLUMNS, tableCsv } from '../columns';
import { GROUP_LABELS, TARGET_LABELS } from '../labels';
import { todayIn } from '../ranges';
import { activeFilterCount, EMPTY_FILTERS, filterParams, readReportState, reportParams, stateRange, toApiFilters, type ReportState } from '../report-state';
import { useAnalyticsLive } from '../realtime/use-analytics-live';
import { ColumnsMenu } from './ColumnsMenu';
import { ExportButton } from './ExportButton';
import { PdfButton } from '../../../components/PdfButton';
import { RangeControls } from './RangeControls';
import { ReportChart } from './ReportChart';
import { ReportFilters } from './ReportFilters';
import { ReportTable } from './ReportTable';

/** What a favourite report stores of this screen (packages/contracts FavoriteReportState without its name). */
export interface ReportFavoriteState {
  path: string;
  filters: Record<string, string>;
  grouping: string;
  columns: string[];
}

export interface ReportsPageProps {
  /**
   * Measure columns chosen elsewhere (a column preset, composed by app/routes: features never import each
   * other), in order; without it the page keeps the choice in its URL with a plain columns menu.
   */
  columns?: string[];
  /** The column tools shown above the table when `columns` is given. */
  columnTools?: ReactNode;
  /** "Save as favourite" for the current state; composed by app/routes. */
  renderFavorite?: (state: ReportFavoriteState) => ReactNode;
}

/**
 * Call reports `/reports` (spec 001 §7 "GET /analytics/calls"): a grouping (every grouping of the
 * spec), a measure, the date range in the company's zone and every report filter; a chart and a table
 * per grouping, columns to choose, save as favourite and CSV export. The whole state lives in the URL
 * (features/reports/report-state.ts), and `analytics updated` refetches it live.
 */
export function ReportsPage({ columns, columnTools, renderFavorite }: ReportsPageProps) {
  useAnalyticsLive();
  const companyId = useCompanyId();
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readReportState(params), [params]);
  const { timezone, ready } = useCompanyTimezone();
  const today = todayIn(timezone);
  const range = stateRange(state, today);
  const [filtersOpened, filtersPanel] = useDisclosure(false);
  const update = (patch: Partial<ReportState>) => setParams(reportParams({ ...state, ...patch }), { replace: true });
  const filters = toApiFilters(state.filters, range, timezone);
  const request = { group: state.group, target: state.target, filters };
  const report = useCallReport(companyId, request, ready);
  const measures = chosenMeasures(columns ?? state.columns);
  const filterCount = activeFilterCount(state.filters);
  const data = report.data?.data;
  const columnOptions = MEASURE_COLUMNS.map((c) => ({ key: c.key, label: c.label }));
  const columnValue = measures.map((m) => m.key);
  const setColumns = (keys: string[]) => update({ columns: keys });
  const favorite: ReportFavoriteState = {
    path: '/reports',
    filters: (({ group: _g, columns: _c, ...rest }) => rest)(reportParams(state)),
    grouping: state.group,
    columns: columnValue,
  };

  return (
    <>
      <PageHeader
        title="Call reports"
        description="Which numbers, sources and people bring and answer your calls."
        actions={
          <>
            {renderFavorite?.(favorite)}
            <PdfButton
              disabled={!ready || companyId === null}
              download={() => downloadCallReportPdf(companyId!, request)}
              fileName={`report_${state.group}_${range.from}_${range.to}.pdf`}
            />
            <ExportButton
              disabled={!ready}
              choices={[
                {
                  value: 'report',
                  label: 'Every call in this report',
                  columns: CALL_EXPORT_COLUMNS,
                  request: (columns) => ({ source: 'report', report: request, columns }),
                },
              ]}
            />
          </>
        }
      />
      <Card withBorder radius="md" mb="md" padding="md">
        <Group gap="md" align="flex-start" wrap="wrap">
          <Select
            label="Group by"
            data={CALL_REPORT_GROUPS.map((g) => ({ value: g, label: GROUP_LABELS[g] }))}
            value={state.group}
            onChange={(v) => v && update({ group: v as ReportState['group'] })}
            allowDeselect={false}
            w={{ base: '100%', xs: 210 }}
          />
          <Select
            label="Measure"
            data={CALL_REPORT_TARGETS.map((t) => ({ value: t, label: TARGET_LABELS[t] }))}
            value={state.target}
            onChange={(v) => v && update({ target: v as ReportState['target'] })}
            allowDeselect={false}
            w={{ base: '100%', xs: 180 }}
          />
          <RangeControls preset={state.preset} range={range} timezone={timezone} onChange={(preset, custom) => update({ preset, custom })} />
          <Button
            variant={filterCount ? 'light' : 'default'}
            leftSection={<IconFilter size={16} />}
            rightSection={
              filterCount ? (
                <Badge size="sm" circle aria-hidden>
                  {filterCount}
                </Badge>
              ) : null
            }
            onClick={filtersPanel.open}
            aria-label={filterCount ? `Filters (${filterCount} active)` : 'Filters'}
            mt={{ base: 0, xs: 24 }}
          >
            Filters
          </Button>
        </Group>
        {filterCount ? (
          <ActiveFilters
            state={state}
            onClear={(key) => setParams(clearParam(params, key), { replace: true })}
            onClearAll={() => update({ filters: EMPTY_FILTERS })}
          />
        ) : null}
      </Card>
      <ReportFilters
        opened={filtersOpened}
        onClose={filtersPanel.close}
        value={state.filters}
        onApply={(f) => update({ filters: f })}
        today={today}
        timezone={timezone}
      />
      {report.isError ? (
        <Card withBorder radius="md">
          <LoadError what="the report" onRetry={() => void report.refetch()} />
        </Card>
      ) : !data ? (
        <Card withBorder radius="md" padding="md" aria-busy="true" data-testid="report-loading">
          <Skeleton height={260} radius="md" mb="md" />
          <Skeleton height={28} mb={8} />
          <Skeleton height={28} mb={8} />
          <Skeleton height={28} />
        </Card>
      ) : data.totals.calls === 0 ? (
        <Card withBorder radius="md">
          {filterCount ? (
            <EmptyBlock
              icon={<IconSearch />}
              title="No calls match these filters"
              description="Widen the date range or clear some filters."
              action={<Button onClick={() => update({ filters: EMPTY_FILTERS })}>Clear filters</Button>}
            />
          ) : (
            <EmptyBlock
              icon={<IconChartBar />}
              title="No calls in this range"
              description="Reports fill in as calls reach your numbers. Try a longer range, or place a test call from the Phone simulator."
              action={
                <Button component={Link} to="/simulator" variant="light">
                  Open the Phone simulator
                </Button>
              }
            />
          )}
        </Card>
      ) : (
        <Stack
          gap="md"
          aria-busy={report.isPlaceholderData}
          data-testid="report-results"
          data-group={data.group}
          style={{ opacity: report.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}
        >
          <Card withBorder radius="md" padding="md">
            <Group justify="space-between" mb="sm" wrap="wrap">
              <Text fw={600}>
                {TARGET_LABELS[data.target]} · {GROUP_LABELS[data.group]}
              </Text>
              <Text size="sm" c="dimmed" data-testid="report-total-calls">
                {data.totals.calls.toLocaleString('en-US')} {data.totals.calls === 1 ? 'call' : 'calls'} · {data.totals.answered.toLocaleString('en-US')}{' '}
                answered · {data.totals.missed.toLocaleString('en-US')} missed
              </Text>
            </Group>
            <ReportChart report={data} valueLabel={TARGET_LABELS[data.target]} />
          </Card>
          <Card withBorder radius="md" p={0}>
            <Group justify="space-between" p="md" pb="xs" wrap="wrap">
              <Text fw={600}>Breakdown</Text>
              <Group gap="sm">
                <Button
                  variant="subtle"
                  leftSection={<IconTableExport size={16} />}
                  onClick={() =>
                    downloadText(
                      tableCsv(data.group, data.rows, data.totals, measures),
                      `call-report-${data.group}-${data.range.fromDate}-${data.range.toDate}.csv`,
                    )
                  }
                >
                  Download table
                </Button>
                {columns ? columnTools : <ColumnsMenu columns={columnOptions} value={columnValue} onChange={setColumns} />}
              </Group>
            </Group>
            <ReportTable key={data.group} group={data.group} rows={data.rows} totals={data.totals} measures={measures} />
          </Card>
        </Stack>
      )}
    </>
  );
}

/** Saves `text` as a file named `name` (a CSV built in the browser). */
function downloadText(text: string, name: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The URL without one filter (and its operator). */
function clearParam(params: URLSearchParams, key: string): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete(key);
  next.delete(`${key}Op`);
  return next;
}

const FILTER_NAMES: Record<string, string> = {
  number_ids: 'Numbers',
  tagIds: 'Tags',
  companies: 'Companies',
  businessUnits: 'Business units',
  answerStatus: 'Answer status',
  minDuration: 'Minimum duration',
  isFirstContact: 'First-time caller',
  answered_by: 'Answered by',
  geo: 'Caller location',
  attributionModel: 'Attribution',
  trafficSource: 'Traffic source',
  outcomes: 'Outcomes',
  departments: 'Departments',
  isQualified: 'Qualified',
  isLead: 'Lead',
  dniPools: 'Tracking pools',
  extensionLabels: 'Extension labels',
};

/** The active filters as removable chips under the toolbar. */
function ActiveFilters({ state, onClear, onClearAll }: { state: ReportState; onClear: (key: string) => void; onClearAll: () => void }) {
  const entries = Object.entries(filterParams(state.filters)).filter(([k]) => !k.endsWith('Op'));
  return (
    <Group gap={6} mt="sm" wrap="wrap" data-testid="active-filters">
      {entries.map(([key, value]) => {
        const ids = /(_ids|Ids|companies|businessUnits|answered_by|dniPools)$/.test(key);
        const shown = ids
          ? `${value.split(',').length} selected`
          : key === 'minDuration'
            ? `${value}s or longer`
            : value === '1'
              ? 'Yes'
              : value === '0'
                ? 'No'
                : value.replaceAll(',', ', ');
        return (
          <Badge
            key={key}
            variant="light"
            size="lg"
            radius="sm"
            tt="none"
            fw={500}
            rightSection={<CloseButton size="xs" aria-label={`Remove filter ${FILTER_NAMES[key] ?? key}`} onClick={() => onClear(key)} />}
          >
            {FILTER_NAMES[key] ?? key}: {shown}
          </Badge>
        );
      })}
      <Button variant="subtle" size="compact-sm" onClick={onClearAll}>
        Clear all
      </Button>
    </Group>
  );
}
