import { Anchor, Button, Card, Stack, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EmptyCard } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { formatDateTime } from '../../../lib/format';
import { useTimeline } from '../api/timeline';
import { JourneyTimeline } from './JourneyTimeline';
import { SessionFacts } from './SessionFacts';
import { TrackingNav } from './TrackingNav';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A visit's timeline `/tracking/sessions/:sessionId` (spec 002 "DNI" session timeline): where the visitor
 * came from, the number they were shown, every page with its time, and their calls.
 */
export function SessionPage({ sessionId }: { sessionId: string }) {
  const valid = UUID.test(sessionId);
  const timeline = useTimeline(valid ? sessionId : null);
  const session = timeline.data?.session;
  return (
    <>
      <Anchor component={Link} to="/tracking/feed" size="sm" mb="xs" display="inline-flex" style={{ alignItems: 'center', gap: 4 }}>
        <IconArrowLeft size={14} /> Real-time feed
      </Anchor>
      <PageHeader
        title="Visit"
        description={
          session
            ? `Started ${formatDateTime(session.started_at)}${session.active ? ' · on the site now' : session.ended_at ? ` · ended ${formatDateTime(session.ended_at)}` : ''}`
            : undefined
        }
      />
      <TrackingNav />
      {valid && timeline.isPending ? (
        <ListSkeleton rows={4} height={56} />
      ) : !valid || !timeline.data ? (
        <EmptyCard
          title="This visit could not be loaded"
          description="The link may be wrong, or the visit belongs to another company."
          action={
            timeline.isError && valid ? (
              <Button onClick={() => void timeline.refetch()}>Retry</Button>
            ) : (
              <Button component={Link} to="/tracking/feed">
                Real-time feed
              </Button>
            )
          }
        />
      ) : (
        <Stack gap="md">
          <Card withBorder radius="md">
            <SessionFacts session={timeline.data.session} />
          </Card>
          <Card withBorder radius="md">
            <Title order={2} size="h4" mb="sm">
              Journey
            </Title>
            <JourneyTimeline events={timeline.data.events} />
          </Card>
        </Stack>
      )}
    </>
  );
}
