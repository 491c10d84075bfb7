import { Group, Select, Text, TextInput } from '@mantine/core';
import { COMPARISON_OPTIONS, RANGE_PRESETS, formatRange, isDay, type ComparisonOption, type DayRange, type RangePreset } from '../ranges';

interface RangeControlsProps {
  preset: RangePreset;
  /** The range the preset covers now (shown under the picker; the custom inputs' values). */
  range: DayRange;
  onChange: (preset: RangePreset, custom: DayRange | null) => void;
  /** Given: a comparison period picker beside the range. */
  comparison?: { value: ComparisonOption; onChange: (value: ComparisonOption) => void; range: DayRange | null };
  /** The company's time zone, named under the picker. */
  timezone: string;
}

/**
 * The date range of a report or the dashboard: presets (today, 7, 30, 90 days, this month) or a custom
 * range of two days (inclusive; native date inputs), optionally the comparison period (spec 002 §9).
 * Days are the company's (`timezone`).
 */
export function RangeControls({ preset, range, onChange, comparison, timezone }: RangeControlsProps) {
  const setCustom = (next: DayRange) => {
    if (!isDay(next.from) || !isDay(next.to)) return;
    onChange('custom', next.from <= next.to ? next : { from: next.to, to: next.from });
  };
  return (
    <div>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label="Date range"
          data={RANGE_PRESETS}
          value={preset}
          allowDeselect={false}
          onChange={(v) => v && onChange(v as RangePreset, v === 'custom' ? range : null)}
          w={170}
        />
        {preset === 'custom' ? (
          <>
            <TextInput
              type="date"
              label="From"
              value={range.from}
              max={range.to}
              onChange={(e) => setCustom({ from: e.currentTarget.value, to: range.to })}
              w={160}
            />
            <TextInput
              type="date"
              label="To"
              value={range.to}
              min={range.from}
              onChange={(e) => setCustom({ from: range.from, to: e.currentTarget.value })}
              w={160}
            />
          </>
        ) : null}
        {comparison ? (
          <Select
            label="Compare with"
            data={COMPARISON_OPTIONS}
            value={comparison.value}
            allowDeselect={false}
            onChange={(v) => v && comparison.onChange(v as ComparisonOption)}
            w={170}
          />
        ) : null}
      </Group>
      <Text size="xs" c="dimmed" mt={4} data-testid="range-summary">
        {formatRange(range)}
        {comparison?.range ? ` vs ${formatRange(comparison.range)}` : ''} · {timezone}
      </Text>
    </div>
  );
}
