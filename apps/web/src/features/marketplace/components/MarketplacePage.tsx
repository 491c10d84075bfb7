/**
 * The number marketplace page (spec 002 §2 "marketplace numbers (list, KPI, detail, listings, report download)";
 * docs/marketplace.md "Screens"): KPI cards, numbers for sale with filters and paging, the company's own listings,
 * listing a number, editing, withdrawing and relisting it, buying one (with a confirmation of the price and the
 * charge), a number's listing history, and the report download (`marketplace_report.csv`).
 */
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  NumberInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { LISTING_STATE_LABELS, MARKETPLACE_FEE_PERCENT, formatUsd, type ListingState } from '@switchboard/contracts';
import { formatPhone } from '@switchboard/domain';
import { IconBuildingStore, IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { EmptyCard, LoadError } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { TablePager } from '../../../components/TablePager';
import { useCan } from '../../../lib/access';
import { formatDateTime } from '../../../lib/format';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useCompanyId } from '../../../lib/session';
import {
  reportUrl,
  useCreateListing,
  useMarketplace,
  useMarketplaceKpi,
  useMarketplaceListings,
  useOwnNumbers,
  usePurchase,
  useUpdateListing,
  type MarketFilters,
  type MarketNumber,
} from '../api/marketplace';

const STATE_COLORS: Record<ListingState, string> = {
  draft: 'gray',
  listed: 'teal',
  pending_transfer: 'yellow',
  sold: 'blue',
  withdrawn: 'gray',
};
const TYPE_LABELS: Record<number, string> = { 1: 'Local', 2: 'Toll-free', 3: 'Canadian' };

/** Dollars typed in a price field → cents (undefined when empty). */
const toCents = (v: string | number) => (v === '' || v === undefined ? undefined : Math.round(Number(v) * 100));

function errorText(e: unknown): string {
  if (e instanceof HttpError) {
    const fields = Object.values(e.fieldErrors).flat();
    if (fields.length) return fields.join(' ');
    return e.message;
  }
  return 'Something went wrong. Please try again.';
}

function StateBadge({ state }: { state: ListingState }) {
  return (
    <Badge color={STATE_COLORS[state]} variant="light">
      {LISTING_STATE_LABELS[state]}
    </Badge>
  );
}

function Kpis() {
  const kpi = useMarketplaceKpi();
  if (kpi.isError) return <LoadError what="marketplace figures" onRetry={() => void kpi.refetch()} />;
  const k = kpi.data;
  const items: Array<[string, string]> = k
    ? [
        ['For sale', k.listedCount.toLocaleString('en-US')],
        ['Average price', formatUsd(k.averagePriceCents)],
        ['Your listings', `${k.yourListed} listed, ${k.yourDrafts} drafts`],
        ['Your sales', `${k.yourSold} · ${formatUsd(k.yourProceedsCents)} received`],
        ['Your purchases', `${k.yourPurchases} · ${formatUsd(k.yourSpentCents)}`],
      ]
    : [];
  return (
    <SimpleGrid cols={{ base: 2, md: 5 }} spacing="xs" aria-label="Marketplace figures" component="section">
      {k
        ? items.map(([label, value]) => (
            <Card withBorder key={label} padding="sm">
              <Text size="xs" c="dimmed">
                {label}
              </Text>
              <Text fw={600}>{value}</Text>
            </Card>
          ))
        : [1, 2, 3, 4, 5].map((i) => (
            <Card withBorder key={i} padding="sm">
              <Text size="sm" c="dimmed">
                Loading…
              </Text>
            </Card>
          ))}
    </SimpleGrid>
  );
}

function Filters({ scope, value, onChange }: { scope: 'market' | 'mine'; value: MarketFilters; onChange: (f: MarketFilters) => void }) {
  const set = (patch: MarketFilters) => onChange({ ...value, ...patch, page: 1 });
  return (
    <Group align="flex-end" gap="sm" wrap="wrap" component="form" role="search" aria-label="Filter numbers" onSubmit={(e) => e.preventDefault()}>
      <TextInput label="Search" placeholder="Digits or title" value={value.q ?? ''} onChange={(e) => set({ q: e.currentTarget.value })} w={170} />
      <TextInput
        label="Area code"
        placeholder="512"
        maxLength={3}
        value={value.area_code ?? ''}
        onChange={(e) => set({ area_code: e.currentTarget.value.replace(/\D/g, '') || undefined })}
        w={100}
      />
      <Select
        label="Type"
        data={[
          { value: '1', label: 'Local' },
          { value: '2', label: 'Toll-free' },
          { value: '3', label: 'Canadian' },
        ]}
        clearable
        value={value.number_type ? String(value.number_type) : null}
        onChange={(v) => set({ number_type: v ? Number(v) : undefined })}
        w={130}
      />
      <NumberInput
        label="Lowest price ($)"
        min={0}
        decimalScale={2}
        w={130}
        value={value.min_price !== undefined ? Number(value.min_price) / 100 : ''}
        onChange={(v) => set({ min_price: toCents(v) })}
      />
      <NumberInput
        label="Highest price ($)"
        min={0}
        decimalScale={2}
        w={130}
        value={value.max_price !== undefined ? Number(value.max_price) / 100 : ''}
        onChange={(v) => set({ max_price: toCents(v) })}
      />
      {scope === 'mine' && (
        <Select
          label="State"
          clearable
          data={Object.entries(LISTING_STATE_LABELS).map(([v, label]) => ({ value: v, label }))}
          value={value.state ?? null}
          onChange={(v) => set({ state: (v as ListingState | null) ?? undefined })}
          w={160}
        />
      )}
      <Select
        label="Sort"
        data={[
          { value: 'newest', label: 'Newest' },
          { value: 'price_asc', label: 'Price: low to high' },
          { value: 'price_desc', label: 'Price: high to low' },
        ]}
        value={value.sort ?? 'newest'}
        onChange={(v) => set({ sort: (v as MarketFilters['sort']) ?? 'newest' })}
        allowDeselect={false}
        w={170}
      />
    </Group>
  );
}

function HistoryModal({ item, onClose }: { item: MarketNumber | null; onClose: () => void }) {
  const listings = useMarketplaceListings(item?.id ?? null);
  return (
    <Modal opened={item !== null} onClose={onClose} title={item ? `Listings of ${formatPhone(item.number)}` : ''} size="lg">
      {listings.isError ? (
        <LoadError what="the listings" onRetry={() => void listings.refetch()} />
      ) : !listings.data ? (
        <ListSkeleton rows={2} />
      ) : (
        <Table.ScrollContainer minWidth={520}>
          <Table aria-label="Listings">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>State</Table.Th>
                <Table.Th>Price</Table.Th>
                <Table.Th>Seller</Table.Th>
                <Table.Th>Listed</Table.Th>
                <Table.Th>Sold</Table.Th>
                <Table.Th>Your part</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {listings.data.map((l) => (
                <Table.Tr key={l.id}>
                  <Table.Td>
                    <StateBadge state={l.state} />
                  </Table.Td>
                  <Table.Td>{formatUsd(l.priceCents)}</Table.Td>
                  <Table.Td>{l.sellerCompanyName}</Table.Td>
                  <Table.Td>{l.listedAt ? formatDateTime(l.listedAt) : '—'}</Table.Td>
                  <Table.Td>{l.soldAt ? formatDateTime(l.soldAt) : '—'}</Table.Td>
                  <Table.Td>
                    {l.yourRole === 'seller'
                      ? `Seller${l.feeCents !== null && l.state === 'sold' ? ` (fee ${formatUsd(l.feeCents)})` : ''}`
                      : l.yourRole === 'buyer'
                        ? 'Buyer'
                        : '—'}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Modal>
  );
}

type Editing = { kind: 'create' } | { kind: 'edit'; item: MarketNumber } | { kind: 'relist'; item: MarketNumber };

function ListingModal({ editing, onClose }: { editing: Editing | null; onClose: () => void }) {
  const create = useCreateListing();
  const update = useUpdateListing();
  const own = useOwnNumbers(editing?.kind === 'create');
  const item = editing && editing.kind !== 'create' ? editing.item : null;
  const [numberId, setNumberId] = useState<string | null>(null);
  const [price, setPrice] = useState<string | number>(item ? item.priceCents / 100 : '');
  const [title, setTitle] = useState(item?.title ?? '');
  const [description, setDescription] = useState(item?.description ?? '');
  const [state, setState] = useState<'listed' | 'draft'>(item?.state === 'draft' ? 'draft' : 'listed');
  const [error, setError] = useState<string | null>(null);
  const cents = toCents(price);
  const busy = create.isPending || update.isPending;
  const submit = async () => {
    setError(null);
    try {
      if (editing?.kind === 'create') {
        if (!numberId) return setError('Choose one of your numbers.');
        if (cents === undefined) return setError('Enter a price.');
        await create.mutateAsync({ number_id: Number(numberId), price_cents: cents, title, description, state });
      } else if (item) {
        await update.mutateAsync({ id: item.id, input: { price_cents: cents, title, description, state } });
      }
      onClose();
    } catch (e) {
      setError(errorText(e));
    }
  };
  const heading = editing?.kind === 'create' ? 'List a number' : editing?.kind === 'relist' ? 'List this number again' : 'Edit listing';
  return (
    <Modal opened={editing !== null} onClose={onClose} title={heading}>
      <Stack
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {editing?.kind === 'create' ? (
          <Select
            label="Number"
            placeholder={own.isLoading ? 'Loading your numbers…' : 'Choose a number'}
            data={(own.data ?? []).map((n) => ({ value: String(n.id), label: `${formatPhone(n.number)} · ${n.label}` }))}
            value={numberId}
            onChange={setNumberId}
            searchable
            nothingFoundMessage="You have no active numbers."
            required
          />
        ) : (
          item && <Text fw={600}>{formatPhone(item.number)}</Text>
        )}
        <NumberInput label="Price ($)" min={1} max={100000} decimalScale={2} fixedDecimalScale value={price} onChange={setPrice} required />
        {cents !== undefined && cents > 0 && (
          <Text size="xs" c="dimmed">
            You receive {formatUsd(cents - Math.round((cents * MARKETPLACE_FEE_PERCENT) / 100))} as account credit after the {MARKETPLACE_FEE_PERCENT}%
            marketplace fee.
          </Text>
        )}
        <TextInput
          label="Title"
          placeholder="e.g. Easy-to-remember 512 number"
          maxLength={80}
          value={title}
          onChange={(e) => setTitle(e.currentTarget.value)}
        />
        <Textarea label="Description" maxLength={1000} autosize minRows={2} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
        <SegmentedControl
          aria-label="Listing state"
          value={state}
          onChange={(v) => setState(v as 'listed' | 'draft')}
          data={[
            { value: 'listed', label: 'Listed for sale' },
            { value: 'draft', label: 'Draft' },
          ]}
        />
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Save
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function BuyModal({ item, onClose }: { item: MarketNumber | null; onClose: () => void }) {
  const purchase = usePurchase();
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    purchase.reset();
    onClose();
  };
  const billingLink = error && /card|payment|limit/i.test(error);
  return (
    <ConfirmModal
      opened={item !== null}
      title={item ? `Buy ${formatPhone(item.number)}?` : ''}
      confirmLabel={item ? `Buy for ${formatUsd(item.priceCents)}` : 'Buy'}
      danger={false}
      loading={purchase.isPending}
      onClose={close}
      onConfirm={async () => {
        if (!item) return;
        setError(null);
        try {
          await purchase.mutateAsync({ id: item.id, expectedPriceCents: item.priceCents });
          close();
        } catch (e) {
          setError(errorText(e));
        }
      }}
    >
      {item && (
        <Stack gap="xs">
          <span>
            {formatUsd(item.priceCents)} is charged now to the card on file and invoiced. The number moves to your account with a default route you can change;
            it counts toward your number limit.
          </span>
          {error && (
            <Alert color="red" role="alert">
              {error}{' '}
              {billingLink && (
                <Anchor component={Link} to="/billing">
                  Go to Billing
                </Anchor>
              )}
            </Alert>
          )}
        </Stack>
      )}
    </ConfirmModal>
  );
}

function NumbersTable({
  items,
  onBuy,
  onEdit,
  onWithdraw,
  onRelist,
  onHistory,
}: {
  items: MarketNumber[];
  onBuy: (n: MarketNumber) => void;
  onEdit: (n: MarketNumber) => void;
  onWithdraw: (n: MarketNumber) => void;
  onRelist: (n: MarketNumber) => void;
  onHistory: (n: MarketNumber) => void;
}) {
  const canManage = useCan('numbers.manage');
  const canBuy = useCan('numbers.purchase');
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table aria-label="Marketplace numbers" verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Number</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Price</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>Seller</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((n) => {
            const open = n.state === 'draft' || n.state === 'listed';
            const phone = formatPhone(n.number);
            return (
              <Table.Tr key={n.id}>
                <Table.Td>
                  <Text fw={600}>{phone}</Text>
                  {n.title && (
                    <Text size="xs" c="dimmed">
                      {n.title}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{TYPE_LABELS[n.numberType] ?? '—'}</Table.Td>
                <Table.Td>{formatUsd(n.priceCents)}</Table.Td>
                <Table.Td>
                  <StateBadge state={n.state} />
                </Table.Td>
                <Table.Td>{n.yourRole === 'seller' ? 'You' : n.sellerCompanyName}</Table.Td>
                <Table.Td>
                  <Group gap={6} justify="flex-end" wrap="nowrap">
                    {canBuy && n.state === 'listed' && !n.heldByYou && (
                      <Button size="xs" onClick={() => onBuy(n)} aria-label={`Buy ${phone}`}>
                        Buy
                      </Button>
                    )}
                    {canManage && n.heldByYou && open && n.yourRole === 'seller' && (
                      <>
                        <Button size="xs" variant="default" onClick={() => onEdit(n)} aria-label={`Edit listing of ${phone}`}>
                          Edit
                        </Button>
                        <Button size="xs" variant="subtle" color="red" onClick={() => onWithdraw(n)} aria-label={`Withdraw ${phone}`}>
                          Withdraw
                        </Button>
                      </>
                    )}
                    {canManage && n.heldByYou && !open && n.state !== 'pending_transfer' && (
                      <Button size="xs" variant="default" onClick={() => onRelist(n)} aria-label={`List ${phone} again`}>
                        List again
                      </Button>
                    )}
                    <Button size="xs" variant="subtle" onClick={() => onHistory(n)} aria-label={`Listings of ${phone}`}>
                      History
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** /marketplace */
export function MarketplacePage() {
  const companyId = useCompanyId();
  const canManage = useCan('numbers.manage');
  const [scope, setScope] = useState<'market' | 'mine'>('market');
  const [filters, setFilters] = useState<MarketFilters>({ page: 1, per_page: 25, sort: 'newest' });
  const list = useMarketplace({ ...filters, scope });
  const update = useUpdateListing();
  const [buying, setBuying] = useState<MarketNumber | null>(null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [withdrawing, setWithdrawing] = useState<MarketNumber | null>(null);
  const [history, setHistory] = useState<MarketNumber | null>(null);
  const page = list.data;
  return (
    <Stack>
      <PageHeader
        title="Number marketplace"
        description="Buy memorable numbers from other accounts, or sell numbers you hold."
        actions={
          <Group gap="xs">
            <Button component="a" href={reportUrl(companyId)} download="marketplace_report.csv" variant="default" leftSection={<IconDownload size={16} />}>
              Download report
            </Button>
            {canManage && <Button onClick={() => setEditing({ kind: 'create' })}>List a number</Button>}
          </Group>
        }
      />
      <Kpis />
      <Card withBorder component="section" aria-labelledby="market-title">
        <Stack>
          <Group justify="space-between" wrap="wrap">
            <Title order={2} size="h4" id="market-title">
              {scope === 'market' ? 'Numbers for sale' : 'Your listings and purchases'}
            </Title>
            <SegmentedControl
              aria-label="Show"
              value={scope}
              onChange={(v) => {
                setScope(v as 'market' | 'mine');
                setFilters((f) => ({ ...f, page: 1, state: undefined }));
              }}
              data={[
                { value: 'market', label: 'For sale' },
                { value: 'mine', label: 'Mine' },
              ]}
            />
          </Group>
          <Filters scope={scope} value={filters} onChange={setFilters} />
          {list.isError ? (
            <LoadError what="marketplace numbers" onRetry={() => void list.refetch()} />
          ) : !page ? (
            <ListSkeleton rows={4} />
          ) : page.data.length === 0 ? (
            <EmptyCard
              icon={<IconBuildingStore />}
              title={scope === 'market' ? 'No numbers match' : 'You have no listings yet'}
              description={
                scope === 'market'
                  ? 'Change the filters, or come back later: other accounts list numbers here.'
                  : 'List a number you hold to offer it to other accounts.'
              }
              action={canManage && scope === 'mine' ? <Button onClick={() => setEditing({ kind: 'create' })}>List a number</Button> : undefined}
            />
          ) : (
            <>
              <Text size="sm" c="dimmed" aria-live="polite">
                {page.meta.total.toLocaleString('en-US')} {page.meta.total === 1 ? 'number' : 'numbers'}
              </Text>
              <NumbersTable
                items={page.data}
                onBuy={setBuying}
                onEdit={(n) => setEditing({ kind: 'edit', item: n })}
                onWithdraw={setWithdrawing}
                onRelist={(n) => setEditing({ kind: 'relist', item: n })}
                onHistory={setHistory}
              />
              <TablePager page={page.meta.current_page} totalPages={page.meta.last_page} onChange={(p) => setFilters((f) => ({ ...f, page: p }))} />
            </>
          )}
        </Stack>
      </Card>
      <BuyModal item={buying} onClose={() => setBuying(null)} />
      {editing && (
        <ListingModal key={editing.kind === 'create' ? 'create' : `${editing.kind}-${editing.item.id}`} editing={editing} onClose={() => setEditing(null)} />
      )}
      <ConfirmModal
        opened={withdrawing !== null}
        title={withdrawing ? `Withdraw ${formatPhone(withdrawing.number)}?` : ''}
        confirmLabel="Withdraw"
        loading={update.isPending}
        onClose={() => setWithdrawing(null)}
        onConfirm={async () => {
          if (!withdrawing) return;
          try {
            await update.mutateAsync({ id: withdrawing.id, input: { state: 'withdrawn' } });
            setWithdrawing(null);
          } catch (e) {
            notify.danger(errorText(e), 10_000);
          }
        }}
      >
        The number stays yours and leaves the marketplace. You can list it again later.
      </ConfirmModal>
      <HistoryModal item={history} onClose={() => setHistory(null)} />
    </Stack>
  );
}
