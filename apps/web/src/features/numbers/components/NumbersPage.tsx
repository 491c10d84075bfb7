import { Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { PageHeader } from '../../../components/PageHeader';
import { useCan } from '../../../lib/access';
import { BuyNumberModal } from './BuyNumberModal';
import { NumberJobsPanel } from './NumberJobsPanel';
import { NumberLimitButton } from './NumberLimitDialog';
import { NumbersTable } from './NumbersTable';

/** Numbers: the company's numbers (datatable, bulk actions, export), running jobs, and buying a new one. */
export function NumbersPage() {
  const [buying, buy] = useDisclosure(false);
  // Buying costs money: only roles with numbers.purchase see it (docs/permissions.md).
  const canBuy = useCan('numbers.purchase');
  const buyButton = (
    <Button leftSection={<IconPlus size={16} />} onClick={buy.open}>
      Buy a number
    </Button>
  );
  return (
    <>
      <PageHeader
        title="Numbers"
        description="Your business numbers and where their calls go."
        actions={
          canBuy ? (
            <>
              <NumberLimitButton />
              {buyButton}
            </>
          ) : undefined
        }
      />
      <NumberJobsPanel />
      <NumbersTable onBuy={canBuy ? buy.open : undefined} />
      <BuyNumberModal opened={buying} onClose={buy.close} />
    </>
  );
}
