import { ActionIcon, Badge, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { isOpenAt, resolveTimeZone, scheduleHoursErrors, scheduleLabel, zonedDateTime, type Schedule } from '@switchboard/domain';
import { IconCalendarOff, IconDeviceFloppy, IconPlus, IconX } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { ScheduleEditor } from '../../../components/schedule/ScheduleEditor';
import { UnsavedChangesPrompt } from '../../../components/schedule/UnsavedChangesPrompt';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useCompanySchedule, useSaveCompanySchedule } from '../api/company-schedule';
import { useCan } from '../../../lib/access';
import { ReadOnly } from '../../../components/ReadOnly';
import { formatDay } from '../../../lib/dates';
import { RequireAbility } from '../../../components/RequireAbility';

/** A YYYY-MM-DD date in the company's date format ("Dec 25", "25/12/2026"; lib/dates). */
function showDate(date: string): string {
  return formatDay(date);
}

/**
 * Where the company's hours stand right now, with the rule the call flow uses (`isOpenAt`: the
 * schedule in its own zone, holidays closed): e.g. "Company hours: Custom · open now".
 */
function currentState(schedule: Schedule, holidays: string[], now = new Date()): string {
  const today = zonedDateTime(now, resolveTimeZone(schedule.timezone, 'UTC')).date;
  const state = holidays.includes(today) ? 'closed today (holiday)' : isOpenAt(schedule, now, holidays) ? 'open now' : 'closed now';
  return `Company hours: ${schedule.preset === 1 ? 'open 24/7' : scheduleLabel(schedule, false)} · ${state}`;
}

/**
 * Company schedule: business hours for the whole company and holiday dates when every number is
 * closed. The header says whether the company's hours are open right now (not just the preset's
 * name), and that each number follows the hours set in its routing editor. Leaving with unsaved
 * edits asks first.
 * Roles without `numbers.read` get the "not available with your role" state (components/RequireAbility).
 */
export function SchedulePage() {
  return (
    <RequireAbility ability="numbers.read" title="Schedule">
      <ScheduleScreen />
    </RequireAbility>
  );
}

function ScheduleScreen() {
  // The schedule changes with `numbers.manage`; other roles read it (every control disabled).
  const canManage = useCan('numbers.manage');
  const loaded = useCompanySchedule();
  const save = useSaveCompanySchedule();
  const [schedule, setSchedule] = useState<Schedule | null>(null);
  const [holidays, setHolidays] = useState<string[]>([]);
  const [newDate, setNewDate] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [now, setNow] = useState(() => new Date());

  useEffect(() => {
    if (loaded.data && schedule === null) {
      setSchedule(loaded.data.data.schedule);
      setHolidays(loaded.data.data.holidays);
    }
  }, [loaded.data, schedule]);

  // The "open now" state follows the clock.
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 60_000);
    return () => window.clearInterval(timer);
  }, []);

  const stored = loaded.data?.data;
  const dirty = Boolean(schedule && stored && JSON.stringify([schedule, holidays]) !== JSON.stringify([stored.schedule, stored.holidays]));

  const addHoliday = () => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(newDate)) return;
    setHolidays((h) => [...new Set([...h, newDate])].sort());
    setNewDate('');
  };

  const submit = () => {
    if (!schedule) return;
    const local = Object.fromEntries(Object.entries(scheduleHoursErrors(schedule)).map(([k, v]) => [`schedule.${k}`, v]));
    if (Object.keys(local).length > 0) {
      setErrors(local);
      notify.danger('Please fix the highlighted hours.', 5000);
      return;
    }
    save.mutate(
      { schedule, holidays },
      {
        onSuccess: (r) => {
          setErrors({});
          setSchedule(r.data.schedule);
          setHolidays(r.data.holidays);
          notify.success(r.message ?? 'The schedule has been updated.');
        },
        onError: (e) => {
          if (e instanceof HttpError && e.status === 422) setErrors(e.fieldErrors);
        },
      },
    );
  };

  return (
    <>
      <PageHeader
        title="Company schedule"
        description={
          stored
            ? `${currentState(stored.schedule, stored.holidays, now)}. Each number rings by the hours set in its own routing editor; holidays close every number.`
            : 'Business hours and holidays for the whole company.'
        }
      />
      <UnsavedChangesPrompt dirty={dirty && !save.isPending} what="schedule changes" />
      <ReadOnly when={!canManage}>
        {!schedule ? (
          <ListSkeleton rows={3} height={80} />
        ) : (
          <Stack gap="md" maw={820}>
            <ScheduleEditor
              schedule={schedule}
              onChange={setSchedule}
              errors={Object.fromEntries(
                Object.entries(errors)
                  .filter(([k]) => k.startsWith('schedule.'))
                  .map(([k, v]) => [k.slice(9), v]),
              )}
            />
            <Card withBorder radius="md" padding="md" data-testid="holidays">
              <Title order={4} mb={4}>
                Holidays
              </Title>
              <Text size="sm" c="dimmed" mb="sm">
                Closed all day on these dates (in the schedule's time zone); calls go to voicemail when it is on.
              </Text>
              <Group align="flex-end" gap="sm" mb="sm">
                <TextInput type="date" label="Date" value={newDate} onChange={(e) => setNewDate(e.currentTarget.value)} w={200} error={errors.holidays?.[0]} />
                <Button variant="light" leftSection={<IconPlus size={16} />} onClick={addHoliday} disabled={!newDate}>
                  Add holiday
                </Button>
              </Group>
              {holidays.length === 0 ? (
                <Group gap="xs" c="dimmed">
                  <IconCalendarOff size={16} />
                  <Text size="sm">No holidays yet.</Text>
                </Group>
              ) : (
                <Group gap="xs">
                  {holidays.map((d) => (
                    <Badge
                      key={d}
                      size="lg"
                      variant="light"
                      data-testid="holiday"
                      rightSection={
                        <ActionIcon
                          size="xs"
                          variant="transparent"
                          aria-label={`Remove ${showDate(d)}`}
                          onClick={() => setHolidays((h) => h.filter((x) => x !== d))}
                        >
                          <IconX size={12} />
                        </ActionIcon>
                      }
                    >
                      {showDate(d)}
                    </Badge>
                  ))}
                </Group>
              )}
            </Card>
            {canManage ? (
              <Group justify="flex-end">
                <Button leftSection={<IconDeviceFloppy size={16} />} onClick={submit} loading={save.isPending}>
                  Save schedule
                </Button>
              </Group>
            ) : null}
          </Stack>
        )}
      </ReadOnly>
    </>
  );
}
