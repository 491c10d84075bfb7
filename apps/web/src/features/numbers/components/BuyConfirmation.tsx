import { Alert, Anchor, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { formatPhone } from '@switchboard/domain';
import type { AvailableNumber } from '../types';
import { NumberLimitDialog, useNumberLimit } from './NumberLimitDialog';

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
 * (Local / Toll-free) and place, how numbers are billed, and the number limit. Buying costs money, so
 * nothing is bought before this step's button is pressed. A purchase beyond the number limit (foreseen
 * from `GET number-limit`, or refused by the server) links to the limit-increase request
 * (NumberLimitDialog), pre-filled with the numbers this purchase needs.
 */
export function BuyConfirmation({ numbers, busy, error, onBack, onConfirm }: BuyConfirmationProps) {
  const one = numbers.length === 1;
  const limit = useNumberLimit().data;
  const [requesting, request] = useDisclosure(false);
  const needed = limit ? limit.used + numbers.length : undefined;
  const overLimit = limit !== undefined && needed !== undefined && needed > limit.limit;
  const refusedAtLimit = error !== null && (overLimit || /number limit/i.test(error));
  const requestLink = (
    <Anchor component="button" type="button" size="sm" onClick={request.open}>
      Request a limit increase
    </Anchor>
  );
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
      {/* Numbers are billed with the plan (docs/billing.md "Usage"): the plan's included numbers, then the plan's monthly price per extra number as overage. */}
      <Text size="sm" c="dimmed" data-testid="buy-price">
        Price: included in your plan up to its number allowance; each number beyond it is billed monthly as overage on your next invoice (the plan&apos;s prices
        are on the Billing page). {one ? 'The number counts' : 'The numbers count'} toward your company&apos;s number limit
        {limit ? ` (${limit.used.toLocaleString('en-US')} of ${limit.limit.toLocaleString('en-US')} in use)` : ''}.
      </Text>
      {overLimit && limit && !error ? (
        <Alert color="yellow" variant="light" title="Beyond your number limit" data-testid="buy-over-limit">
          This purchase needs a limit of {(needed ?? 0).toLocaleString('en-US')} numbers; yours is {limit.limit.toLocaleString('en-US')}. {requestLink}
        </Alert>
      ) : null}
      {error ? (
        <Alert color="red" variant="light" title="The purchase did not go through">
          {error}
          {refusedAtLimit ? <> {requestLink}</> : null}
        </Alert>
      ) : null}
      <NumberLimitDialog opened={requesting} onClose={request.close} suggested={needed} />
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
