import { ActionIcon, Anchor, Button, Card, Code, CopyButton, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCheck, IconCopy, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useCan } from '../../../lib/access';
import { formatDateTime } from '../../../lib/format';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useSaveTriggers, useTestTrigger, useTriggerSecret, useTriggers } from '../api/triggers';
import { TRIGGER_ACTIONS, TRIGGER_EVENTS, type Trigger } from '../types';

const EVENT_LABELS: Record<Trigger['event'], string> = { 'call.missed': 'Missed call', 'call.voicemail': 'New voicemail', 'sms.received': 'Text received' };
const ACTION_LABELS: Record<Trigger['action'], string> = { email: 'Send an e-mail', webhook: 'Call a webhook' };

/** What the latest firing of a trigger did, in words (delivered, being retried, failed with its reason). */
function lastFiredText(t: Trigger): { text: string; failed: boolean } {
  const f = t.last_fired;
  if (!f) return { text: 'Not fired yet', failed: false };
  const when = formatDateTime(f.at);
  if (f.state === 'delivered') return { text: `Last sent ${when}`, failed: false };
  const why = f.error ?? (f.status_code ? `HTTP ${f.status_code}` : 'no answer');
  if (f.state === 'pending') return { text: f.error ? `Retrying: ${why}` : 'Sending…', failed: Boolean(f.error) };
  return { text: `Failed ${when}: ${why}`, failed: true };
}

/** A webhook trigger's signing secret, revealed on demand, with a copy button. */
function SigningSecret({ triggerId }: { triggerId: number }) {
  const [shown, setShown] = useState(false);
  const secret = useTriggerSecret(triggerId, shown);
  if (!shown)
    return (
      <Anchor component="button" type="button" size="xs" onClick={() => setShown(true)}>
        Show signing secret
      </Anchor>
    );
  if (!secret.data) return <Text size="xs">{secret.isError ? 'The secret could not be loaded.' : 'Loading…'}</Text>;
  return (
    <Group gap={4} wrap="nowrap" align="center">
      <Code style={{ wordBreak: 'break-all', fontSize: 11 }} data-testid="trigger-secret">
        {secret.data}
      </Code>
      <CopyButton value={secret.data}>
        {({ copied, copy }) => (
          <ActionIcon variant="subtle" size="sm" onClick={copy} aria-label={copied ? 'Copied' : 'Copy signing secret'}>
            {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
          </ActionIcon>
        )}
      </CopyButton>
    </Group>
  );
}

/**
 * The number's triggers: on a missed call, voicemail or text, e-mail someone or call a webhook (signed with the
 * trigger's own secret, Standard Webhooks); each shows when it last fired and how that went.
 */
export function TriggersCard({ numberId }: { numberId: number }) {
  const triggers = useTriggers();
  const save = useSaveTriggers();
  const canManage = useCan('numbers.manage');
  const test = useTestTrigger();
  const sendTest = (id: number) =>
    test.mutate(id, {
      onSuccess: (r) => (r.data.state === 'delivered' ? notify.success(r.message) : notify.danger(r.message, 8_000, 'Test not delivered')),
    });
  const [event, setEvent] = useState<Trigger['event']>('call.missed');
  const [action, setAction] = useState<Trigger['action']>('email');
  const [target, setTarget] = useState('');
  const mine = (triggers.data?.data ?? []).filter((t) => t.number_id === numberId);

  const [targetError, setTargetError] = useState<string | null>(null);
  const add = () =>
    save.mutate(
      { upsert: [{ number_id: numberId, event, action, target: target.trim() }], remove: [] },
      {
        onSuccess: (r) => {
          setTarget('');
          setTargetError(null);
          notify.success(r.message ?? 'The trigger has been saved.');
        },
        onError: (e) => setTargetError(e instanceof HttpError ? (e.fieldErrors['upsert.0.target']?.[0] ?? null) : null),
      },
    );
  const remove = (id: number) => save.mutate({ upsert: [], remove: [id] }, { onSuccess: (r) => notify.success(r.message ?? 'The trigger has been removed.') });

  return (
    <Card withBorder radius="md" padding="md" data-testid="triggers-card">
      <Title order={5} mb="xs">
        Triggers
      </Title>
      <Stack gap="xs">
        {mine.length === 0 ? (
          <Text size="sm" c="dimmed">
            No triggers yet. Add one to be told about missed calls, voicemails or texts.
          </Text>
        ) : (
          mine.map((t) => (
            <Group key={t.id} justify="space-between" wrap="nowrap" data-testid="trigger-row">
              <div style={{ minWidth: 0 }}>
                <Text size="sm" fw={500}>
                  {EVENT_LABELS[t.event]} → {ACTION_LABELS[t.action]}
                </Text>
                <Text size="xs" c="dimmed" truncate>
                  {t.target}
                </Text>
                <Text size="xs" c={lastFiredText(t).failed ? 'red.8' : 'dimmed'} data-testid="trigger-last-fired">
                  {lastFiredText(t).text}
                </Text>
                {canManage ? (
                  <Group gap="sm">
                    <Anchor
                      component="button"
                      type="button"
                      size="xs"
                      onClick={() => sendTest(t.id)}
                      disabled={test.isPending}
                      aria-label={`Send a test: ${EVENT_LABELS[t.event]} → ${ACTION_LABELS[t.action]}, ${t.target}`}
                    >
                      {test.isPending && test.variables === t.id ? 'Sending test…' : 'Send test'}
                    </Anchor>
                    {t.action === 'webhook' ? <SigningSecret triggerId={t.id} /> : null}
                  </Group>
                ) : null}
              </div>
              <ActionIcon variant="subtle" color="red" aria-label={`Remove trigger ${EVENT_LABELS[t.event]}`} onClick={() => remove(t.id)}>
                <IconTrash size={14} />
              </ActionIcon>
            </Group>
          ))
        )}
        <Select
          label="When"
          data={TRIGGER_EVENTS.map((e) => ({ value: e, label: EVENT_LABELS[e] }))}
          value={event}
          onChange={(v) => v && setEvent(v as Trigger['event'])}
          allowDeselect={false}
          size="xs"
        />
        <Select
          label="Then"
          data={TRIGGER_ACTIONS.map((a) => ({ value: a, label: ACTION_LABELS[a] }))}
          value={action}
          onChange={(v) => v && setAction(v as Trigger['action'])}
          allowDeselect={false}
          size="xs"
        />
        <TextInput
          label={action === 'email' ? 'E-mail address' : 'Webhook URL'}
          placeholder={action === 'email' ? 'team@example.com' : 'https://example.com/hook'}
          value={target}
          onChange={(e) => {
            setTarget(e.currentTarget.value);
            setTargetError(null);
          }}
          error={targetError}
          size="xs"
        />
        <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={add} disabled={!target.trim()} loading={save.isPending}>
          Add trigger
        </Button>
      </Stack>
    </Card>
  );
}
