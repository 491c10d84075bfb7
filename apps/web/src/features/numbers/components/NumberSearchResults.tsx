import { Button, Checkbox, Group, ScrollArea, Stack, Text } from '@mantine/core';
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
  /** E.164 numbers ticked for a bulk purchase. */
  selected: string[];
  onSelectedChange: (numbers: string[]) => void;
  /** While a bulk purchase is being started. */
  bulkBusy: boolean;
}

/** Search results, each with a Buy button and a tick box; ticked numbers are bought together. */
export function NumberSearchResults({ results, loading, buyingNumber, onBuy, selected, onSelectedChange, bulkBusy }: NumberSearchResultsProps) {
  if (loading) return <ListSkeleton rows={3} height={44} />;
  if (!results) return null;
  if (results.length === 0) {
    return <EmptyBlock icon={<IconSearchOff />} title="No numbers match" description="Try another area code, a shorter pattern or a different prefix." />;
  }
  const all = results.map((n) => n.number);
  const allTicked = all.every((n) => selected.includes(n));
  const someTicked = !allTicked && all.some((n) => selected.includes(n));
  const toggle = (n: string, on: boolean) => onSelectedChange(on ? [...selected, n] : selected.filter((x) => x !== n));
  const busy = buyingNumber !== null || bulkBusy;
  return (
    <Stack gap={4}>
      <Checkbox
        px="xs"
        label={`Select all ${results.length} numbers`}
        checked={allTicked}
        indeterminate={someTicked}
        disabled={busy}
        onChange={(e) => onSelectedChange(e.currentTarget.checked ? all : [])}
      />
      <ScrollArea.Autosize mah={360}>
        <Stack gap={0} data-testid="number-results">
          {results.map((n) => {
            const shown = formatPhone(n.number);
            return (
              <Group
                key={n.number}
                justify="space-between"
                py="xs"
                px="xs"
                wrap="nowrap"
                style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
                data-testid="number-result"
              >
                <Group gap="sm" wrap="nowrap">
                  <Checkbox
                    aria-label={`Select ${shown}`}
                    checked={selected.includes(n.number)}
                    disabled={busy}
                    onChange={(e) => toggle(n.number, e.currentTarget.checked)}
                  />
                  <div>
                    <Text ff="monospace" fw={500}>
                      {shown}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {[n.locality, n.region].filter(Boolean).join(', ') || (n.type === 'toll_free' ? 'Toll-free' : 'Local')}
                    </Text>
                  </div>
                </Group>
                <Button
                  size="xs"
                  variant={selected.length ? 'default' : 'filled'}
                  onClick={() => onBuy(n)}
                  loading={buyingNumber === n.number}
                  disabled={bulkBusy || (buyingNumber !== null && buyingNumber !== n.number)}
                >
                  Buy
                </Button>
              </Group>
            );
          })}
        </Stack>
      </ScrollArea.Autosize>
    </Stack>
  );
}
