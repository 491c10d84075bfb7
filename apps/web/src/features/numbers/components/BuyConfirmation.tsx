import { Alert, Anchor, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { formatPhone } from '@switchboard/domain';
import type { AvailableNumber } from '../types';
import { formatUsd } from '@switchboard/contracts';
import { formatDate } from '../../../lib/dates';
import { useNumberPrice } from '../api/number-price';
import { NumberLimitDialog, useNumberLimit } from './NumberLimitDialog';

/** "Local" or "Toll-free" for a number on offer; "Fax, local" / "Fax, toll-free" when it is bought for faxes. */
export function numberKind(n: AvailableNumber, fax = false): string {
  const kind = n.type === 'toll_free' ? 'Toll-free' : 'Local';
  return fax ? `Fax, ${kind.toLowerCase()}` : kind;
}

/** Where a number on offer is: "Chicago, IL", or "—" when the carrier does not say. */
function place(n: AvailableNumber): string {
  return [n.locality, n.region].filter(Boolean).join(', ') || '—';
}

/**
 * What this purchase costs (docs/billing.md "Number price"): the numbers still included in the plan and the extra ones
 * at the plan's monthly price each, from `GET …/billing/number-price`; free during a trial (then billed from its end).
 * Without the figures (loading or failed) it says how numbers are billed.
 */
function BuyPrice({ count, one, limit }: { count: number; one: boolean; limit: { used: number; limit: number } | undefined }) {
  const price = useNumberPrice(count).data;
  const limitText = `${one ? 'The number counts' : 'The numbers count'} toward your company's number limit${
    limit ? ` (${limit.used.toLocaleString('en-US')} of ${limit.limit.toLocaleString('en-US')} in use)` : ''
  }.`;
  if (!price)
    return (
      <Text size="sm" c="dimmed" data-testid="buy-price">
        Price: included in your plan up to its number allowance; each number beyond it is billed monthly as overage. {limitText}
      </Text>
    );
  const included =
    price.includedCount > 0
      ? `${price.includedCount === count ? (one ? 'It is' : 'All are') : `${price.includedCount} of them ${price.includedCount === 1 ? 'is' : 'are'}`} included in your ${price.planName} plan (${price.held} of ${price.included} included numbers in use).`
      : `Your ${price.planName} plan's ${price.included} included numbers are in use (${price.held} held).`;
  const extra =
    price.extraCount > 0
      ? ` ${price.extraCount === count ? (one ? 'It costs' : 'They cost') : `The other ${price.extraCount} ${price.extraCount === 1 ? 'costs' : 'cost'}`} ${formatUsd(price.unitCents)} a month each: ${formatUsd(price.monthlyCents)} a month, billed as overage by the days held${
          price.trial && price.trialEndsAt ? `, from the end of your trial (${formatDate(price.trialEndsAt, { timeZone: 'UTC' })})` : ''
        }.`
      : '';
  return (
    <Alert
      color={price.extraCount > 0 ? 'yellow' : 'teal'}
      variant="light"
      title={price.extraCount > 0 ? `Price: ${formatUsd(price.monthlyCents)} a month` : 'Price: included in your plan'}
      data-testid="buy-price"
    >
      {included}
      {extra} {limitText}
    </Alert>
  );
}

interface BuyConfirmationProps {
  numbers: AvailableNumber[];
  busy: boolean;
  /** The purchase's error message, shown here until the person retries or goes back. */
  error: string | null;
  onBack: () => void;
  onConfirm: () => void;
  /** Bought as fax numbers (the Fax use of the buy dialog): said so, not "Local" (issue 23). */
  fax?: boolean;
}

/**
 * The confirmation before buying (docs/numbers.md "Buying asks first"): each number with its type
 * (Local / Toll-free) and place, how numbers are billed, and the number limit. Buying costs money, so
 * nothing is bought before this step's button is pressed. A purchase beyond the number limit (foreseen
 * from `GET number-limit`, or refused by the server) links to the limit-increase request
 * (NumberLimitDialog), pre-filled with the numbers this purchase needs.
 */
export function BuyConfirmation({ numbers, busy, error, onBack, onConfirm, fax = false }: BuyConfirmationProps) {
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
        {one
          ? `You are about to buy this ${fax ? 'fax ' : ''}number for your company:`
          : `You are about to buy these ${numbers.length} ${fax ? 'fax ' : ''}numbers for your company:`}
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
                <Table.Td>{numberKind(n, fax)}</Table.Td>
                <Table.Td>{place(n)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <BuyPrice count={numbers.length} one={one} limit={limit} />
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
