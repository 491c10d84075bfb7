import { Button, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import { IconSearchOff } from '@tabler/icons-react';
import { EmptyBlock } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import type { AvailableNumber } from '../types';

interface NumberSearchResultsProps {
  results: AvailableNumber[] | undefined;
  loading: boolean;
  buyingNumber: string | null;
  onBuy: (number: AvailableNumber) => void;
}

/** Search results, each with a Buy button. */
export function NumberSearchResults({ results, loading, buyingNumber, onBuy }: NumberSearchResultsProps) {
  if (loading) return <ListSkeleton rows={3} height={44} />;
  if (!results) return null;
  if (results.length === 0) {
    return <EmptyBlock icon={<IconSearchOff />} title="No numbers match" description="Try another area code, a shorter pattern or a different prefix." />;
  }
  return (
    <ScrollArea.Autosize mah={360}>
      <Stack gap={0} data-testid="number-results">
        {results.map((n) => (
          <Group key={n.number} justify="space-between" py="xs" px="xs" style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }} data-testid="number-result">
            <div>
              <Text ff="monospace" fw={500}>
                {formatPhone(n.number)}
              </Text>
              <Text size="xs" c="dimmed">
                {[n.locality, n.region].filter(Boolean).join(', ') || (n.type === 'toll_free' ? 'Toll-free' : 'Local')}
              </Text>
            </div>
            <Button size="xs" onClick={() => onBuy(n)} loading={buyingNumber === n.number} disabled={buyingNumber !== null && buyingNumber !== n.number}>
              Buy
            </Button>
          </Group>
        ))}
      </Stack>
    </ScrollArea.Autosize>
  );
}
