/** Small shared pieces of the tracking screens: source badges, pool health badges, URL display. */
import { Anchor, Badge, Group, Stack, Text, Tooltip } from '@mantine/core';
import { Link } from 'react-router';
import { formatStamp } from '../../../lib/format';
import { TRAFFIC_SOURCE_LABELS, type DniPoolHealth, type TrafficSource } from '@switchboard/contracts';

const SOURCE_COLORS: Record<TrafficSource, string> = {
  google_ads: 'blue',
  microsoft_ads: 'cyan',
  meta_ads: 'indigo',
  organic: 'green',
  direct: 'gray',
  referral: 'grape',
  email: 'orange',
  custom: 'teal',
  static: 'yellow',
};

/** The traffic source as a coloured badge with the label a person reads ("Google Ads"). */
export function SourceBadge({ source }: { source: TrafficSource | null }) {
  if (source === null) {
    return (
      <Badge variant="outline" color="gray" size="sm">
        Not tracked
      </Badge>
    );
  }
  return (
    <Badge variant="light" color={SOURCE_COLORS[source]} size="sm" data-testid="source-badge">
      {TRAFFIC_SOURCE_LABELS[source]}
    </Badge>
  );
}

/** "google / cpc · spring-sale" from the touch's parts; empty parts are left out. */
export function touchLine(t: { source: string | null; medium?: string | null; campaign: string | null; keyword?: string | null }): string {
  const head = [t.source, t.medium].filter(Boolean).join(' / ');
  return [head, t.campaign, t.keyword ? `“${t.keyword}”` : null].filter(Boolean).join(' · ');
}

const HEALTH = {
  healthy: { color: 'teal', label: 'Healthy' },
  warning: { color: 'yellow', label: 'Needs numbers' },
  exhausted: { color: 'red', label: 'Exhausted' },
} as const;

/**
 * The pool's health now: status badge, utilisation in percent and the exhaustion count of the last 7
 * days; the tooltip says what the status means and the size the traffic needs.
 */
export function HealthBadges({ health }: { health: DniPoolHealth }) {
  const h = HEALTH[health.status];
  const pct = Math.round(health.utilisation * 100);
  const hint =
    health.status === 'exhausted'
      ? 'Every number is held or cooling down: new visitors see the fallback number.'
      : health.status === 'warning'
        ? `${pct}% in use or an exhaustion in the last 7 days.`
        : 'Enough free numbers for the traffic.';
  return (
    <Group gap={6} wrap="wrap" data-testid="pool-health">
      <Tooltip label={`${hint} Recommended size: ${health.recommended_size}.`} multiline w={260} withArrow>
        <Badge color={h.color} variant="light" size="sm" tabIndex={0}>
          {h.label}
        </Badge>
      </Tooltip>
      <Badge color="gray" variant="outline" size="sm" aria-label={`Utilisation ${pct} percent`}>
        {pct}% used
      </Badge>
      {health.exhaustion_count_7d > 0 ? (
        <Badge color="red" variant="outline" size="sm">
          {health.exhaustion_count_7d} {health.exhaustion_count_7d === 1 ? 'exhaustion' : 'exhaustions'} in 7 days
        </Badge>
      ) : null}
    </Group>
  );
}

/** A URL shown as its path (host dimmed), trimmed to one line, full URL in the title. */
export function PageUrl({ url, title }: { url: string | null; title?: string | null }) {
  if (!url)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  let host = '';
  let path = url;
  try {
    const u = new URL(url);
    host = u.host;
    path = `${u.pathname}${u.search}`;
  } catch (error) {
    if (!(error instanceof TypeError)) throw error; // not an absolute URL: shown as written
  }
  return (
    <Text size="sm" lineClamp={1} title={url} style={{ wordBreak: 'break-all' }}>
      {title ? <>{title} · </> : null}
      <Text span c="dimmed" size="sm">
        {host}
      </Text>
      {path}
    </Text>
  );
}

/** A visit's start time (the viewer's local time) with the link to its journey (`/tracking/sessions/{id}`), set at a row's end. */
export function VisitStamp({ sessionId, startedAt }: { sessionId: string | number; startedAt: string }) {
  return (
    <Stack gap={2} align="flex-end" style={{ flexShrink: 0 }}>
      <Text size="xs" c="dimmed">
        {formatStamp(startedAt)}
      </Text>
      <Anchor component={Link} to={`/tracking/sessions/${sessionId}`} size="xs" aria-label={`Journey of the visit of ${formatStamp(startedAt)}`}>
        Journey
      </Anchor>
    </Stack>
  );
}
