import {
  Button,
  Chip,
  Divider,
  Drawer,
  Group,
  MultiSelect,
  NumberInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
} from '@mantine/core';
import { ANSWER_STATUS_NAMES, ATTRIBUTION_MODELS, CALL_OUTCOMES, DEPARTMENT_TYPES } from '@switchboard/contracts';
import { useEffect, useState } from 'react';
import { useFilterOptions } from '../api/filter-options';
import { ANSWER_STATUS_LABELS, ATTRIBUTION_LABELS, DEPARTMENT_LABELS, OUTCOME_LABELS } from '../labels';
import { EMPTY_FILTERS, type ReportFilterState } from '../report-state';

interface ReportFiltersProps {
  opened: boolean;
  onClose: () => void;
  value: ReportFilterState;
  onApply: (filters: ReportFilterState) => void;
  today: string;
  timezone: string;
}

type TriState = boolean | null;

function TriStateControl({ label, value, onChange, yes, no }: { label: string; value: TriState; onChange: (v: TriState) => void; yes: string; no: string }) {
  return (
    <div>
      <Text size="sm" fw={500} mb={4} id={`tri-${label}`}>
        {label}
      </Text>
      <SegmentedControl
        aria-labelledby={`tri-${label}`}
        size="xs"
        fullWidth
        value={value === null ? 'any' : value ? 'yes' : 'no'}
        onChange={(v) => onChange(v === 'any' ? null : v === 'yes')}
        data={[
          { value: 'any', label: 'Any' },
          { value: 'yes', label: yes },
          { value: 'no', label: no },
        ]}
      />
    </div>
  );
}

const toIds = (values: string[]) => values.map(Number);
const toValues = (ids: number[]) => ids.map(String);

/**
 * The report filters of spec 001 §7 in a side panel: numbers, tags, answer status, minimum duration,
 * first contact, answered by, caller location (geo), attribution model, traffic source, outcomes and
 * departments (only where the company records them), qualified, lead, tracking pools, extension labels, and companies / business units for
 * people in several. Text filters match anywhere unless "exact match" is on (the spec's wildcard rule).
 * Edits apply on "Apply filters".
 */
export function ReportFilters({ opened, onClose, value, onApply, today, timezone }: ReportFiltersProps) {
  const [draft, setDraft] = useState(value);
  useEffect(() => {
    if (opened) setDraft(value);
  }, [opened, value]);
  const options = useFilterOptions(opened, today, timezone);
  const set = <K extends keyof ReportFilterState>(key: K, v: ReportFilterState[K]) => setDraft((d) => ({ ...d, [key]: v }));

  return (
    <Drawer opened={opened} onClose={onClose} title="Filter calls" position="right" size="md" padding="lg">
      <Stack gap="md" pb={72}>
        <MultiSelect
          label="Numbers"
          placeholder={draft.number_ids.length ? undefined : 'All numbers'}
          data={options.numbers}
          value={toValues(draft.number_ids)}
          onChange={(v) => set('number_ids', toIds(v))}
          searchable
          clearable
        />
        <div>
          <Text size="sm" fw={500} mb={4}>
            Answer status
          </Text>
          <Chip.Group multiple value={draft.answerStatus} onChange={(v) => set('answerStatus', v as ReportFilterState['answerStatus'])}>
            <Group gap={6} role="group" aria-label="Answer status">
              {ANSWER_STATUS_NAMES.filter((s) => s !== 'none').map((s) => (
                <Chip key={s} value={s} size="sm" variant="light">
                  {ANSWER_STATUS_LABELS[s]}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
        </div>
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <NumberInput
            label="Minimum duration"
            description="Seconds"
            min={0}
            max={86_400}
            value={draft.minDuration ?? ''}
            onChange={(v) => set('minDuration', typeof v === 'number' ? v : null)}
            allowDecimal={false}
          />
          <Select
            label="Attribution model"
            description="Which visit a call's source is"
            data={ATTRIBUTION_MODELS.map((m) => ({ value: m, label: ATTRIBUTION_LABELS[m] }))}
            value={draft.attributionModel}
            onChange={(v) => set('attributionModel', v as ReportFilterState['attributionModel'])}
            placeholder="Last touch"
            clearable
          />
        </SimpleGrid>
        <TriStateControl label="Caller" value={draft.isFirstContact} onChange={(v) => set('isFirstContact', v)} yes="First-time" no="Returning" />
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <TriStateControl label="Qualified" value={draft.isQualified} onChange={(v) => set('isQualified', v)} yes="Yes" no="No" />
          <TriStateControl label="Lead" value={draft.isLead} onChange={(v) => set('isLead', v)} yes="Yes" no="No" />
        </SimpleGrid>
        <Divider label="Marketing" labelPosition="left" />
        <TagsInput
          label="Traffic source"
          description="e.g. Google Ads, organic, direct"
          data={options.trafficSources}
          value={draft.trafficSource}
          onChange={(v) => set('trafficSource', v)}
          clearable
        />
        <Switch
          label="Traffic source: exact match"
          size="xs"
          checked={draft.trafficSourceExact}
          onChange={(e) => set('trafficSourceExact', e.currentTarget.checked)}
        />
        <MultiSelect
          label="Tracking pools"
          data={options.pools}
          value={toValues(draft.dniPools)}
          onChange={(v) => set('dniPools', toIds(v))}
          clearable
          searchable
        />
        <TagsInput
          label="Caller location"
          description="State or province code, e.g. CA"
          data={options.geo}
          value={draft.geo}
          onChange={(v) => set('geo', v)}
          clearable
        />
        <Switch label="Caller location: exact match" size="xs" checked={draft.geoExact} onChange={(e) => set('geoExact', e.currentTarget.checked)} />
        <Divider label="Handling" labelPosition="left" />
        <MultiSelect
          label="Answered by"
          data={options.answeredBy}
          value={toValues(draft.answered_by)}
          onChange={(v) => set('answered_by', toIds(v))}
          clearable
          searchable
        />
        <MultiSelect label="Tags" data={options.tags} value={toValues(draft.tagIds)} onChange={(v) => set('tagIds', toIds(v))} clearable searchable />
        {/* Only for a company that records them (a Call custom field "Outcome" / "Department"), or a filter already set. */}
        {options.usesOutcomes || draft.outcomes.length > 0 ? (
          <MultiSelect
            label="Outcomes"
            data={CALL_OUTCOMES.map((o) => ({ value: o, label: OUTCOME_LABELS[o] }))}
            value={draft.outcomes}
            onChange={(v) => set('outcomes', v as ReportFilterState['outcomes'])}
            clearable
          />
        ) : null}
        {options.usesDepartments || draft.departments.length > 0 ? (
          <MultiSelect
            label="Departments"
            data={DEPARTMENT_TYPES.map((d) => ({ value: d, label: DEPARTMENT_LABELS[d] }))}
            value={draft.departments}
            onChange={(v) => set('departments', v as ReportFilterState['departments'])}
            clearable
          />
        ) : null}
        <TagsInput label="Extension labels" value={draft.extensionLabels} onChange={(v) => set('extensionLabels', v)} clearable />
        <Switch
          label="Extension labels: exact match"
          size="xs"
          checked={draft.extensionLabelsExact}
          onChange={(e) => set('extensionLabelsExact', e.currentTarget.checked)}
        />
        {options.companies.length > 1 ? (
          <>
            <Divider label="Accounts" labelPosition="left" />
            <MultiSelect
              label="Companies"
              description="Include the calls of these companies too"
              data={options.companies}
              value={toValues(draft.companies)}
              onChange={(v) => set('companies', toIds(v))}
              clearable
            />
            {options.businessUnits.length ? (
              <MultiSelect
                label="Business units"
                data={options.businessUnits}
                value={toValues(draft.businessUnits)}
                onChange={(v) => set('businessUnits', toIds(v))}
                clearable
              />
            ) : null}
          </>
        ) : null}
      </Stack>
      <Group
        justify="space-between"
        p="md"
        style={{
          position: 'sticky',
          bottom: 0,
          background: 'var(--mantine-color-body)',
          borderTop: '1px solid var(--mantine-color-default-border)',
          margin: 'calc(-1 * var(--mantine-spacing-lg))',
          marginTop: 0,
        }}
      >
        <Button variant="subtle" onClick={() => setDraft(EMPTY_FILTERS)}>
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
    </Drawer>
  );
}
