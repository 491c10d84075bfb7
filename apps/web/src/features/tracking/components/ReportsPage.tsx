import { Alert, Badge, Card, Group, SegmentedControl, Select, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { DNI_REPORT_GROUPS } from '@switchboard/contracts';
import { IconChartLine } from '@tabler/icons-react';
import { lazy, Suspense, useMemo, useState } from 'react';
import { EmptyBlock, LoadError } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { formatDateTime, formatDuration } from '../../../lib/format';
import { useCompanyTimeZone } from '../../../lib/dates';
import { useCallsReport, usePoolReport, type CallsReportParams, type PoolReport } from '../api/reports';
import { TrackingNav } from './TrackingNav';

const UtilisationChart = lazy(() => import('./UtilisationChart'));

const PERIODS = [
  { value: '1', label: 'Today' },
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
];
const GROUP_LABELS: Record<(typeof DNI_REPORT_GROUPS)[number], string> = {
  traffic_source: 'Traffic source',
  source: 'Source',
  medium: 'Medium',
  campaign: 'Campaign',
  keyword: 'Keyword',
  landing_page: 'Landing page',
  pool: 'Pool',
  day: 'Day',
};

/** The period's bounds: from the local midnight `days - 1` days ago to now (ISO, UTC). */
export function periodBounds(days: number, now = new Date()): { from: string; to: string } {
  const start = new Date(now);
  start.setHours(0, 0, 0, 0);
  start.setDate(start.getDate() - (days - 1));
  return { from: start.toISOString(), to: now.toISOString() };
}

function percent(v: number | null): string {
  return v === null ? '—' : `${(v * 100).toFixed(1)}%`;
}

function PoolHealthCard({ report }: { report: PoolReport }) {
  const short = report.recommended_size - report.size;
  return (
    <Card withBorder radius="md" data-testid="pool-report">
      <Group justify="space-between" mb="xs" wrap="wrap">
        <Title order={3} size="h5">
          {report.pool_name}
        </Title>
        {report.exhaustion_count > 0 ? (
          <Badge color="red" variant="light">
            Ran out {report.exhaustion_count} {report.exhaustion_count === 1 ? 'time' : 'times'}
          </Badge>
        ) : (
          <Badge color="teal" variant="light">
            Never ran out
          </Badge>
        )}
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs" mb="sm">
        <Stat label="Numbers" value={report.size} />
        <Stat label="Peak at once" value={report.peak_concurrent} />
        <Stat label="Visits" value={report.sessions} />
        <Stat label="Calls" value={report.calls} />
      </SimpleGrid>
      {short > 0 ? (
        <Alert color="yellow" p="xs" mb="sm">
          The traffic of this period needs {report.recommended_size} numbers: add {short} so every visitor gets their own
          {report.fallback_sessions > 0 ? ` (${report.fallback_sessions} visits were shown the fallback number)` : ''}.
        </Alert>
      ) : (
        <Text size="xs" c="dimmed" mb="sm">
          Recommended size for this traffic: {report.recommended_size}.
        </Text>
      )}
      {report.utilisation.length > 0 ? (
        <Suspense fallback={<Skeleton h={220} />}>
          <UtilisationChart report={report} />
        </Suspense>
      ) : (
        <Text size="sm" c="dimmed">
          No visits in this period.
        </Text>
      )}
    </Card>
  );
}

function Stat({ label, value }: { label: string; value: number | string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </Stack>
  );
}

/**
 * DNI reports `/tracking/reports` (spec 002 "DNI" DNI reports): calls and visits by marketing dimension
 * (first- or last-touch attribution) and each pool's health over the period: numbers in use over time
 * (a chart, lazy-loaded), exhaustions, and the pool size the traffic needs.
 */
export function ReportsPage() {
  const [days, setDays] = useState('7');
  const [groupBy, setGroupBy] = useState<NonNullable<CallsReportParams['group_by']>>('traffic_source');
  const [model, setModel] = useState<'first_touch' | 'last_touch'>('last_touch');
  const tz = useCompanyTimeZone().timezone;
  // Bounds change only with the period (not every render), so the queries keep their keys.
  const bounds = useMemo(() => periodBounds(Number(days)), [days]);
  const calls = useCallsReport({ ...bounds, tz, group_by: groupBy, attribution_model: model });
  const pools = usePoolReport({ ...bounds, tz });
  const rows = calls.data?.data ?? [];
  const totals = calls.data?.totals;

  return (
    <>
      <PageHeader title="Tracking reports" description="Which sources bring calls, and whether your pools have enough numbers." />
      <TrackingNav />
      <Group mb="md" gap="sm" wrap="wrap">
        <SegmentedControl aria-label="Period" value={days} onChange={setDays} data={PERIODS} size="xs" />
        <Select
          aria-label="Group by"
          data={DNI_REPORT_GROUPS.map((g) => ({ value: g, label: GROUP_LABELS[g] }))}
          value={groupBy}
          onChange={(v) => v && setGroupBy(v as typeof groupBy)}
          allowDeselect={false}
          size="xs"
          w={160}
        />
        <SegmentedControl
          aria-label="Attribution model"
          value={model}
          onChange={(v) => setModel(v as typeof model)}
          data={[
            { value: 'last_touch', label: 'Last touch' },
            { value: 'first_touch', label: 'First touch' },
          ]}
          size="xs"
        />
      </Group>

      <Card withBorder radius="md" p={0} mb="md">
        <Title order={2} size="h4" p="md" pb="xs">
          Calls by {GROUP_LABELS[groupBy].toLowerCase()}
        </Title>
        {calls.isPending ? (
          <ListSkeleton rows={4} height={36} />
        ) : calls.isError ? (
          <LoadError what="the calls report" onRetry={() => void calls.refetch()} />
        ) : rows.length === 0 ? (
          <EmptyBlock icon={<IconChartLine />} title="No tracked visits or calls in this period" description="Try a longer period." />
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table verticalSpacing="xs" striped data-testid="calls-report">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{GROUP_LABELS[groupBy]}</Table.Th>
                  <Table.Th ta="right">Visits</Table.Th>
                  <Table.Th ta="right">Calls</Table.Th>
                  <Table.Th ta="right">First-time callers</Table.Th>
                  <Table.Th ta="right">Answered</Table.Th>
                  <Table.Th ta="right">Missed</Table.Th>
                  <Table.Th ta="right">Avg. length</Table.Th>
                  <Table.Th ta="right">Calls per visit</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => (
                  <Table.Tr key={r.key}>
                    <Table.Td>
                      <Text size="sm" lineClamp={1} title={r.label} maw={320} style={{ wordBreak: 'break-all' }}>
                        {r.label}
                      </Text>
                    </Table.Td>
                    <Table.Td ta="right">{r.sessions}</Table.Td>
                    <Table.Td ta="right">{r.calls}</Table.Td>
                    <Table.Td ta="right">{r.first_time_callers}</Table.Td>
                    <Table.Td ta="right">{r.answered}</Table.Td>
                    <Table.Td ta="right">{r.missed}</Table.Td>
                    <Table.Td ta="right">{r.avg_duration_s === null ? '—' : formatDuration(r.avg_duration_s)}</Table.Td>
                    <Table.Td ta="right">{percent(r.conversion_rate)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
              {totals ? (
                <Table.Tfoot>
                  <Table.Tr fw={600}>
                    <Table.Td>Total</Table.Td>
                    <Table.Td ta="right">{totals.sessions}</Table.Td>
                    <Table.Td ta="right">{totals.calls}</Table.Td>
                    <Table.Td ta="right">{totals.first_time_callers}</Table.Td>
                    <Table.Td ta="right">{totals.answered}</Table.Td>
                    <Table.Td ta="right">{totals.missed}</Table.Td>
                    <Table.Td ta="right">{totals.avg_duration_s === null ? '—' : formatDuration(totals.avg_duration_s)}</Table.Td>
                    <Table.Td ta="right">{percent(totals.conversion_rate)}</Table.Td>
                  </Table.Tr>
                </Table.Tfoot>
              ) : null}
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>

      <Title order={2} size="h4" mb="xs">
        Pool health
      </Title>
      {pools.data ? (
        <Text size="xs" c="dimmed" mb="xs">
          {formatDateTime(pools.data.from)} to {formatDateTime(pools.data.to)}
        </Text>
      ) : null}
      {pools.isPending ? (
        <ListSkeleton rows={2} height={200} />
      ) : pools.isError ? (
        <Card withBorder radius="md">
          <LoadError what="pool health" onRetry={() => void pools.refetch()} />
        </Card>
      ) : pools.data.data.length === 0 ? (
        <Card withBorder radius="md">
          <EmptyBlock title="No pools" description="Create a tracking pool to see its health here." />
        </Card>
      ) : (
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          {pools.data.data.map((r) => (
            <PoolHealthCard key={r.pool_id} report={r} />
          ))}
        </SimpleGrid>
      )}
    </>
  );
}
