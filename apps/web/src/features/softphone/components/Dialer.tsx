/**
 * The dialer (docs/calling.md): a header button opening a panel with the caller ID (the company
 * numbers the user may call from, the last one remembered), the number to call and Call. Typing a
 * name (two letters or more) lists the company's matching contacts with a number, and an empty
 * field lists the recent numbers of this browser; choosing one fills the number. During the call:
 * Ringing/Connected with a timer, Mute, Hold, Keypad (DTMF), Transfer (to a user or a number,
 * confirmed; TransferPanel.tsx) and Hang up. With the sandbox the simulator's handset rings (Phone
 * simulator); with Twilio the Voice SDK connects the call. "Call" buttons elsewhere open it
 * through `lib/dialer`.
 */
import { ActionIcon, Badge, Button, Group, Popover, Select, Stack, Text, TextInput, Tooltip, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { formatPhone } from '@switchboard/domain';
import {
  IconArrowForwardUp,
  IconClock,
  IconMicrophone,
  IconMicrophoneOff,
  IconPhoneOff,
  IconPhoneOutgoing,
  IconPlayerPause,
  IconPlayerPlay,
  IconUser,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { OUTBOUND_CALL_EVENT } from '@switchboard/contracts';
import { useEffect, useState, type ReactNode } from 'react';
import { HttpError } from '../../../lib/http';
import { onOpenDialer } from '../../../lib/dialer';
import { notify } from '../../../lib/notify';
import { useRealtimeEvent } from '../../../lib/realtime';
import { useCompanyId, useSession } from '../../../lib/session';
import * as api from '../api/outbound-calls';
import { readRecent, rememberRecent, type RecentNumber } from '../hooks/recent-numbers';
import { connectTwilioCall, twilioOutgoing } from '../hooks/twilio-device';
import { TransferPanel } from './TransferPanel';
import { errorText } from '../error-text';

type Live = {
  callId: number;
  companyId: number;
  to: string;
  phase: 'ringing' | 'connected' | 'ended';
  since: number | null;
  muted: boolean;
  held: boolean;
  carrier: string;
  /** The contact called (null: a typed number). */
  name: string | null;
  /** Why it ended, when it did not simply hang up ('Call transferred to …'). */
  endedText: string | null;
};

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
  const [picked, setPicked] = useState<{ name: string; number: string } | null>(null);
  const [transferring, setTransferring] = useState(false);
  const [recent, setRecent] = useState<RecentNumber[]>([]);
  const companyId = useCompanyId();
  const ids = useQuery({ queryKey: ['outbound-caller-ids'], queryFn: api.getCallerIds, enabled: open });
  // A name (a letter in it, two characters or more) is looked up in the company's contacts.
  const [search] = useDebouncedValue(picked ? '' : to.trim(), 250);
  const byName = search.length >= 2 && /\p{L}/u.test(search);
  const contacts = useQuery({
    queryKey: ['dialer-contacts', companyId, search],
    queryFn: () => api.searchContacts(companyId!, search),
    enabled: open && !live && byName && companyId !== null,
    staleTime: 30_000,
    retry: false,
  });
  useEffect(() => {
    if (open && user) setRecent(readRecent(user.id));
  }, [open, user]);
  const typeTo = (v: string) => {
    setTo(v);
    setPicked(null);
  };
  const choose = (c: { name: string | null; number: string }) => {
    setTo(c.number);
    setPicked(c.name ? { name: c.name, number: c.number } : null);
  };

  useEffect(() => {
    if (ids.data && callerId === null && ids.data.selected_id !== null) setCallerId(String(ids.data.selected_id));
  }, [ids.data, callerId]);
  useEffect(
    () =>
      onOpenDialer((n) => {
        setTo(n);
        setPicked(null);
        setOpen(true);
      }),
    [],
  );
  useRealtimeEvent(user ? `user.${user.id}` : null, OUTBOUND_CALL_EVENT, (e) => {
    setLive((cur) => {
      if (!cur || cur.callId !== e.callId) return cur;
      if (e.state === 'answered') return { ...cur, phase: 'connected', since: Date.now() };
      if (e.state === 'held' || e.state === 'resumed') return { ...cur, held: e.state === 'held' };
      return { ...cur, phase: 'ended', endedText: cur.endedText ?? (e.reason === 'transferred' ? 'Call transferred' : null) };
    });
  });
  useEffect(() => {
    if (live?.phase !== 'ended') return;
    setTransferring(false);
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
        name: picked?.number === to ? picked.name : null,
        endedText: null,
      });
      if (user) setRecent(rememberRecent(user.id, { number: placed.to, name: picked?.number === to ? picked.name : null }));
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

  const transferred = (label: string) => {
    setTransferring(false);
    if (live?.carrier === 'twilio') twilioOutgoing.disconnect();
    setLive((c) => (c ? { ...c, phase: 'ended', endedText: `Call transferred to ${label}` } : c));
  };

  const suggestions: Array<{ key: string; name: string | null; number: string; icon: ReactNode }> = byName
    ? (contacts.data ?? []).map((c) => ({ key: `c${c.id}`, name: c.name, number: c.number, icon: <IconUser size={14} /> }))
    : to.trim() === ''
      ? recent.map((r) => ({ key: `r${r.number}`, name: r.name, number: r.number, icon: <IconClock size={14} /> }))
      : [];

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
                {live.phase === 'ringing' ? 'Ringing…' : live.phase === 'connected' ? (live.held ? 'On hold' : 'Connected') : (live.endedText ?? 'Call ended')}
              </Text>
              {live.phase === 'connected' && live.since !== null && (
                <Badge color="teal" variant="light">
                  <Elapsed since={live.since} />
                </Badge>
              )}
            </Group>
            {live.name && (
              <Text fw={600} data-testid="dialer-name">
                {live.name}
              </Text>
            )}
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
                {live.phase === 'connected' &&
                  (transferring ? (
                    <TransferPanel
                      companyId={live.companyId}
                      callId={live.callId}
                      meId={user.id}
                      onTransferred={transferred}
                      onClose={() => setTransferring(false)}
                      errorText={errorText}
                    />
                  ) : (
                    <Button variant="light" color="grape" leftSection={<IconArrowForwardUp size={16} />} onClick={() => setTransferring(true)}>
                      Transfer
                    </Button>
                  ))}
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
            <TextInput
              label="Number to call"
              description="A number, or a contact's name"
              value={to}
              onChange={(e) => typeTo(e.currentTarget.value)}
              placeholder="(312) 555-0100 or a name"
              autoComplete="off"
            />
            {picked && picked.number === to && (
              <Text size="sm" data-testid="dialer-picked">
                Calling {picked.name}
              </Text>
            )}
            {suggestions.length > 0 && (
              <Stack gap={2} aria-label={byName ? 'Matching contacts' : 'Recent numbers'} role="group">
                <Text size="xs" c="dimmed">
                  {byName ? 'Contacts' : 'Recent'}
                </Text>
                {suggestions.map((sg) => (
                  <UnstyledButton
                    key={sg.key}
                    onClick={() => choose(sg)}
                    data-testid="dialer-suggestion"
                    aria-label={`${sg.name ? `${sg.name} ` : ''}${formatPhone(sg.number)}`}
                    px={6}
                    py={4}
                    style={{ borderRadius: 4 }}
                  >
                    <Group gap={6} wrap="nowrap">
                      {sg.icon}
                      <Text size="sm" fw={sg.name ? 500 : undefined} truncate style={{ flex: 1 }}>
                        {sg.name ?? formatPhone(sg.number)}
                      </Text>
                      {sg.name && (
                        <Text size="xs" c="dimmed" ff="monospace">
                          {formatPhone(sg.number)}
                        </Text>
                      )}
                    </Group>
                  </UnstyledButton>
                ))}
              </Stack>
            )}
            {byName && contacts.isSuccess && suggestions.length === 0 && (
              <Text size="xs" c="dimmed">
                No contact with a number matches “{search}”.
              </Text>
            )}
            <Button
              color="teal"
              leftSection={<IconPhoneOutgoing size={16} />}
              onClick={() => void call()}
              loading={busy}
              disabled={!callerId || to.trim().length < 3 || (byName && !picked)}
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
