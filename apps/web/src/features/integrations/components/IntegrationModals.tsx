/**
 * The integrations' dialogs: finishing an OAuth connection with the provider's lookups (the Ads customer and
 * conversion action, the Meta pixel, the Slack channel, the Microsoft account, the HighLevel location) and the
 * events to send; the GA4 and ADF forms; the settings editor of a connected integration.
 */
import { Alert, Button, Group, Loader, Modal, NumberInput, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { AdIntegration, AdIntegrationSettings, OAuthProvider } from '@switchboard/contracts';
import { useState, type ReactNode } from 'react';
import { HttpError } from '../../../lib/http';
import { useActivate, useCreateAdf, useCreateGa4, useLookup, useUpdateIntegration, type ProviderCard } from '../api/integrations';
import { LOOKUP_STEPS, type LookupStep } from '../labels';
import { EventFields, SettingsFields } from './SettingsFields';

/** A dialog full-screen on a phone. */
function Dialog({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal opened onClose={onClose} title={title} size="lg" fullScreen={phone} closeButtonProps={{ 'aria-label': 'Close' }}>
      {children}
    </Modal>
  );
}

/** Field errors of a refused save (422), or the message under `_` for anything else. */
function errorsOf(e: Error): Record<string, string[]> {
  if (e instanceof HttpError && Object.keys(e.fieldErrors).length > 0) return e.fieldErrors;
  return { _: [e.message] };
}

function FormError({ errors }: { errors: Record<string, string[]> }) {
  const general = errors._?.[0] ?? errors.config?.[0];
  const others = Object.entries(errors).filter(([k]) => k !== '_' && k !== 'config');
  if (!general && others.length === 0) return null;
  return (
    <Alert color="red" title="Not saved" role="alert">
      {general}
      {others.map(([k, m]) => (
        <Text key={k} size="sm">
          {m[0]}
        </Text>
      ))}
    </Alert>
  );
}

/** One choice of the connect flow from a lookup; the choice resets the later ones. */
function LookupSelect({
  provider,
  step,
  config,
  onChange,
}: {
  provider: OAuthProvider;
  step: LookupStep;
  config: Record<string, string>;
  onChange: (value: string | null) => void;
}) {
  const params = step.params(config);
  const options = useLookup(provider, step.lookup, params);
  const data = (options.data ?? []).map((o) => ({
    value: o.id,
    label: o.name === o.id ? o.id : `${o.name} (${o.id})`,
  }));
  return (
    <Select
      label={step.label}
      description={step.description}
      placeholder={params === null ? 'Choose the previous item first' : options.isPending ? 'Loading…' : data.length === 0 ? 'None found' : 'Choose…'}
      data={data}
      value={config[step.key] ?? null}
      onChange={onChange}
      disabled={params === null || options.isPending}
      rightSection={options.isFetching ? <Loader size={14} /> : undefined}
      error={options.isError ? `Could not load: ${options.error.message}` : undefined}
      searchable
      allowDeselect={false}
      required
    />
  );
}

/**
 * Finishing an OAuth connection (state `connected`, or changing the account of an active one): the lookups, the
 * events to send, the backfill; Activate runs the provider's own check (Google `validateOnly`, Slack
 * `conversations.info`, …) and shows its refusal.
 */
export function OAuthSetupModal({ card, integration, onClose }: { card: ProviderCard; integration: AdIntegration; onClose: () => void }) {
  const provider = card.provider as OAuthProvider;
  const steps = LOOKUP_STEPS[provider].filter((s) => card.lookups.includes(s.lookup));
  const [config, setConfig] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      Object.entries(integration.config)
        .filter((kv): kv is [string, string | number] => typeof kv[1] === 'string' || typeof kv[1] === 'number')
        .map(([k, v]) => [k, String(v)]),
    ),
  );
  const [events, setEvents] = useState(integration.settings.events);
  const [backfillDays, setBackfillDays] = useState<number | ''>(integration.backfill_days);
  const [testEventCode, setTestEventCode] = useState(typeof integration.config.testEventCode === 'string' ? integration.config.testEventCode : '');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const activate = useActivate();
  const choose = (index: number, value: string | null) => {
    const next = { ...config };
    for (const later of steps.slice(index)) delete next[later.key];
    if (value) next[steps[index]!.key] = value;
    setConfig(next);
  };
  const ready = steps.every((s) => config[s.key]);
  const submit = () => {
    setErrors({});
    const settings: AdIntegrationSettings = { ...integration.settings, events };
    activate.mutate(
      {
        provider,
        input: {
          config: { ...config, ...(provider === 'metaads' && testEventCode.trim() ? { testEventCode: testEventCode.trim() } : {}) },
          settings,
          backfillDays: typeof backfillDays === 'number' ? backfillDays : undefined,
        },
      },
      { onSuccess: onClose, onError: (e) => setErrors(errorsOf(e)) },
    );
  };
  return (
    <Dialog title={`Set up ${card.name}`} onClose={onClose}>
      <Stack>
        <Text size="sm">
          Connected as <b>{integration.account_name ?? integration.external_account_id ?? 'unknown account'}</b>.
          {steps.length > 0 ? ' Choose where to send calls.' : ''}
        </Text>
        {steps.map((step, i) => (
          <LookupSelect key={step.key} provider={provider} step={step} config={config} onChange={(v) => choose(i, v)} />
        ))}
        {provider === 'metaads' ? (
          <TextInput
            label="Test event code"
            description="From Events Manager → Test events; the setup check is sent with it."
            value={testEventCode}
            onChange={(e) => setTestEventCode(e.currentTarget.value)}
          />
        ) : null}
        <EventFields kinds={card.kinds} value={events} onChange={setEvents} />
        <NumberInput
          label="Send the calls of the last (days)"
          description="Sent once when the integration first becomes active."
          min={0}
          max={90}
          allowDecimal={false}
          value={backfillDays}
          onChange={(v) => setBackfillDays(typeof v === 'number' ? v : '')}
          maw={280}
        />
        <FormError errors={errors} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} loading={activate.isPending} disabled={!ready}>
            Activate
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}

/** GA4: the web stream's measurement id and a Measurement Protocol API secret. */
export function Ga4Modal({ onClose }: { onClose: () => void }) {
  const create = useCreateGa4();
  const [measurementId, setMeasurementId] = useState('');
  const [apiSecret, setApiSecret] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const submit = () => {
    setErrors({});
    create.mutate({ measurementId: measurementId.trim(), apiSecret: apiSecret.trim() }, { onSuccess: onClose, onError: (e) => setErrors(errorsOf(e)) });
  };
  return (
    <Dialog title="Connect Google Analytics 4" onClose={onClose}>
      <Stack>
        <Text size="sm">In GA4, open Admin → Data streams → your web stream. Copy its measurement id, and create a Measurement Protocol API secret.</Text>
        <TextInput
          label="Measurement id"
          placeholder="G-XXXXXXXXXX"
          required
          value={measurementId}
          onChange={(e) => setMeasurementId(e.currentTarget.value)}
          error={errors.measurementId?.[0]}
          data-autofocus
        />
        <PasswordInput
          label="API secret"
          required
          value={apiSecret}
          onChange={(e) => setApiSecret(e.currentTarget.value)}
          error={errors.apiSecret?.[0]}
          visibilityToggleButtonProps={{ 'aria-label': 'Show the API secret' }}
        />
        <FormError errors={Object.fromEntries(Object.entries(errors).filter(([k]) => k !== 'measurementId' && k !== 'apiSecret'))} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} loading={create.isPending}>
            Connect
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}

/** ADF lead export: the dealer CRM's lead address and an optional HTTPS endpoint. */
export function AdfModal({ onClose }: { onClose: () => void }) {
  const create = useCreateAdf();
  const [leadEmail, setLeadEmail] = useState('');
  const [postUrl, setPostUrl] = useState('');
  const [vendorName, setVendorName] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const submit = () => {
    setErrors({});
    create.mutate(
      { leadEmail: leadEmail.trim(), postUrl: postUrl.trim() || null, vendorName: vendorName.trim() || undefined },
      { onSuccess: onClose, onError: (e) => setErrors(errorsOf(e)) },
    );
  };
  const known = new Set(['leadEmail', 'postUrl', 'vendorName']);
  return (
    <Dialog title="Set up the ADF lead export" onClose={onClose}>
      <Stack>
        <TextInput
          label="CRM lead e-mail address"
          type="email"
          required
          value={leadEmail}
          onChange={(e) => setLeadEmail(e.currentTarget.value)}
          error={errors.leadEmail?.[0]}
          data-autofocus
        />
        <TextInput
          label="Also POST to (optional)"
          placeholder="https://crm.example.com/adf"
          value={postUrl}
          onChange={(e) => setPostUrl(e.currentTarget.value)}
          error={errors.postUrl?.[0]}
        />
        <TextInput
          label="Dealership name (optional)"
          description="The vendor of each lead; empty: the company’s name."
          value={vendorName}
          onChange={(e) => setVendorName(e.currentTarget.value)}
          error={errors.vendorName?.[0]}
        />
        <FormError errors={Object.fromEntries(Object.entries(errors).filter(([k]) => !known.has(k)))} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} loading={create.isPending}>
            Set up
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}

/** The settings of a connected integration: name, events, conversions, filters (audited on the server). */
export function SettingsModal({ card, integration, onClose }: { card: ProviderCard; integration: AdIntegration; onClose: () => void }) {
  const update = useUpdateIntegration();
  const [name, setName] = useState(integration.name);
  const [settings, setSettings] = useState<AdIntegrationSettings>(integration.settings);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const submit = () => {
    setErrors({});
    update.mutate({ integration, input: { name: name.trim(), settings } }, { onSuccess: onClose, onError: (e) => setErrors(errorsOf(e)) });
  };
  return (
    <Dialog title={`${card.name} settings`} onClose={onClose}>
      <Stack>
        <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.name?.[0]} required />
        <SettingsFields provider={card.provider} kinds={card.kinds} value={settings} onChange={setSettings} errors={errors} />
        <FormError errors={Object.fromEntries(Object.entries(errors).filter(([k]) => k !== 'name' && !k.startsWith('settings.conversions')))} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} loading={update.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
