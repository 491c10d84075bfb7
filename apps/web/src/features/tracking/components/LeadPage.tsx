import { Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { callStatusLabel, formatPhone } from '@switchboard/domain';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { EmptyCard } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { formatDuration, formatStamp } from '../../../lib/format';
import { useLead, type LeadDetail } from '../api/leads';
import { PageUrl, SourceBadge, touchLine, VisitStamp } from './labels';
import { contactSummary, TouchCell } from './LeadsPage';
import { TrackingNav } from './TrackingNav';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2} style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {typeof children === 'string' ? <Text size="sm">{children}</Text> : children}
    </Stack>
  );
}

function Section({ title, count, shown, children }: { title: string; count: number; shown: number; children: ReactNode }) {
  return (
    <Card withBorder radius="md">
      <Title order={2} size="h4" mb="sm">
        {title} ({count})
      </Title>
      {children}
      {count > shown ? (
        <Text size="xs" c="dimmed" mt="xs">
          The latest {shown} are listed.
        </Text>
      ) : null}
    </Card>
  );
}

function Calls({ lead }: { lead: LeadDetail }) {
  if (lead.calls.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No calls from this person yet.
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table verticalSpacing={6} data-testid="lead-calls">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When</Table.Th>
            <Table.Th>Dialled</Table.Th>
            <Table.Th>Source</Table.Th>
            <Table.Th>Outcome</Table.Th>
            <Table.Th>Visit</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {lead.calls.map((c) => (
            <Table.Tr key={c.call_id} data-testid="lead-call">
              <Table.Td>
                <Anchor component={Link} to={`/calls/${c.call_id}`} size="sm">
                  {formatStamp(c.started_at)}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {c.is_first_contact ? 'First call' : 'Repeat'}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {formatPhone(c.number)}
                </Text>
                {c.pool_name ? (
                  <Text size="xs" c="dimmed">
                    {c.pool_name}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>
                <TouchCell touch={c.last_touch} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{[callStatusLabel(c.status), c.duration_s > 0 ? formatDuration(c.duration_s) : null].filter(Boolean).join(' · ') || '—'}</Text>
              </Table.Td>
              <Table.Td>
                {c.session_id ? (
                  <Anchor component={Link} to={`/tracking/sessions/${c.session_id}`} size="sm">
                    Journey
                  </Anchor>
                ) : (
                  <Text size="xs" c="dimmed">
                    {c.method === 'static' ? 'Static number' : 'No visit matched'}
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Visits({ lead }: { lead: LeadDetail }) {
  if (lead.sessions.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No website visit is tied to this person: their calls did not come from a tracked visit.
      </Text>
    );
  }
  return (
    <Stack gap={6} data-testid="lead-visits">
      {lead.sessions.map((s) => (
        <Card key={s.id} withBorder radius="sm" padding="xs" data-testid="lead-visit">
          <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
            <Stack gap={2} style={{ minWidth: 0 }}>
              <Group gap={6} wrap="wrap">
                <SourceBadge source={s.traffic_source} />
                <Text size="xs" c="dimmed" lineClamp={1}>
                  {touchLine(s)}
                </Text>
                {s.active ? (
                  <Badge size="xs" color="teal" variant="light">
                    On the site now
                  </Badge>
                ) : null}
              </Group>
              <PageUrl url={s.landing_page} />
              <Text size="xs" c="dimmed">
                {s.page_views} {s.page_views === 1 ? 'page' : 'pages'} · {s.calls} {s.calls === 1 ? 'call' : 'calls'}
                {s.number ? ` · shown ${formatPhone(s.number)}${s.fallback ? ' (fallback)' : ''}` : ''}
              </Text>
            </Stack>
            <VisitStamp sessionId={s.id} startedAt={s.started_at} />
          </Group>
        </Card>
      ))}
    </Stack>
  );
}

function Texts({ lead }: { lead: LeadDetail }) {
  if (lead.texts.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No texts from this person.
      </Text>
    );
  }
  return (
    <Stack gap={4} data-testid="lead-texts">
      {lead.texts.map((t, i) => (
        <Text key={`${t.at}-${i}`} size="sm" data-testid="lead-text">
          {formatStamp(t.at)} · to{' '}
          <span style={{ fontFamily: 'var(--mantine-font-family-monospace)' }}>{t.number ? formatPhone(t.number) : 'a released number'}</span>
        </Text>
      ))}
    </Stack>
  );
}

/**
 * A lead `/tracking/leads/:leadId` (docs/tracking-screens.md "Leads"): the person's phone number, first and
 * last contact, where they first and last came from, then their calls (with the source of each and a link to
 * its journey), their website visits and their texts, newest first.
 */
export function LeadPage({ leadId }: { leadId: number }) {
  const valid = Number.isInteger(leadId) && leadId > 0;
  const lead = useLead(valid ? leadId : null);
  const d = lead.data;
  return (
    <>
      <Anchor component={Link} to="/tracking/leads" size="sm" mb="xs" display="inline-flex" style={{ alignItems: 'center', gap: 4 }}>
        <IconArrowLeft size={14} /> Leads
      </Anchor>
      <PageHeader
        title={d ? (d.data.contact_name ?? formatPhone(d.data.phone)) : 'Lead'}
        description={d ? `${d.data.contact_name ? `${formatPhone(d.data.phone)} · ` : ''}${contactSummary(d.data)}` : undefined}
      />
      <TrackingNav />
      {valid && lead.isPending ? (
        <ListSkeleton rows={4} height={64} />
      ) : !valid || !d ? (
        <EmptyCard
          title="This lead could not be loaded"
          description={lead.isError && valid ? 'Please try again later' : 'The link may be wrong, or the lead belongs to another company.'}
          action={
            lead.isError && valid ? (
              <Button onClick={() => void lead.refetch()}>Retry</Button>
            ) : (
              <Button component={Link} to="/tracking/leads">
                Leads
              </Button>
            )
          }
        />
      ) : (
        <Stack gap="md">
          <Card withBorder radius="md">
            <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" verticalSpacing="xs" data-testid="lead-facts">
              <Fact label="First came from">
                <TouchCell touch={d.data.first_touch} />
              </Fact>
              <Fact label="Last came from">
                <TouchCell touch={d.data.last_touch} />
              </Fact>
              <Fact label="First contact">{formatStamp(d.data.first_seen_at)}</Fact>
              <Fact label="Last contact">{formatStamp(d.data.last_seen_at)}</Fact>
            </SimpleGrid>
          </Card>
          <Section title="Calls" count={d.data.calls} shown={d.calls.length}>
            <Calls lead={d} />
          </Section>
          <Section title="Website visits" count={d.data.sessions} shown={d.sessions.length}>
            <Visits lead={d} />
          </Section>
          <Section title="Texts" count={d.data.texts} shown={d.texts.length}>
            <Texts lead={d} />
          </Section>
        </Stack>
      )}
    </>
  );
}
