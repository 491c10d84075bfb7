import { Alert, Button, Group, List, Modal, NumberInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import { useEffect, useState } from 'react';
import { useInventorySearch, type AvailableNumber } from '../api/purchase';

/** Most numbers bought for a pool at once (the pool body's `purchase` holds at most 100). */
export const MAX_PURCHASE = 100;

/**
 * "Buy numbers" for a pool: how many, local (area code) or toll-free; the carrier's inventory is
 * searched, then a confirmation lists exactly what will be bought before anything is (a costly action).
 * `onConfirm` gets the numbers; the pool editor puts them in the pool's `purchase`.
 */
export function BuyPoolNumbersModal({
  opened,
  onClose,
  onConfirm,
  busy,
  exclude,
}: {
  opened: boolean;
  onClose: () => void;
  onConfirm: (numbers: AvailableNumber[]) => void;
  busy?: boolean;
  /** Numbers already picked (not offered again). */
  exclude: string[];
}) {
  const [type, setType] = useState<'local' | 'toll_free'>('local');
  const [code, setCode] = useState('');
  const [count, setCount] = useState<number | string>(5);
  const search = useInventorySearch();
  const { reset } = search;
  useEffect(() => {
    if (opened) reset();
  }, [opened, reset]);

  const wanted = typeof count === 'number' ? count : Number(count) || 0;
  const codeError = code && !/^\d{3}$/.test(code) ? 'Three digits, e.g. 415' : undefined;
  const found = (search.data ?? []).filter((n) => !exclude.includes(n.number)).slice(0, wanted);
  const find = () => {
    if (codeError || wanted < 1) return;
    search.mutate({ type, code, count: Math.min(MAX_PURCHASE, wanted + exclude.length) });
  };

  return (
    <Modal opened={opened} onClose={onClose} title={search.data ? `Confirm the purchase of ${found.length} numbers` : 'Buy numbers for this pool'} size="md">
      {search.data ? (
        <Stack gap="sm" data-testid="pool-buy-confirmation">
          {found.length === 0 ? (
            <Alert color="yellow" title="No numbers found">
              The carrier offers no {type === 'local' ? `local numbers in ${code || 'any area code'}` : 'toll-free numbers'} right now. Try another area code.
            </Alert>
          ) : (
            <>
              <Text size="sm">
                {found.length < wanted ? `Only ${found.length} of the ${wanted} numbers asked for are available. ` : ''}
                These numbers will be bought for the company and join the pool as each purchase completes. Each one is billed like any other number.
              </Text>
              <List size="sm" spacing={2} style={{ maxHeight: 240, overflowY: 'auto' }}>
                {found.map((n) => (
                  <List.Item key={n.number} ff="monospace">
                    {formatPhone(n.number)}
                    {n.locality || n.region ? (
                      <Text span size="xs" c="dimmed" ff="body">
                        {' '}
                        · {[n.locality, n.region].filter(Boolean).join(', ')}
                      </Text>
                    ) : null}
                  </List.Item>
                ))}
              </List>
            </>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => reset()}>
              Back
            </Button>
            <Button onClick={() => onConfirm(found)} disabled={found.length === 0} loading={busy}>
              Buy {found.length} {found.length === 1 ? 'number' : 'numbers'}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="sm">
          <SegmentedControl
            aria-label="Number type"
            value={type}
            onChange={(v) => setType(v as 'local' | 'toll_free')}
            data={[
              { value: 'local', label: 'Local' },
              { value: 'toll_free', label: 'Toll-free' },
            ]}
          />
          <Group grow align="flex-start">
            <TextInput
              label={type === 'local' ? 'Area code' : 'Prefix'}
              placeholder={type === 'local' ? '415' : '888'}
              value={code}
              onChange={(e) => setCode(e.currentTarget.value.trim())}
              error={codeError}
              inputMode="numeric"
              maxLength={3}
            />
            <NumberInput label="How many" min={1} max={MAX_PURCHASE} value={count} onChange={setCount} allowDecimal={false} allowNegative={false} />
          </Group>
          <Text size="xs" c="dimmed">
            A pool needs about one number per visitor on the site at the same time, plus the cool-down's share. Local numbers near your customers get answered
            more often.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button onClick={find} loading={search.isPending} disabled={wanted < 1 || Boolean(codeError)}>
              Find numbers
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
