import { Alert, Button, Group, Stack, Table, Text } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import type { AvailableNumber } from '../types';

/** "Local" or "Toll-free" for a number on offer. */
export function numberKind(n: AvailableNumber): string {
  return n.type === 'toll_free' ? 'Toll-free' : 'Local';
}

/** Where a number on offer is: "Chicago, IL", or "—" when the carrier does not say. */
function place(n: AvailableNumber): string {
  return [n.locality, n.region].filter(Boolean).join(', ') || '—';
}

interface BuyConfirmationProps {
  numbers: AvailableNumber[];
  busy: boolean;
  /** The purchase's error message, shown here until the person retries or goes back. */
  error: string | null;
  onBack: () => void;
  onConfirm: () => void;
}

/**
 * The confirmation before buying (docs/numbers.md "Buying asks first"): each number with its type
 * (Local / Toll-free) and place, and the price row. Buying costs money, so nothing is bought
 * before this step's button is pressed.
 */
export function BuyConfirmation({ numbers, busy, error, onBack, onConfirm }: BuyConfirmationProps) {
  const one = numbers.length === 1;
  return (
    <Stack gap="md" data-testid="buy-confirmation">
      <Text size="sm">
        {one ? 'You are about to buy this number for your company:' : `You are about to buy these ${numbers.length} numbers for your company:`}
      </Text>
      <Table.ScrollContainer minWidth={360} mah={300}>
        <Table striped withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Number</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Region</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {numbers.map((n) => (
              <Table.Tr key={n.number} data-testid="buy-confirmation-number">
                <Table.Td ff="monospace">{formatPhone(n.number)}</Table.Td>
                <Table.Td>{numberKind(n)}</Table.Td>
                <Table.Td>{place(n)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {/* Price: company billing (spec 001 "company billing") does not exist yet. Once it does, show each number's monthly price and the total here. */}
      <Text size="sm" c="dimmed" data-testid="buy-price">
        Price: not shown yet (billing is not set up in this workspace). {one ? 'The number counts' : 'The numbers count'} toward your company&apos;s number
        limit.
      </Text>
      {error ? (
        <Alert color="red" variant="light" title="The purchase did not go through">
          {error}
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onBack} disabled={busy}>
          Back
        </Button>
        <Button onClick={onConfirm} loading={busy}>
          {one ? `Buy ${formatPhone(numbers[0]!.number)}` : `Buy ${numbers.length} numbers`}
        </Button>
      </Group>
    </Stack>
  );
}
