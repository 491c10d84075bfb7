/**
 * Keeps the real-time feed current (spec 002 "DNI" real-time feed; docs/tracking-screens.md "Real-time
 * feed"): `dni visitor` (started / moved / ended) and `dni call matched` on `company.{companyId}` patch the
 * cached `realTimeFeed` answer in place, so the page never reloads. A visitor that moved goes to the top;
 * an ended one leaves; a call goes on top and the list keeps FEED_CALLS_LIMIT calls.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useRealtimeEvent } from '../../../lib/realtime';
import { useCompanyId } from '../../../lib/session';
import { FEED_CALLS_LIMIT, feedQueryKey, type FeedBody, type FeedCall, type FeedVisitor } from '../api/feed';
import { trackingKey } from '../api/keys';

/** The feed after a visitor event (pure; exported for the tests). */
export function applyVisitor(feed: FeedBody, type: 'started' | 'moved' | 'ended', visitor: FeedVisitor): FeedBody {
  const others = feed.visitors.filter((v) => v.session_id !== visitor.session_id);
  return { ...feed, visitors: type === 'ended' ? others : [visitor, ...others] };
}

/** The feed after a call arrived (pure): newest first, one entry per call, at most FEED_CALLS_LIMIT. */
export function applyCall(feed: FeedBody, call: FeedCall): FeedBody {
  const others = feed.calls.filter((c) => c.call_id !== call.call_id);
  return { ...feed, calls: [call, ...others].slice(0, FEED_CALLS_LIMIT) };
}

/**
 * Subscribes while mounted. `onCall` runs for each matched call (the page highlights it); pool health and
 * reports are marked stale so they re-read when next shown.
 */
export function useFeedLive(onCall?: (call: FeedCall) => void): void {
  const companyId = useCompanyId();
  const queryClient = useQueryClient();
  const channel = companyId === null ? null : (`company.${companyId}` as const);
  const key = feedQueryKey(companyId);
  useRealtimeEvent(channel, 'dni visitor', (event) => {
    queryClient.setQueryData<FeedBody>(key, (feed) => (feed ? applyVisitor(feed, event.type, event.visitor) : feed));
  });
  useRealtimeEvent(channel, 'dni call matched', (call) => {
    queryClient.setQueryData<FeedBody>(key, (feed) => (feed ? applyCall(feed, call) : feed));
    void queryClient.invalidateQueries({ queryKey: trackingKey(companyId, 'pools'), refetchType: 'none' });
    onCall?.(call);
  });
  useRealtimeEvent(channel, 'dni pool exhausted', () => {
    void queryClient.invalidateQueries({ queryKey: trackingKey(companyId, 'pools') });
  });
}
