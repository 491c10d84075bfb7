import { ActionIcon, Button, Checkbox, Group, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { DNI_RULE_FIELDS, DNI_RULE_OPERATORS, TRAFFIC_SOURCE_LABELS, TRAFFIC_SOURCES, type DniSourceRules } from '@switchboard/contracts';
import { IconPlus, IconTrash } from '@tabler/icons-react';

type RuleField = (typeof DNI_RULE_FIELDS)[number];
type RuleOperator = (typeof DNI_RULE_OPERATORS)[number];

const FIELD_LABELS: Record<RuleField, string> = {
  utm_source: 'utm_source',
  utm_medium: 'utm_medium',
  utm_campaign: 'utm_campaign',
  utm_term: 'utm_term',
  utm_content: 'utm_content',
  landing_page: 'Landing page URL',
  referrer: 'Referrer URL',
};
const OPERATOR_LABELS: Record<RuleOperator, string> = {
  equals: 'is',
  contains: 'contains',
  starts_with: 'starts with',
  not_contains: 'does not contain',
};
/** What each choosable source means, so a person knows which visits it catches (contracts TRAFFIC_SOURCES). */
const SOURCE_HINTS: Record<string, string> = {
  google_ads: 'gclid, gbraid or wbraid, or a paid google utm',
  microsoft_ads: 'msclkid, or a paid bing utm',
  meta_ads: 'fbclid, or a paid facebook/instagram utm',
  organic: 'from a search engine, no ad',
  direct: 'typed address, bookmark, no referrer',
  referral: 'a link on another website',
  email: 'utm_medium email or newsletter',
  custom: 'any other utm campaign',
};

export const CHOOSABLE_SOURCES = TRAFFIC_SOURCES.filter((s) => s !== 'static');

/**
 * Which visitors a pool serves (contracts DniSourceRules): all visitors, or visitors from chosen
 * traffic sources OR matching any custom rule on a utm parameter, the landing page or the referrer.
 * `errors`: 422 field errors keyed under `source_rules.`.
 */
export function SourceRulesEditor({
  value,
  onChange,
  errors,
}: {
  value: DniSourceRules;
  onChange: (next: DniSourceRules) => void;
  errors: Record<string, string[]>;
}) {
  const setRule = (i: number, change: Partial<DniSourceRules['custom_rules'][number]>) =>
    onChange({ ...value, custom_rules: value.custom_rules.map((r, j) => (j === i ? { ...r, ...change } : r)) });
  return (
    <Stack gap="sm">
      <SegmentedControl
        aria-label="Visitors this pool serves"
        value={value.all_visitors ? 'all' : 'chosen'}
        onChange={(v) => onChange({ ...value, all_visitors: v === 'all' })}
        data={[
          { value: 'all', label: 'All visitors' },
          { value: 'chosen', label: 'Chosen sources' },
        ]}
        fullWidth
      />
      {value.all_visitors ? (
        <Text size="sm" c="dimmed">
          Every visitor sees a number from this pool (unless a pool with a lower priority number serves their source first).
        </Text>
      ) : (
        <>
          <Checkbox.Group
            label="Visitors from"
            value={value.traffic_sources}
            onChange={(v) => onChange({ ...value, traffic_sources: v as DniSourceRules['traffic_sources'] })}
            error={errors['source_rules.traffic_sources']?.[0]}
          >
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" mt="xs">
              {CHOOSABLE_SOURCES.map((s) => (
                <Checkbox key={s} value={s} label={TRAFFIC_SOURCE_LABELS[s]} description={SOURCE_HINTS[s]} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <Stack gap="xs">
            <Text size="sm" fw={500}>
              Or visitors matching a custom rule
            </Text>
            {value.custom_rules.length === 0 ? (
              <Text size="sm" c="dimmed">
                No custom rules. Add one to catch, say, utm_campaign “spring-sale” or landing pages under /offers.
              </Text>
            ) : null}
            {value.custom_rules.map((rule, i) => (
              <Group key={i} gap="xs" align="flex-start" wrap="wrap" data-testid="custom-rule">
                <Select
                  aria-label={`Rule ${i + 1} field`}
                  data={DNI_RULE_FIELDS.map((f) => ({ value: f, label: FIELD_LABELS[f] }))}
                  value={rule.field}
                  onChange={(v) => v && setRule(i, { field: v as RuleField })}
                  allowDeselect={false}
                  w={170}
                />
                <Select
                  aria-label={`Rule ${i + 1} comparison`}
                  data={DNI_RULE_OPERATORS.map((o) => ({ value: o, label: OPERATOR_LABELS[o] }))}
                  value={rule.operator}
                  onChange={(v) => v && setRule(i, { operator: v as RuleOperator })}
                  allowDeselect={false}
                  w={160}
                />
                <TextInput
                  aria-label={`Rule ${i + 1} value`}
                  placeholder="spring-sale"
                  value={rule.value}
                  onChange={(e) => setRule(i, { value: e.currentTarget.value })}
                  error={errors[`source_rules.custom_rules.${i}.value`]?.[0]}
                  style={{ flex: 1, minWidth: 140 }}
                />
                <ActionIcon
                  variant="subtle"
                  color="red"
                  size="lg"
                  aria-label={`Remove rule ${i + 1}`}
                  onClick={() => onChange({ ...value, custom_rules: value.custom_rules.filter((_, j) => j !== i) })}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            ))}
            <Group>
              <Button
                variant="light"
                size="xs"
                leftSection={<IconPlus size={14} />}
                onClick={() => onChange({ ...value, custom_rules: [...value.custom_rules, { field: 'utm_campaign', operator: 'equals', value: '' }] })}
                disabled={value.custom_rules.length >= 50}
              >
                Add rule
              </Button>
            </Group>
          </Stack>
        </>
      )}
    </Stack>
  );
}
