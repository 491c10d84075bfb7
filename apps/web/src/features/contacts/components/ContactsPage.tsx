import { Anchor, Badge, Button, Card, Checkbox, Chip, Group, Select, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { formatPhone } from '@switchboard/domain';
import { IconAddressBook, IconFileImport, IconPlus, IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { EmptyBlock, LoadError } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { TablePager } from '../../../components/TablePager';
import { useCan } from '../../../lib/access';
import { useContacts } from '../api/get-contacts';
import { useLabels } from '../api/get-labels';
import type { BulkSelection, ContactAttribute, ContactFilters, Ref } from '../types';
import { BulkBar } from './BulkBar';
import { ContactDrawer } from './ContactDrawer';
import { ContactStatus } from './ContactStatus';
import { ImportWizard } from './ImportWizard';

interface ContactsPageProps {
  /** The company's groups (filters, bulk "add to group", the form and the import). */
  groups: Ref[];
  /** Custom fields of the Contact entity type. */
  attributes: ContactAttribute[];
}

/** Contacts `/contacts`: filters, paging, bulk actions across pages, the import wizard and the contact drawer. */
export function ContactsPage({ groups, attributes }: ContactsPageProps) {
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const groupId = params.get('group_id') ? Number(params.get('group_id')) : undefined;
  const [labelId, setLabelId] = useState<number | undefined>();
  const [unsubscribed, setUnsubscribed] = useState(false);
  const [invalid, setInvalid] = useState(false);
  const [page, setPage] = useState(1);
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [allMatching, setAllMatching] = useState(false);
  const [open, setOpen] = useState<number | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const labels = useLabels().data?.data ?? [];
  // docs/permissions.md: `contacts.write` adds and changes one by one, `contacts.bulk` imports, exports and deletes in bulk.
  const canWrite = useCan('contacts.write');
  const canBulk = useCan('contacts.bulk');

  const filters: ContactFilters = useMemo(
    () => ({ search: debounced, group_id: groupId, label_id: labelId, is_unsubscribed: unsubscribed || undefined, is_invalid: invalid || undefined }),
    [debounced, groupId, labelId, unsubscribed, invalid],
  );
  const list = useContacts(filters, page);
  const rows = list.data?.data ?? [];
  const pagination = list.data?.meta.pagination;
  const total = pagination?.total ?? 0;

  const clearSelection = () => {
    setChosen(new Set());
    setAllMatching(false);
  };
  const changeFilter = (fn: () => void) => {
    fn();
    setPage(1);
    clearSelection();
  };
  const selection: BulkSelection | null = allMatching ? { all: true, filters } : chosen.size > 0 ? { contacts: [...chosen] } : null;
  const pageIds = rows.map((r) => r.id);
  const pageChosen = pageIds.length > 0 && pageIds.every((id) => chosen.has(id));
  const toggle = (id: number) =>
    setChosen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const filtered = Boolean(debounced || groupId || labelId || unsubscribed || invalid);

  return (
    <>
      <PageHeader
        title="Contacts"
        description="Everyone you text and call, with their groups, labels and opt-out status."
        actions={
          <>
            {canBulk ? (
              <Button variant="default" leftSection={<IconFileImport size={16} />} onClick={() => setImporting(true)}>
                Import
              </Button>
            ) : null}
            {canWrite ? (
              <Button leftSection={<IconPlus size={16} />} onClick={() => setOpen('new')}>
                New contact
              </Button>
            ) : null}
          </>
        }
      />
      <Group mb="sm" gap="sm" wrap="wrap">
        <TextInput
          aria-label="Search contacts"
          placeholder="Search name, email or number"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => changeFilter(() => setSearch(e.currentTarget.value))}
          w={260}
        />
        <Select
          aria-label="Group"
          placeholder="All groups"
          clearable
          data={groups.map((g) => ({ value: String(g.id), label: g.name }))}
          value={groupId ? String(groupId) : null}
          onChange={(v) =>
            changeFilter(() =>
              setParams((p) => {
                if (v) p.set('group_id', v);
                else p.delete('group_id');
                return p;
              }),
            )
          }
          w={200}
        />
        <Select
          aria-label="Label"
          placeholder="All labels"
          clearable
          data={labels.map((l) => ({ value: String(l.id), label: l.label }))}
          value={labelId ? String(labelId) : null}
          onChange={(v) => changeFilter(() => setLabelId(v ? Number(v) : undefined))}
          w={180}
        />
        <Chip checked={unsubscribed} onChange={(v) => changeFilter(() => setUnsubscribed(v))} variant="light" color="orange">
          Unsubscribed
        </Chip>
        <Chip checked={invalid} onChange={(v) => changeFilter(() => setInvalid(v))} variant="light" color="red">
          Invalid
        </Chip>
        <Text size="sm" c="dimmed" ml="auto">
          {pagination ? `${total} ${total === 1 ? 'contact' : 'contacts'}` : ''}
        </Text>
      </Group>

      {selection && (canWrite || canBulk) ? (
        <BulkBar selection={selection} count={allMatching ? total : chosen.size} groups={groups} onDone={clearSelection} />
      ) : null}
      {pageChosen && !allMatching && total > rows.length ? (
        <Text size="sm" mb="xs">
          All {rows.length} on this page are selected.{' '}
          <Anchor component="button" onClick={() => setAllMatching(true)}>
            Select all {total} matching contacts
          </Anchor>
        </Text>
      ) : null}

      <Card withBorder radius="md" p={0}>
        {list.isPending ? (
          <ListSkeleton rows={6} height={44} />
        ) : list.isError ? (
          <LoadError what="contacts" onRetry={() => void list.refetch()} />
        ) : rows.length === 0 ? (
          filtered ? (
            <EmptyBlock icon={<IconSearch />} title="No contacts match" description="Clear a filter or search for something else." />
          ) : (
            <EmptyBlock
              icon={<IconAddressBook />}
              title="No contacts yet"
              description={canWrite ? 'Import a CSV or XLSX file, or add your first contact by hand.' : 'Contacts appear here once they are added.'}
              action={
                canWrite ? (
                  <Group>
                    {canBulk ? <Button onClick={() => setImporting(true)}>Import contacts</Button> : null}
                    <Button variant={canBulk ? 'default' : 'filled'} onClick={() => setOpen('new')}>
                      New contact
                    </Button>
                  </Group>
                ) : undefined
              }
            />
          )
        ) : (
          <Table.ScrollContainer minWidth={760}>
            <Table highlightOnHover verticalSpacing="xs" data-testid="contacts-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={40}>
                    <Checkbox
                      aria-label="Select all on this page"
                      checked={pageChosen || allMatching}
                      indeterminate={!pageChosen && pageIds.some((id) => chosen.has(id))}
                      onChange={() => {
                        setAllMatching(false);
                        setChosen((prev) => {
                          const next = new Set(prev);
                          pageIds.forEach((id) => (pageChosen ? next.delete(id) : next.add(id)));
                          return next;
                        });
                      }}
                    />
                  </Table.Th>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Number</Table.Th>
                  <Table.Th>Email</Table.Th>
                  <Table.Th>Groups</Table.Th>
                  <Table.Th>Labels</Table.Th>
                  <Table.Th>Status</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((c) => (
                  <Table.Tr key={c.id} data-testid="contact-row" data-number={c.number ?? ''} style={{ cursor: 'pointer' }} onClick={() => setOpen(c.id)}>
                    <Table.Td onClick={(e) => e.stopPropagation()}>
                      <Checkbox
                        aria-label={`Select ${c.name}`}
                        checked={allMatching || chosen.has(c.id)}
                        disabled={allMatching}
                        onChange={() => toggle(c.id)}
                      />
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {c.name}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{c.number ? formatPhone(c.number) : '—'}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c="dimmed">
                        {c.email ?? ''}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {c.groups.map((g) => (
                          <Badge key={g.id} size="sm" variant="light">
                            {g.name}
                          </Badge>
                        ))}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {c.labels.map((l) => (
                          <Badge key={l.id} size="sm" color="grape" variant="dot">
                            {l.label}
                          </Badge>
                        ))}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <ContactStatus contact={c} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      <TablePager mt="md" page={page} onChange={setPage} totalPages={pagination?.total_pages} />
      <ContactDrawer contactId={open} onClose={() => setOpen(null)} groups={groups} attributes={attributes} />
      <ImportWizard opened={importing} onClose={() => setImporting(false)} groups={groups} />
    </>
  );
}
