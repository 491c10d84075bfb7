/**
 * The monitors' thresholds (docs/alerts.md "Monitors"): each monitor on or off and its figures; owners and
 * administrators change them, others read them. Below: the person's own choice of alert e-mails.
 */
import { Button, Card, Group, NumberInput, Stack, Switch, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useMonitorSettings, useSaveAlertEmail, useSaveMonitorSettings } from '../api/monitor-settings';
import { ALERT_TYPE_LABELS } from '../labels';
import type { MonitorSettings } from '../types';
import { useCan } from '../../../lib/access';

type Key = keyof MonitorSettings;
const FIELDS: Array<{ key: Key; describe: string; numbers: Array<{ field: string; label: string; min: number; max: number; suffix?: string }> }> = [
  {
    key: 'missedCalls',
    describe: 'When too many of the last hour’s calls were not answered.',
    numbers: [
      { field: 'percent', label: 'Missed share', min: 1, max: 100, suffix: ' %' },
      { field: 'minCalls', label: 'With at least (calls)', min: 1, max: 10000 },
    ],
  },
  {
    key: 'numberSilent',
    describe: 'When a number that had calls has none for a while.',
    numbers: [{ field: 'days', label: 'Days without calls', min: 1, max: 365 }],
  },
  { key: 'poolExhausted', describe: 'When a tracking pool has no free number for a visitor.', numbers: [] },
  {
    key: 'deliveryFailures',
    describe: 'When too many texts of a campaign (or of the company) fail.',
    numbers: [
      { field: 'percent', label: 'Failed share', min: 1, max: 100, suffix: ' %' },
      { field: 'minMessages', label: 'With at least (messages)', min: 1, max: 100000 },
      { field: 'windowMinutes', label: 'Within (minutes)', min: 5, max: 1440 },
    ],
  },
  {
    key: 'carrierError',
    describe: 'When the same carrier error keeps coming back.',
    numbers: [
      { field: 'count', label: 'Repeats', min: 2, max: 10000 },
      { field: 'windowMinutes', label: 'Within (minutes)', min: 5, max: 1440 },
    ],
  },
  {
    key: 'voicemailUnanswered',
    describe: 'When nobody called or texted back after a voicemail.',
    numbers: [{ field: 'hours', label: 'After (hours)', min: 1, max: 720 }],
  },
];

const TYPE_OF: Record<Key, keyof typeof ALERT_TYPE_LABELS> = {
  missedCalls: 'missed_calls',
  numberSilent: 'number_silent',
  poolExhausted: 'pool_exhausted',
  deliveryFailures: 'delivery_failures',
  carrierError: 'carrier_error',
  voicemailUnanswered: 'voicemail_unanswered',
};

export function MonitorSettingsCard() {
  const canManage = useCan('alerts.manage');
  const settings = useMonitorSettings();
  const save = useSaveMonitorSettings();
  const email = useSaveAlertEmail();
  const [draft, setDraft] = useState<MonitorSettings | null>(null);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  useEffect(() => {
    if (settings.data) setDraft(settings.data.monitors);
  }, [settings.data]);
  if (!settings.data || !draft) return null;
  // The matrix's `alerts.manage` (docs/permissions.md), the same answer as the server's `canEdit`.
  const canEdit = canManage && settings.data.canEdit;
  const set = (key: Key, field: string, value: unknown) => setDraft({ ...draft, [key]: { ...draft[key], [field]: value } } as MonitorSettings);

  return (
    <Stack>
      <Card withBorder radius="md">
        <Stack>
          <Title order={2} size="h4">
            Alert e-mails
          </Title>
          <Switch
            label="E-mail me when a new alert is raised in this company"
            checked={settings.data.emailAlerts}
            onChange={(e) => email.mutate(e.currentTarget.checked, { onSuccess: (r) => notify.success(r.message) })}
            disabled={email.isPending}
          />
        </Stack>
      </Card>
      <Card withBorder radius="md">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setErrors({});
            save.mutate(draft, {
              onSuccess: (r) => notify.success(r.message),
              onError: (err) => {
                if (err instanceof HttpError && err.status === 422) setErrors(err.fieldErrors);
                else notify.danger(err.message, 10_000);
              },
            });
          }}
        >
          <Stack>
            <Title order={2} size="h4">
              Monitors
            </Title>
            {!canEdit ? (
              <Text size="sm" c="dimmed">
                Owners and administrators change the thresholds.
              </Text>
            ) : null}
            {FIELDS.map((f) => (
              <Stack key={f.key} gap={6}>
                <Switch
                  label={ALERT_TYPE_LABELS[TYPE_OF[f.key]]}
                  description={f.describe}
                  checked={draft[f.key].enabled}
                  disabled={!canEdit}
                  onChange={(e) => set(f.key, 'enabled', e.currentTarget.checked)}
                />
                {f.numbers.length ? (
                  <Group gap="sm" pl={52} wrap="wrap">
                    {f.numbers.map((n) => (
                      <NumberInput
                        key={n.field}
                        label={n.label}
                        min={n.min}
                        max={n.max}
                        suffix={n.suffix}
                        allowDecimal={false}
                        w={170}
                        value={(draft[f.key] as unknown as Record<string, number>)[n.field]}
                        onChange={(v) => set(f.key, n.field, typeof v === 'number' ? v : Number(v) || n.min)}
                        disabled={!canEdit || !draft[f.key].enabled}
                        error={errors[`monitors.${f.key}.${n.field}`]?.[0]}
                      />
                    ))}
                  </Group>
                ) : null}
              </Stack>
            ))}
            {canEdit ? (
              <Group justify="flex-end">
                <Button type="submit" loading={save.isPending}>
                  Save thresholds
                </Button>
              </Group>
            ) : null}
          </Stack>
        </form>
      </Card>
    </Stack>
  );
}
