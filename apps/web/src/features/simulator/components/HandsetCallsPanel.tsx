/**
 * Phone simulator: calls placed from the app's dialer ring an outside handset here (sandbox,
 * docs/calling.md "Sandbox"). A person answers or declines a ringing call, sees the keypad tones
 * and hold (with the on-hold greeting it hears, which can be played here) while talking, types
 * what the person at the phone and the agent say (spoken into the call's recording when the
 * number records, so the transcript has both speakers), and hangs up.
 */
import { Badge, Button, Card, Group, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import type { HandsetCall } from '@switchboard/contracts';
import { formatPhone } from '@switchboard/domain';
import { IconMessage, IconPhone, IconPhoneOff } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { HttpError, http } from '../../../lib/http';
import { notify } from '../../../lib/notify';

const KEY = ['simulator-handset-calls'];

/** POST /api/simulator/handset-calls/{sid}/say {speaker, text}: a line said during the answered call. */
function SayLine({ call }: { call: HandsetCall }) {
  const qc = useQueryClient();
  const [speaker, setSpeaker] = useState<'caller' | 'agent'>('caller');
  const [text, setText] = useState('');
  const say = useMutation({
    mutationFn: () => http.post<{ data: HandsetCall }>(`/api/simulator/handset-calls/${call.sid}/say`, { speaker, text: text.trim() }, { silent: true }),
    onSuccess: () => {
      setText('');
      setSpeaker((s) => (s === 'caller' ? 'agent' : 'caller'));
    },
    onError: (e) => notify.danger(e instanceof HttpError && !/^HTTP \d+$/.test(e.message) ? e.message : 'The line could not be said.', 8000),
    onSettled: () => qc.invalidateQueries({ queryKey: KEY }),
  });
  const send = () => {
    if (text.trim() && !say.isPending) say.mutate();
  };
  return (
    <Stack gap={6} mt="xs" data-testid="handset-say">
      {call.lines.length > 0 && (
        <Stack gap={2} data-testid="handset-lines">
          {call.lines.map((l, i) => (
            <Text key={i} size="sm">
              <Text span fw={500}>
                {l.speaker === 'caller' ? 'Outside phone' : 'Agent'}
              </Text>{' '}
              <Text span c="dimmed" size="xs">
                {`${Math.floor(l.at / 60)}:${String(Math.floor(l.at % 60)).padStart(2, '0')}`}
              </Text>{' '}
              {l.text}
            </Text>
          ))}
        </Stack>
      )}
      <SegmentedControl
        size="xs"
        aria-label="Who speaks on the call"
        value={speaker}
        onChange={(v) => setSpeaker(v as 'caller' | 'agent')}
        data={[
          { value: 'caller', label: 'Outside phone' },
          { value: 'agent', label: 'Agent' },
        ]}
      />
      <Group gap="xs" wrap="nowrap" align="flex-end">
        <TextInput
          size="xs"
          label="Say on the call"
          placeholder="What they say"
          value={text}
          maxLength={500}
          onChange={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') send();
          }}
          style={{ flex: 1 }}
        />
        <Button size="xs" leftSection={<IconMessage size={14} />} onClick={send} disabled={!text.trim()} loading={say.isPending}>
          Say
        </Button>
      </Group>
    </Stack>
  );
}

/** The handset calls panel: polls every second while open (the sandbox rings in real time). */
export function HandsetCallsPanel() {
  const qc = useQueryClient();
  const calls = useQuery({
    queryKey: KEY,
    queryFn: () => http.get<{ data: HandsetCall[] }>('/api/simulator/handset-calls'),
    refetchInterval: 1000,
  });
  const act = useMutation({
    mutationFn: ({ sid, what }: { sid: string; what: 'answer' | 'reject' | 'hangup' }) => http.post(`/api/simulator/handset-calls/${sid}/${what}`, {}),
    onSettled: () => qc.invalidateQueries({ queryKey: KEY }),
  });
  const list = calls.data?.data ?? [];
  const live = list.filter((c) => c.state !== 'ended');
  return (
    <Card withBorder radius="md" padding="lg" data-testid="handset-calls">
      <Title order={4} mb="xs">
        Calls to outside phones
      </Title>
      {live.length === 0 ? (
        <Text size="sm" c="dimmed">
          Place a call from the dialer (phone button in the header): the outside phone rings here.
        </Text>
      ) : (
        <Stack gap="sm">
          {live.map((c) => (
            <Card key={c.sid} withBorder padding="sm" data-testid="handset-call" aria-live="polite">
              <Group justify="space-between">
                <div>
                  <Text fw={600}>{c.state === 'ringing' ? `Incoming call to ${formatPhone(c.to)}` : `Talking on ${formatPhone(c.to)}`}</Text>
                  <Text size="sm" c="dimmed">
                    from {formatPhone(c.from)}
                  </Text>
                </div>
                {c.on_hold && (
                  <Badge color="yellow" data-testid="handset-hold">
                    {c.hold_music_url ? 'On hold · on-hold greeting playing' : 'On hold · default music playing'}
                  </Badge>
                )}
                {c.transferred_to && <Badge color="grape">Transferred to {c.transferred_to.replace(/^client:/, '')}</Badge>}
              </Group>
              {c.on_hold && c.hold_music_url && <audio controls src={c.hold_music_url} aria-label="On-hold greeting" style={{ width: '100%', height: 32 }} />}
              {c.digits && (
                <Text size="sm" mt={4} data-testid="handset-digits">
                  Keypad tones heard: {c.digits}
                </Text>
              )}
              <Group mt="xs">
                {c.state === 'ringing' ? (
                  <>
                    <Button size="xs" color="teal" leftSection={<IconPhone size={14} />} onClick={() => act.mutate({ sid: c.sid, what: 'answer' })}>
                      Answer
                    </Button>
                    <Button size="xs" color="red" variant="light" onClick={() => act.mutate({ sid: c.sid, what: 'reject' })}>
                      Decline
                    </Button>
                  </>
                ) : (
                  <Button size="xs" color="red" leftSection={<IconPhoneOff size={14} />} onClick={() => act.mutate({ sid: c.sid, what: 'hangup' })}>
                    Hang up the outside phone
                  </Button>
                )}
              </Group>
              {c.state === 'answered' && <SayLine call={c} />}
            </Card>
          ))}
        </Stack>
      )}
    </Card>
  );
}
