import { Card, Group, SimpleGrid, Text, ThemeIcon } from '@mantine/core';
import type { DashboardKpis, Kpi } from '@switchboard/contracts';
import { IconArrowDownRight, IconArrowUpRight, IconMinus } from '@tabler/icons-react';
import { formatCount, formatSecondsShort } from '../format';

interface KpiDef {
  key: keyof DashboardKpis;
  label: string;
  format: (v: number) => string;
  /** A rise is bad news (missed calls, voicemails, slower answers): shown in red, a fall in green. */
  riseIsBad?: boolean;
}

const KPIS: KpiDef[] = [
  { key: 'totalCalls', label: 'Total calls', format: formatCount },
  { key: 'answered', label: 'Answered', format: formatCount },
  { key: 'missed', label: 'Missed', format: formatCount, riseIsBad: true },
  { key: 'voicemails', label: 'Voicemails', format: formatCount, riseIsBad: true },
  { key: 'firstTimeCallers', label: 'First-time callers', format: formatCount },
  { key: 'avgAnswerTimeS', label: 'Avg. time to answer', format: formatSecondsShort, riseIsBad: true },
  { key: 'avgDurationS', label: 'Avg. call duration', format: formatSecondsShort },
  { key: 'messages', label: 'Messages', format: formatCount },
  { key: 'faxes', label: 'Faxes', format: formatCount },
];

/** The change as words: the arrow's meaning is never colour alone (WCAG 1.4.1). */
export function changeText(kpi: Kpi, format: (v: number) => string): string {
  if (kpi.changePct === null) return kpi.value === 0 ? 'No change' : 'New: none before';
  if (kpi.direction === 'flat' || kpi.changePct === 0) return `No change from ${format(kpi.previous)}`;
  return `${kpi.direction === 'up' ? 'Up' : 'Down'} ${Math.abs(kpi.changePct).toLocaleString('en-US', { maximumFractionDigits: 1 })}% from ${format(kpi.previous)}`;
}

function KpiCard({ def, kpi }: { def: KpiDef; kpi: Kpi }) {
  const up = kpi.direction === 'up';
  const flat = kpi.direction === 'flat' || kpi.changePct === null;
  const good = flat ? null : up !== Boolean(def.riseIsBad);
  const color = good === null ? 'gray' : good ? 'teal' : 'red';
  const Icon = flat ? IconMinus : up ? IconArrowUpRight : IconArrowDownRight;
  return (
    <Card withBorder radius="md" padding="md" data-testid={`kpi-${def.key}`} role="group" aria-label={def.label}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700} lh={1.2}>
        {def.label}
      </Text>
      <Text fz={26} fw={700} lh={1.3} mt={4} data-testid="kpi-value" style={{ fontVariantNumeric: 'tabular-nums' }}>
        {def.format(kpi.value)}
      </Text>
      <Group gap={4} wrap="nowrap" mt={2}>
        <ThemeIcon size={18} radius="xl" variant="light" color={color} aria-hidden>
          <Icon size={12} />
        </ThemeIcon>
        {/* Dark shades: 4.5:1 on white (WCAG 1.4.3). */}
        <Text size="xs" c={good === null ? 'dimmed' : good ? 'teal.9' : 'red.9'} data-testid="kpi-change">
          {changeText(kpi, def.format)}
        </Text>
      </Group>
    </Card>
  );
}

/** The nine KPI cards of the dashboard, each with its change from the comparison period. */
export function KpiCards({ kpis }: { kpis: DashboardKpis }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm" data-testid="kpi-cards">
      {KPIS.map((def) => (
        <KpiCard key={def.key} def={def} kpi={kpis[def.key]} />
      ))}
    </SimpleGrid>
  );
}
