import { ActionIcon, Button, Card, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { notify } from '../../../lib/notify';
import { useSaveTriggers, useTriggers } from '../api/triggers';
import { TRIGGER_ACTIONS, TRIGGER_EVENTS, type Trigger } from '../types';

const EVENT_LABELS: Record<Trigger['event'], string> = { 'call.missed': 'Missed call', 'call.voicemail': 'New voicemail', 'sms.received': 'Text received' };
const ACTION_LABELS: Record<Trigger['action'], string> = { email: 'Send an e-mail', webhook: 'Call a webhook' };

/** The number's triggers: on a missed call, voicemail or text, e-mail someone or call a webhook. */
export function TriggersCard({ numberId }: { numberId: number }) {
  const triggers = useTriggers();
  const save = useSaveTriggers();
  const [event, setEvent] = useState<Trigger['event']>('call.missed');
  const [action, setAction] = useState<Trigger['action']>('email');
  const [target, setTarget] = useState('');
  const mine = (triggers.data?.data ?? []).filter((t) => t.number_id === numberId);

  const add = () =>
    save.mutate(
      { upsert: [{ number_id: numberId, event, action, target: target.trim() }], remove: [] },
      {
        onSuccess: (r) => {
          setTarget('');
          notify.success(r.message ?? 'The trigger has been saved.');
        },
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
          onChange={(e) => setTarget(e.currentTarget.value)}
          size="xs"
        />
        <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={add} disabled={!target.trim()} loading={save.isPending}>
          Add trigger
        </Button>
      </Stack>
    </Card>
  );
}
