import { Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import type { ReactNode } from 'react';
import type { Session } from '../api/timeline';
import { PageUrl, SourceBadge, touchLine } from './labels';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0} style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {typeof children === 'string' ? <Text size="sm">{children || '—'}</Text> : children}
    </Stack>
  );
}

/** The marketing facts of a visit: source, medium, campaign, keyword, click ids, landing page, referrer, first touch. */
export function SessionFacts({ session }: { session: Session }) {
  const clickIds = Object.entries(session.click_ids).filter(([, v]) => v);
  const firstDiffers =
    session.first_touch.traffic_source !== session.traffic_source ||
    session.first_touch.source !== session.source ||
    session.first_touch.campaign !== session.campaign;
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm" verticalSpacing="xs" data-testid="session-facts">
      <Fact label="Source">
        <Group gap={6}>
          <SourceBadge source={session.traffic_source} />
          <Text size="sm">{touchLine(session)}</Text>
        </Group>
      </Fact>
      <Fact label="Number shown">
        <Text size="sm" ff="monospace">
          {session.number ? formatPhone(session.number) : '—'}
          {session.fallback ? ' (fallback)' : ''}
        </Text>
      </Fact>
      <Fact label="Pool">{session.pool_name ?? 'No pool'}</Fact>
      <Fact label="Click ids">
        {clickIds.length ? (
          <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }} data-testid="click-ids">
            {clickIds.map(([k, v]) => `${k}=${v}`).join(' ')}
          </Text>
        ) : (
          '—'
        )}
      </Fact>
      <Fact label="Landing page">
        <PageUrl url={session.landing_page} />
      </Fact>
      <Fact label="Referrer">
        <PageUrl url={session.referrer} />
      </Fact>
      {firstDiffers ? (
        <Fact label="First visit came from">
          <Group gap={6}>
            <SourceBadge source={session.first_touch.traffic_source} />
            <Text size="sm">{touchLine(session.first_touch)}</Text>
          </Group>
        </Fact>
      ) : null}
      <Fact label="Device">{session.device ?? ''}</Fact>
      <Fact label="Pages · calls">{`${session.page_views} ${session.page_views === 1 ? 'page' : 'pages'} · ${session.calls} ${session.calls === 1 ? 'call' : 'calls'}`}</Fact>
    </SimpleGrid>
  );
}
