import { Group, Select, Text } from '@mantine/core';
import { applyDayChoice, dayChoiceValue, TIME_CHOICES, type DayHours, type Weekday } from '@switchboard/domain';

const DAY_NAMES: Record<Weekday, string> = { mon: 'Monday', tue: 'Tuesday', wed: 'Wednesday', thu: 'Thursday', fri: 'Friday', sat: 'Saturday', sun: 'Sunday' };
const CHOICES = TIME_CHOICES.map((c) => ({ value: c.value, label: c.label }));

/** One weekday of a Custom schedule: open and close selects (15-minute steps, Closed, All Day). */
export function DayHoursRow({ day, hours, error, onChange }: { day: Weekday; hours: DayHours; error?: string; onChange: (hours: DayHours) => void }) {
  return (
    <Group gap="sm" wrap="nowrap" data-testid={`day-${day}`}>
      <Text w={100} size="sm" fw={500}>
        {DAY_NAMES[day]}
      </Text>
      <Select
        aria-label={`${DAY_NAMES[day]} open`}
        data={CHOICES}
        value={dayChoiceValue(hours, 'open') || null}
        placeholder="Open"
        onChange={(v) => v && onChange(applyDayChoice(hours, 'open', v))}
        allowDeselect={false}
        searchable
        w={130}
        error={error}
      />
      <Text size="sm" c="dimmed">
        to
      </Text>
      <Select
        aria-label={`${DAY_NAMES[day]} close`}
        data={CHOICES}
        value={dayChoiceValue(hours, 'close') || null}
        placeholder="Close"
        onChange={(v) => v && onChange(applyDayChoice(hours, 'close', v))}
        allowDeselect={false}
        searchable
        w={130}
      />
    </Group>
  );
}
