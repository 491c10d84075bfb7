import { ActionIcon, Badge, Button, CloseButton, FileButton, Group, Popover, SegmentedControl, Stack, Text, Textarea, TextInput, Tooltip } from '@mantine/core';
import { MMS_MAX_LENGTH, MMS_TOO_LONG, SMS_MAX_LENGTH, SMS_TOO_LONG } from '@switchboard/domain';
import { IconClock, IconNote, IconPaperclip, IconSend } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { HttpError } from '../../../lib/http';

interface ComposerProps {
  onSend: (content: string, media: File[]) => void;
  /** Resolves when the server accepted the scheduled message; rejects to keep the text. */
  onSchedule: (content: string, media: File[], shouldBeSentAt: string) => Promise<unknown>;
  onNote: (body: string) => Promise<unknown>;
  /** The server's refusal of the last send (e.g. an unsubscribed contact). */
  error?: string | null;
  disabled?: boolean;
  pending?: boolean;
}

/**
 * Message composer: Enter sends, Shift+Enter adds a line; images make an MMS (media[]); 'Schedule'
 * sends later at a chosen time; 'Note' writes a note for the team instead of a text.
 */
export function Composer({ onSend, onSchedule, onNote, error, disabled, pending }: ComposerProps) {
  const [mode, setMode] = useState<'reply' | 'note'>('reply');
  const [content, setContent] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [scheduleOpen, setScheduleOpen] = useState(false);
  const [sendAt, setSendAt] = useState(() => dayjs().add(1, 'hour').startOf('hour').format('YYYY-MM-DDTHH:mm'));
  const [scheduleError, setScheduleError] = useState<string | null>(null);
  const limit = files.length ? MMS_MAX_LENGTH : SMS_MAX_LENGTH;
  const tooLong = mode === 'reply' && content.length > limit;
  const empty = !content.trim() && (mode === 'note' || files.length === 0);

  const clear = () => {
    setContent('');
    setFiles([]);
  };

  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    if (empty || tooLong || disabled) return;
    if (mode === 'note') {
      await onNote(content.trim());
      clear();
      return;
    }
    onSend(content.trim(), files);
    clear();
  };

  const schedule = async () => {
    setScheduleError(null);
    const at = new Date(sendAt);
    if (Number.isNaN(at.getTime()) || at.getTime() <= Date.now()) {
      setScheduleError('Pick a time in the future.');
      return;
    }
    try {
      await onSchedule(content.trim(), files, at.toISOString());
      setScheduleOpen(false);
      clear();
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      // The server's refusal is shown below the composer (`error`); the dialog stays open.
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <form onSubmit={(e) => void send(e)}>
      <Stack gap={4}>
        <Group justify="space-between">
          <SegmentedControl
            size="xs"
            value={mode}
            onChange={(m) => setMode(m as 'reply' | 'note')}
            data={[
              { value: 'reply', label: 'Reply' },
              { value: 'note', label: 'Note' },
            ]}
            aria-label="Composer mode"
          />
          {files.length ? (
            <Group gap={4}>
              {files.map((f, i) => (
                <Badge
                  key={i}
                  variant="light"
                  rightSection={<CloseButton size="xs" aria-label={`Remove ${f.name}`} onClick={() => setFiles(files.filter((_, j) => j !== i))} />}
                >
                  {f.name}
                </Badge>
              ))}
            </Group>
          ) : null}
        </Group>
        <Group align="flex-end" gap="xs" wrap="nowrap">
          <Textarea
            aria-label={mode === 'note' ? 'Note' : 'Message'}
            placeholder={mode === 'note' ? 'A note for your team (the customer does not see it)…' : 'Write a reply…'}
            autosize
            minRows={1}
            maxRows={6}
            value={content}
            onChange={(e) => setContent(e.currentTarget.value)}
            onKeyDown={onKeyDown}
            error={tooLong ? (files.length ? MMS_TOO_LONG : SMS_TOO_LONG) : undefined}
            style={{ flex: 1 }}
            disabled={disabled}
            styles={mode === 'note' ? { input: { background: 'var(--mantine-color-yellow-0)' } } : undefined}
          />
          {mode === 'reply' ? (
            <>
              <FileButton multiple accept="image/*,video/*,audio/*,application/pdf" onChange={(picked) => setFiles([...files, ...picked])}>
                {(props) => (
                  <Tooltip label="Attach (MMS)">
                    <ActionIcon {...props} size="lg" variant="default" aria-label="Attach files" disabled={disabled}>
                      <IconPaperclip size={18} />
                    </ActionIcon>
                  </Tooltip>
                )}
              </FileButton>
              <Popover opened={scheduleOpen} onChange={setScheduleOpen} position="top-end" withArrow trapFocus>
                <Popover.Target>
                  <Tooltip label="Schedule">
                    <ActionIcon
                      size="lg"
                      variant="default"
                      aria-label="Schedule"
                      disabled={disabled || empty || tooLong}
                      onClick={() => setScheduleOpen((o) => !o)}
                    >
                      <IconClock size={18} />
                    </ActionIcon>
                  </Tooltip>
                </Popover.Target>
                <Popover.Dropdown>
                  <Stack gap="xs">
                    <TextInput
                      type="datetime-local"
                      label="Send at"
                      value={sendAt}
                      min={dayjs().format('YYYY-MM-DDTHH:mm')}
                      onChange={(e) => setSendAt(e.currentTarget.value)}
                      error={scheduleError}
                    />
                    <Button size="xs" onClick={() => void schedule()} loading={pending}>
                      Schedule message
                    </Button>
                  </Stack>
                </Popover.Dropdown>
              </Popover>
            </>
          ) : null}
          <Tooltip label={mode === 'note' ? 'Add note' : 'Send'}>
            <ActionIcon
              type="submit"
              size="lg"
              aria-label={mode === 'note' ? 'Add note' : 'Send'}
              disabled={disabled || empty || tooLong}
              color={mode === 'note' ? 'yellow' : undefined}
            >
              {mode === 'note' ? <IconNote size={18} /> : <IconSend size={18} />}
            </ActionIcon>
          </Tooltip>
        </Group>
        <Group justify="space-between" gap="xs">
          <Text size="xs" c="red" data-testid="composer-error">
            {error ?? ''}
          </Text>
          {mode === 'reply' ? (
            <Text size="xs" c="dimmed" ta="right">
              {content.length}/{limit}
            </Text>
          ) : null}
        </Group>
      </Stack>
    </form>
  );
}
