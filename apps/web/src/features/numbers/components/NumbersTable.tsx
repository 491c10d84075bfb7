import { Anchor, Badge, Button, Card, Table, Text } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import { IconHash } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EmptyBlock } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { useCompanyNumbers } from '../api/get-numbers';

/** The company's numbers: label, formatted number, type, route type and schedule label. */
export function NumbersTable({ onBuy }: { onBuy: () => void }) {
  const numbers = useCompanyNumbers();
  if (numbers.isPending) return <ListSkeleton rows={3} height={48} />;
  const rows = numbers.data?.data ?? [];
  if (rows.length === 0) {
    return (
      <Card withBorder radius="md">
        <EmptyBlock
          icon={<IconHash />}
          title="No numbers yet"
          description="Buy a local or toll-free number, then choose where its calls ring."
          action={<Button onClick={onBuy}>Buy a number</Button>}
        />
      </Card>
    );
  }
  return (
    <Card withBorder radius="md" p={0}>
      <Table.ScrollContainer minWidth={640}>
        <Table verticalSpacing="sm" highlightOnHover data-testid="numbers-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Label</Table.Th>
              <Table.Th>Number</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Routing</Table.Th>
              <Table.Th>Schedule</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((n) => (
              <Table.Tr key={n.id} data-testid="number-row" data-number={n.number}>
                <Table.Td>
                  <Text fw={500}>{n.label || <Text span c="dimmed">No label</Text>}</Text>
                </Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={`/numbers/${n.id}`} ff="monospace">
                    {formatPhone(n.number)}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{n.type_label}</Text>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light">{n.route_type || 'Standard'}</Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{n.schedule_label}</Text>
                </Table.Td>
                <Table.Td ta="right">
                  <Button component={Link} to={`/numbers/${n.id}`} variant="subtle" size="xs">
                    Edit routing
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}
