import { Anchor, Badge, Button, Card, Group, Progress, Stack, Table, Text } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import { TRAFFIC_SOURCE_LABELS, type DniPool } from '@switchboard/contracts';
import { IconAlertTriangle, IconPlus, IconRoute } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { EmptyBlock, LoadError } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { usePools } from '../api/pools';
import { HealthBadges } from './labels';
import { routingSummary } from './PoolRoutingCard';
import { TrackingNav } from './TrackingNav';
import { useCan } from '../../../lib/access';

/** "All visitors" or the chosen sources and the number of custom rules. */
export function rulesSummary(pool: Pick<DniPool, 'source_rules'>): string {
  const r = pool.source_rules;
  if (r.all_visitors) return 'All visitors';
  const parts = r.traffic_sources.map((s) => TRAFFIC_SOURCE_LABELS[s]);
  if (r.custom_rules.length > 0) parts.push(`${r.custom_rules.length} custom ${r.custom_rules.length === 1 ? 'rule' : 'rules'}`);
  return parts.length > 0 ? parts.join(', ') : 'No visitors (no source chosen)';
}

/**
 * The columns the pools table can show after the pool's name (report kind `call_tracking_pools`, spec 001
 * "Column presets"): the app composes the column chooser with saved presets over them.
 */
export const POOL_COLUMNS = [
  { key: 'visitors', label: 'Visitors' },
  { key: 'replaces', label: 'Replaces' },
  { key: 'routing', label: 'Calls ring' },
  { key: 'in_use', label: 'Numbers in use' },
  { key: 'health', label: 'Health' },
  { key: 'size', label: 'Size' },
  { key: 'free', label: 'Free now' },
  { key: 'exhaustions', label: 'Exhaustions (7 days)' },
  { key: 'recommended_size', label: 'Recommended size' },
  { key: 'priority', label: 'Priority' },
  { key: 'session', label: 'Session · cool-down' },
  { key: 'fallback', label: 'Fallback number' },
] as const;
export type PoolColumn = (typeof POOL_COLUMNS)[number]['key'];
/** The columns shown without a preset. */
export const DEFAULT_POOL_COLUMNS: string[] = ['visitors', 'replaces', 'routing', 'in_use', 'health'];

/** A table cell of `column` for a pool (the header comes from POOL_COLUMNS). */
function PoolCell({ pool: p, column }: { pool: DniPool; column: PoolColumn }) {
  const used = p.health.in_use + p.health.cooling_down;
  switch (column) {
    case 'visitors':
      return <Text size="sm">{rulesSummary(p)}</Text>;
    case 'replaces':
      return (
        <Stack gap={0}>
          {p.target_numbers.map((t) => (
            <Text key={t} size="sm" ff="monospace">
              {formatPhone(t)}
            </Text>
          ))}
        </Stack>
      );
    case 'routing':
      return p.routing ? (
        <Text size="sm">{routingSummary(p.routing)}</Text>
      ) : (
        <Badge color="red" variant="light" data-testid="pool-no-routing">
          No routing target
        </Badge>
      );
    case 'in_use':
      return (
        <>
          <Text size="xs" mb={4}>
            {used} of {p.health.size}
            {p.pending_purchase_batch_id ? ' · buying…' : ''}
          </Text>
          <Progress
            value={p.health.size > 0 ? (used / p.health.size) * 100 : 0}
            color={p.health.status === 'exhausted' ? 'red' : p.health.status === 'warning' ? 'yellow' : 'teal'}
            size="sm"
            aria-label={`${p.name}: ${used} of ${p.health.size} numbers in use`}
          />
        </>
      );
    case 'health':
      return <HealthBadges health={p.health} />;
    case 'size':
      return <Text size="sm">{p.health.size}</Text>;
    case 'free':
      return <Text size="sm">{p.health.free}</Text>;
    case 'exhaustions':
      return <Text size="sm">{p.health.exhaustion_count_7d}</Text>;
    case 'recommended_size':
      return (
        <Text size="sm" c={p.health.recommended_size > p.health.size ? 'red' : undefined}>
          {p.health.recommended_size}
          {p.health.recommended_size > p.health.size ? ` (add ${p.health.recommended_size - p.health.size})` : ''}
        </Text>
      );
    case 'priority':
      return <Text size="sm">{p.priority}</Text>;
    case 'session':
      return (
        <Text size="sm">
          {p.session_duration_minutes} min · {p.cool_down_minutes} min
        </Text>
      );
    case 'fallback':
      return (
        <Text size="sm" ff={p.fallback_number ? 'monospace' : undefined} c={p.fallback_number ? undefined : 'dimmed'}>
          {p.fallback_number ? formatPhone(p.fallback_number) : 'Website number'}
        </Text>
      );
  }
}

/** The known columns among `columns`, in their order (unknown keys of an old preset are skipped). */
export function poolColumnsOf(columns: readonly string[]): PoolColumn[] {
  const known = new Set<string>(POOL_COLUMNS.map((c) => c.key));
  return columns.filter((c): c is PoolColumn => known.has(c));
}

/**
 * Tracking pools `/tracking` (spec 002 "DNI" pools): each pool with who it serves, the numbers it swaps,
 * its size and health (utilisation, exhaustions in 7 days); a warning above the list when a pool is
 * exhausted now. Opens the pool editor. The table shows the pool's name and `columns` (DEFAULT_POOL_COLUMNS
 * unless told); `columnTools` (the app's column chooser with saved presets) sits above it.
 */
export function PoolsPage({ columns = DEFAULT_POOL_COLUMNS, columnTools }: { columns?: readonly string[]; columnTools?: ReactNode } = {}) {
  const shown = poolColumnsOf(columns);
  const pools = usePools();
  const navigate = useNavigate();
  const rows = pools.data?.data ?? [];
  // Creating and changing pools: `tracking.manage` (docs/permissions.md); reporting reads them.
  const canManage = useCan('tracking.manage');
  const exhausted = rows.filter((p) => p.health.status === 'exhausted');
  return (
    <>
      <PageHeader
        title="Call tracking"
        description="Show each website visitor a number from a pool and see which ad, keyword and pages led to the call."
        actions={
          canManage ? (
            <Button component={Link} to="/tracking/pools/new" leftSection={<IconPlus size={16} />}>
              New pool
            </Button>
          ) : undefined
        }
      />
      <TrackingNav />
      {exhausted.length > 0 ? (
        <Card withBorder radius="md" mb="md" bg="var(--mantine-color-red-light)" role="status" data-testid="exhausted-warning">
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <IconAlertTriangle size={18} color="var(--mantine-color-red-7)" style={{ flexShrink: 0, marginTop: 2 }} />
            <Text size="sm">
              {exhausted.map((p) => p.name).join(', ')} {exhausted.length === 1 ? 'has' : 'have'} no free number: new visitors see the fallback number and their
              calls cannot be tied to a visit. Add numbers to the pool.
            </Text>
          </Group>
        </Card>
      ) : null}
      {columnTools && rows.length > 0 ? (
        <Group justify="flex-end" mb="xs" visibleFrom="sm" data-testid="pool-column-tools">
          {columnTools}
        </Group>
      ) : null}
      <Card withBorder radius="md" p={0}>
        {pools.isPending ? (
          <ListSkeleton rows={3} height={56} />
        ) : pools.isError ? (
          <LoadError what="tracking pools" onRetry={() => void pools.refetch()} />
        ) : rows.length === 0 ? (
          <EmptyBlock
            icon={<IconRoute />}
            title="No tracking pools yet"
            description="A pool is a set of numbers your website shows visitors in place of your own number, one per visitor, so each call is tied to the visit."
            action={
              canManage ? (
                <Button component={Link} to="/tracking/pools/new">
                  New pool
                </Button>
              ) : undefined
            }
          />
        ) : (
          <>
            {/* Phone width: one card per pool (the table's five columns don't fit). */}
            <Stack gap={0} hiddenFrom="sm">
              {rows.map((p) => {
                const used = p.health.in_use + p.health.cooling_down;
                return (
                  <Stack key={p.id} gap={6} p="sm" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }} data-testid="pool-card">
                    <Group justify="space-between" wrap="nowrap">
                      <Anchor component={Link} to={`/tracking/pools/${p.id}`} fw={500} c="inherit">
                        {p.name}
                      </Anchor>
                      <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                        {used} of {p.health.size} in use
                      </Text>
                    </Group>
                    <Text size="sm" c="dimmed">
                      {rulesSummary(p)} · replaces {p.target_numbers.map(formatPhone).join(', ')}
                      {!p.active ? ' · paused' : ''}
                    </Text>
                    {p.routing ? (
                      <Text size="sm">{routingSummary(p.routing)}</Text>
                    ) : (
                      <Badge color="red" variant="light" data-testid="pool-no-routing">
                        No routing target
                      </Badge>
                    )}
                    <HealthBadges health={p.health} />
                  </Stack>
                );
              })}
            </Stack>
            <Table.ScrollContainer minWidth={Math.max(560, 200 + shown.length * 140)} visibleFrom="sm">
              <Table highlightOnHover verticalSpacing="sm" data-testid="pools-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Pool</Table.Th>
                    {shown.map((c) => (
                      <Table.Th key={c} w={c === 'in_use' ? 160 : undefined} data-column={c}>
                        {POOL_COLUMNS.find((o) => o.key === c)!.label}
                      </Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((p) => (
                    <Table.Tr key={p.id} data-testid="pool-row" style={{ cursor: 'pointer' }} onClick={() => void navigate(`/tracking/pools/${p.id}`)}>
                      <Table.Td>
                        <Anchor component={Link} to={`/tracking/pools/${p.id}`} size="sm" fw={500} c="inherit" onClick={(e) => e.stopPropagation()}>
                          {p.name}
                        </Anchor>
                        {!p.active ? (
                          <Text size="xs" c="dimmed">
                            Paused
                          </Text>
                        ) : null}
                      </Table.Td>
                      {shown.map((c) => (
                        <Table.Td key={c}>
                          <PoolCell pool={p} column={c} />
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </>
        )}
      </Card>
    </>
  );
}
