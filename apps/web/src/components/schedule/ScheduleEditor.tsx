import { Card, Grid, Select, Stack, Text, Title } from '@mantine/core';
import {
  applyPreset,
  effectiveHours,
  SCHEDULE_HOURS_MESSAGES,
  SCHEDULE_PRESET,
  SCHEDULE_PRESETS,
  scheduleHoursErrors,
  to12h,
  WEEKDAYS,
  type Schedule,
  type SchedulePreset,
} from '@switchboard/domain';
import type { ReactNode } from 'react';
import { TimezoneSelect } from '../TimezoneSelect';
import { DayHoursRow } from './DayHoursRow';

type FieldErrors = Record<string, string[]>;
const errorAt = (errors: FieldErrors, path: string): string | undefined => errors[path]?.[0];

const PRESET_DATA = Object.entries(SCHEDULE_PRESETS).map(([value, label]) => ({ value, label }));

function summary(schedule: Schedule): string[] {
  const hours = effectiveHours(schedule);
  return WEEKDAYS.map((day) => {
    const h = hours[day];
    const text = h.open && h.close ? `${to12h(h.open)} – ${to12h(h.close)}` : 'Closed';
    return `${day[0]!.toUpperCase()}${day.slice(1)}: ${text}`;
  });
}

/** Messages of a day still being filled in (one hour chosen). */
const IN_PROGRESS: readonly string[] = [SCHEDULE_HOURS_MESSAGES.missingOpen, SCHEDULE_HOURS_MESSAGES.missingClose];

/**
 * Business hours editor shared by numbers, templates and the company schedule (foundation §3, §4): a preset, a time zone and, for Custom, each weekday's open and
 * close time (shown 12-hour, kept and sent as 24-hour HH:mm). The hours are checked as they change
 * with the rule the server applies (`scheduleHoursErrors`: a close after the open); `errors` (keys
 * `preset`, `timezone`, `hours.{day}.open|close`) adds the messages of a save attempt.
 */
export function ScheduleEditor({
  schedule,
  errors = {},
  onChange,
  title = 'Business hours',
  children,
}: {
  schedule: Schedule;
  errors?: FieldErrors;
  onChange: (schedule: Schedule) => void;
  title?: string;
  /** Extra content under the hours (e.g. holidays). */
  children?: ReactNode;
}) {
  const custom = schedule.preset === SCHEDULE_PRESET.CUSTOM;
  // The rule on the hours as they are now (a fixed day loses its message at once); a half-filled
  // day is flagged only after a save attempt reported it.
  const rule = scheduleHoursErrors(schedule);
  const hoursError = (day: string, field: 'open' | 'close') => {
    const path = `hours.${day}.${field}`;
    const message = errorAt(rule, path);
    return message && (!IN_PROGRESS.includes(message) || errors[path]) ? message : undefined;
  };
  const fixed = schedule.preset === 2 || schedule.preset === 3 || schedule.preset === 6;
  return (
    <Card withBorder radius="md" padding="md" data-testid="schedule-editor">
      <Title order={4} mb="sm">
        {title}
      </Title>
      <Grid gap="sm" mb="sm">
        <Grid.Col span={{ base: 12, sm: 5 }}>
          <Select
            label="Schedule"
            data={PRESET_DATA}
            value={String(schedule.preset)}
            allowDeselect={false}
            error={errorAt(errors, 'preset')}
            onChange={(v) => v && onChange(applyPreset(Number(v) as SchedulePreset, schedule.timezone, custom ? schedule.hours : effectiveHours(schedule)))}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 7 }}>
          <TimezoneSelect
            value={schedule.timezone}
            error={errorAt(errors, 'timezone')}
            allowDeselect={false}
            onChange={(v) => v && onChange({ ...schedule, timezone: v })}
          />
        </Grid.Col>
      </Grid>
      {custom ? (
        <Stack gap="xs">
          {WEEKDAYS.map((day) => (
            <DayHoursRow
              key={day}
              day={day}
              hours={schedule.hours[day]}
              openError={hoursError(day, 'open')}
              closeError={hoursError(day, 'close')}
              onChange={(hours) => onChange({ ...schedule, hours: { ...schedule.hours, [day]: hours } })}
            />
          ))}
        </Stack>
      ) : fixed ? (
        <Text size="sm" c="dimmed">
          {summary(schedule).join(' · ')}. Outside these hours calls go to voicemail when it is on.
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          {schedule.preset === SCHEDULE_PRESET.DIRECT_VOICEMAIL ? 'Every call goes straight to voicemail.' : 'Calls ring at any time, every day.'}
        </Text>
      )}
      {children}
    </Card>
  );
}
