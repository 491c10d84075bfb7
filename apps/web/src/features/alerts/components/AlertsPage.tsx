/**
 * /alerts (spec 001 "Alerts": list, counts, detail, history, update): the counts as badges in the header (active,
 * unread), the list of 10 per page (spec 001 §9) with filters (state, monitor, search), each row opening the alert
 * (`?alert={id}`, also the link of alert e-mails), new alerts arriving live; a Settings tab with the thresholds and
 * the person's alert e-mails.
 */
import { Badge, Card, Group, SegmentedControl, Select, Table, Tabs, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { ALERT_TYPES } from '@switchboard/contracts';
import { IconBell, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { EmptyCard, LoadError } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { TablePager } from '../../../components/TablePager';
import { formatStamp } from '../../../lib/format';
import { useAlertCounts, useAlerts } from '../api/alerts';
import { ALERT_TYPE_LABELS, STATE_COLORS, STATE_LABELS } from '../labels';
import { useAlertsLive } from '../realtime/use-alerts-live';
import type { AlertState, AlertType } from '../types';
import { AlertDrawer } from './AlertDrawer';
import { MonitorSettingsCard } from './MonitorSettingsCard';

const VIEWS: Record<string, AlertState[]> = { active: ['open', 'acknowledged'], resolved: ['resolved'], dismissed: ['dismissed'], all: [] };

export function AlertsPage() {
  useAlertsLive();
  const [params, setParams] = useSearchParams();
  const counts = useAlertCounts();
  const [view, setView] = useState('active');
  const [type, setType] = useState<AlertType | null>(null);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [page, setPage] = useState(1);
  const alerts = useAlerts({ page, states: VIEWS[view]!, type, search: debounced });
  const openId = Number(params.get('alert')) || null;
  const tab = params.get('tab') === 'settings' ? 'settings' : 'alerts';
  const setParam = (key: string, value: string | null) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (value === null) next.delete(key);
        else next.set(key, value);
        return next;
      },
      { replace: key === 'alert' ? false : true },
    );
  const c = counts.data;
  const list = alerts.data?.data ?? [];
  const phone = useMediaQuery('(max-width: 36em)');
  const viewOptions = [
    { value: 'active', label: `Active${c ? ` (${c.open + c.acknowledged})` : ''}` },
    { value: 'resolved', label: `Resolved${c ? ` (${c.resolved})` : ''}` },
    { value: 'dismissed', label: `Dismissed${c ? ` (${c.dismissed})` : ''}` },
    { value: 'all', label: 'All' },
  ];
  const changeView = (v: string | null) => {
    if (!v) return;
    setView(v);
    setPage(1);
  };

  return (
    <>
      <PageHeader
        title="Alerts"
        description="What the monitors noticed: missed calls, silent numbers, exhausted pools, failing texts, carrier errors, unanswered voicemails."
        actions={
          c ? (
            <Group gap="xs" data-testid="alert-counts">
              <Badge color="red" variant={c.open + c.acknowledged ? 'filled' : 'light'} aria-label={`${c.open + c.acknowledged} active alerts`}>
                {c.open + c.acknowledged} active
              </Badge>
              <Badge color="orange" variant="light" aria-label={`${c.unread} unread alerts`}>
                {c.unread} unread
              </Badge>
            </Group>
          ) : null
        }
      />
      <Tabs value={tab} onChange={(v) => setParam('tab', v === 'settings' ? 'settings' : null)} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="alerts">Alerts</Tabs.Tab>
          <Tabs.Tab value="settings">Settings</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="alerts">
          <Group mb="md" gap="sm" wrap="wrap" align="flex-end">
            {phone ? (
              <Select aria-label="Show" data={viewOptions} value={view} onChange={changeView} allowDeselect={false} w="100%" />
            ) : (
              <SegmentedControl aria-label="Show" value={view} onChange={changeView} data={viewOptions} />
            )}
            <Select
              aria-label="Monitor"
              placeholder="Every monitor"
              clearable
              data={ALERT_TYPES.map((t) => ({ value: t, label: ALERT_TYPE_LABELS[t] }))}
              value={type}
              onChange={(v) => {
                setType(v as AlertType | null);
                setPage(1);
              }}
              w={{ base: '100%', xs: 230 }}
            />
            <TextInput
              aria-label="Search alerts"
              placeholder="Search"
              leftSection={<IconSearch size={14} />}
              value={search}
              onChange={(e) => {
                setSearch(e.currentTarget.value);
                setPage(1);
              }}
              w={{ base: '100%', xs: 200 }}
            />
          </Group>
          {alerts.isPending ? (
            <ListSkeleton rows={4} height={48} />
          ) : alerts.isError ? (
            <Card withBorder radius="md">
              <LoadError what="alerts" onRetry={() => void alerts.refetch()} />
            </Card>
          ) : list.length === 0 ? (
            <EmptyCard
              icon={<IconBell />}
              title={view === 'active' && !type && !debounced ? 'All quiet' : 'No alerts match'}
              description={view === 'active' ? 'New alerts appear here as soon as a monitor raises them.' : 'Try another filter.'}
            />
          ) : (
            <Card withBorder radius="md" p={0}>
              <Table.ScrollContainer minWidth={560}>
                <Table verticalSpacing="sm" highlightOnHover data-testid="alerts-table">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Alert</Table.Th>
                      <Table.Th>Monitor</Table.Th>
                      <Table.Th>State</Table.Th>
                      <Table.Th>Raised</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {list.map((a) => (
                      <Table.Tr key={a.id} data-testid="alert-row">
                        <Table.Td>
                          <UnstyledButton onClick={() => setParam('alert', String(a.id))} aria-label={`Open alert: ${a.title}`}>
                            <Text size="sm" fw={a.readAt ? 400 : 700}>
                              {a.title}
                            </Text>
                            <Text size="xs" c="dimmed" lineClamp={1}>
                              {a.subject.label}
                            </Text>
                          </UnstyledButton>
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm">{ALERT_TYPE_LABELS[a.type]}</Text>
                        </Table.Td>
                        <Table.Td>
                          <Badge color={STATE_COLORS[a.state]} variant="light">
                            {STATE_LABELS[a.state]}
                          </Badge>
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm" c="dimmed">
                            {formatStamp(a.createdAt)}
                          </Text>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </Card>
          )}
          <TablePager page={page} totalPages={alerts.data?.meta.last_page} onChange={setPage} mt="md" />
        </Tabs.Panel>
        <Tabs.Panel value="settings">
          <MonitorSettingsCard />
        </Tabs.Panel>
      </Tabs>
      <AlertDrawer id={openId} onClose={() => setParam('alert', null)} />
    </>
  );
}
