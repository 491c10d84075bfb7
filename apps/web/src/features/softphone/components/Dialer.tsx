/**
 * The dialer (docs/calling.md): a header button opening a panel with the caller ID (the company
 * numbers the user may call from, the last one remembered), the number to call and Call; during
 * the call: Ringing/Connected with a timer, Mute, Hold, Keypad (DTMF) and Hang up. With the sandbox
 * the simulator's handset rings (Phone simulator); with Twilio the Voice SDK connects the call.
 * "Call" buttons elsewhere open it through `lib/dialer`.
 */
import { ActionIcon, Badge, Button, Group, Popover, Select, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import { IconMicrophone, IconMicrophoneOff, IconPhoneOff, IconPhoneOutgoing, IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { OUTBOUND_CALL_EVENT } from '@switchboard/contracts';
import { useEffect, useState } from 'react';
import { HttpError } from '../../../lib/http';
import { onOpenDialer } from '../../../lib/dialer';
import { notify } from '../../../lib/notify';
import { useRealtimeEvent } from '../../../lib/realtime';
import { useSession } from '../../../lib/session';
import * as api from '../api/outbound-calls';
import { connectTwilioCall, twilioOutgoing } from '../hooks/twilio-device';

type Live = {
  callId: number;
  companyId: number;
  to: string;
  phase: 'ringing' | 'connected' | 'ended';
  since: number | null;
  muted: boolean;
  held: boolean;
  carrier: string;
};

function errorText(e: unknown, fallback: string): string {
  if (e instanceof HttpError) {
    const errs = (e.body as { errors?: Record<string, string[]> } | undefined)?.errors;
    const first = errs ? Object.values(errs)[0]?.[0] : undefined;
    if (first) return first;
    if (e.message && !/^HTTP \d+$/.test(e.message)) return e.message;
  }
  return fallback;
}

function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  const s = Math.max(0, Math.floor((now - since) / 1000));
  return <span data-testid="dialer-timer">{`${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`}</span>;
}

/** The header dialer button and panel. */
export function Dialer() {
  const { user } = useSession();
  const [open, setOpen] = useState(false);
  const [to, setTo] = useState('');
  const [callerId, setCallerId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [live, setLive] = useState<Live | null>(null);
  const [keys, setKeys] = useState('');
  const ids = useQuery({ queryKey: ['outbound-caller-ids'], queryFn: api.getCallerIds, enabled: open });

  useEffect(() => {
    if (ids.data && callerId === null && ids.data.selected_id !== null) setCallerId(String(ids.data.selected_id));
  }, [ids.data, callerId]);
  useEffect(
    () =>
      onOpenDialer((n) => {
        setTo(n);
        setOpen(true);
      }),
    [],
  );
  useRealtimeEvent(user ? `user.${user.id}` : null, OUTBOUND_CALL_EVENT, (e) => {
    setLive((cur) => {
      if (!cur || cur.callId !== e.callId) return cur;
      if (e.state === 'answered') return { ...cur, phase: 'connected', since: Date.now() };
      if (e.state === 'held' || e.state === 'resumed') return { ...cur, held: e.state === 'held' };
      return { ...cur, phase: 'ended' };
    });
  });
  useEffect(() => {
    if (live?.phase !== 'ended') return;
    const t = setTimeout(() => setLive((c) => (c?.phase === 'ended' ? null : c)), 3000);
    return () => clearTimeout(t);
  }, [live?.phase]);

  const call = async () => {
    if (!callerId) return;
    setBusy(true);
    try {
      const placed = await api.placeCall(Number(callerId), to);
      if (placed.carrier === 'twilio') {
        await connectTwilioCall(placed.token, placed.params, {
          onAccept: () => setLive((c) => (c && c.callId === placed.call_id ? { ...c, phase: 'connected', since: Date.now() } : c)),
        });
      } else {
        await api.connectSandbox(placed.token);
      }
      setLive({
        callId: placed.call_id,
        companyId: placed.company_id,
        to: placed.to,
        phase: 'ringing',
        since: null,
        muted: false,
        held: false,
        carrier: placed.carrier,
      });
    } catch (e) {
      notify.danger(errorText(e, 'The call could not be placed.'), 8000);
    } finally {
      setBusy(false);
    }
  };

  const run = async (what: () => Promise<unknown>, fallback: string) => {
    try {
      await what();
    } catch (e) {
      notify.danger(errorText(e, fallback), 8000);
    }
  };

  const hangup = () => {
    if (!live) return;
    if (live.carrier === 'twilio') twilioOutgoing.disconnect();
    setLive({ ...live, phase: 'ended' });
    void run(() => api.control.hangup(live.companyId, live.callId), 'The call could not be ended.');
  };
  const mute = () => {
    if (!live) return;
    const next = !live.muted;
    if (live.carrier === 'twilio') twilioOutgoing.mute(next);
    setLive({ ...live, muted: next });
    void run(() => api.control.mute(live.companyId, live.callId, next), 'Mute could not be recorded.');
  };
  const hold = () => {
    if (!live) return;
    const next = !live.held;
    void run(async () => {
      await api.control.hold(live.companyId, live.callId, next);
      setLive((c) => (c ? { ...c, held: next } : c));
    }, 'The call could not be held.');
  };
  const sendKey = (k: string) => {
    if (!live) return;
    setKeys((s) => s + k);
    if (live.carrier === 'twilio') twilioOutgoing.sendDigits(k);
    else void run(() => api.control.dtmf(live.companyId, live.callId, k), 'The tone could not be sent.');
  };

  if (!user) return null;
  return (
    // During a call the panel stays open when the person works elsewhere in the app (answering on the simulator,
    // reading the contact): only the header button closes it, so the call controls are never lost.
    <Popover opened={open} onChange={setOpen} position="bottom-end" width={300} withArrow shadow="md" closeOnClickOutside={!live} closeOnEscape={!live}>
      <Popover.Target>
        <Tooltip label="Place a call">
          <ActionIcon variant={live ? 'filled' : 'subtle'} color="teal" aria-label="Dialer" onClick={() => setOpen((o) => !o)} data-testid="dialer-open">
            <IconPhoneOutgoing size={18} />
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown>
        {live ? (
          <Stack gap="xs" data-testid="dialer-live">
            <Group gap="xs">
              <Text fw={600} data-testid="dialer-phase">
                {live.phase === 'ringing' ? 'Ringing…' : live.phase === 'connected' ? (live.held ? 'On hold' : 'Connected') : 'Call ended'}
              </Text>
              {live.phase === 'connected' && live.since !== null && (
                <Badge color="teal" variant="light">
                  <Elapsed since={live.since} />
                </Badge>
              )}
            </Group>
            <Text size="lg">{formatPhone(live.to)}</Text>
            {live.phase !== 'ended' && (
              <>
                <Group grow>
                  <Button
                    variant={live.muted ? 'filled' : 'light'}
                    leftSection={live.muted ? <IconMicrophoneOff size={16} /> : <IconMicrophone size={16} />}
                    onClick={mute}
                    aria-pressed={live.muted}
                  >
                    {live.muted ? 'Unmute' : 'Mute'}
                  </Button>
                  <Button
                    variant={live.held ? 'filled' : 'light'}
                    leftSection={live.held ? <IconPlayerPlay size={16} /> : <IconPlayerPause size={16} />}
                    onClick={hold}
                    disabled={live.phase !== 'connected'}
                  >
                    {live.held ? 'Resume' : 'Hold'}
                  </Button>
                </Group>
                {live.phase === 'connected' && (
                  <Group gap={4} aria-label="Keypad">
                    {['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#'].map((k) => (
                      <Button key={k} size="xs" variant="default" w={40} onClick={() => sendKey(k)} aria-label={`Key ${k}`}>
                        {k}
                      </Button>
                    ))}
                    {keys && (
                      <Text size="xs" c="dimmed" w="100%">
                        Sent: {keys}
                      </Text>
                    )}
                  </Group>
                )}
                <Button color="red" leftSection={<IconPhoneOff size={16} />} onClick={hangup}>
                  Hang up
                </Button>
              </>
            )}
          </Stack>
        ) : (
          <Stack gap="xs">
            <Select
              label="Caller ID"
              placeholder={ids.isLoading ? 'Loading…' : 'No number to call from'}
              data={(ids.data?.data ?? []).map((n) => ({ value: String(n.id), label: `${formatPhone(n.number)}${n.label ? ` · ${n.label}` : ''}` }))}
              value={callerId}
              onChange={(v) => setCallerId(v)}
              allowDeselect={false}
            />
            <TextInput label="Number to call" value={to} onChange={(e) => setTo(e.currentTarget.value)} inputMode="tel" placeholder="(312) 555-0100" />
            <Button
              color="teal"
              leftSection={<IconPhoneOutgoing size={16} />}
              onClick={() => void call()}
              loading={busy}
              disabled={!callerId || to.trim().length < 3}
              data-testid="dialer-call"
            >
              Call
            </Button>
          </Stack>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
