/**
 * The columns of the numbers list (spec 001 "Column preset" kind `numbers`; docs/reports-screens.md "Column presets"):
 * each column's key (what a preset saves), label, the sort column of the datatable it sorts by (if any) and its
 * cell. The selection checkbox and the routing button are not columns: they are always there.
 */
import { Anchor, Badge, Group, Text } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/format';
import type { NumberDetail, NumberTableQuery } from '../types';

export interface NumberColumn {
  key: string;
  label: string;
  /** The datatable's sort column for this one (a sortable header). */
  sort?: NumberTableQuery['sort'];
  cell: (n: NumberDetail) => ReactNode;
}

const yesNo = (on: boolean) => (
  <Text size="sm" c={on ? undefined : 'dimmed'}>
    {on ? 'On' : 'Off'}
  </Text>
);

/**
 * Whether a number's routes reach anyone (as the server's `routesReachSomeone`, issue 23 item 1): some
 * entry forwards to a number, rings the app, or takes a voicemail. A bought number's default entry does not.
 */
export function routesReachSomeone(routes: NumberDetail['routes']): boolean {
  return routes.some(
    (e) =>
      e.type === 'voicemail' ||
      e.type === 'in-app-calling' ||
      e.voicemail_enabled ||
      e.forwards.some((f) => typeof f.number === 'string' && f.number.trim() !== ''),
  );
}

/**
 * The Routing cell: the first entry's type and where it rings (the first forward, "+n" more, the app or
 * voicemail); a number whose routes reach no one is flagged "No routing" (its calls would hear that no one is
 * available, unless it is a tracking number: those ring their pool's target).
 */
function RoutingCell({ n }: { n: NumberDetail }) {
  if (!routesReachSomeone(n.routes)) {
    return (
      <Badge color="red" variant="light" data-testid="number-no-routing" title="Calls to this number reach no one: set its routing">
        No routing
      </Badge>
    );
  }
  const first = n.routes[0];
  const where =
    n.forwards.length > 0
      ? `${formatPhone(n.forwards[0]!.number)}${n.forwards.length > 1 ? ` +${n.forwards.length - 1}` : ''}`
      : first?.type === 'in-app-calling'
        ? 'In the app'
        : 'Voicemail';
  return (
    <Group gap={4} wrap="wrap">
      <Badge variant="light" style={{ flexShrink: 0 }}>
        {n.route_type || 'Standard'}
      </Badge>
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid="number-rings">
        {where}
      </Text>
    </Group>
  );
}

/** Every column the numbers list can show, in their natural order. */
export const NUMBER_COLUMNS: NumberColumn[] = [
  {
    key: 'label',
    label: 'Label',
    sort: 'label',
    cell: (n) => (
      <Text fw={500}>
        {n.label || (
          <Text span c="dimmed">
            No label
          </Text>
        )}
      </Text>
    ),
  },
  {
    key: 'number',
    label: 'Number',
    sort: 'number',
    cell: (n) => (
      <Anchor component={Link} to={`/numbers/${n.id}`} ff="monospace">
        {formatPhone(n.number)}
      </Anchor>
    ),
  },
  { key: 'type', label: 'Type', sort: 'type', cell: (n) => <Text size="sm">{n.type_label}</Text> },
  { key: 'routing', label: 'Routing', cell: (n) => <RoutingCell n={n} /> },
  { key: 'schedule', label: 'Schedule', cell: (n) => <Text size="sm">{n.schedule_label}</Text> },
  {
    key: 'forwards',
    label: 'Forwards to',
    cell: (n) =>
      n.forwards.length ? (
        <Text size="sm">
          {n.forwards
            .slice(0, 2)
            .map((f) => formatPhone(f.number))
            .join(', ')}
          {n.forwards.length > 2 ? ` +${n.forwards.length - 2}` : ''}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          None
        </Text>
      ),
  },
  {
    key: 'tags',
    label: 'Tags',
    cell: (n) =>
      n.tags.length ? (
        <Group gap={4}>
          {n.tags.map((t) => (
            <Badge key={t.id} variant="outline" size="sm">
              {t.name}
            </Badge>
          ))}
        </Group>
      ) : null,
  },
  { key: 'sms', label: 'Texting', cell: (n) => yesNo(n.sms_enabled) },
  { key: 'sms_verification', label: 'SMS verification', cell: (n) => <Text size="sm">{n.sms_verification.status}</Text> },
  { key: 'recording', label: 'Recording', cell: (n) => yesNo(n.record) },
  { key: 'transcription', label: 'Transcription', cell: (n) => yesNo(n.call_transcription_enabled) },
  { key: 'unread', label: 'Unread texts', cell: (n) => <Text size="sm">{n.unread_messages_count}</Text> },
  {
    key: 'created_at',
    label: 'Added',
    sort: 'created_at',
    cell: (n) => (
      <Text size="sm" c="dimmed">
        {formatDateTime(n.created_at)}
      </Text>
    ),
  },
];

/** The columns shown when no preset is chosen (the list as it always was). */
export const DEFAULT_NUMBER_COLUMNS = ['label', 'number', 'type', 'routing', 'schedule', 'created_at'];

/** Keys and labels for the column chooser. */
export const NUMBER_COLUMN_OPTIONS = NUMBER_COLUMNS.map((c) => ({ key: c.key, label: c.label }));

/** The columns of `keys` in their order (unknown keys dropped; none left = the defaults). */
export function numberColumnsOf(keys: readonly string[] | undefined): NumberColumn[] {
  const pick = (list: readonly string[]) => list.map((k) => NUMBER_COLUMNS.find((c) => c.key === k)).filter((c): c is NumberColumn => Boolean(c));
  const chosen = keys ? pick(keys) : [];
  return chosen.length ? chosen : pick(DEFAULT_NUMBER_COLUMNS);
}
