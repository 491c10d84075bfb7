/**
 * AI attribute rules (docs/call-intelligence.md "AI attributes"): keywords or phrases said in a call → its
 * qualification, an outcome or a department (a call custom field). Listed for everyone who reads calls; added and
 * deleted with `settings.manage`.
 */
import { useState } from 'react';
import { AI_RULE_VALUES, type AiRuleTarget } from '@switchboard/contracts';
import { ActionIcon, Alert, Button, Card, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useCan } from '../../../lib/access';
import { errorMessages } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import { useAiRules, useCallFields, useDeleteAiRule, useSaveAiRule } from '../api/call-intelligence';

const SPEAKERS: Record<string, string> = { '': 'Anyone', '1': 'Agent', '2': 'Client' };

export function AiRulesPanel() {
  const companyId = useCompanyId();
  const canEdit = useCan('settings.manage');
  const rules = useAiRules(companyId);
  const fields = useCallFields(canEdit ? companyId : null);
  const save = useSaveAiRule(companyId);
  const remove = useDeleteAiRule(companyId);
  const [name, setName] = useState('');
  const [target, setTarget] = useState<AiRuleTarget>('qualification');
  const [value, setValue] = useState('qualified');
  const [attributeId, setAttributeId] = useState<string | null>(null);
  const [keywords, setKeywords] = useState('');
  const [speaker, setSpeaker] = useState('');
  const error = save.error ? (errorMessages((save.error as { body?: unknown }).body)?.message ?? 'The rule could not be saved.') : null;

  return (
    <Card withBorder padding="sm" aria-label="AI attribute rules">
      <Stack gap="xs">
        <Title order={4}>AI attribute rules</Title>
        <Text size="sm" c="dimmed">
          When a transcript of a number with AI attributes on says one of the keywords, the call gets the value.
        </Text>
        {rules.data && rules.data.data.length === 0 && <Text size="sm">No rules yet.</Text>}
        {rules.data && rules.data.data.length > 0 && (
          <Table.ScrollContainer minWidth={400}>
            <Table>
              <Table.Tbody>
                {rules.data.data.map((r) => (
                  <Table.Tr key={r.id}>
                    <Table.Td>{r.name}</Table.Td>
                    <Table.Td>
                      {r.target}: {r.value}
                    </Table.Td>
                    <Table.Td>{r.keywords.join(', ')}</Table.Td>
                    <Table.Td>{SPEAKERS[String(r.speaker ?? '')]}</Table.Td>
                    {canEdit && (
                      <Table.Td>
                        <ActionIcon variant="subtle" color="red" aria-label={`Delete rule ${r.name}`} onClick={() => remove.mutate(r.id)}>
                          ×
                        </ActionIcon>
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {canEdit && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              save.mutate(
                {
                  name,
                  target,
                  value,
                  attribute_id: target === 'qualification' ? null : attributeId ? Number(attributeId) : null,
                  keywords: keywords
                    .split(',')
                    .map((k) => k.trim())
                    .filter(Boolean),
                  speaker: speaker === '1' ? 1 : speaker === '2' ? 2 : null,
                },
                { onSuccess: () => (setName(''), setKeywords('')) },
              );
            }}
          >
            <Group gap="xs" align="end" wrap="wrap">
              <TextInput label="Rule name" value={name} onChange={(e) => setName(e.currentTarget.value)} w={160} />
              <Select
                label="Sets"
                data={['qualification', 'outcome', 'department']}
                value={target}
                onChange={(v) => {
                  const t = (v ?? 'qualification') as AiRuleTarget;
                  setTarget(t);
                  setValue(AI_RULE_VALUES[t][0]!);
                }}
                w={140}
              />
              <Select label="Value" data={[...AI_RULE_VALUES[target]]} value={value} onChange={(v) => setValue(v ?? '')} w={180} />
              {target !== 'qualification' && (
                <Select
                  label="Custom field"
                  data={(fields.data?.data ?? []).map((f) => ({ value: String(f.id), label: f.name }))}
                  value={attributeId}
                  onChange={setAttributeId}
                  w={180}
                />
              )}
              <TextInput label="Keywords or phrases (comma-separated)" value={keywords} onChange={(e) => setKeywords(e.currentTarget.value)} w={260} />
              <Select
                label="Said by"
                data={Object.entries(SPEAKERS).map(([v, l]) => ({ value: v, label: l }))}
                value={speaker}
                onChange={(v) => setSpeaker(v ?? '')}
                w={120}
              />
              <Button type="submit" loading={save.isPending}>
                Add rule
              </Button>
            </Group>
          </form>
        )}
        {error && <Alert color="red">{error}</Alert>}
      </Stack>
    </Card>
  );
}
