import { Badge, Button, Chip, Drawer, Group, MultiSelect, NumberInput, SegmentedControl, SimpleGrid, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { formatPhone } from '@switchboard/domain';
import { IconFilter } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useNumberChoices } from '../api/company-context';
import { reportFilterCount } from '../filter-state';
import type { ActivityFilter, ActivityReportFilters, ActivityTypeFlags } from '../types';

const KINDS: Array<{ key: keyof ActivityTypeFlags; label: string }> = [
  { key: 'calls', label: 'Calls' },
  { key: 'voicemails', label: 'Voicemails' },
  { key: 'messages', label: 'Messages' },
  { key: 'faxes', label: 'Faxes' },
  { key: 'notes', label: 'Notes' },
  { key: 'trackingmatch', label: 'Tracked visits' },
];

const ANSWER_STATUSES = [
  { value: 'answered', label: 'Answered' },
  { value: 'missed', label: 'Missed' },
  { value: 'voicemail', label: 'Voicemail' },
  { value: 'blocked', label: 'Blocked' },
] as const;

const EMPTY_REPORT: ActivityReportFilters = {
  from: null,
  to: null,
  number_ids: [],
  answerStatus: [],
  isFirstContact: null,
  trafficSource: [],
  minDuration: null,
};

/** The report filters of the feed in a side panel; they apply to calls and voicemails (messages keep only dates and numbers). */
function ReportFilterDrawer({
  opened,
  onClose,
  value,
  onApply,
}: {
  opened: boolean;
  onClose: () => void;
  value: ActivityReportFilters;
  onApply: (r: ActivityReportFilters) => void;
}) {
  const [draft, setDraft] = useState(value);
  useEffect(() => {
    if (opened) setDraft(value);
  }, [opened, value]);
  const numbers = useNumberChoices(opened);
  const set = <K extends keyof ActivityReportFilters>(k: K, v: ActivityReportFilters[K]) => setDraft((d) => ({ ...d, [k]: v }));
  return (
    <Drawer opened={opened} onClose={onClose} title="Filter activity" position="right" size="md" padding="lg">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          These filters narrow calls and voicemails; messages keep only the dates and numbers.
        </Text>
        <SimpleGrid cols={2}>
          <TextInput
            type="date"
            label="From"
            value={draft.from ?? ''}
            max={draft.to ?? undefined}
            onChange={(e) => set('from', e.currentTarget.value || null)}
          />
          <TextInput type="date" label="To" value={draft.to ?? ''} min={draft.from ?? undefined} onChange={(e) => set('to', e.currentTarget.value || null)} />
        </SimpleGrid>
        <MultiSelect
          label="Numbers"
          placeholder={draft.number_ids.length ? undefined : 'All numbers'}
          data={(numbers.data?.data ?? []).map((n) => ({
            value: String(n.id),
            label: n.label ? `${formatPhone(n.number)} · ${n.label}` : formatPhone(n.number),
          }))}
          value={draft.number_ids.map(String)}
          onChange={(v) => set('number_ids', v.map(Number))}
          searchable
          clearable
        />
        <div>
          <Text size="sm" fw={500} mb={4}>
            Answer status
          </Text>
          <Chip.Group multiple value={draft.answerStatus} onChange={(v) => set('answerStatus', v as ActivityReportFilters['answerStatus'])}>
            <Group gap={6} role="group" aria-label="Answer status">
              {ANSWER_STATUSES.map((s) => (
                <Chip key={s.value} value={s.value} size="sm" variant="light">
                  {s.label}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
        </div>
        <div>
          <Text size="sm" fw={500} mb={4} id="activity-caller-filter">
            Caller
          </Text>
          <SegmentedControl
            aria-labelledby="activity-caller-filter"
            size="xs"
            fullWidth
            value={draft.isFirstContact === null ? 'any' : draft.isFirstContact ? 'first' : 'returning'}
            onChange={(v) => set('isFirstContact', v === 'any' ? null : v === 'first')}
            data={[
              { value: 'any', label: 'Any' },
              { value: 'first', label: 'First-time' },
              { value: 'returning', label: 'Returning' },
            ]}
          />
        </div>
        <TagsInput
          label="Traffic source"
          description="Matches anywhere in the source, e.g. google"
          value={draft.trafficSource}
          onChange={(v) => set('trafficSource', v)}
          clearable
        />
        <NumberInput
          label="Minimum call duration"
          description="Seconds"
          min={0}
          max={86_400}
          allowDecimal={false}
          value={draft.minDuration ?? ''}
          onChange={(v) => set('minDuration', typeof v === 'number' ? v : null)}
        />
        <Group justify="space-between" mt="sm">
          <Button variant="subtle" onClick={() => setDraft(EMPTY_REPORT)}>
            Clear all
          </Button>
          <Group gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button
              onClick={() => {
                onApply(draft);
                onClose();
              }}
            >
              Apply filters
            </Button>
          </Group>
        </Group>
      </Stack>
    </Drawer>
  );
}

/**
 * Filters of the feed (spec 001 §7 "GET /activity"): the type flags as chips (calls, voicemails,
 * messages, faxes on; notes off; tracked visits on) and the report filters in a panel.
 */
export function ActivityFilters({ value, onChange }: { value: ActivityFilter; onChange: (filter: ActivityFilter) => void }) {
  const [opened, drawer] = useDisclosure(false);
  const count = reportFilterCount(value);
  return (
    <Group gap="sm" wrap="wrap">
      <Group gap="xs" role="group" aria-label="Activity types">
        {KINDS.map(({ key, label }) => (
          <Chip key={key} checked={value[key]} onChange={(checked) => onChange({ ...value, [key]: checked })} variant="light">
            {label}
          </Chip>
        ))}
      </Group>
      <Button
        size="xs"
        variant={count ? 'light' : 'default'}
        leftSection={<IconFilter size={14} />}
        rightSection={
          count ? (
            <Badge size="xs" circle aria-hidden>
              {count}
            </Badge>
          ) : null
        }
        aria-label={count ? `More filters (${count} active)` : 'More filters'}
        onClick={drawer.open}
      >
        More filters
      </Button>
      <ReportFilterDrawer opened={opened} onClose={drawer.close} value={value.report} onApply={(report) => onChange({ ...value, report })} />
    </Group>
  );
}

export { EMPTY_REPORT };
