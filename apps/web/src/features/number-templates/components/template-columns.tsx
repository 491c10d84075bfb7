/**
 * The columns of the call flows list (number templates: a routing setup and business hours saved once and applied to
 * many numbers; spec 001 "Column preset" kind `call_flows`; docs/reports-screens.md "Column presets"): each column's
 * key (what a preset saves), label and cell. The row's actions (edit, delete, apply) are always there.
 */
import { Text } from '@mantine/core';
import { displayRouteType, scheduleLabel } from '@switchboard/domain';
import type { ReactNode } from 'react';
import { formatDateTime } from '../../../lib/format';
import type { NumberTemplate } from '../types';

export interface TemplateColumn {
  key: string;
  label: string;
  cell: (t: NumberTemplate) => ReactNode;
}

const onOff = (on: boolean) => (
  <Text size="sm" c={on ? undefined : 'dimmed'}>
    {on ? 'On' : 'Off'}
  </Text>
);
const forwardsOf = (t: NumberTemplate) => t.routes.reduce((n, r) => n + r.forwards.length, 0);

/** Every column the call flows list can show, in their natural order. */
export const TEMPLATE_COLUMNS: TemplateColumn[] = [
  {
    key: 'name',
    label: 'Name',
    cell: (t) => (
      <Text fw={600} size="sm">
        {t.name}
      </Text>
    ),
  },
  { key: 'route_type', label: 'Routing', cell: (t) => <Text size="sm">{t.routes[0] ? displayRouteType(t.routes[0]) : 'No extensions'}</Text> },
  { key: 'extensions', label: 'Extensions', cell: (t) => <Text size="sm">{t.routes.length}</Text> },
  { key: 'forwards', label: 'Forwards', cell: (t) => <Text size="sm">{forwardsOf(t)}</Text> },
  { key: 'schedule', label: 'Hours', cell: (t) => <Text size="sm">{scheduleLabel(t.schedule, t.routes[0]?.type === 'voicemail')}</Text> },
  { key: 'recording', label: 'Recording', cell: (t) => onOff(t.record) },
  { key: 'transcription', label: 'Transcription', cell: (t) => onOff(t.call_transcription_enabled) },
  { key: 'ai_attributes', label: 'AI attributes', cell: (t) => onOff(t.ai_eav_enabled) },
  {
    key: 'updated_at',
    label: 'Changed',
    cell: (t) => (
      <Text size="sm" c="dimmed">
        {formatDateTime(t.updated_at)}
      </Text>
    ),
  },
];

/** The columns shown when no preset is chosen. */
export const DEFAULT_TEMPLATE_COLUMNS = ['name', 'route_type', 'extensions', 'forwards', 'schedule', 'recording'];

/** Keys and labels for the column chooser. */
export const TEMPLATE_COLUMN_OPTIONS = TEMPLATE_COLUMNS.map((c) => ({ key: c.key, label: c.label }));

/** The columns of `keys` in their order (unknown keys dropped; none left = the defaults). */
export function templateColumnsOf(keys: readonly string[] | undefined): TemplateColumn[] {
  const pick = (list: readonly string[]) => list.map((k) => TEMPLATE_COLUMNS.find((c) => c.key === k)).filter((c): c is TemplateColumn => Boolean(c));
  const chosen = keys ? pick(keys) : [];
  return chosen.length ? chosen : pick(DEFAULT_TEMPLATE_COLUMNS);
}
