import { Skeleton, Stack } from '@mantine/core';

/** Placeholder rows while a list loads. */
export function ListSkeleton({ rows = 4, height = 56 }: { rows?: number; height?: number }) {
  return (
    <Stack gap="sm" data-testid="list-skeleton" aria-busy="true">
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} height={height} radius="md" />
      ))}
    </Stack>
  );
}
