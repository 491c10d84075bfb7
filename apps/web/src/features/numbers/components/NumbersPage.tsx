import { Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { PageHeader } from '../../../components/PageHeader';
import { useCan } from '../../../lib/access';
import { BuyNumberModal } from './BuyNumberModal';
import { NumberJobsPanel } from './NumberJobsPanel';
import { NumberLimitButton } from './NumberLimitDialog';
import { NumbersTable } from './NumbersTable';

export interface NumbersPageProps {
  /** The list's columns in order (a column preset of kind `numbers`, composed by app/routes); default: the usual six. */
  columns?: string[];
  /** The column chooser (report preferences' `ColumnChooser`, composed by app/routes). */
  columnTools?: ReactNode;
}

/** Numbers: the company's numbers (datatable with the chosen columns, bulk actions, export), running jobs, and buying a new one. */
export function NumbersPage({ columns, columnTools }: NumbersPageProps = {}) {
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
      <NumbersTable onBuy={canBuy ? buy.open : undefined} columns={columns} columnTools={columnTools} />
      <BuyNumberModal opened={buying} onClose={buy.close} />
    </>
  );
}
