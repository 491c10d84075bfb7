/**
 * The header softphone: an Active/Away switch for in-app calling and, while a call rings, a card
 * with the caller, the number it came in on, Answer and Decline; after answering, 'Connected' with
 * a running timer, Mute, Transfer (to a user or a number: TransferPanel, docs/calling.md "Transfer of an answered
 * inbound call") and Hang up. Mounted once in the app layout header.
 */
import { Affix, Badge, Button, Group, Paper, Stack, Switch, Text, Tooltip } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import { IconArrowForwardUp, IconMicrophone, IconMicrophoneOff, IconPhone, IconPhoneIncoming, IconPhoneOff } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useSoftphone, type SoftphoneCall } from '../hooks/use-softphone';
import { errorText } from '../error-text';
import { notify } from '../../../lib/notify';
import { Dialer } from './Dialer';
import { TransferPanel } from './TransferPanel';
import { CallerName } from '../../../components/CallerName';

function Timer({ since }: { since: number }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  const s = Math.max(0, Math.floor((now - since) / 1000));
  return <span data-testid="softphone-timer">{`${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`}</span>;
}

function CallCard({
  current,
  answer,
  decline,
  hangup,
  mute,
  userId,
}: {
  current: SoftphoneCall;
  answer: () => void;
  decline: () => void;
  hangup: () => void;
  mute: (on: boolean) => Promise<void>;
  userId: number | null;
}) {
  const { call } = current;
  const [muted, setMuted] = useState(false);
  const [transferring, setTransferring] = useState(false);
  useEffect(() => {
    setMuted(false);
    setTransferring(false);
  }, [call.callId]);
  return (
    <Affix position={{ top: 72, right: 12 }} zIndex={300}>
      <Paper
        withBorder
        shadow="lg"
        p="md"
        radius="md"
        w={300}
        maw="calc(100vw - 24px)"
        data-testid="softphone-card"
        aria-live="assertive"
        style={current.phase === 'ringing' ? { animation: 'softphone-pulse 1s ease-in-out infinite alternate' } : undefined}
      >
        <style>{'@keyframes softphone-pulse { from { box-shadow: 0 0 0 0 rgba(34,139,230,.5) } to { box-shadow: 0 0 0 10px rgba(34,139,230,0) } }'}</style>
        <Stack gap="xs">
          <Group gap="xs">
            <IconPhoneIncoming size={18} />
            <Text fw={600}>{current.phase === 'ringing' ? 'Incoming call' : current.phase === 'connected' ? 'Connected' : current.message}</Text>
            {current.phase === 'connected' && (
              <Badge color="teal" variant="light">
                <Timer since={current.since} />
              </Badge>
            )}
          </Group>
          <Text size="lg" fw={call.contactName ? 600 : undefined} data-testid="softphone-from">
            {call.contactName || formatPhone(call.from)}
          </Text>
          <CallerName callId={call.callId} compact />
          {call.contactName ? (
            <Text size="sm" ff="monospace" data-testid="softphone-number">
              {formatPhone(call.from)}
            </Text>
          ) : null}
          <Text size="sm" c="dimmed" data-testid="softphone-to">
            to {call.numberLabel ? `${call.numberLabel} (${formatPhone(call.to)})` : formatPhone(call.to)}
          </Text>
          {current.phase === 'ringing' && (
            <Group grow>
              <Button color="teal" leftSection={<IconPhone size={16} />} onClick={answer} loading={current.busy}>
                Answer
              </Button>
              <Button color="red" variant="light" leftSection={<IconPhoneOff size={16} />} onClick={decline} disabled={current.busy}>
                Decline
              </Button>
            </Group>
          )}
          {current.phase === 'connected' && (
            <>
              <Group grow>
                <Button
                  variant={muted ? 'filled' : 'light'}
                  color="gray"
                  aria-pressed={muted}
                  leftSection={muted ? <IconMicrophoneOff size={16} /> : <IconMicrophone size={16} />}
                  onClick={() => {
                    setMuted(!muted);
                    void mute(!muted);
                  }}
                >
                  {muted ? 'Unmute' : 'Mute'}
                </Button>
                {!transferring && userId !== null ? (
                  <Button variant="light" color="grape" leftSection={<IconArrowForwardUp size={16} />} onClick={() => setTransferring(true)}>
                    Transfer
                  </Button>
                ) : null}
              </Group>
              {transferring && userId !== null ? (
                <TransferPanel
                  companyId={call.companyId}
                  callId={call.callId}
                  meId={userId}
                  onTransferred={(label) => notify.success(`Call transferred to ${label}`)}
                  onClose={() => setTransferring(false)}
                  errorText={errorText}
                />
              ) : null}
              <Button color="red" leftSection={<IconPhoneOff size={16} />} onClick={hangup}>
                Hang up
              </Button>
            </>
          )}
        </Stack>
      </Paper>
    </Affix>
  );
}

/** Header widget: the in-app calling switch plus the incoming/connected call card. `compact`: no Active/Away text (phone-sized screens). */
export function Softphone({ compact = false }: { compact?: boolean }) {
  const { status, pending, toggle, current, answer, decline, hangup, mute, signedIn, userId } = useSoftphone();
  if (!signedIn) return null;
  return (
    <>
      <Dialer />
      <Tooltip label="Take in-app calls in this browser">
        <Switch
          aria-label="In-app calling"
          label={compact ? undefined : status === 'active' ? 'Active' : 'Away'}
          checked={status === 'active'}
          disabled={pending}
          onChange={(e) => void toggle(e.currentTarget.checked ? 'active' : 'away')}
          color="teal"
          data-testid="softphone-status"
        />
      </Tooltip>
      {current && <CallCard current={current} answer={answer} decline={decline} hangup={hangup} mute={mute} userId={userId} />}
    </>
  );
}
