import { Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { cleanRoutes, defaultSchedule, localTimeZone, formatPhone, NUMBER_UPDATED, newRouteEntry, parsePhone, suggestExtension, type RouteEntry, type Schedule } from '@switchboard/domain';
import { IconDeviceFloppy, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useUpdateNumber } from '../api/update-number';
import type { PhoneNumber } from '../types';
import { errorAt, errorsUnder, type FieldErrors } from './field-errors';
import { RouteEntryCard } from './RouteEntryCard';
import { ScheduleEditor } from './ScheduleEditor';

const INVALID_PHONE = 'Enter a valid phone number';
const DUPLICATE_EXTENSION = 'Each extension needs its own number';

/** Client checks before saving, keyed like the server's 422 field errors. */
function validate(routes: RouteEntry[]): FieldErrors {
  const errors: FieldErrors = {};
  const seen = new Set<number>();
  routes.forEach((route, i) => {
    if (seen.has(route.extension)) errors[`routes.${i}.extension`] = [DUPLICATE_EXTENSION];
    seen.add(route.extension);
    route.forwards.forEach((f, j) => {
      if (parsePhone(f.number) === null) errors[`routes.${i}.forwards.${j}.number`] = [INVALID_PHONE];
    });
  });
  return errors;
}

/** Label, extension entries and business hours of one number; Save sends PUT /api/numbers/{id}. */
export function NumberEditor({ number }: { number: PhoneNumber }) {
  const update = useUpdateNumber();
  const [label, setLabel] = useState(number.label ?? '');
  const [schedule, setSchedule] = useState<Schedule>(() => number.schedule ?? defaultSchedule(localTimeZone()));
  const [routes, setRoutes] = useState<RouteEntry[]>(() => (number.routes.length > 0 ? number.routes : [newRouteEntry(number.schedule?.timezone ?? localTimeZone())]));
  const [errors, setErrors] = useState<FieldErrors>({});

  const addEntry = () => setRoutes((rs) => [...rs, { ...newRouteEntry(schedule.timezone), extension: suggestExtension(rs.map((r) => r.extension)) }]);
  const changeEntry = (index: number, entry: RouteEntry) => setRoutes((rs) => rs.map((r, i) => (i === index ? entry : r)));
  const removeEntry = (index: number) => setRoutes((rs) => rs.filter((_, i) => i !== index));

  const save = () => {
    const cleaned = cleanRoutes(routes, schedule.timezone);
    const local = validate(cleaned);
    setRoutes(cleaned);
    setErrors(local);
    if (Object.keys(local).length > 0) {
      notify.danger('Please fix the highlighted fields.', 5000);
      return;
    }
    const normalized = cleaned.map((r) => ({ ...r, forwards: r.forwards.map((f) => ({ number: parsePhone(f.number) ?? f.number })) }));
    update.mutate(
      { id: number.id, company_id: number.company_id, label: label.trim(), routes: normalized, schedule },
      {
        onSuccess: (result) => {
          notify.success(result.message || NUMBER_UPDATED);
          if (result.data) {
            setRoutes(result.data.routes.length > 0 ? result.data.routes : normalized);
            setSchedule(result.data.schedule ?? schedule);
          }
        },
        onError: (error) => {
          if (error instanceof HttpError && error.status === 422) setErrors(error.fieldErrors);
        },
      },
    );
  };

  return (
    <Stack gap="md" maw={960}>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <div>
          <Title order={2} ff="monospace" data-testid="editor-number">
            {formatPhone(number.number)}
          </Title>
          <Text c="dimmed" size="sm">
            {number.type_label} · {number.schedule_label || 'No schedule'}
          </Text>
        </div>
      </Group>
      <Card withBorder radius="md" padding="md">
        <TextInput label="Number label" description="How this number appears across the app, e.g. Main line." value={label} error={errorAt(errors, 'label')} onChange={(e) => setLabel(e.currentTarget.value)} maw={420} />
      </Card>
      <Group justify="space-between">
        <Title order={4}>Extensions</Title>
        <Button variant="light" leftSection={<IconPlus size={16} />} onClick={addEntry}>
          Add extension
        </Button>
      </Group>
      {routes.length > 1 ? (
        <Text size="sm" c="dimmed">
          Callers hear a menu and press the extension number to reach its phones.
        </Text>
      ) : null}
      {routes.map((entry, index) => (
        <RouteEntryCard
          key={index}
          entry={entry}
          index={index}
          errors={errorsUnder(errors, `routes.${index}`)}
          canRemove={routes.length > 1}
          onChange={(e) => changeEntry(index, e)}
          onRemove={() => removeEntry(index)}
        />
      ))}
      <ScheduleEditor schedule={schedule} errors={errorsUnder(errors, 'schedule')} onChange={setSchedule} />
      <Group justify="flex-end">
        <Button leftSection={<IconDeviceFloppy size={16} />} onClick={save} loading={update.isPending}>
          Save
        </Button>
      </Group>
    </Stack>
  );
}
