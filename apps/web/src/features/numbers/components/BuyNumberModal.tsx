import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import { useState } from 'react';
import { notify } from '../../../lib/notify';
import { useCompanyId } from '../../../lib/session';
import { useBulkPurchaseNumbers } from '../api/bulk-purchase-numbers';
import { useBuyNumber } from '../api/buy-number';
import { useNumberSearch } from '../api/search-numbers';
import { trackJob } from '../realtime/number-jobs';
import type { AvailableNumber, NumberSearchParams } from '../types';
import { NumberSearchForm } from './NumberSearchForm';
import { NumberSearchResults } from './NumberSearchResults';

/**
 * 'Buy a number': search the carrier's inventory and buy one for the selected company, or tick
 * several and buy them together (POST /api/numbers/bulk, a background job whose progress bar shows
 * in the Numbers page's jobs panel).
 */
export function BuyNumberModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const companyId = useCompanyId();
  const [params, setParams] = useState<NumberSearchParams | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const search = useNumberSearch(params);
  const buy = useBuyNumber();
  const bulk = useBulkPurchaseNumbers();
  const results = search.data?.data;
  const ticked = (results ?? []).filter((n) => selected.includes(n.number));

  const onSearch = (next: NumberSearchParams) => {
    setSelected([]);
    setParams(next);
  };
  const done = () => {
    setParams(null);
    setSelected([]);
    onClose();
  };

  const onBuy = (n: AvailableNumber) => {
    if (companyId === null) return;
    buy.mutate(
      { company_id: companyId, provider_id: n.provider_id, number: n.number },
      {
        onSuccess: () => {
          notify.success(`${formatPhone(n.number)} is yours. Set where its calls go from the Numbers list.`, 'Number purchased');
          done();
        },
      },
    );
  };

  const onBuySelected = () => {
    if (companyId === null || ticked.length === 0) return;
    bulk.mutate(
      { company_id: companyId, numbers: ticked.map((n) => ({ number: n.number, provider_id: Number(n.provider_id) })) },
      {
        onSuccess: (result) => {
          trackJob(result.batchId, 'purchase', ticked.length);
          notify.success(`${ticked.length} numbers are being bought. Follow the progress above the list.`, result.message);
          done();
        },
      },
    );
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Buy a number" size="lg">
      <Stack gap="md">
        <NumberSearchForm onSearch={onSearch} loading={search.isFetching} />
        <NumberSearchResults
          results={results}
          loading={search.isFetching && !search.data}
          buyingNumber={buy.isPending ? (buy.variables?.number ?? null) : null}
          onBuy={onBuy}
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
              <Button onClick={onBuySelected} loading={bulk.isPending} disabled={buy.isPending}>
                Buy {ticked.length} selected
              </Button>
            </Group>
          </Group>
        ) : null}
      </Stack>
    </Modal>
  );
}
