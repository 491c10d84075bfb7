import { Badge, Button, Card, CloseButton, Group, Menu, Progress, Select, Table, Text } from '@mantine/core';
import { IconActivity, IconDownload, IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { EmptyBlock, LoadError } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { TablePager } from '../../../components/TablePager';
import { notify } from '../../../lib/notify';
import { useCompanyZone } from '../api/company-context';
import { useExportActivity, type ActivityExportKind } from '../api/export-activity';
import { ACTIVITY_PAGE_SIZES, ACTIVITY_PER_PAGE, showsProgress, useActivity } from '../api/get-activity';
import { activityParams, DEFAULT_FLAGS, readActivityFilter, reportFilterCount, toActivityFilterBody } from '../filter-state';
import { useActivityLive } from '../realtime/use-activity-live';
import { useExportReady } from '../realtime/use-export-ready';
import type { ActivityFilter } from '../types';
import { ActivityFilters, EMPTY_REPORT } from './ActivityFilters';
import { ActivityRow } from './ActivityRow';
import { RequireAbility } from '../../../components/RequireAbility';

const EXPORTS: Array<{ kind: ActivityExportKind; label: string }> = [
  { kind: 'calls', label: 'Calls (CSV)' },
  { kind: 'voicemails', label: 'Voicemails (CSV)' },
  { kind: 'messages', label: 'Messages (CSV)' },
];

/**
 * Activity: calls, voicemails (with a player), messages, faxes, notes and call-tracking matches, paged,
 * filtered by type flags, one tracked visit (`?dniSessionId=…`, from the tracking screens) and report
 * filters (spec 001 §7 "GET /activity"), live, with a CSV export of the filtered calls, voicemails or
 * messages. The filter lives in the URL. `/activity?call={id}` (links in voicemail e-mails sent
 * before they pointed at the call) opens the call.
 * Roles without `reports.read` get the "not available with your role" state (components/RequireAbility).
 */
export function ActivityPage() {
  return (
    <RequireAbility ability="reports.read" title="Activity">
      <ActivityScreen />
    </RequireAbility>
  );
}

function ActivityScreen() {
  useActivityLive();
  useExportReady();
  const [params, setParams] = useSearchParams();
  const linkedCall = Number(params.get('call'));
  const filter = useMemo(() => readActivityFilter(params), [params]);
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(ACTIVITY_PER_PAGE);
  const tz = useCompanyZone();
  const body = toActivityFilterBody(filter, tz);
  const activity = useActivity(page, perPage, body, tz);
  const exporter = useExportActivity();
  const items = activity.data?.data ?? [];
  const meta = activity.data?.meta;
  const filtered =
    reportFilterCount(filter) > 0 ||
    Boolean(filter.dniSessionId) ||
    Object.entries(DEFAULT_FLAGS).some(([k, v]) => filter[k as keyof typeof DEFAULT_FLAGS] !== v);

  const setFilter = (f: ActivityFilter) => {
    setParams(activityParams(f), { replace: true });
    setPage(1);
  };
  const startExport = (kind: ActivityExportKind) => {
    const { calls: _c, voicemails: _v, messages: _m, faxes: _f, notes: _n, trackingmatch: _t, dniSessionId: _d, ...filters } = body;
    exporter.mutate({ kind, filters, tz }, { onSuccess: (r) => notify.show({ type: 'success', message: r.message, keepOthers: true }) });
  };

  if (Number.isInteger(linkedCall) && linkedCall > 0) return <Navigate to={`/calls/${linkedCall}`} replace />;
  return (
    <>
      <PageHeader
        title="Activity"
        description="Every call, voicemail and message across your numbers, as it happens."
        actions={
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button variant="default" leftSection={<IconDownload size={16} />} loading={exporter.isPending}>
                Export
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Label>Export with these filters</Menu.Label>
              {EXPORTS.map((e) => (
                <Menu.Item key={e.kind} onClick={() => startExport(e.kind)}>
                  {e.label}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        }
      />
      <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
        <ActivityFilters value={filter} onChange={setFilter} />
        {meta ? (
          <Text size="sm" c="dimmed" data-testid="activity-total">
            {meta.total} items
          </Text>
        ) : null}
      </Group>
      {filter.dniSessionId ? (
        <Badge
          mb="sm"
          size="lg"
          variant="light"
          radius="sm"
          tt="none"
          fw={500}
          data-testid="activity-session-filter"
          rightSection={<CloseButton size="xs" aria-label="Show every visit" onClick={() => setFilter({ ...filter, dniSessionId: null })} />}
        >
          One tracked visit: {filter.dniSessionId}
        </Badge>
      ) : null}
      <Card withBorder radius="md" p={0}>
        {/* Spec 001 §7: no progress bar on the first page of 10 (it refreshes live all day). */}
        {activity.isFetching && !activity.isPending && showsProgress(page, perPage, meta?.show_progress) ? (
          <Progress value={100} animated size="xs" radius={0} aria-label="Loading activity" data-testid="activity-progress" />
        ) : null}
        {activity.isPending ? (
          <ListSkeleton rows={6} height={52} />
        ) : activity.isError && !activity.data ? (
          <LoadError what="activity" onRetry={() => void activity.refetch()} />
        ) : items.length === 0 ? (
          filtered ? (
            <EmptyBlock
              icon={<IconSearch />}
              title="Nothing matches these filters"
              description="Turn more types on or clear the filters."
              action={<Button onClick={() => setFilter({ ...DEFAULT_FLAGS, dniSessionId: null, report: EMPTY_REPORT })}>Clear filters</Button>}
            />
          ) : (
            <EmptyBlock
              icon={<IconActivity />}
              title="No activity yet"
              description="Place a call or send a text to one of your numbers from the Phone simulator to see it here."
            />
          )
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table verticalSpacing="sm" data-testid="activity-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={48} />
                  <Table.Th>Who</Table.Th>
                  <Table.Th>Your number</Table.Th>
                  <Table.Th>Details</Table.Th>
                  <Table.Th>When</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((item) => (
                  <ActivityRow key={`${item.kind}-${item.id}`} item={item} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      <Group justify="space-between" mt="md" wrap="wrap">
        <Select
          aria-label="Items per page"
          size="xs"
          w={130}
          data={ACTIVITY_PAGE_SIZES.map((n) => ({ value: String(n), label: `${n} per page` }))}
          value={String(perPage)}
          onChange={(v) => {
            if (!v) return;
            setPerPage(Number(v));
            setPage(1);
          }}
          allowDeselect={false}
        />
        <TablePager page={page} onChange={setPage} totalPages={meta?.last_page} />
      </Group>
    </>
  );
}
