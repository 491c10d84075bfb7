import { Card, Group, Table, Text } from '@mantine/core';
import { IconActivity } from '@tabler/icons-react';
import { useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { EmptyBlock } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { TablePager } from '../../../components/TablePager';
import { useActivity } from '../api/get-activity';
import { useActivityLive } from '../realtime/use-activity-live';
import type { ActivityFilter } from '../types';
import { ActivityFilters } from './ActivityFilters';
import { ActivityRow } from './ActivityRow';

/**
 * Activity: calls, voicemails (with a player) and messages, paged, filtered by type, live.
 * `/activity?call={id}` (links in voicemail e-mails sent before they pointed at the call) opens the call.
 */
export function ActivityPage() {
  useActivityLive();
  const [params] = useSearchParams();
  const linkedCall = Number(params.get('call'));
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState<ActivityFilter>({ calls: true, voicemails: true, messages: true });
  const activity = useActivity(page, filter);
  const items = activity.data?.data ?? [];
  const meta = activity.data?.meta;

  if (Number.isInteger(linkedCall) && linkedCall > 0) return <Navigate to={`/calls/${linkedCall}`} replace />;
  return (
    <>
      <PageHeader title="Activity" description="Every call, voicemail and message across your numbers, as it happens." />
      <Group justify="space-between" mb="md" wrap="wrap">
        <ActivityFilters
          value={filter}
          onChange={(f) => {
            setFilter(f);
            setPage(1);
          }}
        />
        {meta ? (
          <Text size="sm" c="dimmed">
            {meta.total} items
          </Text>
        ) : null}
      </Group>
      <Card withBorder radius="md" p={0}>
        {activity.isPending ? (
          <ListSkeleton rows={6} height={52} />
        ) : items.length === 0 ? (
          <EmptyBlock
            icon={<IconActivity />}
            title="No activity yet"
            description="Place a call or send a text to one of your numbers from the Phone simulator to see it here."
          />
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
      <TablePager mt="md" page={page} onChange={setPage} totalPages={meta?.last_page} />
    </>
  );
}
