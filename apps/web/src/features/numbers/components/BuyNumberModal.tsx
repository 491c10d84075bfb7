import { Button, Group, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import { useEffect, useState } from 'react';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useCompanyId } from '../../../lib/session';
import { useBulkPurchaseNumbers } from '../api/bulk-purchase-numbers';
import { useBuyNumber } from '../api/buy-number';
import { useNumberSearch } from '../api/search-numbers';
import { trackJob } from '../realtime/number-jobs';
import type { AvailableNumber, NumberSearchParams } from '../types';
import { BuyConfirmation } from './BuyConfirmation';
import { NumberSearchForm } from './NumberSearchForm';
import { NumberSearchResults } from './NumberSearchResults';

/**
 * 'Buy a number': search the carrier's inventory and buy one for the selected company, or tick
 * several and buy them together (POST /api/numbers/bulk, a background job whose progress bar shows
 * in the Numbers page's jobs panel). Every purchase goes through a confirmation step that shows
 * what is bought (BuyConfirmation). Errors of an earlier attempt are cleared when the dialog opens
 * and when a new search starts.
 */
export function BuyNumberModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const companyId = useCompanyId();
  const [params, setParams] = useState<NumberSearchParams | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const search = useNumberSearch(params);
  const buy = useBuyNumber();
  const bulk = useBulkPurchaseNumbers();
  const [confirming, setConfirming] = useState<AvailableNumber[] | null>(null);
  // Service type (spec 002): 1 voice and SMS, 2 fax (docs/fax.md); applies to a single purchase.
  const [serviceType, setServiceType] = useState<'1' | '2'>('1');
  const results = search.data?.data;
  const ticked = (results ?? []).filter((n) => selected.includes(n.number));
  const { reset: resetBuy } = buy;
  const { reset: resetBulk } = bulk;

  /** Forgets the error toasts and results of earlier attempts. */
  const clearErrors = () => {
    notify.clear();
    resetBuy();
    resetBulk();
  };

  useEffect(() => {
    if (!opened) return;
    notify.clear();
    resetBuy();
    resetBulk();
    setConfirming(null);
  }, [opened, resetBuy, resetBulk]);

  const onSearch = (next: NumberSearchParams) => {
    clearErrors();
    setSelected([]);
    setConfirming(null);
    setParams(next);
  };
  const done = () => {
    setParams(null);
    setSelected([]);
    setConfirming(null);
    onClose();
  };

  const buyOne = (n: AvailableNumber) => {
    if (companyId === null) return;
    buy.mutate(
      { company_id: companyId, provider_id: n.provider_id, number: n.number, service_type: Number(serviceType) },
      {
        onSuccess: () => {
          notify.success(`${formatPhone(n.number)} is yours. Set where its calls go from the Numbers list.`, 'Number purchased');
          done();
        },
      },
    );
  };

  const buyMany = (numbers: AvailableNumber[]) => {
    if (companyId === null || numbers.length === 0) return;
    bulk.mutate(
      { company_id: companyId, numbers: numbers.map((n) => ({ number: n.number, provider_id: Number(n.provider_id) })) },
      {
        onSuccess: (result) => {
          trackJob(result.batchId, 'purchase', numbers.length);
          notify.success(`${numbers.length} numbers are being bought. Follow the progress above the list.`, result.message);
          done();
        },
      },
    );
  };

  // The bulk purchase buys voice numbers only (it takes no use): several fax numbers are bought one by one, each as a fax
  // number (issue 23: a fax number's purchase read "Local"; the bulk path made them voice numbers).
  const buyFaxNumbers = async (numbers: AvailableNumber[]) => {
    if (companyId === null) return;
    let bought = 0;
    for (const n of numbers) {
      try {
        await buy.mutateAsync({ company_id: companyId, provider_id: n.provider_id, number: n.number, service_type: 2 });
        bought += 1;
      } catch (error) {
        // A refusal is shown (the request's own notice and the confirmation's error); the rest are not bought.
        if (error instanceof HttpError) break;
        throw error;
      }
    }
    if (bought > 0) {
      notify.success(`${bought} fax ${bought === 1 ? 'number is' : 'numbers are'} yours.`, 'Numbers purchased');
      done();
    }
  };

  const confirm = () => {
    if (!confirming) return;
    clearErrors();
    if (confirming.length === 1) buyOne(confirming[0]!);
    else if (serviceType === '2') void buyFaxNumbers(confirming);
    else buyMany(confirming);
  };
  const failure = buy.error ?? bulk.error;

  if (confirming) {
    return (
      <Modal
        opened={opened}
        onClose={onClose}
        title={confirming.length === 1 ? 'Confirm the purchase' : `Confirm the purchase of ${confirming.length} numbers`}
        size="lg"
      >
        <BuyConfirmation
          numbers={confirming}
          fax={serviceType === '2'}
          busy={buy.isPending || bulk.isPending}
          error={failure ? failure.message : null}
          onBack={() => {
            clearErrors();
            setConfirming(null);
          }}
          onConfirm={confirm}
        />
      </Modal>
    );
  }

  return (
    <Modal opened={opened} onClose={onClose} title="Buy a number" size="lg">
      <Stack gap="md">
        <SegmentedControl
          aria-label="Number use"
          value={serviceType}
          onChange={(v) => setServiceType(v as '1' | '2')}
          data={[
            { value: '1', label: 'Voice & SMS' },
            { value: '2', label: 'Fax' },
          ]}
        />
        <NumberSearchForm onSearch={onSearch} loading={search.isFetching} />
        <NumberSearchResults
          results={results}
          loading={search.isFetching && !search.data}
          buyingNumber={buy.isPending ? (buy.variables?.number ?? null) : null}
          onBuy={(n) => setConfirming([n])}
          selected={selected}
          onSelectedChange={setSelected}
          bulkBusy={bulk.isPending}
        />
        {ticked.length > 0 ? (
          <Group justify="space-between" data-testid="bulk-buy-bar">
            <Text size="sm">
              {ticked.length} {ticked.length === 1 ? 'number' : 'numbers'} selected
            </Text>
            <Group gap="xs">
              <Button variant="default" onClick={() => setSelected([])} disabled={bulk.isPending}>
                Clear
              </Button>
              <Button onClick={() => setConfirming(ticked)} loading={bulk.isPending} disabled={buy.isPending}>
                Buy {ticked.length} selected
              </Button>
            </Group>
          </Group>
        ) : null}
      </Stack>
    </Modal>
  );
}
