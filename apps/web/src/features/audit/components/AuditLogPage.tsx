/**
 * /audit-log (docs/audit.md): who changed what in the company, when and from where, newest first, for owners and
 * administrators: filters (actor kind, entity, outcome, days, search), each entry's submitted fields (secrets already
 * redacted by the server) on demand, and a CSV export of the filtered log. Consecutive repeats of one person's routine
 * request show as one row "N times" (group-runs.ts).
 */
import { Anchor, Badge, Button, Card, Code, Collapse, Group, Select, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { AuditEntry } from '@switchboard/contracts';
import { IconDownload, IconHistory, IconSearch } from '@tabler/icons-react';
import { Fragment, useState } from 'react';
import { EmptyCard, LoadError } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { TablePager } from '../../../components/TablePager';
import { formatStamp } from '../../../lib/format';
import { useCompanyId } from '../../../lib/session';
import { auditExportUrl, useAuditLog, type AuditFilters } from '../api/audit';
import { groupRuns } from '../group-runs';

const ACTOR_KINDS = [
  { value: 'user', label: 'People' },
  { value: 'api_key', label: 'API keys' },
  { value: 'operator', label: 'Support operators' },
  { value: 'system', label: 'System' },
];
const OUTCOMES = [
  { value: 'success', label: 'Done' },
  { value: 'refused', label: 'Refused' },
];
const EMPTY: AuditFilters = { actorKind: '', entityType: '', outcome: '', from: '', to: '', search: '' };

function actorOf(e: AuditEntry): string {
  const name = e.actor_name ?? (e.actor_user_id !== null ? `User #${e.actor_user_id}` : 'System');
  if (e.actor_kind === 'api_key') return `${name} (API key #${e.api_key_id})`;
  if (e.actor_kind === 'operator') return `${name} (support, as user #${e.actor_user_id})`;
  return name;
}

export function AuditLogPage() {
  const companyId = useCompanyId();
  const [filters, setFilters] = useState<AuditFilters>(EMPTY);
  const [search] = useDebouncedValue(filters.search, 300);
  const [entity] = useDebouncedValue(filters.entityType, 300);
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<number | null>(null);
  const effective = { ...filters, search, entityType: entity };
  const log = useAuditLog(effective, page);
  const rows = log.data?.data ?? [];
  // Repeats of one person's routine request are one row "N times" (group-runs.ts).
  const runs = groupRuns(rows);
  const set = (patch: Partial<AuditFilters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage(1);
  };
  const filtered = JSON.stringify(filters) !== JSON.stringify(EMPTY);

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change made in this account: by whom (a person, an API key or a support operator), when and from where. Entries cannot be edited or deleted."
        actions={
          <Button component="a" href={auditExportUrl(companyId, effective)} download variant="light" leftSection={<IconDownload size={16} />}>
            Export CSV
          </Button>
        }
      />
      <Group mb="md" gap="sm" wrap="wrap" align="flex-end">
        <Select
          label="Who"
          placeholder="Anyone"
          clearable
          data={ACTOR_KINDS}
          value={filters.actorKind || null}
          onChange={(v) => set({ actorKind: v ?? '' })}
          w={{ base: '100%', xs: 170 }}
        />
        <TextInput
          label="Entity"
          placeholder="e.g. contacts"
          value={filters.entityType}
          onChange={(e) => set({ entityType: e.currentTarget.value })}
          w={{ base: '100%', xs: 150 }}
        />
        <Select
          label="Outcome"
          placeholder="Any"
          clearable
          data={OUTCOMES}
          value={filters.outcome || null}
          onChange={(v) => set({ outcome: v ?? '' })}
          w={{ base: '100%', xs: 130 }}
        />
        <TextInput label="From" type="date" value={filters.from} onChange={(e) => set({ from: e.currentTarget.value })} w={{ base: '100%', xs: 160 }} />
        <TextInput label="To" type="date" value={filters.to} onChange={(e) => set({ to: e.currentTarget.value })} w={{ base: '100%', xs: 160 }} />
        <TextInput
          label="Search"
          placeholder="Path, id or value"
          leftSection={<IconSearch size={14} />}
          value={filters.search}
          onChange={(e) => set({ search: e.currentTarget.value })}
          w={{ base: '100%', xs: 200 }}
        />
        {filtered ? (
          <Button variant="subtle" onClick={() => set(EMPTY)}>
            Clear filters
          </Button>
        ) : null}
      </Group>
      {log.isPending ? (
        <ListSkeleton rows={5} height={44} />
      ) : log.isError ? (
        <Card withBorder radius="md">
          <LoadError what="the audit log" onRetry={() => void log.refetch()} />
        </Card>
      ) : rows.length === 0 ? (
        <EmptyCard
          icon={<IconHistory />}
          title={filtered ? 'No entries match' : 'Nothing recorded yet'}
          description={filtered ? 'Try other filters.' : 'Changes appear here as people make them.'}
        />
      ) : (
        <Card withBorder radius="md" p={0}>
          <Table.ScrollContainer minWidth={760}>
            <Table verticalSpacing="sm" data-testid="audit-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>When</Table.Th>
                  <Table.Th>Who</Table.Th>
                  <Table.Th>What</Table.Th>
                  <Table.Th>Outcome</Table.Th>
                  <Table.Th>From</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {runs.map(({ entry: e, count, oldestAt }) => (
                  <Fragment key={e.id}>
                    <Table.Tr data-testid="audit-row">
                      <Table.Td>
                        <Text size="sm">{formatStamp(e.created_at)}</Text>
                        {count > 1 ? (
                          <Text size="xs" c="dimmed">
                            since {formatStamp(oldestAt)}
                          </Text>
                        ) : null}
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{actorOf(e)}</Text>
                      </Table.Td>
                      <Table.Td>
                        <UnstyledButton onClick={() => setOpen(open === e.id ? null : e.id)} aria-expanded={open === e.id}>
                          <Text size="sm" fw={500}>
                            {e.action} {e.entity_type}
                            {e.entity_id ? ` #${e.entity_id}` : ''}
                            {count > 1 ? (
                              <Badge component="span" ml={6} size="sm" variant="light" color="gray">
                                {count} times
                              </Badge>
                            ) : null}
                          </Text>
                          <Text size="xs" c="dimmed">
                            {e.method} {e.path}
                          </Text>
                        </UnstyledButton>
                      </Table.Td>
                      <Table.Td>
                        <Badge color={e.outcome === 'success' ? 'green' : e.outcome === 'refused' ? 'red' : 'gray'} variant="light">
                          {e.outcome === 'success' ? 'Done' : e.outcome === 'refused' ? 'Refused' : 'Failed'}
                          {e.status_code ? ` · ${e.status_code}` : ''}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{e.ip ?? '—'}</Text>
                        <Text size="xs" c="dimmed" lineClamp={1} maw={220}>
                          {e.user_agent ?? ''}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                    {open === e.id ? (
                      <Table.Tr>
                        <Table.Td colSpan={5}>
                          <Collapse expanded>
                            <Text size="xs" c="dimmed" mb={4}>
                              Submitted fields (secrets redacted)
                            </Text>
                            <Code block data-testid="audit-changes">
                              {e.changes ? JSON.stringify(e.changes, null, 2) : '—'}
                            </Code>
                          </Collapse>
                        </Table.Td>
                      </Table.Tr>
                    ) : null}
                  </Fragment>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
      <TablePager mt="md" page={page} totalPages={log.data?.meta.last_page} onChange={setPage} />
      <Text size="xs" c="dimmed" mt="xs">
        Times are shown in your browser’s time zone; the export is in UTC. <Anchor href="/api/docs">API documentation</Anchor>
      </Text>
    </>
  );
}
