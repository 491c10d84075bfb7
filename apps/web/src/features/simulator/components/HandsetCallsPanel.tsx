/**
 * Phone simulator: calls placed from the app's dialer ring an outside handset here (sandbox,
 * docs/calling.md "Sandbox"). A person answers or declines a ringing call, sees the keypad tones
 * and hold while talking, and hangs up.
 */
import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { HandsetCall } from '@switchboard/contracts';
import { formatPhone } from '@switchboard/domain';
import { IconPhone, IconPhoneOff } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';

const KEY = ['simulator-handset-calls'];

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
                {c.on_hold && <Badge color="yellow">On hold · music playing</Badge>}
                {c.transferred_to && <Badge color="grape">Transferred to {c.transferred_to.replace(/^client:/, '')}</Badge>}
              </Group>
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
            </Card>
          ))}
        </Stack>
      )}
    </Card>
  );
}
