import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  Progress,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  TagsInput,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import type { DniPool, DniSourceRules } from '@switchboard/contracts';
import { IconArrowLeft, IconHistory, IconShoppingCart, IconTrash, IconX } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { CustomFieldValuesEditor, type CustomFieldAttribute } from '../../../components/CustomFieldValuesEditor';
import { EmptyCard } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { useCan } from '../../../lib/access';
import { formatDateTime } from '../../../lib/format';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useDeletePool, usePool, usePools, useSavePool, type PoolUpdate } from '../api/pools';
import { useTemplateOptions } from '../api/routing';
import type { AvailableNumber } from '../api/purchase';
import { useSources } from '../api/sources';
import { usePurchaseProgress } from '../realtime/use-purchase-progress';
import { BuyPoolNumbersModal } from './BuyPoolNumbersModal';
import { HealthBadges } from './labels';
import { NumberActivityModal } from './NumberActivityModal';
import { PoolRoutingCard, routingDraftErrors, routingDraftOf, routingInputOf, type RoutingDraft } from './PoolRoutingCard';
import { SourceRulesEditor } from './SourceRulesEditor';
import { TrackingNav } from './TrackingNav';

/** A company number as the editor offers it (handed in by the app from the numbers feature). */
export interface CompanyNumberOption {
  id: number;
  /** E.164. */
  number: string;
  label: string | null;
}

interface Draft extends RoutingDraft {
  name: string;
  active: boolean;
  priority: number | string;
  source_rules: DniSourceRules;
  target_numbers: string[];
  session_duration_minutes: number | string;
  cool_down_minutes: number | string;
  fallback_number_id: number | null;
  number_ids: number[];
}

const NEW_DRAFT: Draft = {
  name: '',
  active: true,
  priority: 100,
  source_rules: { all_visitors: true, traffic_sources: [], custom_rules: [] },
  target_numbers: [],
  session_duration_minutes: 30,
  cool_down_minutes: 10,
  fallback_number_id: null,
  number_ids: [],
  ...routingDraftOf(null),
};

function draftOf(pool: DniPool): Draft {
  return {
    name: pool.name,
    active: pool.active,
    priority: pool.priority,
    source_rules: pool.source_rules,
    target_numbers: pool.target_numbers.map(formatPhone),
    session_duration_minutes: pool.session_duration_minutes,
    cool_down_minutes: pool.cool_down_minutes,
    fallback_number_id: pool.fallback_number_id,
    number_ids: pool.numbers.map((n) => n.number_id),
    ...routingDraftOf(pool),
  };
}

/**
 * The request body (a new pool's POST without `routing` is sent as it is: the server answers 422 `routing`, shown on
 * the card); `routing` only when chosen and not the saved pool's (`saved`), see routingInputOf.
 */
function toInput(d: Draft, purchase: AvailableNumber[], saved: DniPool | null): PoolUpdate {
  const routing = routingInputOf(d, saved);
  return {
    ...(routing ? { routing } : {}),
    name: d.name,
    active: d.active,
    priority: Number(d.priority),
    source_rules: d.source_rules,
    target_numbers: d.target_numbers,
    session_duration_minutes: Number(d.session_duration_minutes),
    cool_down_minutes: Number(d.cool_down_minutes),
    fallback_number_id: d.fallback_number_id,
    number_ids: d.number_ids,
    purchase: purchase.map((n) => ({ number: n.number, provider_id: n.provider_id })),
  };
}

const STATE_LABELS = { in_use: 'In use', cooling_down: 'Cooling down', free: 'Free' } as const;
const STATE_COLORS = { in_use: 'blue', cooling_down: 'yellow', free: 'teal' } as const;

/**
 * The pool editor `/tracking/pools/:poolId` (`new` creates): name, who it serves (source rules), the
 * company numbers it replaces on the website, where its calls ring (PoolRoutingCard; numbers without
 * routing of their own are flagged "No routing"), session length, cool-down, fallback number, its numbers
 * (add company numbers, buy more through the bulk purchase with live progress, remove), health and
 * custom fields (entity type TrackingPool 3); delete asks whether to release or keep the numbers
 * (`shouldDeleteNumbers`). A saved number's "Recent visits" opens the visits that were shown it and their
 * calls (`dniTimelineEventsByNumber`). docs/tracking-screens.md "Pools".
 */
export function PoolEditorPage({
  poolId,
  companyNumbers,
  attributes,
}: {
  poolId: number | null;
  companyNumbers: CompanyNumberOption[];
  attributes: CustomFieldAttribute[];
}) {
  const valid = poolId === null || poolId > 0;
  const pool = usePool(valid ? poolId : null);
  if (poolId !== null && valid && pool.isPending) {
    return (
      <>
        <TrackingNav />
        <ListSkeleton rows={4} height={80} />
      </>
    );
  }
  if (poolId !== null && !pool.data) {
    return (
      <>
        <TrackingNav />
        <EmptyCard
          title="This pool could not be loaded"
          description="It may have been deleted, or it belongs to another company."
          action={
            <Button component={Link} to="/tracking">
              Back to pools
            </Button>
          }
        />
      </>
    );
  }
  return <PoolForm key={poolId ?? 'new'} pool={pool.data ?? null} companyNumbers={companyNumbers} attributes={attributes} />;
}

function PoolForm({ pool, companyNumbers, attributes }: { pool: DniPool | null; companyNumbers: CompanyNumberOption[]; attributes: CustomFieldAttribute[] }) {
  const navigate = useNavigate();
  const save = useSavePool();
  const remove = useDeletePool();
  const pools = usePools();
  const sources = useSources();
  const templates = useTemplateOptions();
  const [draft, setDraft] = useState<Draft>(() => (pool ? draftOf(pool) : NEW_DRAFT));
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [toBuy, setToBuy] = useState<AvailableNumber[]>([]);
  const [buying, setBuying] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [release, setRelease] = useState<'keep' | 'release'>('keep');
  const [batchId, setBatchId] = useState<string | null>(pool?.pending_purchase_batch_id ?? null);
  // The number whose recent visits are open (`?visits=+1…`: a link, so it works in the read-only view too).
  const [params, setParams] = useSearchParams();
  const activityOf = params.get('visits');
  const canSeeVisits = useCan('reports.read');
  const progress = usePurchaseProgress(batchId);
  // Finished by its live event, or (an event missed) the re-read pool has no purchase running any more.
  const purchaseDone = Boolean(progress?.finished || (batchId !== null && pool && !pool.pending_purchase_batch_id && !save.isPending));
  const set = (change: Partial<Draft>) => setDraft((d) => ({ ...d, ...change }));

  // A purchase still running when the page opened (or started here): follow it; the pool re-reads on completion.
  useEffect(() => {
    if (pool?.pending_purchase_batch_id) setBatchId(pool.pending_purchase_batch_id);
  }, [pool?.pending_purchase_batch_id]);
  // Numbers bought meanwhile joined the pool on the server: take the new ones into the draft (a number the
  // person removed in the form, not saved yet, stays removed).
  const known = useRef(new Set(pool?.numbers.map((n) => n.number_id) ?? []));
  useEffect(() => {
    if (!pool) return;
    const fresh = pool.numbers.map((n) => n.number_id).filter((id) => !known.current.has(id));
    fresh.forEach((id) => known.current.add(id));
    if (fresh.length > 0) setDraft((d) => ({ ...d, number_ids: [...d.number_ids, ...fresh.filter((id) => !d.number_ids.includes(id))] }));
  }, [pool]);

  const byId = useMemo(() => new Map(companyNumbers.map((n) => [n.id, n])), [companyNumbers]);
  const poolNumbers = new Map((pool?.numbers ?? []).map((n) => [n.number_id, n]));
  // Numbers held by another pool or by a static tracking source cannot join this one.
  const taken = new Set<number>([
    ...(pools.data?.data ?? []).filter((p) => p.id !== pool?.id).flatMap((p) => p.numbers.map((n) => n.number_id)),
    ...(sources.data?.data ?? []).map((s) => s.number_id),
  ]);
  const addable = companyNumbers.filter((n) => !taken.has(n.id) && !draft.number_ids.includes(n.id) && n.id !== draft.fallback_number_id);
  const label = (n: CompanyNumberOption) => `${formatPhone(n.number)}${n.label && !/^\+?\d[\d\s()-]*$/.test(n.label) ? ` · ${n.label}` : ''}`;
  const fieldError = (path: string) => errors[path]?.[0];
  const removedCount = (pool?.numbers ?? []).filter((n) => !draft.number_ids.includes(n.number_id)).length;

  const submit = (purchase: AvailableNumber[], after?: () => void) => {
    const incomplete = routingDraftErrors(draft);
    setErrors(incomplete);
    if (Object.keys(incomplete).length > 0) {
      notify.danger('Some fields need attention.', 10_000, 'The pool was not saved');
      return;
    }
    save.mutate(
      { id: pool?.id ?? null, input: toInput(draft, purchase, pool) },
      {
        onSuccess: (saved) => {
          notify.success(saved.message);
          if (saved.batchId) setBatchId(saved.batchId);
          setToBuy([]);
          after?.();
          if (!pool) void navigate(`/tracking/pools/${saved.data.id}`, { replace: true });
        },
        onError: (error) => {
          if (error instanceof HttpError && error.status === 422) {
            setErrors(error.fieldErrors);
            notify.danger('Some fields need attention.', 10_000, 'The pool was not saved');
          } else if (error instanceof HttpError && error.status !== 0) {
            notify.danger(error.message, 10_000, 'The pool was not saved');
          }
        },
      },
    );
  };

  const confirmBuy = (numbers: AvailableNumber[]) => {
    if (pool) {
      // An existing pool buys at once (the confirmation was the last step); the rest of the form is saved with it.
      submit(numbers, () => setBuying(false));
    } else {
      setToBuy((list) => [...list, ...numbers]);
      setBuying(false);
    }
  };

  const doDelete = () => {
    if (!pool) return;
    remove.mutate(
      { id: pool.id, releaseNumbers: release === 'release' },
      {
        onSuccess: (result) => {
          notify.success(result?.message ?? `${pool.name} was deleted.`);
          void navigate('/tracking');
        },
      },
    );
  };

  return (
    <>
      <Anchor component={Link} to="/tracking" size="sm" mb="xs" display="inline-flex" style={{ alignItems: 'center', gap: 4 }}>
        <IconArrowLeft size={14} /> Pools
      </Anchor>
      <PageHeader
        title={pool ? pool.name : 'New tracking pool'}
        description={pool ? undefined : 'Numbers your website shows visitors in place of your own, one per visitor.'}
        actions={
          pool ? (
            <Button variant="light" color="red" leftSection={<IconTrash size={16} />} onClick={() => setDeleting(true)}>
              Delete pool
            </Button>
          ) : undefined
        }
      />
      <TrackingNav />
      {pool ? (
        <Group gap="sm" mb="md" wrap="wrap" data-testid="pool-health-summary">
          <HealthBadges health={pool.health} />
          <Text size="xs" c="dimmed">
            Peak of {pool.health.peak_concurrent_7d} at once in 7 days · {pool.health.fallback_sessions_7d} shown the fallback · recommended size{' '}
            {pool.health.recommended_size}
          </Text>
        </Group>
      ) : null}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit(toBuy);
        }}
        noValidate
      >
        <Stack gap="md">
          <Card withBorder radius="md">
            <Title order={2} size="h4" mb="sm">
              Pool
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label="Name"
                required
                value={draft.name}
                onChange={(e) => set({ name: e.currentTarget.value })}
                error={fieldError('name')}
                maxLength={100}
              />
              <TagsInput
                label="Numbers on your website"
                description="The numbers written on your pages that visitors see replaced. Type one and press Enter."
                placeholder={draft.target_numbers.length ? '' : '(415) 555-0100'}
                data={companyNumbers.map((n) => formatPhone(n.number))}
                value={draft.target_numbers}
                onChange={(v) => set({ target_numbers: v })}
                error={fieldError('target_numbers') ?? Object.entries(errors).find(([k]) => k.startsWith('target_numbers.'))?.[1][0]}
                required
                clearable
              />
              <NumberInput
                label="Session length (minutes)"
                description="A visitor keeps their number this long after their last page view."
                min={5}
                max={1440}
                value={draft.session_duration_minutes}
                onChange={(v) => set({ session_duration_minutes: v })}
                error={fieldError('session_duration_minutes')}
                allowDecimal={false}
              />
              <NumberInput
                label="Cool-down (minutes)"
                description="A number rests this long after its session ends, so late callers still reach the right visit."
                min={0}
                max={1440}
                value={draft.cool_down_minutes}
                onChange={(v) => set({ cool_down_minutes: v })}
                error={fieldError('cool_down_minutes')}
                allowDecimal={false}
              />
              <Select
                label="Fallback number"
                description="Shown when every number is taken. Empty: your own number stays on the page."
                placeholder="Keep the website's number"
                data={companyNumbers.filter((n) => !draft.number_ids.includes(n.id)).map((n) => ({ value: String(n.id), label: label(n) }))}
                value={draft.fallback_number_id === null ? null : String(draft.fallback_number_id)}
                onChange={(v) => set({ fallback_number_id: v ? Number(v) : null })}
                error={fieldError('fallback_number_id')}
                clearable
                searchable
              />
              <NumberInput
                label="Priority"
                description="When several pools match a visitor, the lowest number wins."
                min={0}
                max={1000}
                value={draft.priority}
                onChange={(v) => set({ priority: v })}
                error={fieldError('priority')}
                allowDecimal={false}
              />
            </SimpleGrid>
            <Switch
              mt="md"
              label="Active (swap numbers for matching visitors)"
              checked={draft.active}
              onChange={(e) => set({ active: e.currentTarget.checked })}
            />
          </Card>

          <PoolRoutingCard
            draft={draft}
            onChange={set}
            saved={pool}
            numbers={companyNumbers.filter((n) => !draft.number_ids.includes(n.id)).map((n) => ({ value: String(n.id), label: label(n) }))}
            templates={templates.data ?? []}
            templatesLoading={templates.isPending}
            errors={errors}
          />

          <Card withBorder radius="md">
            <Title order={2} size="h4" mb="sm">
              Visitors
            </Title>
            <SourceRulesEditor value={draft.source_rules} onChange={(source_rules) => set({ source_rules })} errors={errors} />
          </Card>

          <Card withBorder radius="md" data-testid="pool-numbers">
            <Group justify="space-between" mb="sm" wrap="wrap">
              <Title order={2} size="h4">
                Numbers ({draft.number_ids.length + toBuy.length})
              </Title>
              <Button
                variant="light"
                leftSection={<IconShoppingCart size={16} />}
                onClick={() => setBuying(true)}
                disabled={Boolean(progress && !progress.finished)}
              >
                Buy numbers
              </Button>
            </Group>
            {progress ? (
              <Stack gap={4} mb="sm" data-testid="pool-purchase-progress" data-finished={purchaseDone}>
                <Text size="sm" role="status">
                  {progress.finished
                    ? `${progress.done} ${progress.done === 1 ? 'number' : 'numbers'} bought${progress.failed ? `, ${progress.failed} failed` : ''}.`
                    : purchaseDone
                      ? 'The purchase finished: the numbers bought are in the list.'
                      : `Buying numbers… ${progress.progress}%`}
                </Text>
                <Progress
                  value={purchaseDone ? 100 : progress.progress}
                  animated={!purchaseDone}
                  color={purchaseDone ? (progress.failed ? 'yellow' : 'teal') : 'blue'}
                  aria-label="Number purchase progress"
                />
              </Stack>
            ) : null}
            <MultiSelect
              label="Add numbers the company already has"
              placeholder={addable.length ? 'Pick numbers' : 'No free numbers: buy some'}
              data={addable.map((n) => ({ value: String(n.id), label: label(n) }))}
              value={[]}
              onChange={(v) => set({ number_ids: [...draft.number_ids, ...v.map(Number)] })}
              searchable
              disabled={addable.length === 0}
              mb="sm"
            />
            {draft.number_ids.length === 0 && toBuy.length === 0 ? (
              <Text size="sm" c="dimmed">
                No numbers yet. Without numbers the pool shows its fallback number to everyone.
              </Text>
            ) : (
              <Table.ScrollContainer minWidth={560}>
                <Table verticalSpacing={6}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Number</Table.Th>
                      <Table.Th>State</Table.Th>
                      <Table.Th>Last shown</Table.Th>
                      <Table.Th w={canSeeVisits ? 130 : 0}>
                        <VisuallyHidden>Recent visits</VisuallyHidden>
                      </Table.Th>
                      <Table.Th w={40}>
                        <VisuallyHidden>Remove</VisuallyHidden>
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {draft.number_ids.map((id) => {
                      const n = poolNumbers.get(id);
                      const e164 = n?.number ?? byId.get(id)?.number ?? String(id);
                      return (
                        <Table.Tr key={id} data-testid="pool-number">
                          <Table.Td style={{ whiteSpace: 'nowrap' }}>
                            <Text span ff="monospace" size="sm">
                              {formatPhone(e164)}
                            </Text>
                            {n && !n.has_routing ? (
                              <Badge ml="xs" size="sm" color="red" variant="light" data-testid="number-no-routing">
                                No routing
                              </Badge>
                            ) : null}
                          </Table.Td>
                          <Table.Td>
                            {n ? (
                              <Badge size="sm" variant="light" color={STATE_COLORS[n.state]}>
                                {STATE_LABELS[n.state]}
                                {n.state === 'cooling_down' && n.available_at ? ` until ${formatDateTime(n.available_at)}` : ''}
                              </Badge>
                            ) : (
                              <Badge size="sm" variant="outline" color="gray">
                                Joins on save
                              </Badge>
                            )}
                          </Table.Td>
                          <Table.Td>
                            <Text size="xs" c="dimmed">
                              {n?.last_assigned_at ? formatDateTime(n.last_assigned_at) : 'Never'}
                            </Text>
                          </Table.Td>
                          <Table.Td>
                            {n && canSeeVisits ? (
                              <Anchor
                                component={Link}
                                to={{ search: `?visits=${encodeURIComponent(n.number)}` }}
                                size="xs"
                                display="inline-flex"
                                style={{ alignItems: 'center', gap: 4, whiteSpace: 'nowrap' }}
                                aria-label={`Recent visits shown ${formatPhone(n.number)}`}
                                data-testid="number-visits-link"
                              >
                                <IconHistory size={14} /> Recent visits
                              </Anchor>
                            ) : null}
                          </Table.Td>
                          <Table.Td>
                            <ActionIcon
                              variant="subtle"
                              color="red"
                              aria-label={`Remove ${formatPhone(e164)} from the pool`}
                              onClick={() => set({ number_ids: draft.number_ids.filter((x) => x !== id) })}
                            >
                              <IconX size={16} />
                            </ActionIcon>
                          </Table.Td>
                        </Table.Tr>
                      );
                    })}
                    {toBuy.map((n) => (
                      <Table.Tr key={n.number} data-testid="pool-number-to-buy">
                        <Table.Td ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                          {formatPhone(n.number)}
                        </Table.Td>
                        <Table.Td>
                          <Badge size="sm" variant="outline" color="blue">
                            Bought on save
                          </Badge>
                        </Table.Td>
                        <Table.Td />
                        <Table.Td />
                        <Table.Td>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={`Don't buy ${formatPhone(n.number)}`}
                            onClick={() => setToBuy((list) => list.filter((x) => x.number !== n.number))}
                          >
                            <IconX size={16} />
                          </ActionIcon>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            {removedCount > 0 ? (
              <Alert color="yellow" mt="sm" p="xs">
                {removedCount} {removedCount === 1 ? 'number leaves' : 'numbers leave'} the pool on save. They stay in the company (release them from Numbers).
              </Alert>
            ) : null}
            {fieldError('number_ids') ? (
              <Text c="red" size="sm" mt="xs">
                {fieldError('number_ids')}
              </Text>
            ) : null}
          </Card>

          <Group justify="flex-end">
            <Button variant="default" component={Link} to="/tracking">
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending && !buying}>
              {pool ? 'Save pool' : toBuy.length > 0 ? `Create pool and buy ${toBuy.length}` : 'Create pool'}
            </Button>
          </Group>

          {pool && attributes.length > 0 ? (
            <Card withBorder radius="md">
              <Title order={2} size="h4" mb="sm">
                Custom fields
              </Title>
              {/* The saved pool's fields go along: a PUT body's missing fields take the contract's defaults. */}
              <CustomFieldValuesEditor
                attributes={attributes}
                values={pool.eavAttributeValues}
                onSave={(values) => save.mutateAsync({ id: pool.id, input: { ...toInput(draftOf(pool), [], pool), eavAttributeValues: values } })}
              />
            </Card>
          ) : null}
        </Stack>
      </form>

      <NumberActivityModal
        number={activityOf}
        onClose={() => {
          const next = new URLSearchParams(params);
          next.delete('visits');
          setParams(next, { replace: true });
        }}
      />

      <BuyPoolNumbersModal
        opened={buying}
        onClose={() => setBuying(false)}
        onConfirm={confirmBuy}
        busy={save.isPending}
        exclude={[...toBuy.map((n) => n.number), ...companyNumbers.map((n) => n.number)]}
      />

      <ModalDelete
        opened={deleting}
        onClose={() => setDeleting(false)}
        name={pool?.name ?? ''}
        count={pool?.numbers.length ?? 0}
        release={release}
        setRelease={setRelease}
        busy={remove.isPending}
        onConfirm={doDelete}
      />
    </>
  );
}

/** Delete confirmation: keep the pool's numbers in the company (shouldDeleteNumbers 0) or release them (1). */
function ModalDelete({
  opened,
  onClose,
  name,
  count,
  release,
  setRelease,
  busy,
  onConfirm,
}: {
  opened: boolean;
  onClose: () => void;
  name: string;
  count: number;
  release: 'keep' | 'release';
  setRelease: (v: 'keep' | 'release') => void;
  busy: boolean;
  onConfirm: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={`Delete ${name}?`}>
      <Stack>
        <Text size="sm">Visitors stop seeing this pool's numbers. Calls already tracked keep their attribution.</Text>
        {count > 0 ? (
          <Radio.Group
            label={`What happens to its ${count} ${count === 1 ? 'number' : 'numbers'}?`}
            value={release}
            onChange={(v) => setRelease(v as 'keep' | 'release')}
          >
            <Stack gap="xs" mt="xs">
              <Radio value="keep" label="Keep them in the company" description="They keep ringing where they ring now." />
              <Radio value="release" label="Release them" description="They go back to the carrier and stop working. This cannot be undone." />
            </Stack>
          </Radio.Group>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" loading={busy} onClick={onConfirm}>
            {release === 'release' && count > 0 ? 'Delete and release' : 'Delete pool'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
