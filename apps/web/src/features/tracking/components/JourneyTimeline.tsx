import { Anchor, Badge, Group, Text, Timeline } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import { IconClockStop, IconEye, IconHash, IconLifebuoy, IconMessage, IconPhone, IconPlayerPlay } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDateTime, formatDuration } from '../../../lib/format';
import type { TimelineEvent } from '../api/timeline';
import { PageUrl } from './labels';

const ICONS: Record<TimelineEvent['kind'], ReactNode> = {
  session_started: <IconPlayerPlay size={11} />,
  page_view: <IconEye size={11} />,
  number_assigned: <IconHash size={11} />,
  fallback_shown: <IconLifebuoy size={11} />,
  call: <IconPhone size={11} />,
  text: <IconMessage size={11} />,
  session_ended: <IconClockStop size={11} />,
};

function title(e: TimelineEvent): string {
  switch (e.kind) {
    case 'session_started':
      return 'Visit started';
    case 'page_view':
      return e.page_title || 'Page view';
    case 'number_assigned':
      return e.number ? `Shown ${formatPhone(e.number)}` : 'Number shown';
    case 'fallback_shown':
      return e.number ? `Pool full: shown the fallback ${formatPhone(e.number)}` : 'Pool full: fallback shown';
    case 'call':
      return e.from ? `Call from ${formatPhone(e.from)}` : 'Call';
    case 'text':
      return e.from ? `Text from ${formatPhone(e.from)}` : 'Text';
    case 'session_ended':
      return 'Visit ended';
  }
}

/** Seconds between two ISO stamps as "2 min 5 s" ("" when under a second). */
export function gap(from: string, to: string): string {
  const s = Math.round((new Date(to).getTime() - new Date(from).getTime()) / 1000);
  if (!Number.isFinite(s) || s < 1) return '';
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min${s % 60 ? ` ${s % 60} s` : ''}`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/**
 * A visit's journey, oldest first: visit start, pages (title and URL, time on the previous page),
 * the number shown, calls and texts (linked to the call), end. `highlightCallId`: the call the page is about.
 */
export function JourneyTimeline({ events, highlightCallId }: { events: TimelineEvent[]; highlightCallId?: number }) {
  if (events.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        Nothing recorded for this visit yet.
      </Text>
    );
  }
  const active = events.length - 1;
  return (
    <Timeline active={active} bulletSize={20} lineWidth={2} data-testid="journey">
      {events.map((e, i) => {
        const prev = i > 0 ? events[i - 1] : undefined;
        const after = prev ? gap(prev.at, e.at) : '';
        const isCall = e.kind === 'call';
        return (
          <Timeline.Item
            key={`${e.kind}-${e.at}-${i}`}
            bullet={ICONS[e.kind]}
            color={isCall ? 'teal' : e.kind === 'fallback_shown' ? 'red' : 'blue'}
            title={
              <Group gap={6} wrap="wrap">
                <Text size="sm" fw={isCall ? 600 : 500}>
                  {title(e)}
                </Text>
                {isCall && e.call_id === highlightCallId ? (
                  <Badge size="xs" variant="light" color="teal">
                    This call
                  </Badge>
                ) : null}
              </Group>
            }
            data-testid="journey-event"
            data-kind={e.kind}
          >
            <Text size="xs" c="dimmed">
              {formatDateTime(e.at)}
              {after ? ` · ${after} later` : ''}
              {isCall && e.duration_s !== null ? ` · ${formatDuration(e.duration_s)}` : ''}
              {e.kind === 'page_view' && e.number ? ` · number ${formatPhone(e.number)}` : ''}
              {isCall && e.number ? ` · dialled ${formatPhone(e.number)}` : ''}
            </Text>
            {e.kind === 'page_view' || e.kind === 'session_started' ? <PageUrl url={e.page_url} /> : null}
            {isCall && e.call_id !== null && e.call_id !== highlightCallId ? (
              <Anchor component={Link} to={`/calls/${e.call_id}`} size="xs">
                Open the call
              </Anchor>
            ) : null}
          </Timeline.Item>
        );
      })}
    </Timeline>
  );
}
