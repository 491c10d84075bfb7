import { Button, Card, Checkbox, Group, Pagination, Select, Skeleton, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { formatPhone, NUMBER_TYPES } from '@switchboard/domain';
import { IconChevronDown, IconChevronUp, IconDownload, IconHash, IconSearch, IconSelector } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { EmptyBlock, EmptyCard } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PAGER_LABELS } from '../../../components/TablePager';
import { useCan } from '../../../lib/access';
import { useCompanyId } from '../../../lib/session';
import { useExportNumbers } from '../api/export-numbers';
import { useNumbersDatatable } from '../api/get-numbers-datatable';
import type { NumberTableQuery } from '../types';
import { BulkActionsBar } from './BulkActionsBar';
import { numberColumnsOf } from './number-columns';

const PER_PAGE_CHOICES = ['10', '25', '50', '100'];
const TYPE_FILTERS = [
  { value: String(NUMBER_TYPES.local), label: 'Local' },
  { value: String(NUMBER_TYPES.toll_free), label: 'Toll-free' },
  { value: String(NUMBER_TYPES.canadian), label: 'Canadian' },
];

type SortColumn = NumberTableQuery['sort'];

function SortHeader({
  column,
  query,
  onSort,
  children,
}: {
  column: SortColumn;
  query: NumberTableQuery;
  onSort: (c: SortColumn) => void;
  children: ReactNode;
}) {
  const active = query.sort === column;
  const Icon = active ? (query.dir === 'asc' ? IconChevronUp : IconChevronDown) : IconSelector;
  return (
    <Table.Th aria-sort={active ? (query.dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton onClick={() => onSort(column)} style={{ display: 'inline-flex', alignItems: 'center', gap: 4, fontWeight: 600 }}>
        {children}
        <Icon size={14} />
      </UnstyledButton>
    </Table.Th>
  );
}

export interface NumbersTableProps {
  onBuy?: () => void;
  /** The column keys to show, in order (a column preset of kind `numbers`; default: label, number, type, routing, schedule, added). */
  columns?: string[];
  /** The column chooser (composed by app/routes), shown beside the search. */
  columnTools?: ReactNode;
}

/**
 * The numbers datatable: server paging (current_page, total, last_page), sort by column, search and
 * type filter, CSV export of the filtered list, a selection for the bulk actions, and the columns a
 * person chose (spec 001 "Column preset" `numbers`).
 */
export function NumbersTable({ onBuy, columns, columnTools }: NumbersTableProps) {
  const shown = numberColumnsOf(columns);
  const companyId = useCompanyId();
  // Selecting numbers only serves the bulk actions (set label: `numbers.manage`; release: `numbers.purchase`).
  const canLabel = useCan('numbers.manage');
  const canRelease = useCan('numbers.purchase');
  const canSelect = canLabel || canRelease;
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [type, setType] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(25);
  const [sort, setSort] = useState<SortColumn>('created_at');
  const [dir, setDir] = useState<'asc' | 'desc'>('desc');
  const [selected, setSelected] = useState<number[]>([]);
  const query: NumberTableQuery = { page, perPage, sort, dir, search: debounced || undefined, type: type ? Number(type) : undefined };
  const numbers = useNumbersDatatable(query);
  const exporter = useExportNumbers();

  const onSort = (column: SortColumn) => {
    if (column === sort) setDir((d) => (d === 'asc' ? 'desc' : 'asc'));
    else {
      setSort(column);
      setDir(column === 'created_at' ? 'desc' : 'asc');
    }
    setPage(1);
  };

  const rows = numbers.data?.data ?? [];
  const meta = numbers.data?.meta;
  const filtered = Boolean(debounced || type);
  const pageIds = rows.map((n) => n.id);
  const allOnPage = pageIds.length > 0 && pageIds.every((id) => selected.includes(id));
  const someOnPage = pageIds.some((id) => selected.includes(id));
  const toggleAll = () => setSelected((s) => (allOnPage ? s.filter((id) => !pageIds.includes(id)) : [...new Set([...s, ...pageIds])]));
  const toggle = (id: number) => setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));

  if (numbers.isPending) return <ListSkeleton rows={4} height={48} />;
  if (rows.length === 0 && !filtered && page === 1) {
    return (
      <EmptyCard
        icon={<IconHash />}
        title="No numbers yet"
        description={
          onBuy
            ? 'Buy a local or toll-free number, then choose where its calls ring.'
            : 'No numbers to show you in this account yet. An owner or administrator buys numbers and assigns them to users.'
        }
        action={onBuy ? <Button onClick={onBuy}>Buy a number</Button> : undefined}
      />
    );
  }

  return (
    <>
      <Group mb="sm" gap="sm" wrap="wrap" align="flex-end">
        <TextInput
          aria-label="Search numbers"
          placeholder="Search by label or digits"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
          style={{ flex: 1 }}
          miw={220}
        />
        <Select
          aria-label="Number type"
          placeholder="All types"
          data={TYPE_FILTERS}
          value={type}
          onChange={(v) => {
            setType(v);
            setPage(1);
          }}
          clearable
          w={160}
        />
        <Button
          variant="default"
          leftSection={<IconDownload size={16} />}
          loading={exporter.isPending}
          onClick={() =>
            companyId !== null && exporter.mutate({ companyId, query: { sort, dir, search: debounced || undefined, type: type ? Number(type) : undefined } })
          }
        >
          Export CSV
        </Button>
        {columnTools}
      </Group>
      <BulkActionsBar selected={selected} onClear={() => setSelected([])} />
      <Card withBorder radius="md" p={0}>
        <Table.ScrollContainer minWidth={760}>
          <Table verticalSpacing="sm" highlightOnHover data-testid="numbers-table" aria-busy={numbers.isFetching}>
            <Table.Thead>
              <Table.Tr>
                {canSelect ? (
                  <Table.Th w={40}>
                    <Checkbox aria-label="Select all numbers on this page" checked={allOnPage} indeterminate={!allOnPage && someOnPage} onChange={toggleAll} />
                  </Table.Th>
                ) : null}
                {shown.map((c) =>
                  c.sort ? (
                    <SortHeader key={c.key} column={c.sort} query={query} onSort={onSort}>
                      {c.label}
                    </SortHeader>
                  ) : (
                    <Table.Th key={c.key}>{c.label}</Table.Th>
                  ),
                )}
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={shown.length + (canSelect ? 2 : 1)}>
                    <EmptyBlock
                      icon={<IconSearch />}
                      title="No numbers match"
                      description="Try other digits or a different type."
                      action={
                        <Button
                          variant="light"
                          onClick={() => {
                            setSearch('');
                            setType(null);
                            setPage(1);
                          }}
                        >
                          Clear filters
                        </Button>
                      }
                    />
                  </Table.Td>
                </Table.Tr>
              ) : (
                rows.map((n) => (
                  <Table.Tr
                    key={n.id}
                    data-testid="number-row"
                    data-number={n.number}
                    bg={selected.includes(n.id) ? 'var(--mantine-color-blue-light)' : undefined}
                  >
                    {canSelect ? (
                      <Table.Td>
                        <Checkbox aria-label={`Select ${formatPhone(n.number)}`} checked={selected.includes(n.id)} onChange={() => toggle(n.id)} />
                      </Table.Td>
                    ) : null}
                    {shown.map((c) => (
                      <Table.Td key={c.key} data-column={c.key}>
                        {c.cell(n)}
                      </Table.Td>
                    ))}
                    <Table.Td ta="right">
                      <Button component={Link} to={`/numbers/${n.id}`} variant="subtle" size="xs">
                        {canLabel ? 'Edit routing' : 'View routing'}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
      {meta ? (
        <Group justify="space-between" mt="sm" wrap="wrap">
          <Text size="sm" c="dimmed" data-testid="numbers-total">
            {numbers.isFetching ? (
              <Skeleton component="span" height={12} width={120} display="inline-block" />
            ) : (
              `${meta.total} ${meta.total === 1 ? 'number' : 'numbers'}`
            )}
          </Text>
          <Group gap="sm">
            <Select
              aria-label="Rows per page"
              data={PER_PAGE_CHOICES}
              value={String(perPage)}
              onChange={(v) => {
                if (v) setPerPage(Number(v));
                setPage(1);
              }}
              allowDeselect={false}
              w={80}
              size="xs"
            />
            <Pagination total={meta.last_page} value={meta.current_page} onChange={setPage} size="sm" {...PAGER_LABELS} />
          </Group>
        </Group>
      ) : null}
    </>
  );
}
