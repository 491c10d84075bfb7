import { Anchor, Badge, Group, Skeleton, Stack, Text } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import { Link } from 'react-router';
import { useCallAttribution, useTimeline } from '../api/timeline';
import { JourneyTimeline } from './JourneyTimeline';
import { SourceBadge, touchLine } from './labels';

/**
 * The call detail's marketing section (spec 002 "DNI" session timeline; docs/tracking-screens.md "Call
 * detail"): how the call was attributed (pool visit, static number or none), first and last touch, click
 * ids, and — for a pool call — the visitor's journey (pages, times, number shown, the call). Renders
 * nothing for a call the product has no attribution for (e.g. an outbound call).
 */
export function CallJourney({ callId }: { callId: number }) {
  const attribution = useCallAttribution(callId);
  const a = attribution.data;
  const timeline = useTimeline(a?.session_id ?? null);
  if (attribution.isPending) return <Skeleton height={48} />;
  if (!a) return null;
  const last = a.last_touch;
  const clickIds = Object.entries(a.click_ids).filter(([, v]) => v);
  return (
    <Stack gap="xs" data-testid="call-journey">
      <Group justify="space-between" wrap="wrap" gap={6}>
        <Text size="sm" fw={500}>
          Marketing source
        </Text>
        <Badge size="sm" variant={a.is_first_contact ? 'light' : 'outline'} color={a.is_first_contact ? 'grape' : 'gray'}>
          {a.is_first_contact ? 'First-time caller' : 'Repeat caller'}
        </Badge>
      </Group>
      {a.method === 'none' || !last ? (
        <Text size="sm" c="dimmed">
          Not tracked: the number dialled is not in a tracking pool or a static source, or no visit held it at the time.
        </Text>
      ) : (
        <Stack gap={4}>
          <Group gap={6} wrap="wrap">
            <SourceBadge source={last.traffic_source} />
            <Text size="sm">{touchLine(last)}</Text>
          </Group>
          {a.first_touch && (a.first_touch.traffic_source !== last.traffic_source || a.first_touch.campaign !== last.campaign) ? (
            <Group gap={6} wrap="wrap">
              <Text size="xs" c="dimmed">
                First visit:
              </Text>
              <SourceBadge source={a.first_touch.traffic_source} />
              <Text size="xs">{touchLine(a.first_touch)}</Text>
            </Group>
          ) : null}
          <Text size="xs" c="dimmed">
            {a.method === 'pool' ? `Pool ${a.pool_name ?? ''}` : 'Static tracking number'}
            {clickIds.length ? ` · ${clickIds.map(([k, v]) => `${k}=${v}`).join(' ')}` : ''}
          </Text>
        </Stack>
      )}
      {a.session_id ? (
        <>
          {timeline.isPending ? <Skeleton height={80} /> : timeline.data ? <JourneyTimeline events={timeline.data.events} highlightCallId={callId} /> : null}
          <Anchor component={Link} to={`/tracking/sessions/${a.session_id}`} size="xs">
            The whole visit{timeline.data?.session.number ? ` (shown ${formatPhone(timeline.data.session.number)})` : ''}
          </Anchor>
        </>
      ) : null}
    </Stack>
  );
}
