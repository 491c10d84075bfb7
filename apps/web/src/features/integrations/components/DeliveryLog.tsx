/**
 * An integration's delivery log (docs/integrations.md "Deliveries"): what was sent, when, the provider's answer and
 * the HTTP exchanges of the last try; retry one delivery (same delivery key) and replay a period (confirmed first).
 */
import { ActionIcon, Badge, Button, Card, Code, Drawer, Group, Modal, Select, Stack, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { AD_DELIVERY_STATES, type AdDeliveryState, type AdIntegration } from '@switchboard/contracts';
import { IconEye, IconRefresh, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { LoadError } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { TablePager } from '../../../components/TablePager';
import { formatStamp } from '../../../lib/format';
import { useDeliveryLog, useReplay, useRetryDelivery, type Delivery } from '../api/integrations';
import { DELIVERY_STATE, KIND_LABEL } from '../labels';

const REPLAY_PERIODS = [
  { value: '1', label: 'the last 24 hours' },
  { value: '7', label: 'the last 7 days' },
  { value: '30', label: 'the last 30 days' },
];

export function DeliveryLog({ integration, onClose }: { integration: AdIntegration; onClose: () => void }) {
  const [page, setPage] = useState(1);
  const [state, setState] = useState<AdDeliveryState | null>(null);
  const [open, setOpen] = useState<Delivery | null>(null);
  const [replayDays, setReplayDays] = useState<string | null>(null);
  const log = useDeliveryLog(integration.id, page, state);
  const retry = useRetryDelivery();
  const replay = useReplay();
  const rows = log.data?.data ?? [];
  const period = REPLAY_PERIODS.find((p) => p.value === replayDays);
  return (
    <Card withBorder radius="md" data-testid="delivery-log" aria-labelledby="delivery-log-title">
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Text fw={600} component="h2" size="lg" id="delivery-log-title">
          Delivery log: {integration.name}
        </Text>
        <Group gap="xs" wrap="wrap">
          <Select
            aria-label="Delivery state"
            placeholder="All states"
            data={AD_DELIVERY_STATES.map((s) => ({ value: s, label: DELIVERY_STATE[s].label }))}
            value={state}
            onChange={(v) => {
              setState(v as AdDeliveryState | null);
              setPage(1);
            }}
            clearable
            w={190}
          />
          <Button variant="light" leftSection={<IconRefresh size={16} />} onClick={() => setReplayDays('7')}>
            Replay…
          </Button>
          <ActionIcon variant="subtle" aria-label="Close the delivery log" onClick={onClose} size="lg">
            <IconX size={16} />
          </ActionIcon>
        </Group>
      </Group>
      {log.isPending ? (
        <ListSkeleton rows={3} height={40} />
      ) : log.isError ? (
        <LoadError what="deliveries" onRetry={() => void log.refetch()} />
      ) : rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {state ? 'No deliveries in this state.' : 'Nothing sent yet. Calls and texts that match the settings appear here as they are sent.'}
        </Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="xs" data-testid="integration-deliveries">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>What</Table.Th>
                  <Table.Th>State</Table.Th>
                  <Table.Th>Provider’s answer</Table.Th>
                  <Table.Th>When</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((d) => (
                  <Table.Tr key={d.id} data-testid="integration-delivery" data-kind={d.kind} data-state={d.state}>
                    <Table.Td>
                      <Text size="sm">{KIND_LABEL[d.kind]}</Text>
                      {d.call_id ? (
                        <Text size="xs" component={Link} to={`/calls/${d.call_id}`} c="blue">
                          Call #{d.call_id}
                        </Text>
                      ) : null}
                      {d.source !== 'event' ? (
                        <Text size="xs" c="dimmed">
                          {d.source === 'backfill' ? 'Backfill' : d.source === 'replay' ? 'Replay' : 'Setup check'}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      <Badge color={DELIVERY_STATE[d.state].color}>{DELIVERY_STATE[d.state].label}</Badge>
                      <Text size="xs" c="dimmed">
                        {d.attempts} {d.attempts === 1 ? 'try' : 'tries'}
                        {d.state === 'pending' && d.next_at && d.attempts > 0 ? ` · next ${formatStamp(d.next_at)}` : ''}
                      </Text>
                    </Table.Td>
                    <Table.Td style={{ maxWidth: 320 }}>
                      <Text size="sm" lineClamp={2} style={{ wordBreak: 'break-word' }}>
                        {d.message ?? (d.provider_ref ? `Reference ${d.provider_ref}` : '—')}
                      </Text>
                    </Table.Td>
                    <Table.Td>{formatStamp(d.sent_at ?? d.created_at)}</Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Tooltip label="What was sent">
                          <ActionIcon variant="subtle" aria-label={`What was sent in delivery ${d.id}`} onClick={() => setOpen(d)}>
                            <IconEye size={16} />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label="Send again">
                          <ActionIcon
                            variant="subtle"
                            aria-label={`Send delivery ${d.id} again`}
                            disabled={d.state === 'pending' || integration.state !== 'active'}
                            loading={retry.isPending && retry.variables?.deliveryId === d.id}
                            onClick={() => retry.mutate({ integrationId: integration.id, deliveryId: d.id })}
                          >
                            <IconRefresh size={16} />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <TablePager mt="sm" page={page} totalPages={log.data?.meta.last_page} onChange={setPage} />
        </>
      )}
      <ExchangesDrawer delivery={open} onClose={() => setOpen(null)} />
      <Modal
        opened={replayDays !== null}
        onClose={() => setReplayDays(null)}
        title={`Replay deliveries to ${integration.name}`}
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Stack>
          <Select label="Send again everything since" data={REPLAY_PERIODS} value={replayDays} onChange={(v) => v && setReplayDays(v)} allowDeselect={false} />
          <Text size="sm">
            Every delivery of {period?.label ?? 'the period'} is sent again. Ad platforms drop what they already have; GA4 and Slack receive it a second time.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setReplayDays(null)}>
              Cancel
            </Button>
            <Button
              loading={replay.isPending}
              onClick={() =>
                replay.mutate(
                  { integrationId: integration.id, since: new Date(Date.now() - Number(replayDays) * 86_400_000).toISOString() },
                  { onSuccess: () => setReplayDays(null) },
                )
              }
            >
              Replay
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}

/** The HTTP exchanges of a delivery's last try (secrets removed by the server, bodies cut at 8 KB). */
function ExchangesDrawer({ delivery, onClose }: { delivery: Delivery | null; onClose: () => void }) {
  return (
    <Drawer
      opened={delivery !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={`Delivery #${delivery?.id ?? ''}`}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {delivery ? (
        <Stack data-testid="delivery-exchanges">
          <Text size="sm">
            <b>Delivery key</b> <Code>{delivery.delivery_key}</Code>
          </Text>
          {delivery.dedup_key ? (
            <Text size="sm">
              <b>Provider’s deduplication key</b> <Code>{delivery.dedup_key}</Code>
            </Text>
          ) : null}
          {delivery.exchanges.length === 0 ? (
            <Text size="sm" c="dimmed">
              Not sent yet.
            </Text>
          ) : (
            delivery.exchanges.map((x, i) => (
              <Stack key={i} gap={4}>
                <Text size="sm" fw={600} style={{ wordBreak: 'break-all' }}>
                  {x.method} {x.url} → {x.status} ({Math.round(x.ms)} ms, {formatStamp(x.at)})
                </Text>
                <Text size="xs" c="dimmed">
                  Sent
                </Text>
                <Code block>{JSON.stringify(x.requestBody, null, 2)}</Code>
                <Text size="xs" c="dimmed">
                  Answer
                </Text>
                <Code block>{JSON.stringify(x.responseBody, null, 2)}</Code>
              </Stack>
            ))
          )}
        </Stack>
      ) : null}
    </Drawer>
  );
}
