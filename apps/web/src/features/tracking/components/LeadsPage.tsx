import { Anchor, Card, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { formatPhone } from '@switchboard/domain';
import { IconSearch, IconUserSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { EmptyBlock, LoadError } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { TablePager } from '../../../components/TablePager';
import { formatStamp } from '../../../lib/format';
import { useLeads, type Lead } from '../api/leads';
import { SourceBadge, touchLine } from './labels';
import { TrackingNav } from './TrackingNav';

/** "2 calls · 1 text · 3 visits" (parts with zero left out, "No contact yet" when all are). */
export function contactSummary(l: Pick<Lead, 'calls' | 'texts' | 'sessions'>): string {
  const part = (n: number, one: string, many: string) => (n > 0 ? `${n} ${n === 1 ? one : many}` : null);
  const parts = [part(l.calls, 'call', 'calls'), part(l.texts, 'text', 'texts'), part(l.sessions, 'visit', 'visits')].filter(Boolean);
  return parts.length ? parts.join(' · ') : 'No contact yet';
}

/** A touch (first or last) as a source badge and its line; "Not tracked" without one. */
export function TouchCell({ touch }: { touch: Lead['first_touch'] }) {
  return (
    <Group gap={6} wrap="wrap">
      <SourceBadge source={touch?.traffic_source ?? null} />
      {touch ? (
        <Text size="xs" c="dimmed" lineClamp={1}>
          {touchLine(touch)}
        </Text>
      ) : null}
    </Group>
  );
}

/**
 * Leads `/tracking/leads` (docs/tracking-screens.md "Leads"): each person who called or texted, with their
 * calls, texts and visits counted together, where they first came from and where they came from last;
 * searchable by phone number or by source, campaign or keyword; opens the lead. A lead whose number is a contact's
 * shows the contact's name (the number beneath).
 */
export function LeadsPage() {
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const leads = useLeads(page, debounced);
  const rows = leads.data?.data ?? [];
  return (
    <>
      <PageHeader
        title="Leads"
        description="Each person who called or texted, with their calls, texts and website visits together, and where they came from first and last."
      />
      <TrackingNav />
      <TextInput
        mb="md"
        maw={420}
        label="Search leads"
        placeholder="Phone number, source, campaign or keyword"
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setPage(1);
        }}
      />
      <Card withBorder radius="md" p={0}>
        {leads.isPending ? (
          <ListSkeleton rows={4} height={56} />
        ) : leads.isError ? (
          <LoadError what="leads" onRetry={() => void leads.refetch()} />
        ) : rows.length === 0 ? (
          debounced ? (
            <EmptyBlock
              icon={<IconUserSearch />}
              title="No lead matches"
              description={`Nothing found for “${debounced}”. Try part of the number or a campaign.`}
            />
          ) : (
            <EmptyBlock
              icon={<IconUserSearch />}
              title="No leads yet"
              description="A lead appears with the first call or text from a person: their calls, texts and the website visits that led to them are grouped here."
              action={
                <Anchor component={Link} to="/tracking/script">
                  Install the tracking script
                </Anchor>
              }
            />
          )
        ) : (
          <>
            {/* Phone width: one card per lead. */}
            <Stack gap={0} hiddenFrom="sm">
              {rows.map((l) => (
                <Stack key={l.id} gap={4} p="sm" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }} data-testid="lead-card">
                  <Group justify="space-between" wrap="nowrap">
                    <Anchor component={Link} to={`/tracking/leads/${l.id}`} fw={500} ff={l.contact_name ? undefined : 'monospace'} c="inherit">
                      {l.contact_name ?? formatPhone(l.phone)}
                    </Anchor>
                    <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                      {formatStamp(l.last_seen_at)}
                    </Text>
                  </Group>
                  <Text size="sm" c="dimmed">
                    {l.contact_name ? `${formatPhone(l.phone)} · ` : ''}
                    {contactSummary(l)}
                  </Text>
                  <TouchCell touch={l.last_touch ?? l.first_touch} />
                </Stack>
              ))}
            </Stack>
            <Table.ScrollContainer minWidth={760} visibleFrom="sm">
              <Table highlightOnHover verticalSpacing="sm" data-testid="leads-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Person</Table.Th>
                    <Table.Th>Contacts</Table.Th>
                    <Table.Th>First came from</Table.Th>
                    <Table.Th>Last came from</Table.Th>
                    <Table.Th>Last contact</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((l) => (
                    <Table.Tr key={l.id} data-testid="lead-row" style={{ cursor: 'pointer' }} onClick={() => void navigate(`/tracking/leads/${l.id}`)}>
                      <Table.Td>
                        <Anchor
                          component={Link}
                          to={`/tracking/leads/${l.id}`}
                          size="sm"
                          fw={500}
                          ff={l.contact_name ? undefined : 'monospace'}
                          c="inherit"
                          onClick={(e) => e.stopPropagation()}
                        >
                          {l.contact_name ?? formatPhone(l.phone)}
                        </Anchor>
                        {l.contact_name ? (
                          <Text size="xs" c="dimmed" ff="monospace">
                            {formatPhone(l.phone)}
                          </Text>
                        ) : null}
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{contactSummary(l)}</Text>
                      </Table.Td>
                      <Table.Td>
                        <TouchCell touch={l.first_touch} />
                      </Table.Td>
                      <Table.Td>
                        <TouchCell touch={l.last_touch} />
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{formatStamp(l.last_seen_at)}</Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </>
        )}
      </Card>
      <TablePager mt="md" page={page} totalPages={leads.data?.meta.last_page} onChange={setPage} />
    </>
  );
}
