/**
 * Settings card "Browser notifications" (docs/push.md "Browser"): turns push notifications of
 * incoming calls and messages on or off for this browser, sends a test, and lists the caller's
 * devices. When notifications are on, the card re-sends this browser's subscription on every visit,
 * so a subscription the browser renewed reaches the server.
 */
import { Alert, Badge, Button, Card, Group, List, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { notify } from '../../../lib/notify';
import { beamTokenQueryOptions, saveSubscription, useDeleteSubscription, usePushDevices, useSaveSubscription, useSendTestPush } from '../api/push';
import { currentSubscription, pushPermission, pushSupported, subscribeBrowser, subscriptionInput } from '../lib/browser-push';

type State = 'checking' | 'unsupported' | 'blocked' | 'off' | 'on';

export function PushNotificationsCard() {
  const supported = pushSupported();
  const beam = useQuery({ ...beamTokenQueryOptions(), enabled: supported });
  const devices = usePushDevices();
  const save = useSaveSubscription();
  const remove = useDeleteSubscription();
  const test = useSendTestPush();
  const [state, setState] = useState<State>(supported ? 'checking' : 'unsupported');
  const [endpoint, setEndpoint] = useState<string | null>(null);
  const [working, setWorking] = useState(false);

  useEffect(() => {
    if (!supported) return;
    let live = true;
    void (async () => {
      const sub = await currentSubscription();
      if (!live) return;
      if (pushPermission() === 'denied') setState('blocked');
      else setState(sub ? 'on' : 'off');
      setEndpoint(sub?.endpoint ?? null);
      // Keep the server's copy current (the browser may have renewed the subscription).
      if (sub && pushPermission() === 'granted') await saveSubscription(subscriptionInput(sub), { silent: true });
    })().catch((e: unknown) => {
      console.warn('push: could not read this browser’s subscription', e);
      if (live) setState('off');
    });
    return () => {
      live = false;
    };
  }, [supported]);

  const turnOn = async () => {
    if (!beam.data) return;
    setWorking(true);
    try {
      const sub = await subscribeBrowser(beam.data.vapid_public_key, beam.data.service_worker);
      const r = await save.mutateAsync(subscriptionInput(sub));
      setEndpoint(sub.endpoint);
      setState('on');
      notify.success(r.message);
    } catch (e) {
      if (pushPermission() === 'denied') setState('blocked');
      notify.danger(e instanceof Error ? e.message : String(e), 10_000);
    } finally {
      setWorking(false);
    }
  };

  const turnOff = async () => {
    setWorking(true);
    try {
      const sub = await currentSubscription();
      const url = sub?.endpoint ?? endpoint;
      if (sub) await sub.unsubscribe();
      if (url) notify.success((await remove.mutateAsync(url)).message);
      setEndpoint(null);
      setState('off');
    } catch (e) {
      notify.danger(e instanceof Error ? e.message : String(e), 10_000);
    } finally {
      setWorking(false);
    }
  };

  const list = devices.data?.data ?? [];

  return (
    <Card withBorder radius="md" padding="lg" data-testid="push-card">
      <Group justify="space-between" mb="sm">
        <Group gap="xs">
          <IconBell size={20} />
          <Title order={4}>Browser notifications</Title>
        </Group>
        {state === 'checking' ? (
          <Skeleton h={22} w={80} />
        ) : (
          <Badge color={state === 'on' ? 'teal' : state === 'blocked' ? 'red' : 'gray'} data-testid="push-status">
            {state === 'on' ? 'On' : state === 'blocked' ? 'Blocked' : state === 'unsupported' ? 'Not available' : 'Off'}
          </Badge>
        )}
      </Group>
      <Stack gap="sm" align="flex-start">
        <Text size="sm">Get a notification on this device when a call rings you in the app or a text message arrives, even when Switchboard is not open.</Text>
        {state === 'unsupported' && (
          <Alert color="gray" w="100%">
            This browser cannot receive push notifications here. Use a current browser over https (on iPhone and iPad, add Switchboard to the home screen
            first).
          </Alert>
        )}
        {state === 'blocked' && (
          <Alert color="red" w="100%">
            Notifications are blocked for this site. Allow them in the browser&apos;s site settings, then reload this page.
          </Alert>
        )}
        {state === 'off' && (
          <Button onClick={() => void turnOn()} loading={working} disabled={!beam.data}>
            Turn on notifications
          </Button>
        )}
        {state === 'on' && (
          <Group gap="sm">
            <Button variant="default" onClick={() => test.mutate(undefined, { onSuccess: (r) => notify.success(r.message) })} loading={test.isPending}>
              Send a test notification
            </Button>
            <Button color="red" variant="light" onClick={() => void turnOff()} loading={working}>
              Turn off for this browser
            </Button>
          </Group>
        )}
        {list.length > 0 && (
          <Stack gap={4}>
            <Text size="sm" c="dimmed">
              Your devices that get notifications:
            </Text>
            <List size="sm" aria-label="Devices that get notifications">
              {list.map((d) => (
                <List.Item key={`${d.kind}-${d.id}`}>{d.kind === 'apns' ? `${d.label} (incoming calls)` : browserName(d.user_agent) || d.label}</List.Item>
              ))}
            </List>
          </Stack>
        )}
      </Stack>
    </Card>
  );
}

/** A short browser name from a user agent ("Chrome on Windows"), or ''. */
function browserName(ua: string | null): string {
  if (!ua) return '';
  const browser = /Edg\//.test(ua) ? 'Edge' : /Firefox\//.test(ua) ? 'Firefox' : /Chrome\//.test(ua) ? 'Chrome' : /Safari\//.test(ua) ? 'Safari' : 'Browser';
  const os = /Windows/.test(ua)
    ? 'Windows'
    : /Mac OS X/.test(ua)
      ? 'macOS'
      : /Android/.test(ua)
        ? 'Android'
        : /iPhone|iPad/.test(ua)
          ? 'iOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : '';
  return os ? `${browser} on ${os}` : browser;
}
