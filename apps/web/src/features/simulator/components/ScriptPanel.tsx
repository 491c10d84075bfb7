/**
 * The Phone simulator's conversation script (docs/transcription.md "The sandbox loop"): lines the
 * caller and the agent say, in order. The next simulated call carries them (`script`); the sandbox
 * carrier speaks them with the product's speech synthesizer into the two channels of the recording
 * (when the number records), and the caller's lines into a voicemail. The script lives in a small
 * store shared with the call panel (`currentScript`).
 */
import { ActionIcon, Button, Card, Group, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState, useSyncExternalStore } from 'react';

type Line = { speaker: 'caller' | 'agent'; text: string };

let lines: Line[] = [];
const listeners = new Set<() => void>();
function setLines(next: Line[]): void {
  lines = next;
  for (const l of listeners) l();
}
function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** The script the next simulated call carries (undefined when empty). */
export function currentScript(): Line[] | undefined {
  const filled = lines.filter((l) => l.text.trim());
  return filled.length > 0 ? filled : undefined;
}

export function ScriptPanel() {
  const script = useSyncExternalStore(subscribe, () => lines);
  const [speaker, setSpeaker] = useState<'caller' | 'agent'>('caller');
  const [text, setText] = useState('');
  const add = () => {
    if (!text.trim()) return;
    setLines([...script, { speaker, text: text.trim() }]);
    setText('');
    setSpeaker(speaker === 'caller' ? 'agent' : 'caller');
  };
  return (
    <Card withBorder radius="md" padding="lg" data-testid="script-panel">
      <Title order={4} mb="xs">
        Conversation
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        What the caller and the agent say once the call connects. A number that records gets these lines spoken into its recording and transcribed.
      </Text>
      <Stack gap="xs">
        {script.map((l, i) => (
          <Group key={i} gap="xs" wrap="nowrap">
            <Text size="sm" fw={500} w={56}>
              {l.speaker === 'caller' ? 'Caller' : 'Agent'}
            </Text>
            <Text size="sm" style={{ flex: 1 }}>
              {l.text}
            </Text>
            <ActionIcon variant="subtle" color="red" aria-label={`Remove line ${i + 1}`} onClick={() => setLines(script.filter((_, j) => j !== i))}>
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        <SegmentedControl
          aria-label="Who speaks"
          value={speaker}
          onChange={(v) => setSpeaker(v as 'caller' | 'agent')}
          data={[
            { value: 'caller', label: 'Caller' },
            { value: 'agent', label: 'Agent' },
          ]}
        />
        <Group gap="xs" wrap="nowrap" align="flex-end">
          <TextInput
            label="Line"
            placeholder="What they say"
            value={text}
            maxLength={500}
            onChange={(e) => setText(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') add();
            }}
            style={{ flex: 1 }}
          />
          <Button leftSection={<IconPlus size={16} />} onClick={add} disabled={!text.trim()}>
            Add line
          </Button>
        </Group>
        {script.length > 0 ? (
          <Button variant="subtle" size="xs" onClick={() => setLines([])}>
            Clear conversation
          </Button>
        ) : null}
      </Stack>
    </Card>
  );
}
