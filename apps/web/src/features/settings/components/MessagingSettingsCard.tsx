import { Alert, Button, Card, Group, Select, Skeleton, Stack, Switch, Text, Textarea, Title } from '@mantine/core';
import { HELP_TEXT_MAX } from '@switchboard/contracts';
import { TIME_CHOICES } from '@switchboard/domain';
import { IconMessageCog } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { TimezoneSelect } from '../../../components/TimezoneSelect';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useCan } from '../../../lib/access';
import { useCompanyId, useSession } from '../../../lib/session';
import { useCompanySettings, useSaveCompanySettings, type CompanySettings } from '../api/company-settings';

/** Quarter-hour clock times ("HH:mm" values, "8:00am" labels) from the domain's TIME_CHOICES. */
const CLOCK_CHOICES = TIME_CHOICES.filter((c) => /^\d{2}:\d{2}$/.test(c.value)).map((c) => ({ value: c.value, label: c.label }));

/**
 * Settings → Messaging (docs/messaging.md, docs/quiet-hours.md): the HELP/INFO reply text, campaign quiet hours (on/off with
 * start and end in the recipient's local time), whether links are allowed in messages, and the
 * company's time zone. Owners and administrators edit; other members read.
 */
export function MessagingSettingsCard() {
  const settings = useCompanySettings();
  return (
    <Card withBorder radius="md" padding="lg" data-testid="messaging-settings">
      <Group gap="xs" mb="sm">
        <IconMessageCog size={20} />
        <Title order={4}>Messaging</Title>
      </Group>
      {settings.data ? <MessagingSettingsForm key={JSON.stringify(settings.data.data)} initial={settings.data.data} /> : <Skeleton h={260} />}
    </Card>
  );
}

function MessagingSettingsForm({ initial }: { initial: CompanySettings }) {
  const { user } = useSession();
  const companyId = useCompanyId();
  // Company settings are for settings.manage (docs/permissions.md); others see them read-only.
  const canEdit = useCan('settings.manage');
  const save = useSaveCompanySettings();
  const [v, setV] = useState<CompanySettings>(initial);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const set = <K extends keyof CompanySettings>(key: K, value: CompanySettings[K]) => {
    setV((s) => ({ ...s, [key]: value }));
    setErrors((e) => ({ ...e, [key]: [] }));
  };
  const localErrors: Record<string, string | undefined> = {
    help_text: [...v.help_text].length > HELP_TEXT_MAX ? `The help text may not be greater than ${HELP_TEXT_MAX} characters.` : undefined,
    quiet_hours_end: v.quiet_hours_start === v.quiet_hours_end ? 'The quiet hours end must be different from the start.' : undefined,
  };
  const error = (key: keyof CompanySettings) => errors[key]?.[0] ?? localErrors[key];
  const invalid = Object.values(localErrors).some(Boolean);
  const otherErrors = Object.entries(errors).filter(([k, m]) => !(k in v) && m.length);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (invalid) return;
    setErrors({});
    save.mutate(v, {
      onSuccess: (r) => notify.success(r.message),
      onError: (e) => {
        if (e instanceof HttpError && e.status === 422) setErrors(e.fieldErrors);
        else if (e instanceof HttpError && e.status !== 0) notify.danger(e.message, 10_000);
      },
    });
  };

  return (
    <form onSubmit={submit}>
      <Stack gap="md">
        {!canEdit && (
          <Text size="sm" c="dimmed">
            Only owners and administrators can change these settings.
          </Text>
        )}
        <Textarea
          label="HELP reply text"
          description={`Sent when someone texts HELP or INFO to your numbers. Empty: "${'{company}'}: …" with the standard help text.`}
          autosize
          minRows={2}
          value={v.help_text}
          onChange={(e) => set('help_text', e.currentTarget.value)}
          error={error('help_text')}
          disabled={!canEdit}
          rightSection={
            <Text size="xs" c="dimmed">
              {[...v.help_text].length}/{HELP_TEXT_MAX}
            </Text>
          }
          rightSectionWidth={64}
        />
        <Switch
          label="Quiet hours for campaigns"
          description="Campaign messages are only sent between these times in the recipient's local time (from the number's area code); others wait until the start."
          checked={v.quiet_hours_enabled}
          onChange={(e) => set('quiet_hours_enabled', e.currentTarget.checked)}
          disabled={!canEdit}
        />
        {v.quiet_hours_enabled && (
          <Group grow align="flex-start">
            <Select
              label="Send from"
              data={CLOCK_CHOICES}
              value={v.quiet_hours_start}
              onChange={(x) => x && set('quiet_hours_start', x)}
              allowDeselect={false}
              searchable
              error={error('quiet_hours_start')}
              disabled={!canEdit}
            />
            <Select
              label="Send until"
              data={CLOCK_CHOICES}
              value={v.quiet_hours_end}
              onChange={(x) => x && set('quiet_hours_end', x)}
              allowDeselect={false}
              searchable
              error={error('quiet_hours_end')}
              disabled={!canEdit}
            />
          </Group>
        )}
        <Switch
          label="Links allowed in messages"
          description="When off, campaign messages with a link are refused."
          checked={v.links_enabled}
          onChange={(e) => set('links_enabled', e.currentTarget.checked)}
          disabled={!canEdit}
        />
        <TimezoneSelect
          label="Company time zone"
          description="Used for numbers without a known area code."
          value={v.timezone}
          onChange={(x) => x && set('timezone', x)}
          allowDeselect={false}
          error={error('timezone')}
          disabled={!canEdit}
        />
        {otherErrors.length > 0 && (
          <Alert color="red">
            {otherErrors.map(([k, m]) => (
              <div key={k}>{m[0]}</div>
            ))}
          </Alert>
        )}
        {canEdit && (
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending} disabled={invalid}>
              Save messaging settings
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
