import { Badge, Button, Card, Group, Image, Paper, Progress, Select, SimpleGrid, Skeleton, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { campaignDisplayStatus, formatPhone } from '@switchboard/domain';
import { IconArrowLeft, IconPencil, IconPlayerPause, IconPlayerPlay, IconSearch, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { EmptyBlock } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { TablePager } from '../../../components/TablePager';
import { formatDateTime } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { useDeleteCampaign } from '../api/delete-campaign';
import { useCampaign } from '../api/get-campaign';
import { useCampaignEvents } from '../api/get-campaign-events';
import { usePauseCampaign } from '../api/pause-campaign';
import { useCampaignsLive } from '../realtime/use-campaigns-live';
import type { Campaign } from '../types';
import { CampaignStatusBadge } from './CampaignStatusBadge';
import { useCan } from '../../../lib/access';

const EVENT_STATUSES = ['pending', 'sent', 'delivered', 'undelivered', 'failed', 'responded', 'unsubscribed', 'skipped'];
const STATE_COLORS: Record<string, string> = {
  delivered: 'teal',
  responded: 'grape',
  undelivered: 'red',
  failed: 'red',
  sent: 'blue',
  sending: 'blue',
  pending: 'gray',
  skipped_unsubscribed: 'orange',
  skipped_invalid: 'orange',
};

function Counter({ label, value, color, testId }: { label: string; value: number; color: string; testId: string }) {
  return (
    <Paper withBorder p="sm" radius="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz={26} fw={700} c={color} data-testid={testId}>
        {value}
      </Text>
    </Paper>
  );
}

/** Where the campaign stands: a bar of delivered / undelivered / sent / waiting over every recipient to message. */
function DeliveryBar({ c }: { c: Campaign }) {
  const skipped = c.skipped_invalid_count + c.skipped_unsubscribed_count;
  const toSend = Math.max(c.recipients_count - skipped, c.sent_count);
  const base = Math.max(toSend, 1);
  const inFlight = Math.max(c.sent_count - c.delivered_count - c.undelivered_count, 0);
  const pct = (n: number) => (n / base) * 100;
  return (
    <Stack gap={6}>
      <Progress.Root size={22} aria-label="Delivery progress" data-testid="delivery-bar">
        <Progress.Section value={pct(c.delivered_count)} color="teal" aria-label="Delivered">
          <Progress.Label>{c.delivered_count ? 'Delivered' : ''}</Progress.Label>
        </Progress.Section>
        <Progress.Section value={pct(c.undelivered_count)} color="red" aria-label="Undelivered" />
        <Progress.Section value={pct(inFlight)} color="blue" striped animated aria-label="Sending" />
      </Progress.Root>
      <Group gap="md">
        <Text size="xs" c="dimmed">
          {toSend} to message{skipped ? ` · ${skipped} skipped (${c.skipped_unsubscribed_count} unsubscribed, ${c.skipped_invalid_count} invalid)` : ''}
        </Text>
        <Text size="xs" c="dimmed">
          {Math.max(toSend - c.sent_count, 0)} waiting
        </Text>
      </Group>
    </Stack>
  );
}

/** Campaign `/campaigns/:id`: live counters and delivery bar, pause/resume, and the recipients' events. */
export function CampaignDetail({
  campaignId,
  groupName,
  numberLabel,
}: {
  campaignId: number;
  groupName: (id: number) => string;
  numberLabel: (id: number | null) => string;
}) {
  useCampaignsLive();
  const navigate = useNavigate();
  const campaign = useCampaign(campaignId);
  const pause = usePauseCampaign();
  const remove = useDeleteCampaign();
  // Pausing, resuming, editing and deleting: `campaigns.manage`; reporting follows the campaign read-only.
  const canManage = useCan('campaigns.manage');
  const [confirm, setConfirm] = useState(false);
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [status, setStatus] = useState<string | null>(null);
  const events = useCampaignEvents(campaignId, { page, search: debounced, status });
  const c = campaign.data;

  if (campaign.isPending) {
    return (
      <Stack>
        <Skeleton h={36} w={320} />
        <Skeleton h={120} />
        <Skeleton h={300} />
      </Stack>
    );
  }
  if (!c)
    return (
      <EmptyBlock
        title="Campaign not found"
        description="It may have been deleted."
        action={
          <Button component={Link} to="/campaigns">
            Back to campaigns
          </Button>
        }
      />
    );

  const display = campaignDisplayStatus(c.state, c.should_be_sent_at);
  const canPause = canManage && (c.state === 'queued' || c.state === 'sending');
  const canResume = canManage && c.state === 'paused';
  const rows = events.data?.data ?? [];

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Stack gap={4}>
          <Button component={Link} to="/campaigns" variant="subtle" size="compact-sm" leftSection={<IconArrowLeft size={14} />} w="fit-content">
            Campaigns
          </Button>
          <Group gap="sm">
            <Title order={1} size="h2">
              {c.title}
            </Title>
            <CampaignStatusBadge state={c.state} shouldBeSentAt={c.should_be_sent_at} />
          </Group>
          <Text size="sm" c="dimmed">
            From {numberLabel(c.number_id)} to {c.groups.map(groupName).join(', ') || 'no group'}
            {display === 'scheduled' && c.should_be_sent_at
              ? ` · scheduled for ${formatDateTime(c.should_be_sent_at)}`
              : c.started_at
                ? ` · started ${formatDateTime(c.started_at)}`
                : ''}
            {c.finished_at ? ` · finished ${formatDateTime(c.finished_at)}` : ''}
          </Text>
        </Stack>
        <Group gap="xs">
          {canPause || canResume ? (
            <Button
              variant="light"
              color={canPause ? 'yellow' : 'teal'}
              leftSection={canPause ? <IconPlayerPause size={16} /> : <IconPlayerPlay size={16} />}
              loading={pause.isPending}
              onClick={async () => {
                const updated = await pause.mutateAsync(c.id);
                notify.success(updated.state === 'paused' ? 'Campaign paused' : 'Campaign resumed');
              }}
            >
              {canPause ? 'Pause' : 'Resume'}
            </Button>
          ) : null}
          {canManage && (display === 'draft' || display === 'scheduled' || display === 'paused') ? (
            <Button variant="default" leftSection={<IconPencil size={16} />} component={Link} to={`/campaigns/${c.id}/edit`}>
              Edit
            </Button>
          ) : null}
          {canManage ? (
            <Button variant="subtle" color="red" leftSection={<IconTrash size={16} />} onClick={() => setConfirm(true)}>
              Delete
            </Button>
          ) : null}
        </Group>
      </Group>

      <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="sm" data-testid="campaign-counters">
        <Counter label="Sent" value={c.sent_count} color="blue" testId="counter-sent" />
        <Counter label="Delivered" value={c.delivered_count} color="teal" testId="counter-delivered" />
        <Counter label="Undelivered" value={c.undelivered_count} color="red" testId="counter-undelivered" />
        <Counter label="Responded" value={c.responded_count} color="grape" testId="counter-responded" />
        <Counter label="Unsubscribed" value={c.unsubscriber_count} color="orange" testId="counter-unsubscribed" />
      </SimpleGrid>
      <Card withBorder radius="md">
        <DeliveryBar c={c} />
      </Card>

      <Card withBorder radius="md">
        <Group align="flex-start" gap="lg" wrap="wrap">
          {c.media[0] ? <Image src={c.media[0]} alt="Campaign image" w={140} radius="sm" /> : null}
          <Stack gap={4} style={{ flex: 1, minWidth: 240 }}>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Message
            </Text>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {c.text}
            </Text>
            <Text size="sm" c="dimmed">
              {c.unsubscribe_text}
            </Text>
            {c.skip_inbox ? (
              <Badge variant="outline" color="gray" w="fit-content">
                Replies skip the inbox
              </Badge>
            ) : null}
          </Stack>
        </Group>
      </Card>

      <Card withBorder radius="md" p={0}>
        <Group p="sm" gap="sm" justify="space-between">
          <Title order={4}>Recipients</Title>
          <Group gap="xs">
            <TextInput
              size="xs"
              aria-label="Search recipients"
              placeholder="Name or number"
              leftSection={<IconSearch size={14} />}
              value={search}
              onChange={(e) => {
                setSearch(e.currentTarget.value);
                setPage(1);
              }}
            />
            <Select
              size="xs"
              aria-label="Recipient status"
              placeholder="Any status"
              clearable
              data={EVENT_STATUSES}
              value={status}
              onChange={(s) => {
                setStatus(s);
                setPage(1);
              }}
              w={150}
            />
          </Group>
        </Group>
        {events.isPending ? (
          <ListSkeleton rows={4} height={36} />
        ) : rows.length === 0 ? (
          <EmptyBlock
            title={debounced || status ? 'No recipients match' : 'No recipients yet'}
            description={debounced || status ? 'Try another search or status.' : 'Recipients are taken from the groups when the campaign starts sending.'}
          />
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="xs" data-testid="campaign-events">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Contact</Table.Th>
                  <Table.Th>Number</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Sent</Table.Th>
                  <Table.Th>Delivered</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((e) => (
                  <Table.Tr key={e.id} data-testid="campaign-event">
                    <Table.Td>{e.contact?.name ?? '—'}</Table.Td>
                    <Table.Td>{formatPhone(e.number)}</Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        <Badge size="sm" variant="light" color={STATE_COLORS[e.state] ?? 'gray'}>
                          {e.state.replace('_', ' ')}
                        </Badge>
                        {e.unsubscribed_at ? (
                          <Badge size="sm" variant="light" color="orange">
                            unsubscribed
                          </Badge>
                        ) : null}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Text size="xs" c="dimmed">
                        {formatDateTime(e.sent_at)}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="xs" c="dimmed">
                        {formatDateTime(e.delivered_at)}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <TablePager p="sm" size="sm" page={page} onChange={setPage} totalPages={events.data?.meta.last_page} />
      </Card>

      <ConfirmModal
        opened={confirm}
        onClose={() => setConfirm(false)}
        title="Delete campaign"
        loading={remove.isPending}
        onConfirm={async () => {
          await remove.mutateAsync(c.id);
          notify.success('Campaign deleted');
          navigate('/campaigns');
        }}
      >
        Delete “{c.title}”? Its results go with it.
      </ConfirmModal>
    </Stack>
  );
}
