import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import { Card, Group, SegmentedControl, Table, Text, Title } from '@mantine/core';
import { TRAFFIC_SOURCE_LABELS, type DashboardBody } from '@switchboard/contracts';
import { formatPhone } from '@switchboard/domain';
import { useState, type ReactNode } from 'react';
import { formatBucket, formatCount } from '../format';
import { BarList } from './BarList';
import { HourOfWeekHeatmap } from './HourOfWeekHeatmap';

type Data = DashboardBody['data'];

function ChartCard({ title, children, actions, testId }: { title: string; children: ReactNode; actions?: ReactNode; testId?: string }) {
  return (
    <Card withBorder radius="md" padding="md" data-testid={testId} component="section" aria-label={title}>
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Title order={2} size="h5">
          {title}
        </Title>
        {actions}
      </Group>
      {children}
    </Card>
  );
}

function Empty({ what }: { what: string }) {
  return (
    <Text size="sm" c="dimmed" py="lg" ta="center">
      No {what} in this range.
    </Text>
  );
}

/**
 * Calls over time (by day or hour): calls, answered and missed, and the comparison period's calls as a
 * dashed line aligned by position; a Table view lists the same figures.
 */
export function CallsOverTime({ data }: { data: Data }) {
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const points = data.series.map((p, i) => ({
    bucket: formatBucket(p.bucket),
    Calls: p.calls,
    Answered: p.answered,
    Missed: p.missed,
    'Comparison period': data.previousSeries[i]?.calls ?? null,
  }));
  const busiest = data.series.reduce((best, p) => (p.calls > (best?.calls ?? -1) ? p : best), data.series[0]);
  return (
    <ChartCard
      title={`Calls by ${data.groupBy}`}
      testId="chart-calls-over-time"
      actions={
        <SegmentedControl
          size="xs"
          aria-label="Show calls over time as"
          value={view}
          onChange={(v) => setView(v as 'chart' | 'table')}
          data={[
            { value: 'chart', label: 'Chart' },
            { value: 'table', label: 'Table' },
          ]}
        />
      }
    >
      {view === 'chart' ? (
        <figure style={{ margin: 0 }} aria-label={`Calls by ${data.groupBy}`}>
          <LineChart
            h={260}
            data={points}
            dataKey="bucket"
            series={[
              { name: 'Calls', color: 'blue.6' },
              { name: 'Answered', color: 'teal.6' },
              { name: 'Missed', color: 'red.6' },
              { name: 'Comparison period', color: 'gray.5', strokeDasharray: '5 5' },
            ]}
            curveType="monotone"
            withDots={data.series.length <= 31}
            withLegend
            legendProps={{ verticalAlign: 'bottom' }}
            tickLine="y"
            gridAxis="y"
            connectNulls
          />
          <Text component="figcaption" size="xs" c="dimmed" mt={4}>
            {busiest && busiest.calls > 0
              ? `Busiest ${data.groupBy}: ${formatBucket(busiest.bucket)} with ${formatCount(busiest.calls)} calls.`
              : 'No calls in this range.'}{' '}
            Switch to Table for every figure.
          </Text>
        </figure>
      ) : (
        <Table.ScrollContainer minWidth={420} mah={320}>
          <Table striped verticalSpacing={4} fz="sm" data-testid="calls-over-time-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{data.groupBy === 'hour' ? 'Hour' : 'Day'}</Table.Th>
                <Table.Th ta="right">Calls</Table.Th>
                <Table.Th ta="right">Answered</Table.Th>
                <Table.Th ta="right">Missed</Table.Th>
                <Table.Th ta="right">Comparison</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {points.map((p, i) => (
                <Table.Tr key={i}>
                  <Table.Td>{p.bucket}</Table.Td>
                  <Table.Td ta="right">{p.Calls}</Table.Td>
                  <Table.Td ta="right">{p.Answered}</Table.Td>
                  <Table.Td ta="right">{p.Missed}</Table.Td>
                  <Table.Td ta="right">{p['Comparison period'] ?? '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </ChartCard>
  );
}

/** A traffic source as people read it ('' = calls without a tracked visit). */
function sourceName(source: string): string {
  if (!source) return 'Direct / untracked';
  return (TRAFFIC_SOURCE_LABELS as Record<string, string>)[source] ?? source;
}

const numberName = (n: { number: string; label: string }) => (n.label ? `${n.label} · ${formatPhone(n.number)}` : formatPhone(n.number));

/** Calls by traffic source ('' = calls straight to a number, no tracked visit). */
export function CallsBySource({ data }: { data: Data }) {
  return (
    <ChartCard title="Calls by source" testId="chart-by-source">
      {data.bySource.length ? (
        <BarList label="Calls by source" color="blue.6" items={data.bySource.slice(0, 10).map((src) => ({ name: sourceName(src.source), value: src.calls }))} />
      ) : (
        <Empty what="calls" />
      )}
    </ChartCard>
  );
}

/** Calls by number (top 10 of the server's top 20). */
export function CallsByNumber({ data }: { data: Data }) {
  return (
    <ChartCard title="Calls by number" testId="chart-by-number">
      {data.byNumber.length ? (
        <BarList label="Calls by number" color="teal.6" items={data.byNumber.slice(0, 10).map((n) => ({ name: numberName(n), value: n.calls }))} />
      ) : (
        <Empty what="calls" />
      )}
    </ChartCard>
  );
}

/** Missed calls (voicemails included) by number, with the share of that number's calls. */
export function MissedByNumber({ data }: { data: Data }) {
  return (
    <ChartCard title="Missed calls by number" testId="chart-missed-by-number">
      {data.missedByNumber.some((n) => n.missed > 0) ? (
        <BarList
          label="Missed calls by number"
          color="red.6"
          items={data.missedByNumber
            .filter((n) => n.missed > 0)
            .slice(0, 10)
            .map((n) => ({ name: numberName(n), value: n.missed, note: n.missedPct !== null ? `(${n.missedPct}% of its calls)` : undefined }))}
        />
      ) : (
        <Empty what="missed calls" />
      )}
    </ChartCard>
  );
}

/** The hour-of-week heat map card. */
export function CallsByHourOfWeek({ data }: { data: Data }) {
  return (
    <ChartCard title="Calls by hour of the week" testId="chart-hour-of-week">
      <HourOfWeekHeatmap cells={data.byHourOfWeek} />
    </ChartCard>
  );
}
