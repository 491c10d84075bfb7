import { Button, Card, Group, SegmentedControl, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { IconChartBar } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { EmptyCard, LoadError } from '../../../components/EmptyBlock';
import { PageHeader } from '../../../components/PageHeader';
import { useCompanyId } from '../../../lib/session';
import { downloadDashboardPdf, useDashboard, type DashboardRequest } from '../api/get-dashboard';
import { CallsByHourOfWeek, CallsByNumber, CallsBySource, CallsOverTime, MissedByNumber } from './DashboardCharts';
import { KpiCards } from './KpiCards';
import { PdfButton } from '../../../components/PdfButton';

export interface DashboardPageProps {
  request: DashboardRequest;
  /** False while the company's time zone is unknown (the request waits). */
  ready: boolean;
  onGroupByChange: (groupBy: 'day' | 'hour' | null) => void;
  /** The range and comparison pickers (composed by app/routes). */
  toolbar: ReactNode;
  /** Header actions: save as favourite, export (composed by app/routes). */
  actions?: ReactNode;
}

function DashboardSkeleton() {
  return (
    <Stack gap="md" aria-busy="true" data-testid="dashboard-loading">
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm">
        {Array.from({ length: 9 }, (_, i) => (
          <Skeleton key={i} height={104} radius="md" />
        ))}
      </SimpleGrid>
      <Skeleton height={320} radius="md" />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Skeleton height={260} radius="md" />
        <Skeleton height={260} radius="md" />
      </SimpleGrid>
    </Stack>
  );
}

/**
 * The dashboard `/dashboard` (spec 002 "Dashboard"): KPI cards for the range beside the comparison
 * period (change in % with an arrow and words), calls over time by day or hour, calls by source, by
 * number, by hour of the week (heat map) and missed calls by number. Days and hours are the company's.
 * The route keeps range, comparison and grouping in the URL and refetches on `analytics updated`.
 */
export function DashboardPage({ request, ready, onGroupByChange, toolbar, actions }: DashboardPageProps) {
  const companyId = useCompanyId();
  const dashboard = useDashboard(companyId, request, ready);
  const data = dashboard.data?.data;
  const nothingYet = data && data.kpis.totalCalls.value === 0 && data.kpis.totalCalls.previous === 0 && data.kpis.messages.value === 0;

  return (
    <>
      <PageHeader
        title="Dashboard"
        description="How your phone lines are doing, compared with an earlier period."
        actions={
          <>
            {actions}
            <PdfButton
              disabled={!ready || companyId === null}
              download={() => downloadDashboardPdf(companyId!, request)}
              fileName={`dashboard_${request.from}_${request.to}.pdf`}
            />
          </>
        }
      />
      <Card withBorder radius="md" padding="md" mb="md">
        <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
          {toolbar}
          <SegmentedControl
            size="xs"
            aria-label="Calls over time by"
            value={request.groupBy ?? data?.groupBy ?? 'day'}
            onChange={(v) => onGroupByChange(v as 'day' | 'hour')}
            data={[
              { value: 'day', label: 'By day' },
              { value: 'hour', label: 'By hour' },
            ]}
          />
        </Group>
      </Card>
      {dashboard.isError && !data ? (
        <Card withBorder radius="md">
          <LoadError what="the dashboard" onRetry={() => void dashboard.refetch()} />
        </Card>
      ) : !data ? (
        <DashboardSkeleton />
      ) : (
        <Stack
          gap="md"
          aria-busy={dashboard.isPlaceholderData}
          data-range={`${data.currentRange.fromDate}..${data.currentRange.toDate}`}
          style={{ opacity: dashboard.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}
          data-testid="dashboard"
        >
          <KpiCards kpis={data.kpis} />
          {nothingYet ? (
            <EmptyCard
              icon={<IconChartBar />}
              title="No calls in this range yet"
              description="Calls to your numbers show up here within seconds: totals, sources, busy hours and missed calls. Pick a longer range, or place a test call from the Phone simulator."
              action={
                <Group gap="sm" justify="center">
                  <Button component={Link} to="/simulator">
                    Open the Phone simulator
                  </Button>
                  <Button component={Link} to="/numbers" variant="default">
                    Your numbers
                  </Button>
                </Group>
              }
            />
          ) : (
            <>
              <CallsOverTime data={data} />
              <SimpleGrid cols={{ base: 1, md: 2, lg: 3 }} spacing="md">
                <CallsBySource data={data} />
                <CallsByNumber data={data} />
                <MissedByNumber data={data} />
              </SimpleGrid>
              <CallsByHourOfWeek data={data} />
            </>
          )}
          <Text size="xs" c="dimmed">
            Figures refresh by themselves as calls arrive (at most 15 seconds old).
          </Text>
        </Stack>
      )}
    </>
  );
}
