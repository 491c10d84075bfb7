import { Modal, Stack } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import { useState } from 'react';
import { notify } from '../../../lib/notify';
import { useCompanyId } from '../../../lib/session';
import { useBuyNumber } from '../api/buy-number';
import { useNumberSearch } from '../api/search-numbers';
import type { AvailableNumber, NumberSearchParams } from '../types';
import { NumberSearchForm } from './NumberSearchForm';
import { NumberSearchResults } from './NumberSearchResults';

/** 'Buy a number': search the carrier's inventory and buy one for the selected company. */
export function BuyNumberModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const companyId = useCompanyId();
  const [params, setParams] = useState<NumberSearchParams | null>(null);
  const search = useNumberSearch(params);
  const buy = useBuyNumber();

  const onBuy = (n: AvailableNumber) => {
    if (companyId === null) return;
    buy.mutate(
      { company_id: companyId, provider_id: n.provider_id, number: n.number },
      {
        onSuccess: () => {
          notify.success(`${formatPhone(n.number)} is yours. Set where its calls go from the Numbers list.`, 'Number purchased');
          setParams(null);
          onClose();
        },
      },
    );
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Buy a number" size="lg">
      <Stack gap="md">
        <NumberSearchForm onSearch={setParams} loading={search.isFetching} />
        <NumberSearchResults results={search.data?.data} loading={search.isFetching && !search.data} buyingNumber={buy.isPending ? (buy.variables?.number ?? null) : null} onBuy={onBuy} />
      </Stack>
    </Modal>
  );
}
