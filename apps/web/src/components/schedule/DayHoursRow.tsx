import { Group, Select, Text } from '@mantine/core';
import { applyDayChoice, dayChoiceValue, TIME_CHOICES, type DayHours, type Weekday } from '@switchboard/domain';

const DAY_NAMES: Record<Weekday, string> = { mon: 'Monday', tue: 'Tuesday', wed: 'Wednesday', thu: 'Thursday', fri: 'Friday', sat: 'Saturday', sun: 'Sunday' };
const CHOICES = TIME_CHOICES.map((c) => ({ value: c.value, label: c.label }));

/**
 * One weekday of a Custom schedule: open and close selects (15-minute steps, Closed, All Day).
 * `openError` / `closeError`: the messages of the schedule rule (`scheduleHoursErrors`) or the server.
 */
export function DayHoursRow({
  day,
  hours,
  openError,
  closeError,
  onChange,
}: {
  day: Weekday;
  hours: DayHours;
  openError?: string;
  closeError?: string;
  onChange: (hours: DayHours) => void;
}) {
  return (
    <Group gap="sm" wrap="nowrap" align="flex-start" data-testid={`day-${day}`}>
      <Text w={100} size="sm" fw={500} mt={6}>
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
        w={openError ? 220 : 130}
        error={openError}
      />
      <Text size="sm" c="dimmed" mt={6}>
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
        w={closeError ? 220 : 130}
        error={closeError}
      />
    </Group>
  );
}
