import { Anchor, Button, Card } from '@mantine/core';
import { IconArrowLeft, IconHash } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { EmptyBlock } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { useCompanyNumbers } from '../api/get-numbers';
import { NumberEditor } from './NumberEditor';

/** Routing editor page `/numbers/:numberId`: the number comes from the company's number list. */
export function NumberEditorPage() {
  const { numberId } = useParams();
  const numbers = useCompanyNumbers();
  const number = numbers.data?.data.find((n) => String(n.id) === numberId);

  return (
    <>
      <Anchor component={Link} to="/numbers" size="sm" mb="sm" display="inline-flex" style={{ alignItems: 'center', gap: 4 }}>
        <IconArrowLeft size={14} /> All numbers
      </Anchor>
      {numbers.isPending ? (
        <ListSkeleton rows={3} height={120} />
      ) : number ? (
        <NumberEditor key={number.id} number={number} />
      ) : (
        <Card withBorder radius="md">
          <EmptyBlock
            icon={<IconHash />}
            title="Number not found"
            description="It may belong to another company. Pick it from your numbers list."
            action={
              <Button component={Link} to="/numbers">
                Back to numbers
              </Button>
            }
          />
        </Card>
      )}
    </>
  );
}
