import { Table, Text, UnstyledButton } from '@mantine/core';
import type { CallMeasures, CallReportGroup, CallReportRow } from '@switchboard/contracts';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { TablePager } from '../../../components/TablePager';
import { keyColumns, type MeasureColumn } from '../columns';

const PAGE_SIZE = 25;

interface ReportTableProps {
  group: CallReportGroup;
  rows: CallReportRow[];
  totals: CallMeasures;
  measures: MeasureColumn[];
}

type Sort = { column: string; dir: 'asc' | 'desc' };

/**
 * The rows of a grouped report: the grouping's key columns, then the chosen measures, sortable by any
 * column (header buttons announce the order), 25 a page, with the totals of the whole range last.
 */
export function ReportTable({ group, rows, totals, measures }: ReportTableProps) {
  const keys = keyColumns(group);
  const [sort, setSort] = useState<Sort | null>(null);
  const [page, setPage] = useState(1);
  const sorted = useMemo(() => {
    if (!sort) return rows;
    const keyCol = keys.find((k) => k.key === sort.column);
    const value = (r: CallReportRow) => (keyCol ? keyCol.sort(r) : ((r[sort.column as keyof CallReportRow] as number | null | undefined) ?? -1));
    const factor = sort.dir === 'asc' ? 1 : -1;
    return [...rows].sort((a, b) => {
      const va = value(a);
      const vb = value(b);
      return (va < vb ? -1 : va > vb ? 1 : 0) * factor;
    });
  }, [rows, sort, keys]);
  const pages = Math.max(1, Math.ceil(sorted.length / PAGE_SIZE));
  const current = Math.min(page, pages);
  const visible = sorted.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);

  const header = (column: string, label: string, numeric: boolean) => {
    const active = sort?.column === column;
    const next: Sort = active ? { column, dir: sort.dir === 'desc' ? 'asc' : 'desc' } : { column, dir: numeric ? 'desc' : 'asc' };
    const Icon = !active ? IconArrowsSort : sort.dir === 'asc' ? IconArrowUp : IconArrowDown;
    return (
      <Table.Th
        key={column}
        ta={numeric ? 'right' : undefined}
        aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
        style={{ whiteSpace: 'nowrap' }}
      >
        <UnstyledButton onClick={() => setSort(next)} fz="sm" fw={600} style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
          {label}
          <Icon size={14} aria-hidden />
        </UnstyledButton>
      </Table.Th>
    );
  };

  return (
    <>
      <Table.ScrollContainer minWidth={Math.max(560, (keys.length + measures.length) * 110)}>
        <Table striped highlightOnHover verticalSpacing="xs" data-testid="report-table">
          <Table.Thead>
            <Table.Tr>
              {keys.map((k) => header(k.key, k.label, false))}
              {measures.map((m) => header(m.key, m.label, true))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {visible.map((r, i) => (
              <Table.Tr key={`${keys.map((k) => k.value(r)).join('|')}-${i}`} data-testid="report-row">
                {keys.map((k) => (
                  <Table.Td key={k.key} style={{ whiteSpace: 'nowrap' }}>
                    {k.value(r)}
                  </Table.Td>
                ))}
                {measures.map((m) => (
                  <Table.Td key={m.key} ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                    {m.format(r)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr data-testid="report-totals">
              <Table.Th colSpan={keys.length}>Total</Table.Th>
              {measures.map((m) => (
                <Table.Th key={m.key} ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {m.format(totals)}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </Table.ScrollContainer>
      <Text size="xs" c="dimmed" px="md" py={6}>
        {rows.length} {rows.length === 1 ? 'row' : 'rows'}
      </Text>
      <TablePager mb="md" page={current} onChange={setPage} totalPages={pages} />
    </>
  );
}
