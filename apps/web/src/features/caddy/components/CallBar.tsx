/**
 * Calls in the browser on the consumer screens (docs/consumer-area.md "Calls in the browser"), phone-width first:
 * - `CallBar` (the shell, above every page): the incoming call with Answer and Decline, the call placed or answered
 *   with its timer and Hang up, then how it ended. Announced politely to screen readers.
 * - `DialPanel` (a number's page): the number to call and Call, refused with the server's message (inactive number,
 *   the plan's minutes used up, an invalid number).
 */
import { Button, Card, Group, Stack, Text, TextInput } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import { IconPhone, IconPhoneCall, IconPhoneOff } from '@tabler/icons-react';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { notify } from '../../../lib/notify';
import { answerCall, declineCall, dismissRinging, hangUp, onCallUpdated, onRinging, placeCall, useCallingReady, useCallState } from '../api/calling';
import { CaddyError, errorText } from '../api/client';
import { useCaddyLiveEvent } from '../api/live';

function clock(since: number, now: number): string {
  const s = Math.max(0, Math.floor((now - since) / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** The shell's call bar: readies calling, listens to the live channel's call events, shows the current call. */
export function CallBar() {
  useCallingReady();
  const call = useCallState();
  const [now, setNow] = useState(Date.now());
  useCaddyLiveEvent('call ringing', useCallback(onRinging, []));
  useCaddyLiveEvent('call updated', useCallback(onCallUpdated, []));
  const ticking = call.phase === 'outgoing' || call.phase === 'connected';
  useEffect(() => {
    if (!ticking) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [ticking]);
  const ringing = call.phase === 'ringing' ? call.ring : null;
  useEffect(() => {
    if (!ringing) return;
    const t = setTimeout(() => dismissRinging(ringing.callId), (ringing.timeoutS + 5) * 1000);
    return () => clearTimeout(t);
  }, [ringing]);
  if (call.phase === 'idle') return null;
  let title = '';
  let detail = '';
  if (call.phase === 'placing') title = `Calling ${formatPhone(call.to)}…`;
  if (call.phase === 'outgoing') {
    title = `Calling ${formatPhone(call.other)}`;
    detail = clock(call.since, now);
  }
  if (call.phase === 'ringing') {
    title = `Incoming call from ${call.ring.contactName ?? formatPhone(call.ring.from)}`;
    detail = `To ${formatPhone(call.ring.to)}`;
  }
  if (call.phase === 'connected') {
    title = `On a call with ${formatPhone(call.other)}`;
    detail = clock(call.since, now);
  }
  if (call.phase === 'ended') {
    title = call.message;
    detail = formatPhone(call.other);
  }
  return (
    <Card
      withBorder
      radius="md"
      padding="sm"
      mb="md"
      maw={720}
      mx="auto"
      w="100%"
      bg={call.phase === 'ringing' ? 'teal.0' : undefined}
      data-testid="caddy-call"
    >
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Stack gap={0} role="status" aria-live="polite" style={{ minWidth: 0 }}>
          <Text fw={600} data-testid="caddy-call-title">
            {title}
          </Text>
          {detail ? (
            <Text size="sm" c="dimmed" data-testid="caddy-call-detail">
              {detail}
            </Text>
          ) : null}
        </Stack>
        {call.phase === 'ringing' ? (
          <Group gap="xs" wrap="nowrap">
            <Button
              color="teal"
              leftSection={<IconPhoneCall size={16} aria-hidden />}
              loading={call.busy}
              onClick={() => void answerCall().then((problem) => problem && notify.danger(problem, 10_000))}
            >
              Answer
            </Button>
            <Button color="red" variant="light" leftSection={<IconPhoneOff size={16} aria-hidden />} disabled={call.busy} onClick={() => void declineCall()}>
              Decline
            </Button>
          </Group>
        ) : call.phase === 'outgoing' || call.phase === 'connected' ? (
          <Button color="red" leftSection={<IconPhoneOff size={16} aria-hidden />} onClick={() => void hangUp()}>
            Hang up
          </Button>
        ) : null}
      </Group>
    </Card>
  );
}

/** A number's dialer: the number to call and Call. */
export function DialPanel({ numberId, disabled }: { numberId: number; disabled: boolean }) {
  const call = useCallState();
  const [to, setTo] = useState('');
  const [error, setError] = useState<string | null>(null);
  const busy = call.phase !== 'idle' && call.phase !== 'ended';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    placeCall(numberId, to.trim()).catch((e: unknown) => {
      setError(e instanceof CaddyError ? (e.fieldErrors.to?.[0] ?? errorText(e)) : errorText(e));
    });
  };
  return (
    <Card withBorder radius="md" component="section" aria-labelledby="caddy-call-title">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text fw={600} id="caddy-call-title" component="h2" size="md" m={0}>
            Place a call
          </Text>
          <TextInput
            label="Number to call"
            type="tel"
            value={to}
            onChange={(e) => setTo(e.currentTarget.value)}
            autoComplete="tel"
            maxLength={32}
            error={error}
            disabled={disabled}
          />
          <Button type="submit" loading={call.phase === 'placing'} disabled={disabled || busy || !to.trim()} leftSection={<IconPhone size={16} aria-hidden />}>
            Call
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
