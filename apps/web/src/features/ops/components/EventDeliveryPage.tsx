/**
 * /ops/outbox, "Event delivery" (operators only; docs/operations.md "Domain-event outbox", "The operators' screen"):
 * every consumer of the domain-event outbox with the events it takes, its pending, retrying and dead deliveries,
 * those done in the last hour, its lag and last error, read again every 5 s ("updated N s ago"); a consumer with
 * dead letters or more than 60 s behind is marked. The newest dead letters by consumer, each retried alone or all of
 * a consumer's at once; "Replay from…" delivers a consumer's events again from a point in time (all companies or
 * one), after a confirmation that says what will happen. Anyone but an operator outside admin mode gets "not
 * available" (the server answers 403 to them): whether the person is one comes from the app (app/routes/OpsRoutes.tsx,
 * the admin session's `can_open_accounts`), and a 403 of the outbox itself shows the same.
 */
import { Alert, Badge, Box, Button, Card, Group, Loader, Modal, Paper, Stack, Table, Text, TextInput, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import type { OutboxConsumerStatus, OutboxDeadLetter } from '@switchboard/contracts';
import { IconAlertTriangle, IconLock, IconMailbox, IconRefresh, IconRotateClockwise } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { EmptyBlock, EmptyCard, LoadError } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { HttpError } from '../../../lib/http';
import { useOutboxStatus, useReplayConsumer, useRetryDeadLetters } from '../api/outbox';
import {
  consumerHealth,
  defaultReplaySince,
  formatInstant,
  formatLag,
  groupDeadLetters,
  LAG_WARNING_S,
  localInputToIso,
  replaySentence,
  updatedAgo,
  type ConsumerHealth,
  type DeadLetterGroup,
} from '../outbox-view';

const TITLE = 'Event delivery';
const DESCRIPTION =
  'Every reaction to a change (usage, webhooks, analytics, alerts, the inbox…) is a consumer of the domain-event outbox. A consumer with dead letters or more than a minute behind is marked.';

/** The current time, ticking every `ms` (the "updated N s ago" text). */
function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

const HEALTH_BADGE: Record<Exclude<ConsumerHealth, 'ok'>, { color: string; label: (c: OutboxConsumerStatus) => string }> = {
  dead: { color: 'red', label: (c) => `${c.dead} dead letter${c.dead === 1 ? '' : 's'}` },
  behind: { color: 'orange', label: () => 'Behind' },
};

/** The text badge that marks a consumer needing attention (colour is never the only sign). */
function HealthBadge({ consumer }: { consumer: OutboxConsumerStatus }) {
  const health = consumerHealth(consumer);
  if (health === 'ok') return null;
  const { color, label } = HEALTH_BADGE[health];
  return (
    <Badge color={color} variant="light" size="sm" leftSection={<IconAlertTriangle size={12} aria-hidden />}>
      {label(consumer)}
    </Badge>
  );
}

/** Lag, in the warning style above 60 s. */
function Lag({ seconds }: { seconds: number }) {
  if (seconds <= LAG_WARNING_S)
    return (
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {formatLag(seconds)}
      </Text>
    );
  return (
    <Tooltip label={`More than ${LAG_WARNING_S} s behind`}>
      <Text size="sm" fw={700} c="orange.9" data-warning="lag" style={{ whiteSpace: 'nowrap' }}>
        {formatLag(seconds)}
      </Text>
    </Tooltip>
  );
}

/** A count, red and bold when it is a number of dead letters above 0. */
function Dead({ count }: { count: number }) {
  return count > 0 ? (
    <Text size="sm" fw={700} c="red.8" data-warning="dead">
      {count}
    </Text>
  ) : (
    <Text size="sm">0</Text>
  );
}

function LastError({ text }: { text: string | null }) {
  if (!text)
    return (
      <Text size="sm" c="dimmed">
        None
      </Text>
    );
  return (
    <Text size="xs" ff="monospace" c="red.9" lineClamp={3} title={text} style={{ wordBreak: 'break-word' }}>
      {text}
    </Text>
  );
}

const rowStyle = (health: ConsumerHealth) =>
  health === 'dead' ? { background: 'var(--mantine-color-red-light)' } : health === 'behind' ? { background: 'var(--mantine-color-orange-light)' } : undefined;

/** The consumers: cards at phone width, a table from the `sm` breakpoint. */
function ConsumersTable({ consumers, onReplay }: { consumers: OutboxConsumerStatus[]; onReplay: (consumer: string) => void }) {
  const replayButton = (c: OutboxConsumerStatus) => (
    <Button
      size="xs"
      variant="light"
      leftSection={<IconRotateClockwise size={14} />}
      onClick={() => onReplay(c.consumer)}
      aria-label={`Replay from… (${c.consumer})`}
    >
      Replay from…
    </Button>
  );
  return (
    <Card withBorder radius="md" p={0} component="section" aria-labelledby="ops-consumers-title">
      <Group justify="space-between" p="md" pb="xs">
        <Title order={2} size="h4" id="ops-consumers-title">
          Consumers
        </Title>
        <Text size="sm" c="dimmed">
          {consumers.length} consumer{consumers.length === 1 ? '' : 's'}
        </Text>
      </Group>
      {consumers.length === 0 ? (
        <EmptyBlock title="No consumers" description="No module reacts to domain events in this server." />
      ) : (
        <>
          <Stack gap={0} hiddenFrom="sm" data-testid="outbox-consumer-cards">
            {consumers.map((c) => (
              <Stack
                key={c.consumer}
                gap={6}
                p="sm"
                style={{ borderTop: '1px solid var(--mantine-color-default-border)', ...rowStyle(consumerHealth(c)) }}
                data-testid="outbox-consumer-card"
              >
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Text fw={600} ff="monospace" size="sm" style={{ wordBreak: 'break-all' }}>
                      {c.consumer}
                    </Text>
                    <Text size="xs" c="dimmed" style={{ wordBreak: 'break-word' }}>
                      {c.events.join(', ') || 'No events registered here'}
                    </Text>
                  </Stack>
                  <HealthBadge consumer={c} />
                </Group>
                <Group gap="md" wrap="wrap">
                  {(
                    [
                      ['Pending', <Text size="sm">{c.pending}</Text>],
                      ['Retrying', <Text size="sm">{c.retrying}</Text>],
                      ['Dead', <Dead count={c.dead} />],
                      ['Done last hour', <Text size="sm">{c.doneLastHour}</Text>],
                      ['Lag', <Lag seconds={c.lagS} />],
                    ] as const
                  ).map(([label, value]) => (
                    <Stack key={label} gap={0}>
                      <Text size="xs" c="dimmed">
                        {label}
                      </Text>
                      {value}
                    </Stack>
                  ))}
                </Group>
                {c.lastError ? <LastError text={c.lastError} /> : null}
                <Group>{replayButton(c)}</Group>
              </Stack>
            ))}
          </Stack>
          <Table.ScrollContainer minWidth={900} visibleFrom="sm">
            <Table verticalSpacing="sm" data-testid="outbox-consumers">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Consumer</Table.Th>
                  <Table.Th>Events</Table.Th>
                  <Table.Th ta="right">Pending</Table.Th>
                  <Table.Th ta="right">Retrying</Table.Th>
                  <Table.Th ta="right">Dead</Table.Th>
                  <Table.Th ta="right">Done last hour</Table.Th>
                  <Table.Th ta="right">Lag</Table.Th>
                  <Table.Th>Last error</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {consumers.map((c) => {
                  const health = consumerHealth(c);
                  return (
                    <Table.Tr key={c.consumer} style={rowStyle(health)} data-testid="outbox-consumer" data-health={health}>
                      <Table.Td>
                        <Stack gap={4} align="flex-start">
                          <Text fw={600} ff="monospace" size="sm">
                            {c.consumer}
                          </Text>
                          <HealthBadge consumer={c} />
                        </Stack>
                      </Table.Td>
                      <Table.Td miw={180} maw={280}>
                        <Text size="xs" c="dimmed">
                          {c.events.join(', ') || '—'}
                        </Text>
                      </Table.Td>
                      <Table.Td ta="right">{c.pending}</Table.Td>
                      <Table.Td ta="right">{c.retrying}</Table.Td>
                      <Table.Td ta="right">
                        <Dead count={c.dead} />
                      </Table.Td>
                      <Table.Td ta="right">{c.doneLastHour}</Table.Td>
                      <Table.Td ta="right">
                        <Lag seconds={c.lagS} />
                      </Table.Td>
                      <Table.Td maw={260}>
                        <LastError text={c.lastError} />
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{replayButton(c)}</Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      )}
    </Card>
  );
}

/** One dead letter: the event, its aggregate, attempts, when it was written, its last error and "Retry". */
function DeadLetterRow({ letter, busy, onRetry }: { letter: OutboxDeadLetter; busy: boolean; onRetry: () => void }) {
  return (
    <Paper withBorder radius="sm" p="sm" component="li" data-testid="outbox-dead-letter">
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text size="sm" fw={600}>
            {letter.name}{' '}
            <Text span size="xs" c="dimmed" fw={400}>
              event #{letter.eventId} · {letter.aggregate}
            </Text>
          </Text>
          <Text size="xs" c="dimmed">
            {letter.attempts} attempt{letter.attempts === 1 ? '' : 's'} · written {formatInstant(letter.createdAt)}
          </Text>
          <LastError text={letter.lastError} />
        </Stack>
        <Button size="xs" variant="default" loading={busy} onClick={onRetry} aria-label={`Retry event ${letter.eventId} for ${letter.consumer}`}>
          Retry
        </Button>
      </Group>
    </Paper>
  );
}

/** Dead letters by consumer, with "Retry all" per consumer and "Retry" per event; "No dead letters" when none. */
function DeadLetters({ groups }: { groups: DeadLetterGroup[] }) {
  const retry = useRetryDeadLetters();
  const busy = (consumer: string, eventId?: number) => retry.isPending && retry.variables?.consumer === consumer && retry.variables?.eventId === eventId;
  return (
    <Card withBorder radius="md" component="section" aria-labelledby="ops-dead-letters-title">
      <Title order={2} size="h4" id="ops-dead-letters-title" mb="xs">
        Dead letters
      </Title>
      {groups.length === 0 ? (
        <EmptyBlock
          icon={<IconMailbox />}
          title="No dead letters"
          description="A delivery that uses up its attempts shows here, to retry once its cause is fixed."
        />
      ) : (
        <Stack gap="lg">
          {groups.map((g) => {
            const total = g.letters.length + g.more;
            return (
              <Stack key={g.consumer} gap="xs" component="section" aria-label={`Dead letters of ${g.consumer}`} data-testid="outbox-dead-group">
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <Group gap="xs">
                    <Title order={3} size="h5" ff="monospace">
                      {g.consumer}
                    </Title>
                    <Badge color="red" variant="light">
                      {total} dead letter{total === 1 ? '' : 's'}
                    </Badge>
                  </Group>
                  <Button
                    size="xs"
                    color="red"
                    variant="light"
                    leftSection={<IconRefresh size={14} />}
                    loading={busy(g.consumer)}
                    onClick={() => retry.mutate({ consumer: g.consumer })}
                    aria-label={`Retry all dead letters of ${g.consumer}`}
                  >
                    Retry all
                  </Button>
                </Group>
                <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
                  {g.letters.map((l) => (
                    <DeadLetterRow
                      key={l.eventId}
                      letter={l}
                      busy={busy(g.consumer, l.eventId)}
                      onRetry={() => retry.mutate({ consumer: g.consumer, eventId: l.eventId })}
                    />
                  ))}
                </Stack>
                {g.more > 0 ? (
                  <Text size="xs" c="dimmed">
                    {g.more} older dead letter{g.more === 1 ? '' : 's'} not listed; "Retry all" includes them.
                  </Text>
                ) : null}
              </Stack>
            );
          })}
        </Stack>
      )}
    </Card>
  );
}

/**
 * "Replay from…": a point in time (the browser's zone) and an optional company, then a confirmation that says what
 * will happen; 422 field errors go back beside the inputs, any other refusal shows in the dialog.
 */
function ReplayDialog({ consumer, onClose }: { consumer: string; onClose: () => void }) {
  const replay = useReplayConsumer();
  const [since, setSince] = useState(() => defaultReplaySince(new Date()));
  const [companyId, setCompanyId] = useState('');
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<{ since: string; companyId?: number } | null>(null);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

  const next = () => {
    const iso = localInputToIso(since);
    const company = companyId.trim();
    const found: Record<string, string> = {};
    if (!since) found.since = 'The since field is required.';
    else if (!iso) found.since = 'The since field must be a valid date.';
    if (company && !/^[1-9]\d{0,15}$/.test(company)) found.companyId = 'The company id must be a number.';
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length === 0 && iso) setConfirming({ since: iso, ...(company ? { companyId: Number(company) } : {}) });
  };

  const confirm = () => {
    if (!confirming) return;
    replay.mutate(
      { consumer, ...confirming },
      {
        onSuccess: onClose,
        onError: (e) => {
          const fields = e instanceof HttpError ? e.fieldErrors : {};
          if (Object.keys(fields).length > 0) {
            setErrors({ since: fields.since?.[0], companyId: fields.companyId?.[0] });
            setConfirming(null);
          } else {
            setFailure(e instanceof HttpError && e.status === 403 ? 'Only operators can replay a consumer.' : e.message || 'The replay could not be started.');
          }
        },
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title={`Replay ${consumer}`} closeButtonProps={{ 'aria-label': 'Close' }}>
      {confirming ? (
        <Stack>
          <Alert color="orange" icon={<IconAlertTriangle size={18} />} title="Deliver these events again?" data-testid="replay-confirmation">
            <Text size="sm">{replaySentence(consumer, confirming.since, confirming.companyId)}</Text>
            <Text size="sm" mt="xs">
              Its handlers are idempotent: what is already right stays as it is. Events older than the outbox keeps (7 days) cannot be replayed.
            </Text>
          </Alert>
          {failure ? (
            <Alert color="red" title="Not replayed">
              {failure}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(null)}>
              Back
            </Button>
            <Button color="orange" loading={replay.isPending} onClick={confirm}>
              Replay
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <Text size="sm">
            Every event {consumer} takes, written at or after this time, is delivered to it again: rebuild the analytics facts after a fix, resend an
            endpoint&apos;s webhooks after its outage.
          </Text>
          <TextInput
            type="datetime-local"
            label="From"
            description={`Your time zone (${zone}).`}
            required
            value={since}
            onChange={(e) => setSince(e.currentTarget.value)}
            error={errors.since}
            data-autofocus
          />
          <TextInput
            label="Company id (optional)"
            description="Only this company's events; empty for every company."
            inputMode="numeric"
            value={companyId}
            onChange={(e) => setCompanyId(e.currentTarget.value)}
            error={errors.companyId}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button onClick={next}>Continue</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** What anyone but an operator (outside admin mode) sees. */
function NotAvailable({ inAdminMode }: { inAdminMode: boolean }) {
  return (
    <>
      <PageHeader title={TITLE} />
      <EmptyCard
        icon={<IconLock />}
        title="Not available"
        description={
          inAdminMode
            ? 'Event delivery is for the platform’s operators in their own session. Leave admin mode to see it.'
            : 'Event delivery is for the platform’s operators only.'
        }
        action={
          <Button component={Link} to="/" variant="default">
            Go to your home screen
          </Button>
        }
      />
    </>
  );
}

/**
 * Whether the signed-in person may use the screen: `checking` while it is being asked, `unknown` when asking failed,
 * `operator` (an operator in their own session), `admin-mode` (an operator acting in an account: not here) or `none`.
 */
export type OperatorAccess = 'checking' | 'unknown' | 'operator' | 'admin-mode' | 'none';

/** The operators' "Event delivery" screen (see the module's docstring); `onRetryAccess` asks `access` again. */
export function EventDeliveryPage({ access, onRetryAccess }: { access: OperatorAccess; onRetryAccess?: () => void }) {
  const isOperator = access === 'operator';
  const status = useOutboxStatus(isOperator);
  const now = useNow(1000);
  const [replaying, setReplaying] = useState<string | null>(null);

  if (access === 'checking') {
    return (
      <>
        <PageHeader title={TITLE} />
        <ListSkeleton rows={4} height={48} />
      </>
    );
  }
  if (access === 'unknown') {
    return (
      <>
        <PageHeader title={TITLE} />
        <Card withBorder radius="md">
          <LoadError what="event delivery" onRetry={onRetryAccess} />
        </Card>
      </>
    );
  }
  const refused = status.error instanceof HttpError && status.error.status === 403;
  if (!isOperator || refused) return <NotAvailable inAdminMode={access === 'admin-mode'} />;

  const data = status.data;
  const attention = data?.consumers.filter((c) => consumerHealth(c) !== 'ok').length ?? 0;
  return (
    <>
      <PageHeader
        title={TITLE}
        description={DESCRIPTION}
        actions={
          data ? (
            <Group gap="xs" wrap="wrap">
              {status.isError ? (
                <Badge color="red" variant="light">
                  Refresh failed
                </Badge>
              ) : null}
              <Text size="sm" c="dimmed" data-testid="outbox-updated">
                {updatedAgo(status.dataUpdatedAt, now)}
              </Text>
              {/* A fixed slot: the loader of each 5 s read never moves the buttons. */}
              <Box w={16} h={16}>
                {status.isFetching ? <Loader size={16} aria-label="Refreshing" /> : null}
              </Box>
              <Button size="xs" variant="default" leftSection={<IconRefresh size={14} />} onClick={() => void status.refetch()}>
                Refresh
              </Button>
            </Group>
          ) : null
        }
      />
      {status.isPending ? (
        <ListSkeleton rows={5} height={48} />
      ) : !data ? (
        <Card withBorder radius="md">
          <LoadError what="event delivery" onRetry={() => void status.refetch()} />
        </Card>
      ) : (
        <Stack gap="md">
          {attention > 0 ? (
            <Alert color="orange" icon={<IconAlertTriangle size={18} />} title={`${attention} consumer${attention === 1 ? ' needs' : 's need'} attention`}>
              Dead letters wait for a retry; a consumer more than {LAG_WARNING_S} s behind is slow or stuck.
            </Alert>
          ) : null}
          <ConsumersTable consumers={data.consumers} onReplay={setReplaying} />
          <DeadLetters groups={groupDeadLetters(data.consumers, data.deadLetters)} />
        </Stack>
      )}
      {replaying ? <ReplayDialog consumer={replaying} onClose={() => setReplaying(null)} /> : null}
    </>
  );
}
