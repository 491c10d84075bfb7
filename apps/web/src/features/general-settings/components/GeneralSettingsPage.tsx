/**
 * General settings (spec 002 "General settings"; docs/workspace.md): what the current company sets once (formats,
 * business hours, recording, caller ID name, missed-call text back, voicemail transcription, spam filter) with Save
 * and Restore defaults (confirmed), the AI custom-fields feature, and the index of every company the person reaches
 * with a bulk copy of these settings to the chosen ones. Owners and administrators change; others read.
 */
import { Alert, Badge, Button, Card, Checkbox, Chip, Group, Select, SimpleGrid, Stack, Switch, Table, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { EmptyBlock } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { roleCan } from '@switchboard/domain';
import { HttpError } from '../../../lib/http';
import {
  useBulkSaveGeneralSettings,
  useGeneralSettings,
  useGeneralSettingsIndex,
  useRestoreGeneralSettings,
  useSaveGeneralSettings,
  useSetAiEav,
  type GeneralSettings,
} from '../api/general-settings';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

function err(error: unknown, field: keyof GeneralSettings): string | undefined {
  return error instanceof HttpError ? error.fieldErrors[`settings.${field}`]?.[0] : undefined;
}

/** The /general-settings page. */
export function GeneralSettingsPage() {
  const current = useGeneralSettings();
  const index = useGeneralSettingsIndex();
  const save = useSaveGeneralSettings();
  const restore = useRestoreGeneralSettings();
  const bulk = useBulkSaveGeneralSettings();
  const aiEav = useSetAiEav();
  const [form, setForm] = useState<GeneralSettings | null>(null);
  const [confirmRestore, setConfirmRestore] = useState(false);
  const [selected, setSelected] = useState<number[]>([]);
  const [confirmBulk, setConfirmBulk] = useState(false);

  const entry = current.data?.data;
  useEffect(() => {
    if (entry) setForm(entry.settings);
  }, [entry]);
  // The matrix decides (docs/permissions.md `settings.manage`), from the role the server reports for each company.
  const canEdit = entry ? roleCan(entry.role, 'settings.manage') : false;
  const others = useMemo(
    () => (index.data?.data ?? []).filter((e) => e.companyId !== entry?.companyId && roleCan(e.role, 'settings.manage')),
    [index.data, entry],
  );

  if (current.isLoading || (!form && !current.isError)) return <ListSkeleton />;
  if (current.isError || !form || !entry)
    return <EmptyBlock title="The settings could not be loaded" action={<Button onClick={() => void current.refetch()}>Try again</Button>} />;

  const set = <K extends keyof GeneralSettings>(k: K, v: GeneralSettings[K]) => setForm((f) => (f ? { ...f, [k]: v } : f));
  const e = save.error;

  return (
    <>
      <PageHeader
        title="General settings"
        description={
          <>
            Settings of <strong>{entry.companyName}</strong>. {entry.isDefault ? 'These are the defaults.' : null}
          </>
        }
        actions={
          canEdit ? (
            <>
              <Button variant="default" onClick={() => setConfirmRestore(true)} disabled={entry.isDefault}>
                Restore defaults
              </Button>
              <Button onClick={() => save.mutate(form)} loading={save.isPending}>
                Save settings
              </Button>
            </>
          ) : null
        }
      />
      {!canEdit ? (
        <Alert mb="md" color="gray">
          Only owners and administrators can change these settings.
        </Alert>
      ) : null}
      <fieldset disabled={!canEdit} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack gap="lg">
          <Card withBorder>
            <Title order={2} size="h4" mb="sm">
              Display
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select
                label="Date format"
                description="How every screen shows dates, in the company's time zone"
                data={[
                  { value: 'MMM D, YYYY', label: 'Nov 28 (the year when it differs)' },
                  { value: 'MM/DD/YYYY', label: 'MM/DD/YYYY (11/28/2026)' },
                  { value: 'DD/MM/YYYY', label: 'DD/MM/YYYY (28/11/2026)' },
                  { value: 'YYYY-MM-DD', label: 'YYYY-MM-DD (2026-11-28)' },
                ]}
                value={form.date_format}
                allowDeselect={false}
                onChange={(v) => v && set('date_format', v as GeneralSettings['date_format'])}
              />
              <Select
                label="Time format"
                data={[
                  { value: '12h', label: '12-hour (2:30 PM)' },
                  { value: '24h', label: '24-hour (14:30)' },
                ]}
                value={form.time_format}
                allowDeselect={false}
                onChange={(v) => v && set('time_format', v as GeneralSettings['time_format'])}
              />
            </SimpleGrid>
          </Card>
          <Card withBorder>
            <Title order={2} size="h4" mb="sm">
              Business hours
            </Title>
            <Text size="sm" c="dimmed" mb="xs">
              The default hours of new numbers and schedules.
            </Text>
            <Chip.Group multiple value={form.business_days.map(String)} onChange={(v) => set('business_days', v.map(Number).sort())}>
              <Group gap="xs" mb="sm" role="group" aria-label="Business days">
                {DAYS.map((d, i) => (
                  <Chip key={d} value={String(i)} size="sm">
                    {d}
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
            {err(e, 'business_days') ? (
              <Text c="red" size="sm">
                {err(e, 'business_days')}
              </Text>
            ) : null}
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                type="time"
                label="Opens at"
                value={form.business_hours_start}
                onChange={(ev) => set('business_hours_start', ev.currentTarget.value)}
                error={err(e, 'business_hours_start')}
              />
              <TextInput
                type="time"
                label="Closes at"
                value={form.business_hours_end}
                onChange={(ev) => set('business_hours_end', ev.currentTarget.value)}
                error={err(e, 'business_hours_end')}
              />
            </SimpleGrid>
          </Card>
          <Card withBorder>
            <Title order={2} size="h4" mb="sm">
              Calls
            </Title>
            <Stack>
              <TextInput
                label="Caller ID name"
                description="Shown to the people you call, where their carrier supports it (at most 15 characters)."
                maxLength={15}
                value={form.caller_id_name}
                onChange={(ev) => set('caller_id_name', ev.currentTarget.value)}
                error={err(e, 'caller_id_name')}
              />
              <Switch label="Record calls of new numbers" checked={form.record_calls} onChange={(ev) => set('record_calls', ev.currentTarget.checked)} />
              <Switch
                label="Play a recording disclosure"
                checked={form.recording_disclosure_enabled}
                onChange={(ev) => set('recording_disclosure_enabled', ev.currentTarget.checked)}
              />
              {form.recording_disclosure_enabled ? (
                <Textarea
                  label="Disclosure"
                  autosize
                  minRows={2}
                  maxLength={320}
                  value={form.recording_disclosure_text}
                  onChange={(ev) => set('recording_disclosure_text', ev.currentTarget.value)}
                  error={err(e, 'recording_disclosure_text')}
                />
              ) : null}
              <Switch
                label="Transcribe voicemails"
                checked={form.voicemail_transcription}
                onChange={(ev) => set('voicemail_transcription', ev.currentTarget.checked)}
              />
              <Switch
                label="Filter likely spam calls"
                checked={form.spam_filter_enabled}
                onChange={(ev) => set('spam_filter_enabled', ev.currentTarget.checked)}
              />
            </Stack>
          </Card>
          <Card withBorder>
            <Title order={2} size="h4" mb="sm">
              Missed calls
            </Title>
            <Stack>
              <Switch
                label="Text back missed callers"
                checked={form.missed_call_text_enabled}
                onChange={(ev) => set('missed_call_text_enabled', ev.currentTarget.checked)}
              />
              {form.missed_call_text_enabled ? (
                <Textarea
                  label="Text back message"
                  autosize
                  minRows={2}
                  maxLength={320}
                  value={form.missed_call_text}
                  onChange={(ev) => set('missed_call_text', ev.currentTarget.value)}
                  error={err(e, 'missed_call_text')}
                />
              ) : null}
            </Stack>
          </Card>
          <Card withBorder>
            <Title order={2} size="h4" mb="sm">
              Features
            </Title>
            <Switch
              label="AI custom fields"
              description="Fill call custom fields from the conversation's transcript."
              checked={entry.aiEavEnabled}
              disabled={aiEav.isPending}
              onChange={(ev) => aiEav.mutate(ev.currentTarget.checked)}
            />
          </Card>
        </Stack>
      </fieldset>

      {canEdit ? (
        <Card withBorder mt="lg">
          <Title order={2} size="h4" mb="xs">
            Your other companies
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            Copy the settings above (as shown, saved or not) to the companies you choose.
          </Text>
          {index.isLoading ? (
            <ListSkeleton rows={2} />
          ) : others.length === 0 ? (
            <Text size="sm">You manage no other company.</Text>
          ) : (
            <>
              <Table.ScrollContainer minWidth={420}>
                <Table aria-label="Companies">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th w={40}>
                        <Checkbox
                          aria-label="Select every company"
                          checked={selected.length === others.length}
                          indeterminate={selected.length > 0 && selected.length < others.length}
                          onChange={(ev) => setSelected(ev.currentTarget.checked ? others.map((o) => o.companyId) : [])}
                        />
                      </Table.Th>
                      <Table.Th>Company</Table.Th>
                      <Table.Th>Settings</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {others.map((o) => (
                      <Table.Tr key={o.companyId}>
                        <Table.Td>
                          <Checkbox
                            aria-label={`Select ${o.companyName}`}
                            checked={selected.includes(o.companyId)}
                            onChange={(ev) => setSelected((s) => (ev.currentTarget.checked ? [...s, o.companyId] : s.filter((x) => x !== o.companyId)))}
                          />
                        </Table.Td>
                        <Table.Td>{o.companyName}</Table.Td>
                        <Table.Td>
                          {o.isDefault ? (
                            <Badge variant="light" color="gray">
                              Defaults
                            </Badge>
                          ) : (
                            <Badge variant="light">Customized</Badge>
                          )}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
              <Group justify="flex-end" mt="sm">
                <Button disabled={selected.length === 0} onClick={() => setConfirmBulk(true)}>
                  Apply to {selected.length} {selected.length === 1 ? 'company' : 'companies'}
                </Button>
              </Group>
            </>
          )}
        </Card>
      ) : null}

      <ConfirmModal
        opened={confirmRestore}
        title="Restore the default settings?"
        confirmLabel="Restore defaults"
        loading={restore.isPending}
        onClose={() => setConfirmRestore(false)}
        onConfirm={() => restore.mutate(undefined, { onSuccess: () => setConfirmRestore(false) })}
      >
        Every general setting of {entry.companyName} goes back to its default value.
      </ConfirmModal>
      <ConfirmModal
        opened={confirmBulk}
        title="Apply these settings?"
        confirmLabel="Apply"
        danger={false}
        loading={bulk.isPending}
        onClose={() => setConfirmBulk(false)}
        onConfirm={() =>
          bulk.mutate(
            { companyIds: selected, settings: form },
            {
              onSuccess: () => {
                setConfirmBulk(false);
                setSelected([]);
              },
            },
          )
        }
      >
        The settings shown replace those of {selected.length} {selected.length === 1 ? 'company' : 'companies'}.
      </ConfirmModal>
    </>
  );
}
