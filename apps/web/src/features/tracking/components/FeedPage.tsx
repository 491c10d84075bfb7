import { Anchor, Badge, Button, Card, Group, Indicator, SimpleGrid, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import { IconPhoneIncoming, IconUsers } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { EmptyBlock, LoadError } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { formatStamp } from '../../../lib/format';
import { useRealTimeFeed, type FeedCall, type FeedVisitor } from '../api/feed';
import { useFeedLive } from '../realtime/use-feed-live';
import { gap } from './JourneyTimeline';
import { PageUrl, SourceBadge, touchLine } from './labels';
import { TrackingNav } from './TrackingNav';

/** Visitors listed before "Show all" (the calls stay in sight on a phone). */
const VISITORS_SHOWN = 8;

/** Re-renders every `ms` so "on site for" stays current without a reload. */
function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}

function VisitorRow({ v, now }: { v: FeedVisitor; now: number }) {
  return (
    <Card withBorder radius="sm" padding="xs" data-testid="feed-visitor" data-session-id={v.session_id}>
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap={6} wrap="wrap">
            <SourceBadge source={v.traffic_source} />
            <Text size="xs" c="dimmed" lineClamp={1}>
              {touchLine(v)}
            </Text>
          </Group>
          <PageUrl url={v.page_url} title={v.page_title} />
          <Text size="xs" c="dimmed">
            {v.page_views} {v.page_views === 1 ? 'page' : 'pages'} · on the site {gap(v.started_at, new Date(now).toISOString()) || 'just now'}
            {v.device ? ` · ${v.device}` : ''}
          </Text>
        </Stack>
        <Stack gap={2} align="flex-end" style={{ flexShrink: 0 }}>
          <Text size="sm" ff="monospace" data-testid="feed-visitor-number">
            {v.number ? formatPhone(v.number) : v.fallback ? 'Your own number' : 'No number'}
          </Text>
          {v.fallback ? (
            <Badge size="xs" color="red" variant="light">
              Fallback
            </Badge>
          ) : v.pool_name ? (
            <Text size="xs" c="dimmed">
              {v.pool_name}
            </Text>
          ) : null}
          <Anchor
            component={Link}
            to={`/tracking/sessions/${v.session_id}`}
            size="xs"
            aria-label={`Journey of the visitor on ${v.page_title ?? v.page_url ?? 'the site'}`}
          >
            Journey
          </Anchor>
        </Stack>
      </Group>
    </Card>
  );
}

function CallRow({ c, fresh }: { c: FeedCall; fresh: boolean }) {
  return (
    <Card
      withBorder
      radius="sm"
      padding="xs"
      data-testid="feed-call"
      data-call-id={c.call_id}
      style={fresh ? { borderColor: 'var(--mantine-color-teal-5)', background: 'var(--mantine-color-teal-light)' } : undefined}
    >
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap={6} wrap="wrap">
            <Anchor component={Link} to={`/calls/${c.call_id}`} size="sm" fw={500} ff="monospace">
              {formatPhone(c.from)}
            </Anchor>
            {c.is_first_contact ? (
              <Badge size="xs" variant="light" color="grape">
                New caller
              </Badge>
            ) : (
              <Badge size="xs" variant="outline" color="gray">
                Repeat
              </Badge>
            )}
          </Group>
          <Group gap={6} wrap="wrap">
            <SourceBadge source={c.traffic_source} />
            <Text size="xs" c="dimmed" lineClamp={1}>
              {touchLine(c)}
            </Text>
          </Group>
          {c.landing_page ? <PageUrl url={c.landing_page} /> : null}
        </Stack>
        <Stack gap={2} align="flex-end" style={{ flexShrink: 0 }}>
          <Text size="xs" c="dimmed">
            {formatStamp(c.at)}
          </Text>
          <Text size="xs" ff="monospace">
            to {formatPhone(c.number)}
          </Text>
          {c.session_id ? (
            <Anchor component={Link} to={`/tracking/sessions/${c.session_id}`} size="xs">
              Journey
            </Anchor>
          ) : (
            <Text size="xs" c="dimmed">
              {c.method === 'static' ? 'Static number' : 'No visit matched'}
            </Text>
          )}
        </Stack>
      </Group>
    </Card>
  );
}

/**
 * The real-time feed `/tracking/feed` (spec 002 "DNI" real-time feed): calls as they arrive (first: they
 * matter most) and visitors on the site now (source, page, number shown; the first 8, then "Show all"), kept live by the company channel (no reload). A new call
 * is highlighted for a few seconds and announced to screen readers.
 */
export function FeedPage() {
  const feed = useRealTimeFeed();
  const now = useNow(15_000);
  const [fresh, setFresh] = useState<number[]>([]);
  const [announcement, setAnnouncement] = useState('');
  const [showAll, setShowAll] = useState(false);
  useFeedLive((call) => {
    setFresh((list) => [...list, call.call_id]);
    setAnnouncement(`New call from ${formatPhone(call.from)}${call.traffic_source ? '' : ', not tracked'}`);
    setTimeout(() => setFresh((list) => list.filter((id) => id !== call.call_id)), 8000);
  });
  const visitors = feed.data?.visitors ?? [];
  const calls = feed.data?.calls ?? [];
  return (
    <>
      <PageHeader title="Real-time feed" description="Who is on your website now, what they see, and the calls as they come in." />
      <TrackingNav />
      <VisuallyHidden aria-live="polite">{announcement}</VisuallyHidden>
      {feed.isPending ? (
        <ListSkeleton rows={4} height={64} />
      ) : feed.isError ? (
        <Card withBorder radius="md">
          <LoadError what="the real-time feed" onRetry={() => void feed.refetch()} />
        </Card>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <Stack gap="xs">
            <Title order={2} size="h4">
              Latest calls
            </Title>
            {calls.length === 0 ? (
              <Card withBorder radius="md">
                <EmptyBlock
                  icon={<IconPhoneIncoming />}
                  title="No calls yet"
                  description="Calls appear here the moment they ring, with the visit that led to them."
                />
              </Card>
            ) : (
              <Stack gap={6} data-testid="feed-calls">
                {calls.map((c) => (
                  <CallRow key={c.call_id} c={c} fresh={fresh.includes(c.call_id)} />
                ))}
              </Stack>
            )}
          </Stack>
          <Stack gap="xs">
            <Group gap="xs">
              <Indicator processing color="teal" size={8} position="middle-start" offset={-2} disabled={visitors.length === 0}>
                <Title order={2} size="h4" pl={visitors.length ? 10 : 0}>
                  On the site now ({visitors.length})
                </Title>
              </Indicator>
            </Group>
            {visitors.length === 0 ? (
              <Card withBorder radius="md">
                <EmptyBlock
                  icon={<IconUsers />}
                  title="No visitors right now"
                  description="Visitors appear here as soon as a page with your tracking script opens."
                />
              </Card>
            ) : (
              <Stack gap={6} data-testid="feed-visitors">
                {(showAll ? visitors : visitors.slice(0, VISITORS_SHOWN)).map((v) => (
                  <VisitorRow key={v.session_id} v={v} now={now} />
                ))}
                {visitors.length > VISITORS_SHOWN ? (
                  <Button variant="subtle" size="xs" onClick={() => setShowAll((x) => !x)}>
                    {showAll ? 'Show fewer' : `Show all ${visitors.length} visitors`}
                  </Button>
                ) : null}
              </Stack>
            )}
          </Stack>
        </SimpleGrid>
      )}
    </>
  );
}
