import { Anchor, Button, Card, Group, Progress, SegmentedControl, Select, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { CAMPAIGN_FILTER_LABELS, showsDeliveryTime } from '@switchboard/domain';
import { IconArrowDown, IconArrowUp, IconPlus, IconSearch, IconSpeakerphone } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { EmptyBlock, LoadError } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { TablePager } from '../../../components/TablePager';
import { RequireAbility } from '../../../components/RequireAbility';
import { useCan } from '../../../lib/access';
import { formatDateTime } from '../../../lib/format';
import { useCampaigns, type CampaignListParams } from '../api/get-campaigns';
import { useCampaignsLive } from '../realtime/use-campaigns-live';
import { CampaignStatusBadge } from './CampaignStatusBadge';

const SORTS: Array<{ value: CampaignListParams['sort']; label: string }> = [
  { value: 'created_at', label: 'Created' },
  { value: 'updated_at', label: 'Updated' },
  { value: 'should_be_sent_at', label: 'Delivery time' },
  { value: 'title', label: 'Title' },
];

/** Campaigns `/campaigns`: 13 a page, status filter with the spec's labels, search, sort; live counters (`campaigns.read`). */
export function CampaignsPage() {
  return (
    <RequireAbility ability="campaigns.read" title="Campaigns">
      <CampaignsList />
    </RequireAbility>
  );
}

function CampaignsList() {
  useCampaignsLive();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [status, setStatus] = useState<string | null>(null);
  const [sort, setSort] = useState<CampaignListParams['sort']>('created_at');
  const [dir, setDir] = useState<'asc' | 'desc'>('desc');
  const list = useCampaigns({ page, search: debounced, status, sort, dir });
  // Writing campaigns is for campaigns.manage (docs/permissions.md); reporting only reads them.
  const canManage = useCan('campaigns.manage');
  const rows = list.data?.data ?? [];
  const meta = list.data?.meta;
  const filtered = Boolean(debounced || status);

  return (
    <>
      <PageHeader
        title="Campaigns"
        description="Text a group of contacts at once. Unsubscribed contacts are always skipped."
        actions={
          canManage ? (
            <Button component={Link} to="/campaigns/new" leftSection={<IconPlus size={16} />}>
              New campaign
            </Button>
          ) : undefined
        }
      />
      <Group mb="sm" gap="sm" wrap="wrap">
        <TextInput
          aria-label="Search campaigns"
          placeholder="Search by title"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
          w={240}
        />
        <SegmentedControl
          size="xs"
          aria-label="Status"
          value={status ?? 'all'}
          onChange={(v) => {
            setStatus(v === 'all' ? null : v);
            setPage(1);
          }}
          data={[{ value: 'all', label: 'All' }, ...CAMPAIGN_FILTER_LABELS.map((f) => ({ value: f.value, label: f.label }))]}
        />
        <Group gap={4} ml="auto">
          <Select
            aria-label="Sort by"
            data={SORTS}
            value={sort}
            onChange={(v) => v && setSort(v as CampaignListParams['sort'])}
            allowDeselect={false}
            w={150}
            size="xs"
          />
          <UnstyledButton aria-label={dir === 'desc' ? 'Newest first' : 'Oldest first'} onClick={() => setDir((d) => (d === 'desc' ? 'asc' : 'desc'))} p={4}>
            {dir === 'desc' ? <IconArrowDown size={16} /> : <IconArrowUp size={16} />}
          </UnstyledButton>
        </Group>
      </Group>
      <Card withBorder radius="md" p={0}>
        {list.isPending ? (
          <ListSkeleton rows={6} height={48} />
        ) : list.isError ? (
          <LoadError what="campaigns" onRetry={() => void list.refetch()} />
        ) : rows.length === 0 ? (
          filtered ? (
            <EmptyBlock icon={<IconSearch />} title="No campaigns match" description="Try another status or search." />
          ) : (
            <EmptyBlock
              icon={<IconSpeakerphone />}
              title="No campaigns yet"
              description="Put contacts in a group, then write your first campaign to them."
              action={
                canManage ? (
                  <Button component={Link} to="/campaigns/new">
                    New campaign
                  </Button>
                ) : undefined
              }
            />
          )
        ) : (
          <Table.ScrollContainer minWidth={800}>
            <Table highlightOnHover verticalSpacing="sm" data-testid="campaigns-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Title</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Delivery</Table.Th>
                  <Table.Th w={220}>Delivered</Table.Th>
                  <Table.Th ta="right">Responded</Table.Th>
                  <Table.Th ta="right">Unsubscribed</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((c) => {
                  const base = Math.max(c.recipients_count - c.skipped_invalid_count - c.skipped_unsubscribed_count, c.sent_count, 1);
                  return (
                    <Table.Tr
                      key={c.id}
                      data-testid="campaign-row"
                      style={{ cursor: 'pointer' }}
                      onClick={() => navigate(c.status === 'draft' ? `/campaigns/${c.id}/edit` : `/campaigns/${c.id}`)}
                    >
                      <Table.Td>
                        {/* The title is the row's link too, so the row opens from the keyboard (WCAG 2.1.1). */}
                        <Anchor
                          component={Link}
                          to={c.status === 'draft' ? `/campaigns/${c.id}/edit` : `/campaigns/${c.id}`}
                          size="sm"
                          fw={500}
                          c="inherit"
                          onClick={(e) => e.stopPropagation()}
                        >
                          {c.title}
                        </Anchor>
                        <Text size="xs" c="dimmed" lineClamp={1} maw={320}>
                          {c.text}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <CampaignStatusBadge state={c.state} shouldBeSentAt={c.should_be_sent_at} />
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" c="dimmed">
                          {showsDeliveryTime(c.state, c.should_be_sent_at)
                            ? formatDateTime(c.should_be_sent_at)
                            : c.started_at
                              ? formatDateTime(c.started_at)
                              : '—'}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        {c.sent_count > 0 ? (
                          <Group gap="xs" wrap="nowrap">
                            <Progress.Root w={120} size="md" aria-label="Delivery progress">
                              <Progress.Section value={(c.delivered_count / base) * 100} color="teal" aria-label="Delivered" />
                              <Progress.Section value={(c.undelivered_count / base) * 100} color="red" aria-label="Undelivered" />
                            </Progress.Root>
                            <Text size="xs">
                              {c.delivered_count}/{base}
                            </Text>
                          </Group>
                        ) : (
                          <Text size="sm" c="dimmed">
                            —
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td ta="right">{c.responded_count}</Table.Td>
                      <Table.Td ta="right">{c.unsubscriber_count}</Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      <TablePager mt="md" page={page} onChange={setPage} totalPages={meta?.last_page} />
    </>
  );
}
