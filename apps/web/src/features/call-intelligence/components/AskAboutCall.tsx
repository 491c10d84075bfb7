/**
 * "Ask about this call" (docs/call-intelligence.md "Questions about a call"): a question box in the call detail;
 * the answer comes from the transcript only, with the passages (speaker, time) it rests on, or says plainly that
 * the transcript does not contain it.
 */
import { useState } from 'react';
import { Alert, Badge, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useConverse } from '../api/call-intelligence';

const time = (s: number) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`;

export function AskAboutCall({ callId }: { callId: number }) {
  const [message, setMessage] = useState('');
  const ask = useConverse(callId);
  const answer = ask.data?.data;
  return (
    <Stack gap="xs" aria-label="Ask about this call">
      <Title order={5}>Ask about this call</Title>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (message.trim()) ask.mutate(message.trim());
        }}
      >
        <Group gap="xs" align="end" wrap="nowrap">
          <TextInput
            aria-label="Question about this call"
            placeholder="What price did we quote?"
            value={message}
            onChange={(e) => setMessage(e.currentTarget.value)}
            style={{ flex: 1 }}
          />
          <Button type="submit" loading={ask.isPending}>
            Ask
          </Button>
        </Group>
      </form>
      {ask.isError && <Alert color="red">The question could not be answered.</Alert>}
      {answer && (
        <Stack gap={4} aria-label="Answer">
          <Text size="sm" fw={500} c={answer.found ? undefined : 'dimmed'}>
            {answer.answer}
          </Text>
          {answer.sources.map((s, i) => (
            <Text key={i} size="xs">
              <Badge size="xs" variant="outline" mr={6}>
                {s.speaker_label} {time(s.start)}
              </Badge>
              {s.text}
            </Text>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
