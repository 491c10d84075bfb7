/**
 * /webhooks (docs/api-and-webhooks.md "Outbound webhooks"): the company's endpoints (URL, events, state), each with
 * a test send, its signing secret (reveal, copy, rotate), edit, enable or disable, delete with confirmation; the
 * selected endpoint's delivery log (event, status, attempts, HTTP status, response time) with each delivery's
 * payload and attempts, and replay.
 */
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Code,
  CopyButton,
  Drawer,
  Group,
  Loader,
  Menu,
  Modal,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { WEBHOOK_EVENT_LABELS, WEBHOOK_EVENT_TYPES, type WebhookDelivery, type WebhookEndpoint, type WebhookEventType } from '@switchboard/contracts';
import { IconCheck, IconCopy, IconDots, IconEye, IconPlus, IconRefresh, IconSend, IconWebhook } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { EmptyCard, LoadError } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { TablePager } from '../../../components/TablePager';
import { formatStamp } from '../../../lib/format';
import { HttpError } from '../../../lib/http';
import {
  useCreateWebhook,
  useDeleteWebhook,
  useDeliveries,
  useDelivery,
  useReplay,
  useRotateSecret,
  useSendTest,
  useTestDelivery,
  useUpdateWebhook,
  useWebhookSecret,
  useWebhooks,
} from '../api/webhooks';

/** How the test event just sent went: sending, delivered (the endpoint's answer and time) or refused (why, and the next try). */
function TestResult({ endpointId, deliveryId, onClose }: { endpointId: number; deliveryId: number; onClose: () => void }) {
  const d = useTestDelivery(endpointId, deliveryId).data;
  const common = { mt: 'sm', withCloseButton: true, closeButtonLabel: 'Dismiss', onClose, 'data-testid': 'webhook-test-result' } as const;
  if (!d || (d.status === 'pending' && d.attempts === 0)) {
    return (
      <Alert {...common} color="gray" icon={<Loader size={14} />} title="Sending a test event…">
        The result shows here in a moment.
      </Alert>
    );
  }
  const answer = d.last_status_code !== null ? `HTTP ${d.last_status_code}` : (d.last_error ?? 'no answer');
  if (d.status === 'succeeded') {
    return (
      <Alert {...common} color="green" title="Test event delivered">
        Your endpoint answered {answer}
        {d.last_duration_ms !== null ? ` in ${d.last_duration_ms} ms` : ''}.
      </Alert>
    );
  }
  return (
    <Alert {...common} color="red" title="The test event was not accepted">
      Your endpoint answered {answer}
      {d.last_status_code !== null && d.last_error ? ` (${d.last_error})` : ''}.
      {d.next_attempt_at ? ` It will be tried again ${formatStamp(d.next_attempt_at)}.` : ''}
    </Alert>
  );
}

const STATUS_COLOR: Record<WebhookDelivery['status'], string> = { pending: 'yellow', succeeded: 'green', failed: 'red' };
const STATUS_LABEL: Record<WebhookDelivery['status'], string> = { pending: 'Pending', succeeded: 'Delivered', failed: 'Failed' };

function eventLabel(type: string): string {
  return (WEBHOOK_EVENT_LABELS as Record<string, string>)[type] ?? (type === 'webhook.test' ? 'Test event' : type);
}

export function WebhooksPage() {
  const endpoints = useWebhooks();
  const [editing, setEditing] = useState<WebhookEndpoint | 'new' | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
  const [secretOf, setSecretOf] = useState<WebhookEndpoint | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const remove = useDeleteWebhook();
  const update = useUpdateWebhook();
  const test = useSendTest();
  // The test event last sent, shown on its endpoint's card until dismissed.
  const [tested, setTested] = useState<{ endpointId: number; deliveryId: number } | null>(null);
  const list = endpoints.data ?? [];
  const current = list.find((e) => e.id === selected) ?? list[0] ?? null;

  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Send calls, messages and tracking matches to your own systems as they happen. Every delivery is signed (Standard Webhooks) and retried for a day."
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            Add endpoint
          </Button>
        }
      />
      {endpoints.isPending ? (
        <ListSkeleton rows={2} height={80} />
      ) : endpoints.isError ? (
        <Card withBorder radius="md">
          <LoadError what="webhooks" onRetry={() => void endpoints.refetch()} />
        </Card>
      ) : list.length === 0 ? (
        <EmptyCard icon={<IconWebhook />} title="No endpoints yet" description="Add a URL of yours and choose the events to send to it." />
      ) : (
        <Stack gap="sm">
          {list.map((e) => (
            <Card key={e.id} withBorder radius="md" data-testid="webhook-endpoint" aria-current={current?.id === e.id ? 'true' : undefined}>
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Stack gap={4} style={{ minWidth: 0 }}>
                  <Group gap="xs">
                    <Text fw={600} style={{ wordBreak: 'break-all' }}>
                      {e.url}
                    </Text>
                    {e.enabled ? (
                      e.failing_since ? (
                        <Badge color="orange">Failing since {formatStamp(e.failing_since)}</Badge>
                      ) : (
                        <Badge color="green">Enabled</Badge>
                      )
                    ) : (
                      <Badge color="gray">Disabled</Badge>
                    )}
                  </Group>
                  {e.description ? (
                    <Text size="sm" c="dimmed">
                      {e.description}
                    </Text>
                  ) : null}
                  {!e.enabled && e.disabled_reason ? (
                    <Text size="xs" c="red">
                      {e.disabled_reason}
                    </Text>
                  ) : null}
                  <Group gap={4}>
                    {e.events.map((t) => (
                      <Badge key={t} size="sm" variant="light">
                        {eventLabel(t)}
                      </Badge>
                    ))}
                  </Group>
                </Stack>
                <Group gap="xs" wrap="nowrap">
                  <Button size="xs" variant={current?.id === e.id ? 'filled' : 'light'} onClick={() => setSelected(e.id)} aria-label={`Deliveries of ${e.url}`}>
                    Deliveries
                  </Button>
                  <Menu position="bottom-end" withinPortal>
                    <Menu.Target>
                      <ActionIcon variant="subtle" aria-label={`Actions for ${e.url}`}>
                        <IconDots size={16} />
                      </ActionIcon>
                    </Menu.Target>
                    <Menu.Dropdown>
                      <Menu.Item
                        leftSection={<IconSend size={14} />}
                        onClick={() =>
                          test.mutate(e.id, {
                            onSuccess: (r) => {
                              setSelected(e.id);
                              setTested({ endpointId: e.id, deliveryId: r.data.id });
                            },
                          })
                        }
                      >
                        Send test event
                      </Menu.Item>
                      <Menu.Item leftSection={<IconEye size={14} />} onClick={() => setSecretOf(e)}>
                        Signing secret
                      </Menu.Item>
                      <Menu.Item onClick={() => setEditing(e)}>Edit</Menu.Item>
                      <Menu.Item onClick={() => update.mutate({ id: e.id, input: { enabled: !e.enabled } })}>{e.enabled ? 'Disable' : 'Enable'}</Menu.Item>
                      <Menu.Divider />
                      <Menu.Item color="red" onClick={() => setDeleting(e)}>
                        Delete
                      </Menu.Item>
                    </Menu.Dropdown>
                  </Menu>
                </Group>
              </Group>
              {tested?.endpointId === e.id ? <TestResult endpointId={e.id} deliveryId={tested.deliveryId} onClose={() => setTested(null)} /> : null}
            </Card>
          ))}
          {current ? <DeliveryLog endpoint={current} /> : null}
        </Stack>
      )}
      {editing !== null ? <EndpointModal endpoint={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
      {secretOf ? <SecretModal endpoint={secretOf} onClose={() => setSecretOf(null)} /> : null}
      <ConfirmModal
        opened={deleting !== null}
        title="Delete webhook endpoint"
        confirmLabel="Delete endpoint"
        loading={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
      >
        Delete the endpoint {deleting?.url}? Its delivery log is deleted with it.
      </ConfirmModal>
    </>
  );
}

function EndpointModal({ endpoint, onClose }: { endpoint: WebhookEndpoint | null; onClose: () => void }) {
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const [events, setEvents] = useState<string[]>(endpoint?.events ?? ['call.completed']);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const onError = (e: Error) => {
    if (e instanceof HttpError) setErrors(Object.keys(e.fieldErrors).length ? e.fieldErrors : { url: [e.message] });
  };
  const submit = () => {
    setErrors({});
    const input = { url: url.trim(), description, events: events as WebhookEventType[] };
    if (endpoint) update.mutate({ id: endpoint.id, input }, { onSuccess: onClose, onError });
    else create.mutate(input, { onSuccess: onClose, onError });
  };
  const eventsError = Object.entries(errors).find(([k]) => k.startsWith('events'))?.[1][0];
  return (
    <Modal opened onClose={onClose} title={endpoint ? 'Edit endpoint' : 'Add endpoint'} size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack>
        <TextInput
          label="Endpoint URL"
          placeholder="https://example.com/webhooks/switchboard"
          required
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
          error={errors.url?.[0]}
          data-autofocus
        />
        <TextInput label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} error={errors.description?.[0]} />
        <Checkbox.Group label="Events" required value={events} onChange={setEvents} error={eventsError}>
          <SimpleGrid cols={{ base: 1, xs: 2 }} mt="xs" spacing="xs">
            {WEBHOOK_EVENT_TYPES.map((t) => (
              <Checkbox key={t} value={t} label={WEBHOOK_EVENT_LABELS[t]} description={t} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} loading={create.isPending || update.isPending}>
            {endpoint ? 'Save' : 'Add endpoint'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function SecretModal({ endpoint, onClose }: { endpoint: WebhookEndpoint; onClose: () => void }) {
  const [shown, setShown] = useState(false);
  const [confirmRotate, setConfirmRotate] = useState(false);
  const secret = useWebhookSecret(endpoint.id, shown);
  const rotate = useRotateSecret();
  return (
    <Modal opened onClose={onClose} title="Signing secret" size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack>
        <Text size="sm">
          Verify the <Code>webhook-signature</Code> header of every delivery with this secret and any Standard Webhooks library.
        </Text>
        {shown && secret.data ? (
          <Group wrap="nowrap" gap="xs">
            <Code block style={{ flex: 1, wordBreak: 'break-all' }} data-testid="webhook-secret">
              {secret.data}
            </Code>
            <CopyButton value={secret.data}>
              {({ copied, copy }) => (
                <Button variant="light" onClick={copy} leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}>
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
          </Group>
        ) : (
          <Button variant="light" onClick={() => setShown(true)} loading={shown && secret.isPending} leftSection={<IconEye size={16} />}>
            Reveal secret
          </Button>
        )}
        {confirmRotate ? (
          <Alert color="orange" title="Rotate the secret?">
            Deliveries from now on are signed with a new secret; your receiver must use it at once.
            <Group mt="sm" gap="xs">
              <Button
                size="xs"
                color="orange"
                loading={rotate.isPending}
                onClick={() =>
                  rotate.mutate(endpoint.id, {
                    onSuccess: () => {
                      setShown(true);
                      setConfirmRotate(false);
                    },
                  })
                }
              >
                Rotate secret
              </Button>
              <Button size="xs" variant="default" onClick={() => setConfirmRotate(false)}>
                Cancel
              </Button>
            </Group>
          </Alert>
        ) : (
          <Group justify="space-between">
            <Button variant="subtle" color="orange" leftSection={<IconRefresh size={16} />} onClick={() => setConfirmRotate(true)}>
              Rotate…
            </Button>
            <Button onClick={onClose}>Done</Button>
          </Group>
        )}
      </Stack>
    </Modal>
  );
}

function DeliveryLog({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState('all');
  const [open, setOpen] = useState<number | null>(null);
  const deliveries = useDeliveries(endpoint.id, page, status === 'all' ? null : status);
  const replay = useReplay();
  const rows = deliveries.data?.data ?? [];
  return (
    <Card withBorder radius="md">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Text fw={600} component="h2" size="lg">
          Delivery log
        </Text>
        <SegmentedControl
          aria-label="Delivery status"
          value={status}
          onChange={(v) => {
            setStatus(v);
            setPage(1);
          }}
          data={[
            { value: 'all', label: 'All' },
            { value: 'succeeded', label: 'Delivered' },
            { value: 'failed', label: 'Failed' },
            { value: 'pending', label: 'Pending' },
          ]}
        />
      </Group>
      {deliveries.isPending ? (
        <ListSkeleton rows={3} height={40} />
      ) : deliveries.isError ? (
        <LoadError what="deliveries" onRetry={() => void deliveries.refetch()} />
      ) : rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          No deliveries yet. Send a test event to try the endpoint.
        </Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="xs" data-testid="webhook-deliveries">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Event</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Attempts</Table.Th>
                  <Table.Th>Response</Table.Th>
                  <Table.Th>Sent</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((d) => (
                  <Table.Tr key={d.id} data-testid="webhook-delivery">
                    <Table.Td>
                      <Text size="sm">{eventLabel(d.event_type)}</Text>
                      {d.replay_of ? (
                        <Text size="xs" c="dimmed">
                          Replay of #{d.replay_of}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      <Badge color={STATUS_COLOR[d.status]}>{STATUS_LABEL[d.status]}</Badge>
                      {d.status === 'pending' && d.next_attempt_at && d.attempts > 0 ? (
                        <Text size="xs" c="dimmed">
                          Next try {formatStamp(d.next_attempt_at)}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>{d.attempts}</Table.Td>
                    <Table.Td>
                      <Text size="sm">{d.last_status_code ?? (d.last_error ? 'No answer' : '—')}</Text>
                      {d.last_duration_ms !== null ? (
                        <Text size="xs" c="dimmed">
                          {d.last_duration_ms} ms
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>{formatStamp(d.created_at)}</Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Tooltip label="Details">
                          <ActionIcon variant="subtle" aria-label={`Details of delivery ${d.id}`} onClick={() => setOpen(d.id)}>
                            <IconEye size={16} />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label="Replay">
                          <ActionIcon
                            variant="subtle"
                            aria-label={`Replay delivery ${d.id}`}
                            disabled={!endpoint.enabled || d.status === 'pending'}
                            loading={replay.isPending && replay.variables?.deliveryId === d.id}
                            onClick={() => replay.mutate({ endpointId: endpoint.id, deliveryId: d.id })}
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
          <TablePager mt="sm" page={page} totalPages={deliveries.data?.meta.last_page} onChange={setPage} />
        </>
      )}
      <DeliveryDrawer endpointId={endpoint.id} deliveryId={open} onClose={() => setOpen(null)} />
    </Card>
  );
}

function DeliveryDrawer({ endpointId, deliveryId, onClose }: { endpointId: number; deliveryId: number | null; onClose: () => void }) {
  const d = useDelivery(endpointId, deliveryId);
  return (
    <Drawer
      opened={deliveryId !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={`Delivery #${deliveryId ?? ''}`}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {d.isPending ? (
        <ListSkeleton rows={3} height={40} />
      ) : d.isError ? (
        <LoadError what="the delivery" onRetry={() => void d.refetch()} />
      ) : d.data ? (
        <Stack>
          <Text size="sm">
            <b>webhook-id</b> <Code>{d.data.message_id}</Code>
          </Text>
          <Text fw={600} size="sm">
            Attempts
          </Text>
          {d.data.attempts_log.length === 0 ? (
            <Text size="sm" c="dimmed">
              Not sent yet.
            </Text>
          ) : (
            <Table verticalSpacing={4} data-testid="webhook-attempts">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>#</Table.Th>
                  <Table.Th>When</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Time</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {d.data.attempts_log.map((a) => (
                  <Table.Tr key={a.attempt}>
                    <Table.Td>{a.attempt}</Table.Td>
                    <Table.Td>{formatStamp(a.attempted_at)}</Table.Td>
                    <Table.Td>{a.status_code ?? a.error ?? '—'}</Table.Td>
                    <Table.Td>{a.duration_ms} ms</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          <Text fw={600} size="sm">
            Payload
          </Text>
          <Code block>{JSON.stringify(d.data.payload, null, 2)}</Code>
        </Stack>
      ) : null}
    </Drawer>
  );
}
