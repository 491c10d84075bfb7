import { Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { PageHeader } from '../../../components/PageHeader';
import { BuyNumberModal } from './BuyNumberModal';
import { NumberJobsPanel } from './NumberJobsPanel';
import { NumbersTable } from './NumbersTable';

/** Numbers: the company's numbers (datatable, bulk actions, export), running jobs, and buying a new one. */
export function NumbersPage() {
  const [buying, buy] = useDisclosure(false);
  const buyButton = (
    <Button leftSection={<IconPlus size={16} />} onClick={buy.open}>
      Buy a number
    </Button>
  );
  return (
    <>
      <PageHeader title="Numbers" description="Your business numbers and where their calls go." actions={buyButton} />
      <NumberJobsPanel />
      <NumbersTable onBuy={buy.open} />
      <BuyNumberModal opened={buying} onClose={buy.close} />
    </>
  );
}
