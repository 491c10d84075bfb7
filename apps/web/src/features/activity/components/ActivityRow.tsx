import { Anchor, Badge, Group, Stack, Table, Text, ThemeIcon } from '@mantine/core';
import { Link } from 'react-router';
import { formatPhone } from '@switchboard/domain';
import { TRAFFIC_SOURCE_LABELS } from '@switchboard/contracts';
import { IconMessage, IconNote, IconPhoneIncoming, IconPhoneOutgoing, IconPrinter, IconRecordMail, IconRoute } from '@tabler/icons-react';
import { formatDateTime, formatDuration } from '../../../lib/format';
import type { ActivityItem } from '../types';
import { fileSrc } from '../../../lib/files';
import { CallerName } from '../../../components/CallerName';

const KIND_LOOK: Record<ActivityItem['kind'], { icon: typeof IconMessage; color: string; label: string }> = {
  call: { icon: IconPhoneIncoming, color: 'blue', label: 'Call' },
  voicemail: { icon: IconRecordMail, color: 'grape', label: 'Voicemail' },
  message: { icon: IconMessage, color: 'teal', label: 'Message' },
  fax: { icon: IconPrinter, color: 'gray', label: 'Fax' },
  note: { icon: IconNote, color: 'yellow', label: 'Note' },
  trackingmatch: { icon: IconRoute, color: 'orange', label: 'Tracked visit' },
};

function KindIcon({ item }: { item: ActivityItem }) {
  const look = KIND_LOOK[item.kind] ?? KIND_LOOK.call;
  const Icon = item.kind === 'call' && item.direction === 'outbound' ? IconPhoneOutgoing : look.icon;
  return (
    <ThemeIcon variant="light" color={look.color} radius="xl" role="img" aria-label={look.label}>
      <Icon size={16} />
    </ThemeIcon>
  );
}

const ANSWER_LABELS: Record<string, string> = { answered: 'Answered', missed: 'Missed', voicemail: 'Voicemail', blocked: 'Blocked' };

/** A tracked visit matched to a call: where the visitor came from, linked to the visit's timeline. */
function VisitDetails({ item }: { item: ActivityItem }) {
  const t = item.tracking;
  if (!t) return null;
  const source = [
    t.traffic_source ? ((TRAFFIC_SOURCE_LABELS as Record<string, string>)[t.traffic_source] ?? t.traffic_source) : null,
    t.source && t.medium ? `${t.source} / ${t.medium}` : t.source,
    t.campaign,
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <Stack gap={2}>
      <Anchor component={Link} to={`/tracking/sessions/${encodeURIComponent(String(t.session_id))}`} size="sm">
        Website visit{source ? `: ${source}` : ''}
      </Anchor>
      {t.landing_page ? (
        <Text size="xs" c="dimmed" lineClamp={1} maw={320}>
          {t.landing_page}
        </Text>
      ) : null}
    </Stack>
  );
}

function Details({ item }: { item: ActivityItem }) {
  if (item.kind === 'trackingmatch') return <VisitDetails item={item} />;
  if (item.kind === 'message' || item.kind === 'note' || item.kind === 'fax') {
    return (
      <Stack gap={2}>
        <Text size="sm" lineClamp={2}>
          {item.content}
        </Text>
        {item.delivery_state ? (
          <Text size="xs" c="dimmed">
            {item.delivery_state}
          </Text>
        ) : null}
        {item.kind === 'note' && item.note?.user_name ? (
          <Text size="xs" c="dimmed" data-testid="note-author">
            Note by {item.note.user_name}
          </Text>
        ) : null}
      </Stack>
    );
  }
  return (
    <Stack gap={4}>
      <Group gap="xs">
        {item.status_label ? (
          <Badge variant="light" size="sm" data-testid="call-status">
            {item.status_label}
          </Badge>
        ) : null}
        {item.answer_status &&
        ANSWER_LABELS[item.answer_status] &&
        item.answer_status !== 'answered' &&
        item.status_label?.toLowerCase() !== item.answer_status ? (
          <Badge variant="outline" size="sm" color={item.answer_status === 'missed' ? 'red' : 'gray'}>
            {ANSWER_LABELS[item.answer_status]}
          </Badge>
        ) : null}
        {item.is_first_contact ? (
          <Badge variant="light" size="sm" color="teal">
            First-time caller
          </Badge>
        ) : null}
        {item.duration_s ? (
          <Text size="xs" c="dimmed">
            {formatDuration(item.duration_s)}
          </Text>
        ) : null}
      </Group>
      {item.traffic_source ? (
        <Text size="xs" c="dimmed">
          Source: {(TRAFFIC_SOURCE_LABELS as Record<string, string>)[item.traffic_source] ?? item.traffic_source}
        </Text>
      ) : null}
      {item.kind === 'voicemail' && item.recording_url ? (
        <audio controls preload="none" src={fileSrc(item.recording_url)} style={{ height: 32, maxWidth: 260 }} aria-label="Voicemail recording" />
      ) : null}
    </Stack>
  );
}

/** The call of a call or voicemail row (`call_id`; older answers: 'call-12' → 12). */
function callIdOf(item: ActivityItem): number | null {
  if (typeof item.call_id === 'number') return item.call_id;
  const match = item.kind === 'call' ? /^call-(\d+)$/.exec(String(item.id)) : null;
  return match ? Number(match[1]) : null;
}

/** One call, voicemail, message, fax, note or tracked visit of the feed: a known caller by name, the number by its label. */
export function ActivityRow({ item }: { item: ActivityItem }) {
  const outside = item.direction === 'outbound' ? item.to : item.from;
  const callId = callIdOf(item);
  return (
    <Table.Tr data-testid="activity-row" data-kind={item.kind}>
      <Table.Td>
        <KindIcon item={item} />
      </Table.Td>
      <Table.Td>
        {callId !== null ? (
          <Anchor component={Link} to={`/calls/${callId}`} size="sm" fw={500} data-testid="call-link">
            {item.contact?.name || formatPhone(outside)}
          </Anchor>
        ) : (
          <Text size="sm" fw={500}>
            {item.contact?.name || formatPhone(outside)}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          {item.direction === 'outbound' ? 'to' : 'from'} {formatPhone(outside)}
        </Text>
        <CallerName enhanced={item.enhanced_caller_id ?? null} compact />
      </Table.Td>
      <Table.Td>
        {item.number?.label ? (
          <>
            <Text size="sm" data-testid="activity-number-label">
              {item.number.label}
            </Text>
            <Text size="xs" c="dimmed">
              {formatPhone(item.number.number)}
            </Text>
          </>
        ) : (
          <Text size="sm">{item.number ? formatPhone(item.number.number) : ''}</Text>
        )}
      </Table.Td>
      <Table.Td>
        <Details item={item} />
      </Table.Td>
      <Table.Td>
        <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(item.created_at)}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}
