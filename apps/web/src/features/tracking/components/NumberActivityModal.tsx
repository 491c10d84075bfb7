import { Anchor, Card, Group, Modal, Stack, Text } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import { IconHistory } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EmptyBlock, LoadError } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { formatDuration, formatStamp } from '../../../lib/format';
import { useTimelineByNumber } from '../api/timeline';
import { PageUrl, SourceBadge, touchLine, VisitStamp } from './labels';

/** Visits listed for a number (the newest). */
export const NUMBER_ACTIVITY_LIMIT = 10;

/**
 * A pool number's recent activity (spec 002 "DNI" `GET .../dniTimelineEventsByNumber/{number}`): the
 * latest visits that were shown the number, newest first, each with its source, landing page, pages and
 * the calls it led to (linked to the call), and a link to the whole journey. `number` null: closed.
 */
export function NumberActivityModal({ number, onClose }: { number: string | null; onClose: () => void }) {
  const timeline = useTimelineByNumber(number, NUMBER_ACTIVITY_LIMIT);
  const items = timeline.data?.data ?? [];
  return (
    <Modal opened={number !== null} onClose={onClose} size="lg" title={number ? `Recent visits shown ${formatPhone(number)}` : ''}>
      {timeline.isPending ? (
        <ListSkeleton rows={3} height={64} />
      ) : timeline.isError ? (
        <LoadError what="the number's visits" onRetry={() => void timeline.refetch()} />
      ) : items.length === 0 ? (
        <EmptyBlock
          icon={<IconHistory />}
          title="No visits yet"
          description="No visitor has been shown this number yet. Visits appear here once the script gives it out."
        />
      ) : (
        <Stack gap="xs" data-testid="number-activity">
          {items.length === NUMBER_ACTIVITY_LIMIT ? (
            <Text size="xs" c="dimmed">
              The latest {NUMBER_ACTIVITY_LIMIT} visits.
            </Text>
          ) : null}
          {items.map(({ session: s, events }) => {
            const calls = events.filter((e) => e.kind === 'call');
            return (
              <Card key={s.id} withBorder radius="sm" padding="xs" data-testid="number-visit">
                <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Group gap={6} wrap="wrap">
                      <SourceBadge source={s.traffic_source} />
                      <Text size="xs" c="dimmed" lineClamp={1}>
                        {touchLine(s)}
                      </Text>
                    </Group>
                    <PageUrl url={s.landing_page} />
                    <Text size="xs" c="dimmed">
                      {s.page_views} {s.page_views === 1 ? 'page' : 'pages'}
                      {s.active ? ' · on the site now' : ''}
                      {s.fallback ? ' · shown as the fallback' : ''}
                    </Text>
                    {calls.map((c) => (
                      <Text key={`${c.call_id}-${c.at}`} size="sm">
                        {c.call_id !== null ? (
                          <Anchor component={Link} to={`/calls/${c.call_id}`} size="sm">
                            Call from {c.from ? formatPhone(c.from) : 'an unknown number'}
                          </Anchor>
                        ) : (
                          'Call'
                        )}{' '}
                        <Text span size="xs" c="dimmed">
                          {formatStamp(c.at)}
                          {c.duration_s ? ` · ${formatDuration(c.duration_s)}` : ''}
                        </Text>
                      </Text>
                    ))}
                  </Stack>
                  <VisitStamp sessionId={s.id} startedAt={s.started_at} />
                </Group>
              </Card>
            );
          })}
        </Stack>
      )}
    </Modal>
  );
}
