import { Group, Pagination, type GroupProps, type MantineSize, type PaginationProps } from '@mantine/core';

interface TablePagerProps extends Omit<GroupProps, 'onChange' | 'children'> {
  page: number;
  /** Number of pages; nothing is shown for one page or fewer (or while unknown). */
  totalPages: number | undefined;
  onChange: (page: number) => void;
  size?: MantineSize;
}

const CONTROL_LABELS = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' } as const;

/**
 * Accessible names for a Mantine `Pagination`'s buttons ("Previous page", "Page 3", …): spread
 * onto every `<Pagination>` (its arrow buttons are icons only).
 */
export const PAGER_LABELS: Pick<PaginationProps, 'getControlProps' | 'getItemProps'> = {
  getControlProps: (control) => ({ 'aria-label': CONTROL_LABELS[control] }),
  getItemProps: (page) => ({ 'aria-label': `Page ${page}` }),
};

/** The centred page switcher under a paged list; hidden when everything fits on one page. */
export function TablePager({ page, totalPages, onChange, size, ...groupProps }: TablePagerProps) {
  if (!totalPages || totalPages <= 1) return null;
  return (
    <Group justify="center" {...groupProps}>
      <Pagination value={page} onChange={onChange} total={totalPages} size={size} {...PAGER_LABELS} />
    </Group>
  );
}
