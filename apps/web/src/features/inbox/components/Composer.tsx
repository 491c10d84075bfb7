import { ActionIcon, Group, Text, Textarea, Tooltip } from '@mantine/core';
import { SMS_MAX_LENGTH, SMS_TOO_LONG } from '@switchboard/domain';
import { IconSend } from '@tabler/icons-react';
import { useState, type FormEvent, type KeyboardEvent } from 'react';

/** Message composer: Enter sends, Shift+Enter adds a line; limited to SMS_MAX_LENGTH characters. */
export function Composer({ onSend, disabled }: { onSend: (content: string) => void; disabled?: boolean }) {
  const [content, setContent] = useState('');
  const tooLong = content.length > SMS_MAX_LENGTH;

  const send = (event?: FormEvent) => {
    event?.preventDefault();
    const text = content.trim();
    if (!text || tooLong || disabled) return;
    onSend(text);
    setContent('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      send();
    }
  };

  return (
    <form onSubmit={send}>
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <Textarea
          aria-label="Message"
          placeholder="Write a reply…"
          autosize
          minRows={1}
          maxRows={6}
          value={content}
          onChange={(e) => setContent(e.currentTarget.value)}
          onKeyDown={onKeyDown}
          error={tooLong ? SMS_TOO_LONG : undefined}
          style={{ flex: 1 }}
          disabled={disabled}
        />
        <Tooltip label="Send">
          <ActionIcon type="submit" size="lg" aria-label="Send" disabled={disabled || !content.trim() || tooLong}>
            <IconSend size={18} />
          </ActionIcon>
        </Tooltip>
      </Group>
      <Text size="xs" c="dimmed" ta="right" mt={2}>
        {content.length}/{SMS_MAX_LENGTH}
      </Text>
    </form>
  );
}
