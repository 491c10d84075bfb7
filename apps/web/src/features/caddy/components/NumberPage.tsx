/**
 * `/caddy/numbers/:id`: the calls and texts of one number (the shared inbox's, `GET /caddy/numbers/{id}/activity`),
 * newest first, refreshed by the live channel and every 15 s, a dialer to call from it in the browser (CallBar.tsx
 * `DialPanel`, `POST /caddy/numbers/{id}/calls`), and a form to send a text from it
 * (`POST /caddy/numbers/{id}/messages`; refused with a clear message when the plan's texts are used up or the number
 * is inactive).
 */
import { Alert, Anchor, Badge, Button, Card, Group, Paper, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import { IconArrowLeft, IconPhoneIncoming, IconPhoneOutgoing, IconSend, IconRecordMail } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { notify } from '../../../lib/notify';
import { CaddyError } from '../api/client';
import { useCaddyNumbers, useNumberActivity, useSendText, type ActivityItem } from '../api/numbers';
import { DialPanel } from './CallBar';
import { CaddyPage, Empty, FormError, formatWhen, LoadFailed, Loading } from './ui';

function duration(seconds: number | null): string {
  if (seconds === null) return '';
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** One call, voicemail or text. */
function ActivityRow({ item }: { item: ActivityItem }) {
  const inbound = item.direction === 'inbound';
  const who = formatPhone(item.otherParty);
  if (item.kind === 'message') {
    return (
      <Stack gap={2} align={inbound ? 'flex-start' : 'flex-end'} component="li" data-testid="caddy-activity-item">
        <Paper
          radius="lg"
          px="md"
          py="xs"
          maw="85%"
          bg={inbound ? 'white' : 'var(--mantine-color-teal-7)'}
          c={inbound ? undefined : 'white'}
          withBorder={inbound}
          style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
        >
          {item.body}
        </Paper>
        <Text size="xs" c="dimmed">
          {inbound ? `From ${who}` : `To ${who}`} · {formatWhen(item.at)}
        </Text>
      </Stack>
    );
  }
  const Icon = item.kind === 'voicemail' ? IconRecordMail : inbound ? IconPhoneIncoming : IconPhoneOutgoing;
  return (
    <Card component="li" withBorder radius="md" padding="sm" data-testid="caddy-activity-item">
      <Group wrap="nowrap" gap="sm">
        <Icon size={20} aria-hidden />
        <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
          <Text size="sm" fw={600}>
            {item.kind === 'voicemail' ? `Voicemail from ${who}` : inbound ? `Call from ${who}` : `Call to ${who}`}
          </Text>
          <Text size="xs" c="dimmed">
            {formatWhen(item.at)}
            {item.durationS !== null ? ` · ${duration(item.durationS)}` : ''}
          </Text>
          {item.body ? (
            <Text size="sm" mt={4}>
              {item.body}
            </Text>
          ) : null}
        </Stack>
      </Group>
    </Card>
  );
}

/** The form to send a text from the number. */
function SendText({ id, disabled }: { id: number; disabled: boolean }) {
  const send = useSendText(id);
  const [to, setTo] = useState('');
  const [body, setBody] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate(
      { to: to.trim(), body: body.trim() },
      {
        onSuccess: (r) => {
          setBody('');
          notify.success(r.message);
        },
      },
    );
  };
  const fieldErrors = send.error instanceof CaddyError ? send.error.fieldErrors : {};
  return (
    <Card withBorder radius="md" component="section" aria-labelledby="caddy-send-title">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text fw={600} id="caddy-send-title" component="h2" size="md" m={0}>
            Send a text
          </Text>
          <TextInput
            label="To"
            type="tel"
            value={to}
            onChange={(e) => setTo(e.currentTarget.value)}
            autoComplete="tel"
            maxLength={32}
            error={fieldErrors.to?.[0]}
            disabled={disabled}
          />
          <Textarea
            label="Message"
            value={body}
            onChange={(e) => setBody(e.currentTarget.value)}
            autosize
            minRows={2}
            maxRows={6}
            maxLength={1600}
            description={`${body.length}/1600`}
            error={fieldErrors.body?.[0]}
            disabled={disabled}
          />
          {send.error && !fieldErrors.to && !fieldErrors.body ? <FormError error={send.error} /> : null}
          <Button type="submit" loading={send.isPending} disabled={disabled || !to.trim() || !body.trim()} leftSection={<IconSend size={16} aria-hidden />}>
            Send
          </Button>
        </Stack>
      </form>
    </Card>
  );
}

/** The number page. */
export function NumberPage() {
  const id = Number(useParams().id) || null;
  const numbers = useCaddyNumbers();
  const number = numbers.data?.find((n) => n.id === id);
  const activity = useNumberActivity(number ? number.id : null);
  const back = (
    <Anchor component={Link} to="/caddy/numbers" size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden />
        My numbers
      </Group>
    </Anchor>
  );
  if (numbers.isPending) {
    return (
      <CaddyPage title="Calls and texts">
        <Loading />
      </CaddyPage>
    );
  }
  if (numbers.isError) {
    return (
      <CaddyPage title="Calls and texts">
        <LoadFailed what="your numbers" error={numbers.error} onRetry={() => void numbers.refetch()} />
      </CaddyPage>
    );
  }
  if (!number) {
    return (
      <CaddyPage title="Number not found">
        <Empty title="This number is not on your account" action={back}>
          It may have been removed.
        </Empty>
      </CaddyPage>
    );
  }
  return (
    <CaddyPage
      title={number.nationalNumber}
      lead={
        <Group gap="xs" component="span">
          <Badge color={number.isActive ? 'teal' : 'yellow'} variant="light" component="span">
            {number.isActive ? 'Active' : 'Inactive'}
          </Badge>
          Calls and texts
        </Group>
      }
      action={back}
    >
      {!number.isActive ? (
        <Alert color="yellow">
          This number is inactive: it cannot place calls or send texts.{' '}
          <Anchor component={Link} to="/caddy/numbers">
            Make it active
          </Anchor>{' '}
          to use it again.
        </Alert>
      ) : null}
      <DialPanel numberId={number.id} disabled={!number.isActive} />
      <SendText id={number.id} disabled={!number.isActive} />
      <Stack gap="xs" component="section" aria-labelledby="caddy-activity-title">
        <Text fw={600} component="h2" size="md" m={0} id="caddy-activity-title">
          Recent
        </Text>
        {activity.isPending ? (
          <Loading rows={3} height={56} label="Loading calls and texts" />
        ) : activity.isError ? (
          <LoadFailed what="the calls and texts" error={activity.error} onRetry={() => void activity.refetch()} />
        ) : activity.data.length === 0 ? (
          <Empty title="No calls or texts yet">Give {number.nationalNumber} to the people you want to hear from. What they send shows here.</Empty>
        ) : (
          <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-live="polite" data-testid="caddy-activity">
            {activity.data.map((item) => (
              <ActivityRow key={`${item.kind}-${item.id}`} item={item} />
            ))}
          </Stack>
        )}
      </Stack>
    </CaddyPage>
  );
}
