/**
 * The /fax screen (docs/fax.md "Web"): the company's faxes with status, page count, direction and
 * a thumbnail of the first page, a viewer, "Send a fax"; empty, loading and error states.
 */
import { Badge, Button, Card, Group, Pagination, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import { IconArrowDownLeft, IconArrowUpRight, IconPrinter } from '@tabler/icons-react';
import { useState } from 'react';
import { EmptyCard, LoadError } from '../../../components/EmptyBlock';
import { FaxViewer } from '../../../components/FaxViewer';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { useCan } from '../../../lib/access';
import { useCompanyId } from '../../../lib/session';
import { useFaxNumbers, useFaxes, type Fax } from '../api/faxes';
import { FaxThumbnail } from './FaxThumbnail';
import { SendFaxDialog } from './SendFaxDialog';
import { formatDateTime } from '../../../lib/dates';

const STATUS_COLOR: Record<string, string> = { queued: 'gray', sending: 'blue', receiving: 'blue', delivered: 'green', received: 'green', failed: 'red' };
const STATUS_LABEL: Record<string, string> = {
  queued: 'Queued',
  sending: 'Sending',
  receiving: 'Receiving',
  delivered: 'Delivered',
  received: 'Received',
  failed: 'Failed',
};

export function FaxPage() {
  const companyId = useCompanyId();
  const canSend = useCan('inbox.work');
  const [page, setPage] = useState(1);
  const [direction, setDirection] = useState<'all' | 'inbound' | 'outbound'>('all');
  const [sending, setSending] = useState(false);
  const [viewing, setViewing] = useState<Fax | null>(null);
  const list = useFaxes(companyId, { page, direction: direction === 'all' ? undefined : direction });
  const numbers = useFaxNumbers(companyId);
  const faxNumbers = numbers.data ?? [];

  const sendButton = canSend ? (
    <Button
      leftSection={<IconPrinter size={16} />}
      onClick={() => setSending(true)}
      disabled={faxNumbers.length === 0}
      title={faxNumbers.length === 0 ? 'Buy a fax number first' : undefined}
    >
      Send a fax
    </Button>
  ) : null;

  return (
    <>
      <PageHeader title="Faxes" description="Faxes sent and received on your fax numbers." actions={sendButton} />
      <Stack>
        <SegmentedControl
          value={direction}
          onChange={(v) => {
            setDirection(v as typeof direction);
            setPage(1);
          }}
          data={[
            { value: 'all', label: 'All' },
            { value: 'inbound', label: 'Received' },
            { value: 'outbound', label: 'Sent' },
          ]}
          aria-label="Direction"
          style={{ alignSelf: 'flex-start' }}
        />
        {list.isLoading ? (
          <ListSkeleton rows={4} />
        ) : list.isError ? (
          <LoadError what="faxes" onRetry={() => list.refetch()} />
        ) : (list.data?.data.length ?? 0) === 0 ? (
          <EmptyCard
            title="No faxes yet"
            description={
              faxNumbers.length === 0
                ? 'Buy a fax number on the Numbers screen to send and receive faxes.'
                : 'Faxes you send or receive on your fax numbers show here.'
            }
            action={sendButton ?? undefined}
          />
        ) : (
          <Card withBorder padding={0}>
            <Table.ScrollContainer minWidth={640}>
              <Table verticalSpacing="sm" highlightOnHover aria-label="Faxes">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Document</Table.Th>
                    <Table.Th>Direction</Table.Th>
                    <Table.Th>From</Table.Th>
                    <Table.Th>To</Table.Th>
                    <Table.Th>Pages</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Time</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.data!.data.map((f) => (
                    <Table.Tr key={f.id}>
                      <Table.Td>
                        <FaxThumbnail url={f.file_url} label={`fax ${f.id}`} onOpen={() => setViewing(f)} />
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          {f.direction === 'inbound' ? <IconArrowDownLeft size={16} aria-hidden /> : <IconArrowUpRight size={16} aria-hidden />}
                          <Text size="sm">{f.direction === 'inbound' ? 'Received' : 'Sent'}</Text>
                        </Group>
                      </Table.Td>
                      <Table.Td>{formatPhone(f.from)}</Table.Td>
                      <Table.Td>{formatPhone(f.to)}</Table.Td>
                      <Table.Td>{f.pages ?? '–'}</Table.Td>
                      <Table.Td>
                        <Badge color={STATUS_COLOR[f.status] ?? 'gray'} variant="light" title={f.error ?? undefined}>
                          {STATUS_LABEL[f.status] ?? f.status}
                        </Badge>
                        {f.error && (
                          <Text size="xs" c="red">
                            {f.error}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{formatDateTime(f.created_at)}</Text>
                        {f.file_url && (
                          <Button variant="subtle" size="compact-xs" onClick={() => setViewing(f)}>
                            View
                          </Button>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Card>
        )}
        {(list.data?.meta.last_page ?? 1) > 1 && <Pagination value={page} onChange={setPage} total={list.data!.meta.last_page} />}
      </Stack>
      {companyId !== null && sending && <SendFaxDialog opened={sending} onClose={() => setSending(false)} companyId={companyId} numbers={faxNumbers} />}
      <FaxViewer url={viewing?.file_url ?? null} title={viewing ? `Fax from ${formatPhone(viewing.from)}` : 'Fax'} onClose={() => setViewing(null)} />
    </>
  );
}
