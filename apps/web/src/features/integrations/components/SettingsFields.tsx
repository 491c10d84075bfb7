/**
 * Per-integration settings (docs/integrations.md "Settings"; contracts `AdIntegrationSettings`): which events are sent,
 * the conversion name and value per kind or outcome (ad platforms and GA4), and which numbers, pools or sources.
 */
import { Checkbox, Group, MultiSelect, NumberInput, SimpleGrid, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import { CALL_OUTCOMES, type AdDeliveryKind, type AdIntegrationSettings, type AdProvider } from '@switchboard/contracts';
import { useFilterChoices } from '../api/integrations';
import { CONVERSION_NAME_HELP, CONVERSION_PROVIDERS, OUTCOME_LABEL } from '../labels';

type Events = AdIntegrationSettings['events'];
type Outcome = (typeof CALL_OUTCOMES)[number];

/** Which events a provider can send (its delivery kinds). */
export function EventFields({ kinds, value, onChange }: { kinds: readonly AdDeliveryKind[]; value: Events; onChange: (next: Events) => void }) {
  const has = (k: AdDeliveryKind) => kinds.includes(k);
  const set = (patch: Partial<Events>) => onChange({ ...value, ...patch });
  const box = (field: 'anyCall' | 'firstCall' | 'qualifiedCall' | 'lead' | 'missedCall' | 'voicemail' | 'text', label: string) => (
    <Checkbox label={label} checked={value[field]} onChange={(e) => set({ [field]: e.currentTarget.checked })} />
  );
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        Send
      </Text>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
        {has('call') ? box('anyCall', 'Every call') : null}
        {has('call') ? box('firstCall', 'First call from a caller') : null}
        {has('call') ? box('qualifiedCall', 'Qualified calls') : null}
        {has('lead') ? box('lead', 'New leads') : null}
        {has('missed-call') ? box('missedCall', 'Missed calls') : null}
        {has('voicemail') ? box('voicemail', 'Voicemails') : null}
        {has('text') ? box('text', 'Texts') : null}
      </SimpleGrid>
      {has('call') ? (
        <NumberInput
          label="Only calls of at least (seconds)"
          description="Empty: calls of any length."
          min={0}
          max={86_400}
          allowDecimal={false}
          value={value.minDurationS ?? ''}
          onChange={(v) => set({ minDurationS: typeof v === 'number' ? v : null })}
          maw={280}
        />
      ) : null}
      {has('outcome') ? (
        <MultiSelect
          label="Outcomes to send"
          description="Sent when a call’s outcome is set, also days later (as an adjustment)."
          data={CALL_OUTCOMES.map((o) => ({ value: o, label: OUTCOME_LABEL[o] }))}
          value={value.outcomes}
          onChange={(v) => set({ outcomes: v as Outcome[] })}
          clearable
        />
      ) : null}
    </Stack>
  );
}

/** The full settings editor: events, conversions (ad platforms and GA4), filters. */
export function SettingsFields({
  provider,
  kinds,
  value,
  onChange,
  errors,
}: {
  provider: AdProvider;
  kinds: readonly AdDeliveryKind[];
  value: AdIntegrationSettings;
  onChange: (next: AdIntegrationSettings) => void;
  errors: Record<string, string[]>;
}) {
  const { numbers, pools } = useFilterChoices(true);
  const conversionKeys = [
    ...(kinds.includes('call') ? ['call'] : []),
    ...(kinds.includes('lead') ? ['lead'] : []),
    ...value.events.outcomes.map((o) => `outcome:${o}`),
  ];
  const setConversion = (k: string, patch: Partial<{ name: string; valueCents: number | null; currency: string }>) => {
    const current = value.conversions[k] ?? { name: '', valueCents: null, currency: 'USD' };
    const next = { ...current, ...patch };
    const conversions = { ...value.conversions };
    if (!next.name.trim() && next.valueCents === null) delete conversions[k];
    else conversions[k] = next;
    onChange({ ...value, conversions });
  };
  const errorOf = (prefix: string) => Object.entries(errors).find(([k]) => k.startsWith(prefix))?.[1][0];
  return (
    <Stack gap="md">
      <EventFields kinds={kinds} value={value.events} onChange={(events) => onChange({ ...value, events })} />
      {CONVERSION_PROVIDERS.has(provider) && conversionKeys.length > 0 ? (
        <Stack gap="xs">
          <Text size="sm" fw={500}>
            Conversions
          </Text>
          <Text size="xs" c="dimmed">
            {CONVERSION_NAME_HELP[provider]}
          </Text>
          {conversionKeys.map((k) => {
            const c = value.conversions[k];
            const label = k === 'call' ? 'Calls' : k === 'lead' ? 'New leads' : OUTCOME_LABEL[k.slice(8) as Outcome];
            return (
              <Group key={k} gap="xs" align="flex-start" wrap="wrap" data-testid="conversion-row">
                <TextInput
                  label={`${label}: conversion name`}
                  value={c?.name ?? ''}
                  onChange={(e) => setConversion(k, { name: e.currentTarget.value })}
                  error={errorOf(`settings.conversions.${k}.name`)}
                  style={{ flex: '1 1 180px' }}
                />
                <NumberInput
                  label={`${label}: value`}
                  min={0}
                  decimalScale={2}
                  value={c?.valueCents != null ? c.valueCents / 100 : ''}
                  onChange={(v) => setConversion(k, { valueCents: typeof v === 'number' ? Math.round(v * 100) : null })}
                  style={{ flex: '0 1 120px' }}
                />
                <TextInput
                  label={`${label}: currency`}
                  maxLength={3}
                  value={c?.currency ?? 'USD'}
                  onChange={(e) => setConversion(k, { currency: e.currentTarget.value.toUpperCase() })}
                  error={errorOf(`settings.conversions.${k}.currency`)}
                  style={{ flex: '0 1 90px' }}
                />
              </Group>
            );
          })}
        </Stack>
      ) : null}
      <Stack gap="xs">
        <Text size="sm" fw={500}>
          Only these (empty: all)
        </Text>
        <MultiSelect
          label="Numbers"
          placeholder={numbers.isPending ? 'Loading…' : 'All numbers'}
          data={(numbers.data ?? []).map((n) => ({ value: String(n.id), label: n.name ? `${n.name} (${n.number})` : n.number }))}
          value={value.filters.numberIds.map(String)}
          onChange={(v) => onChange({ ...value, filters: { ...value.filters, numberIds: v.map(Number) } })}
          searchable
          clearable
        />
        <MultiSelect
          label="Tracking pools"
          placeholder={pools.isPending ? 'Loading…' : 'All pools'}
          data={(pools.data ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
          value={value.filters.poolIds.map(String)}
          onChange={(v) => onChange({ ...value, filters: { ...value.filters, poolIds: v.map(Number) } })}
          searchable
          clearable
        />
        <TagsInput
          label="Sources"
          description="Traffic sources such as google_ads or facebook; press Enter after each."
          value={value.filters.sources}
          onChange={(v) => onChange({ ...value, filters: { ...value.filters, sources: v } })}
          clearable
        />
      </Stack>
    </Stack>
  );
}
