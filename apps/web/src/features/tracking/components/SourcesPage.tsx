import { ActionIcon, Button, Card, Group, Modal, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import { TRAFFIC_SOURCE_LABELS, TRAFFIC_SOURCES, type DniStaticSource, type TrafficSource } from '@switchboard/contracts';
import { IconPencil, IconPlus, IconTrash, IconWorldPin } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { EmptyBlock, LoadError } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { usePools } from '../api/pools';
import { useDeleteStaticSource, useSaveStaticSource, useSources, type StaticSourceInput } from '../api/sources';
import { SourceBadge } from './labels';
import type { CompanyNumberOption } from './PoolEditorPage';
import { TrackingNav } from './TrackingNav';
import { useCan } from '../../../lib/access';

interface Draft {
  name: string;
  number_id: string | null;
  traffic_source: TrafficSource;
  source: string;
  medium: string;
  campaign: string;
  keyword: string;
}

const EMPTY: Draft = { name: '', number_id: null, traffic_source: 'static', source: '', medium: '', campaign: '', keyword: '' };

function draftOf(s: DniStaticSource): Draft {
  return {
    name: s.name,
    number_id: String(s.number_id),
    traffic_source: s.traffic_source,
    source: s.source ?? '',
    medium: s.medium ?? '',
    campaign: s.campaign ?? '',
    keyword: s.keyword ?? '',
  };
}

/** Add or edit a static tracking number: which number, and the source it stands for. */
function StaticSourceModal({
  editing,
  onClose,
  numbers,
}: {
  editing: DniStaticSource | 'new' | null;
  onClose: () => void;
  numbers: Array<{ value: string; label: string }>;
}) {
  const save = useSaveStaticSource();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [openedFor, setOpenedFor] = useState<typeof editing>(null);
  if (editing !== openedFor) {
    setOpenedFor(editing);
    setDraft(editing && editing !== 'new' ? draftOf(editing) : EMPTY);
    setErrors({});
  }
  const set = (change: Partial<Draft>) => setDraft((d) => ({ ...d, ...change }));
  const submit = () => {
    const input: StaticSourceInput = {
      name: draft.name,
      number_id: Number(draft.number_id),
      traffic_source: draft.traffic_source,
      source: draft.source.trim() || null,
      medium: draft.medium.trim() || null,
      campaign: draft.campaign.trim() || null,
      keyword: draft.keyword.trim() || null,
    };
    save.mutate(
      { id: editing && editing !== 'new' ? editing.id : null, input },
      {
        onSuccess: (r) => {
          notify.success(r.message);
          onClose();
        },
        onError: (e) => {
          if (e instanceof HttpError && e.status === 422) setErrors(e.fieldErrors);
          else if (e instanceof HttpError && e.status !== 0) notify.danger(e.message, 10_000);
        },
      },
    );
  };
  const choices =
    editing && editing !== 'new' && !numbers.some((n) => n.value === String(editing.number_id))
      ? [{ value: String(editing.number_id), label: formatPhone(editing.number) }, ...numbers]
      : numbers;
  return (
    <Modal opened={editing !== null} onClose={onClose} title={editing === 'new' ? 'New static tracking number' : 'Edit static tracking number'}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label="Name"
            placeholder="Spring flyer"
            required
            value={draft.name}
            onChange={(e) => set({ name: e.currentTarget.value })}
            error={errors.name?.[0]}
          />
          <Select
            label="Number"
            description="A company number that is not in a pool. Print it only where this source appears."
            placeholder={choices.length ? 'Pick a number' : 'No free number: buy one in Numbers'}
            data={choices}
            value={draft.number_id}
            onChange={(v) => set({ number_id: v })}
            error={errors.number_id?.[0]}
            searchable
            required
          />
          <Select
            label="Traffic source"
            data={TRAFFIC_SOURCES.map((s) => ({ value: s, label: TRAFFIC_SOURCE_LABELS[s] }))}
            value={draft.traffic_source}
            onChange={(v) => v && set({ traffic_source: v as TrafficSource })}
            allowDeselect={false}
          />
          <SimpleGrid cols={2}>
            <TextInput
              label="Source"
              placeholder="flyer"
              value={draft.source}
              onChange={(e) => set({ source: e.currentTarget.value })}
              error={errors.source?.[0]}
            />
            <TextInput
              label="Medium"
              placeholder="print"
              value={draft.medium}
              onChange={(e) => set({ medium: e.currentTarget.value })}
              error={errors.medium?.[0]}
            />
            <TextInput
              label="Campaign"
              placeholder="spring-2026"
              value={draft.campaign}
              onChange={(e) => set({ campaign: e.currentTarget.value })}
              error={errors.campaign?.[0]}
            />
            <TextInput label="Keyword" value={draft.keyword} onChange={(e) => set({ keyword: e.currentTarget.value })} error={errors.keyword?.[0]} />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending} disabled={!draft.name.trim() || !draft.number_id}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * Sources `/tracking/sources` (spec 002 "DNI" sources): the traffic sources the script recognises with
 * their sessions and calls of the last 30 days, and the static tracking numbers (one number per offline
 * or fixed source: print, billboard, radio, a Google Business Profile listing).
 */
export function SourcesPage({ companyNumbers }: { companyNumbers: CompanyNumberOption[] }) {
  // Static numbers are added, changed and deleted with `tracking.manage`; reporting reads them.
  const canManage = useCan('tracking.manage');
  const sources = useSources();
  const pools = usePools();
  const remove = useDeleteStaticSource();
  const [editing, setEditing] = useState<DniStaticSource | 'new' | null>(null);
  const [deleting, setDeleting] = useState<DniStaticSource | null>(null);
  const statics = sources.data?.data ?? [];
  const taken = new Set<number>([...(pools.data?.data ?? []).flatMap((p) => p.numbers.map((n) => n.number_id)), ...statics.map((s) => s.number_id)]);
  const free = companyNumbers
    .filter((n) => !taken.has(n.id))
    .map((n) => ({ value: String(n.id), label: formatPhone(n.number) + (n.label && /[a-z]/i.test(n.label) ? ` · ${n.label}` : '') }));

  return (
    <>
      <PageHeader
        title="Sources"
        description="Where your callers come from: website visits classified by the script, and static numbers for everything offline."
        actions={
          canManage ? (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
              Static number
            </Button>
          ) : undefined
        }
      />
      <TrackingNav />
      {sources.isPending ? (
        <ListSkeleton rows={4} height={48} />
      ) : sources.isError ? (
        <Card withBorder radius="md">
          <LoadError what="sources" onRetry={() => void sources.refetch()} />
        </Card>
      ) : (
        <Stack gap="md">
          <Card withBorder radius="md" p={0}>
            <Title order={2} size="h4" p="md" pb="xs">
              Website traffic (last 30 days)
            </Title>
            <Table.ScrollContainer minWidth={340}>
              <Table verticalSpacing="xs" data-testid="traffic-sources">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Source</Table.Th>
                    <Table.Th ta="right">Visits</Table.Th>
                    <Table.Th ta="right">Calls</Table.Th>
                    <Table.Th ta="right">Per 100 visits</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {sources.data.traffic_sources.map((s) => (
                    <Table.Tr key={s.value}>
                      <Table.Td>
                        <SourceBadge source={s.value} />
                      </Table.Td>
                      <Table.Td ta="right">{s.sessions_30d}</Table.Td>
                      <Table.Td ta="right">{s.calls_30d}</Table.Td>
                      <Table.Td ta="right">{s.sessions_30d > 0 ? ((s.calls_30d / s.sessions_30d) * 100).toFixed(1) : '—'}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Card>

          <Card withBorder radius="md" p={0}>
            <Title order={2} size="h4" p="md" pb="xs">
              Static tracking numbers
            </Title>
            {statics.length === 0 ? (
              <EmptyBlock
                icon={<IconWorldPin />}
                title="No static tracking numbers"
                description="Give a flyer, a billboard, a radio spot or your Google Business Profile its own number, and its calls are counted as that source."
                action={canManage ? <Button onClick={() => setEditing('new')}>Add a static number</Button> : undefined}
              />
            ) : (
              <Table.ScrollContainer minWidth={640}>
                <Table verticalSpacing="xs" data-testid="static-sources">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Name</Table.Th>
                      <Table.Th>Number</Table.Th>
                      <Table.Th>Source</Table.Th>
                      <Table.Th ta="right">Calls (30 days)</Table.Th>
                      <Table.Th w={80}>
                        <Text span size="xs" c="dimmed">
                          Actions
                        </Text>
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {statics.map((s) => (
                      <Table.Tr key={s.id} data-testid="static-source">
                        <Table.Td>
                          <Text size="sm" fw={500}>
                            {s.name}
                          </Text>
                        </Table.Td>
                        <Table.Td ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                          {formatPhone(s.number)}
                        </Table.Td>
                        <Table.Td>
                          <Group gap={6} wrap="nowrap">
                            <SourceBadge source={s.traffic_source} />
                            <Text size="xs" c="dimmed">
                              {[s.source, s.medium, s.campaign].filter(Boolean).join(' / ')}
                            </Text>
                          </Group>
                        </Table.Td>
                        <Table.Td ta="right">{s.calls_30d}</Table.Td>
                        <Table.Td>
                          {canManage ? (
                            <Group gap={2} wrap="nowrap">
                              <ActionIcon variant="subtle" aria-label={`Edit ${s.name}`} onClick={() => setEditing(s)}>
                                <IconPencil size={16} />
                              </ActionIcon>
                              <ActionIcon variant="subtle" color="red" aria-label={`Delete ${s.name}`} onClick={() => setDeleting(s)}>
                                <IconTrash size={16} />
                              </ActionIcon>
                            </Group>
                          ) : null}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Card>
        </Stack>
      )}
      <StaticSourceModal editing={editing} onClose={() => setEditing(null)} numbers={free} />
      <ConfirmModal
        opened={deleting !== null}
        title={`Delete ${deleting?.name ?? ''}?`}
        loading={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: (r) => {
              notify.success(r?.message ?? `${deleting.name} was deleted.`);
              setDeleting(null);
            },
          })
        }
      >
        New calls to {deleting ? formatPhone(deleting.number) : ''} are no longer counted as {deleting?.name}. The number stays in the company and calls already
        counted keep their source.
      </ConfirmModal>
    </>
  );
}
