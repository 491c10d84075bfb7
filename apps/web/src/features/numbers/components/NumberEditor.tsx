import { Alert, Button, Card, Grid, Group, NumberInput, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import type { MenuFallback } from '@switchboard/contracts';
import {
  cleanRoutes,
  defaultSchedule,
  formatPhone,
  localTimeZone,
  NUMBER_UPDATED,
  newRouteEntry,
  parsePhone,
  scheduleHoursErrors,
  suggestExtension,
  type RouteEntry,
  type Schedule,
} from '@switchboard/domain';
import { IconDeviceFloppy, IconPlus } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { ScheduleEditor } from '../../../components/schedule/ScheduleEditor';
import { UnsavedChangesPrompt } from '../../../components/schedule/UnsavedChangesPrompt';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useExtensionSuggestions } from '../api/get-extension-suggestions';
import { useNumberGreetings, useSaveNumberGreetings } from '../api/number-greetings';
import { useUpdateNumber } from '../api/update-number';
import type { EditorForward, GreetingAssignment, GreetingOption, PhoneNumber } from '../types';
import { errorAt, errorsUnder, type FieldErrors } from './field-errors';
import { RouteEntryCard } from './RouteEntryCard';

const INVALID_PHONE = 'Enter a valid phone number';
const DUPLICATE_EXTENSION = 'Each extension needs its own number';
/** Extension of the number's menu in greeting assignments. */
const MENU_EXTENSION = 0;
/** Menu defaults of a number saved before menu settings existed (server DEFAULT_MENU, migration 0013). */
const DEFAULT_MENU_REPLAYS = 2;
const DEFAULT_MENU_FALLBACK: MenuFallback = 'first';
/** Most replays the server accepts (contracts MENU_REPLAYS_MAX). */
const MENU_REPLAYS_MAX = 5;
const FALLBACK_DATA: Array<{ value: MenuFallback; label: string }> = [
  { value: 'first', label: 'Connect the first extension' },
  { value: 'voicemail', label: "Take a message (first extension's voicemail)" },
  { value: 'hangup', label: 'Say goodbye and hang up' },
];

/** The schedule rule of the server (`scheduleHoursErrors`), keyed like its 422 field errors under `prefix`. */
function scheduleErrors(schedule: Schedule, prefix: string): FieldErrors {
  return Object.fromEntries(Object.entries(scheduleHoursErrors(schedule)).map(([k, v]) => [`${prefix}${k}`, v]));
}

/** Client checks before saving, keyed like the server's 422 field errors. */
function validate(routes: RouteEntry[], schedule: Schedule): FieldErrors {
  const errors: FieldErrors = scheduleErrors(schedule, 'schedule.');
  const seen = new Set<number>();
  routes.forEach((route, i) => {
    if (seen.has(route.extension)) errors[`routes.${i}.extension`] = [DUPLICATE_EXTENSION];
    seen.add(route.extension);
    route.forwards.forEach((f, j) => {
      if (parsePhone(f.number) === null) errors[`routes.${i}.forwards.${j}.number`] = [INVALID_PHONE];
    });
    if (route.schedule) Object.assign(errors, scheduleErrors(route.schedule, `routes.${i}.schedule.`));
  });
  return errors;
}

/** What the editor holds, as text: equal snapshots mean nothing changed since the last save. */
function snapshot(v: { label: string; schedule: Schedule; routes: RouteEntry[]; menuReplays: number; menuFallback: MenuFallback }): string {
  return JSON.stringify([v.label.trim(), v.schedule, v.routes, v.menuReplays, v.menuFallback]);
}

/** cleanRoutes keeps only a forward's number: put each geo forward's states back (by number). */
function keepStates(cleaned: RouteEntry[], edited: RouteEntry[]): RouteEntry[] {
  const states = new Map<string, string[]>();
  for (const entry of edited)
    for (const f of entry.forwards as EditorForward[]) if (f.states?.length) states.set(`${entry.extension}:${f.number.trim()}`, f.states);
  return cleaned.map((entry) => ({
    ...entry,
    forwards: entry.forwards.map((f) => {
      const s = states.get(`${entry.extension}:${f.number}`);
      return s ? { ...f, states: s } : f;
    }),
  }));
}

function assignmentMap(list: GreetingAssignment[]): Record<string, number> {
  return Object.fromEntries(list.map((a) => [`${a.extension}:${a.kind}`, a.greeting_id]));
}

/**
 * The routing editor of one number: label, extension entries (every routing type and option),
 * the menu greeting and what the menu does after a wrong or missing key (replays, then a
 * fallback), business hours (checked with the server's rule as they change). Save sends
 * PUT /api/numbers/{id}, then the greeting assignments (PUT /api/numbers/{id}/greetings) when
 * they changed. Leaving with unsaved edits asks first (UnsavedChangesPrompt).
 */
export function NumberEditor({ number, greetings }: { number: PhoneNumber; greetings: GreetingOption[] }) {
  const update = useUpdateNumber();
  const saveGreetings = useSaveNumberGreetings(number.id);
  const suggestions = useExtensionSuggestions(number.id);
  const savedGreetings = useNumberGreetings(number.id);
  const [label, setLabel] = useState(number.label ?? '');
  const [schedule, setSchedule] = useState<Schedule>(() => number.schedule ?? defaultSchedule(localTimeZone()));
  const [routes, setRoutes] = useState<RouteEntry[]>(() =>
    number.routes.length > 0 ? number.routes : [newRouteEntry(number.schedule?.timezone ?? localTimeZone())],
  );
  const [menuReplays, setMenuReplays] = useState(number.menu_replays ?? DEFAULT_MENU_REPLAYS);
  const [menuFallback, setMenuFallback] = useState<MenuFallback>(number.menu_fallback ?? DEFAULT_MENU_FALLBACK);
  const [assignments, setAssignments] = useState<Record<string, number> | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saved, setSaved] = useState(() => snapshot({ label, schedule, routes, menuReplays, menuFallback }));

  useEffect(() => {
    if (savedGreetings.data && assignments === null) setAssignments(assignmentMap(savedGreetings.data.data));
  }, [savedGreetings.data, assignments]);

  const current = assignments ?? {};
  const assign = (extension: number, kind: GreetingAssignment['kind'], greetingId: number | null) =>
    setAssignments((a) => {
      const next = { ...(a ?? {}) };
      if (greetingId) next[`${extension}:${kind}`] = greetingId;
      else delete next[`${extension}:${kind}`];
      return next;
    });

  const addEntry = () =>
    setRoutes((rs) => {
      const used = rs.map((r) => r.extension);
      const offered = (suggestions.data?.data ?? []).find((n) => !used.includes(n));
      return [...rs, { ...newRouteEntry(schedule.timezone), extension: offered ?? suggestExtension(used) }];
    });
  const changeEntry = (index: number, entry: RouteEntry) => setRoutes((rs) => rs.map((r, i) => (i === index ? entry : r)));
  const removeEntry = (index: number) => setRoutes((rs) => rs.filter((_, i) => i !== index));

  const greetingsChanged = () => {
    const saved = assignmentMap(savedGreetings.data?.data ?? []);
    return assignments !== null && JSON.stringify(Object.entries(saved).sort()) !== JSON.stringify(Object.entries(assignments).sort());
  };

  const dirty = snapshot({ label, schedule, routes, menuReplays, menuFallback }) !== saved || greetingsChanged();

  const save = () => {
    const cleaned = keepStates(cleanRoutes(routes, schedule.timezone), routes);
    const local = validate(cleaned, schedule);
    setRoutes(cleaned);
    setErrors(local);
    if (Object.keys(local).length > 0) {
      notify.danger('Please fix the highlighted fields.', 5000);
      return;
    }
    const normalized = cleaned.map((r) => ({ ...r, forwards: r.forwards.map((f) => ({ ...f, number: parsePhone(f.number) ?? f.number })) }));
    const extensions = new Set([MENU_EXTENSION, ...normalized.map((r) => r.extension)]);
    const list: GreetingAssignment[] = Object.entries(current)
      .map(([key, greeting_id]) => {
        const [ext, kind] = key.split(':');
        return { extension: Number(ext), kind: kind as GreetingAssignment['kind'], greeting_id };
      })
      .filter((a) => extensions.has(a.extension));
    update.mutate(
      {
        id: number.id,
        company_id: number.company_id,
        label: label.trim(),
        routes: normalized,
        schedule,
        menu_replays: menuReplays,
        menu_fallback: menuFallback,
      },
      {
        onSuccess: async (result) => {
          if (greetingsChanged()) await saveGreetings.mutateAsync(list).catch(() => undefined);
          notify.success(result.message || NUMBER_UPDATED);
          const next = {
            label: label.trim(),
            routes: result.data && result.data.routes.length > 0 ? keepStates(result.data.routes, normalized) : normalized,
            schedule: result.data?.schedule ?? schedule,
            menuReplays: result.data?.menu_replays ?? menuReplays,
            menuFallback: result.data?.menu_fallback ?? menuFallback,
          };
          setLabel(next.label);
          setRoutes(next.routes);
          setSchedule(next.schedule);
          setMenuReplays(next.menuReplays);
          setMenuFallback(next.menuFallback);
          setErrors({});
          setSaved(snapshot(next));
        },
        onError: (error) => {
          if (error instanceof HttpError && error.status === 422) setErrors(error.fieldErrors);
        },
      },
    );
  };

  const greetingOptions = greetings;
  return (
    <Stack gap="md">
      <Card withBorder radius="md" padding="md">
        <TextInput
          label="Number label"
          description="How this number appears across the app, e.g. Main line."
          value={label}
          error={errorAt(errors, 'label')}
          onChange={(e) => setLabel(e.currentTarget.value)}
          maw={420}
        />
      </Card>
      <Group justify="space-between">
        <Title order={4}>Extensions</Title>
        <Button variant="light" leftSection={<IconPlus size={16} />} onClick={addEntry}>
          Add extension
        </Button>
      </Group>
      {routes.length > 1 ? (
        <Card withBorder radius="md" padding="md">
          <Text size="sm" mb="xs">
            Callers hear a menu and press the extension number to reach its phones:{' '}
            {routes.map((r) => `${r.label ? `for ${r.label}` : `for extension ${r.extension}`}, press ${r.extension}`).join('; ')}.
          </Text>
          <Select
            label="Menu greeting"
            description="Played instead of the spoken menu."
            placeholder={greetingOptions.length ? 'Spoken menu (default)' : 'No greetings yet'}
            data={greetingOptions}
            value={current[`${MENU_EXTENSION}:menu`] ? String(current[`${MENU_EXTENSION}:menu`]) : null}
            onChange={(v) => assign(MENU_EXTENSION, 'menu', v ? Number(v) : null)}
            clearable
            disabled={greetingOptions.length === 0}
            maw={420}
          />
          <Grid gap="sm" mt="sm">
            <Grid.Col span={{ base: 12, sm: 5 }}>
              <NumberInput
                label="Replays after a wrong or missing key"
                description="How many more times callers hear the menu."
                min={0}
                max={MENU_REPLAYS_MAX}
                allowDecimal={false}
                clampBehavior="strict"
                value={menuReplays}
                error={errorAt(errors, 'menu_replays')}
                onChange={(v) => setMenuReplays(typeof v === 'number' ? v : Number(v) || 0)}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 7 }}>
              <Select
                label="Then"
                description="When the caller still has not chosen."
                data={FALLBACK_DATA}
                value={menuFallback}
                allowDeselect={false}
                error={errorAt(errors, 'menu_fallback')}
                onChange={(v) => v && setMenuFallback(v as MenuFallback)}
              />
            </Grid.Col>
          </Grid>
        </Card>
      ) : null}
      {Object.keys(errors).some((k) => k.startsWith('routes.')) ? (
        <Alert color="red" variant="light" title="Some extensions need attention">
          Check the highlighted fields below.
        </Alert>
      ) : null}
      {routes.map((entry, index) => (
        <RouteEntryCard
          key={index}
          entry={entry}
          errors={errorsUnder(errors, `routes.${index}`)}
          canRemove={routes.length > 1}
          greetings={greetingOptions}
          assigned={{ voicemail: current[`${entry.extension}:voicemail`], whisper: current[`${entry.extension}:whisper`] }}
          onAssign={(kind, id) => assign(entry.extension, kind, id)}
          onChange={(e) => changeEntry(index, e)}
          onRemove={() => removeEntry(index)}
        />
      ))}
      <ScheduleEditor schedule={schedule} errors={errorsUnder(errors, 'schedule')} onChange={setSchedule} />
      <UnsavedChangesPrompt dirty={dirty && !update.isPending} what="routing changes" />
      <Group justify="flex-end" pos="sticky" bottom={0} py="sm" bg="var(--mantine-color-body)" style={{ zIndex: 2 }}>
        <Text size="sm" c="dimmed" data-testid="editor-save-state">
          {dirty ? 'Unsaved changes · ' : ''}
          {formatPhone(number.number)}
        </Text>
        <Button leftSection={<IconDeviceFloppy size={16} />} onClick={save} loading={update.isPending || saveGreetings.isPending}>
          Save
        </Button>
      </Group>
    </Stack>
  );
}
