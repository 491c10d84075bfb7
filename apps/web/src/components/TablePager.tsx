import { Group, Pagination, type GroupProps, type MantineSize } from '@mantine/core';

interface TablePagerProps extends Omit<GroupProps, 'onChange' | 'children'> {
  page: number;
  /** Number of pages; nothing is shown for one page or fewer (or while unknown). */
  totalPages: number | undefined;
  onChange: (page: number) => void;
  size?: MantineSize;
}

/** The centred page switcher under a paged list; hidden when everything fits on one page. */
export function TablePager({ page, totalPages, onChange, size, ...groupProps }: TablePagerProps) {
  if (!totalPages || totalPages <= 1) return null;
  return (
    <Group justify="center" {...groupProps}>
      <Pagination value={page} onChange={onChange} total={totalPages} size={size} />
    </Group>
  );
}
