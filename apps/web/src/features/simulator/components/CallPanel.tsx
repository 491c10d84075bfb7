import { Button, Card, Divider, Group, NumberInput, Stack, Switch, TextInput, Title } from '@mantine/core';
import { IconPhoneCall } from '@tabler/icons-react';
import { useState } from 'react';
import { usePlaceCall } from '../api/place-call';
import type { ForwardOutcome, SimulatorNumber } from '../types';
import { CallLog } from './CallLog';
import { ForwardOutcomes } from './ForwardOutcomes';
import { currentScript } from './ScriptPanel';

interface CallPanelProps {
  from: string | null;
  target: SimulatorNumber | null;
}

/** Place an inbound call: what each forward does, digits to press, confirm key, voicemail length. */
export function CallPanel({ from, target }: CallPanelProps) {
  const call = usePlaceCall();
  const [outcomes, setOutcomes] = useState<Record<string, ForwardOutcome>>({});
  const [digits, setDigits] = useState('');
  const [confirm, setConfirm] = useState(true);
  const [voicemailSeconds, setVoicemailSeconds] = useState<number | string>(10);
  const routes = target?.routes ?? [];
  const hasConfirm = routes.some((r) => r.confirm_key !== null);

  const place = () => {
    if (!from || !target) return;
    const forwards: Record<string, ForwardOutcome> = {};
    for (const r of routes) for (const f of r.forwards) forwards[f.number] = outcomes[f.number] ?? 'answer';
    call.mutate({
      from,
      to: target.number,
      digits: digits || undefined,
      forwards,
      confirm,
      voicemail_seconds: typeof voicemailSeconds === 'number' ? voicemailSeconds : undefined,
      script: currentScript(),
    });
  };

  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={4} mb="sm">
        Call
      </Title>
      <Stack gap="sm">
        <ForwardOutcomes routes={routes} value={outcomes} onChange={setOutcomes} />
        <Group grow align="flex-start">
          <TextInput
            label="Digits to press"
            description={routes.length > 1 ? 'The extension to pick from the menu' : 'Optional'}
            placeholder="e.g. 1"
            value={digits}
            onChange={(e) => setDigits(e.currentTarget.value.replace(/[^\d*#]/g, ''))}
          />
          <NumberInput
            label="Voicemail seconds"
            description="How long the caller talks if voicemail answers"
            min={0}
            max={300}
            value={voicemailSeconds}
            onChange={setVoicemailSeconds}
          />
        </Group>
        <Switch
          label="Press the confirm key when answering"
          description={hasConfirm ? 'This number asks the answering phone to confirm.' : 'Only used when an extension has a confirm key.'}
          checked={confirm}
          onChange={(e) => setConfirm(e.currentTarget.checked)}
        />
        <Group>
          <Button leftSection={<IconPhoneCall size={16} />} onClick={place} loading={call.isPending} disabled={!from || !target}>
            Call
          </Button>
        </Group>
        {call.data ? (
          <>
            <Divider />
            <CallLog result={call.data} />
          </>
        ) : null}
      </Stack>
    </Card>
  );
}
