import { Group, Paper, ScrollArea, Stack, Text } from '@mantine/core';
import { formatTime } from '../../../lib/dates';
import { useEffect, useRef } from 'react';
import type { HandsetMessage } from '../types';

/**
 * The handset's conversation with one company number. From the handset's point of view: what it sent
 * (right) and what the company texted back (left) with the carrier's delivery status.
 */
export function HandsetThread({ messages, handset }: { messages: HandsetMessage[]; handset: string }) {
  const viewport = useRef<HTMLDivElement>(null);
  const sorted = [...messages].sort((a, b) => a.created_at.localeCompare(b.created_at));
  const lastId = sorted[sorted.length - 1]?.sid;
  useEffect(() => {
    viewport.current?.scrollTo({ top: viewport.current.scrollHeight });
  }, [lastId]);

  if (sorted.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No texts yet. Send one to the company number.
      </Text>
    );
  }
  return (
    <ScrollArea.Autosize mah={360} viewportRef={viewport}>
      <Stack gap="xs" data-testid="handset-thread">
        {sorted.map((m) => {
          const sentByHandset = m.from === handset;
          return (
            <Stack
              key={m.sid}
              gap={2}
              align={sentByHandset ? 'flex-end' : 'flex-start'}
              data-testid="handset-message"
              data-direction={sentByHandset ? 'sent' : 'received'}
              data-status={m.status}
            >
              <Paper
                px="sm"
                py={6}
                radius="lg"
                maw="80%"
                bg={sentByHandset ? 'var(--mantine-color-green-6)' : 'var(--mantine-color-gray-1)'}
                c={sentByHandset ? 'white' : undefined}
              >
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  {m.body}
                </Text>
              </Paper>
              <Group gap={6}>
                <Text size="xs" c="dimmed">
                  {formatTime(m.created_at)}
                </Text>
                <Text size="xs" c={m.status === 'undelivered' || m.status === 'failed' ? 'red' : 'dimmed'} data-testid="handset-message-status">
                  {m.status}
                  {m.error_code ? ` (${m.error_code})` : ''}
                </Text>
              </Group>
            </Stack>
          );
        })}
      </Stack>
    </ScrollArea.Autosize>
  );
}
