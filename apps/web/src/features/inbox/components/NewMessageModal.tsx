/**
 * "New message" in the inbox: a text to a number that may have no conversation yet, sent from one
 * of the company's numbers (`POST /api/message` with number_id and to; spec 001 §3). Opened by the
 * inbox's button, or by `/inbox?to=<number>` (the Text buttons on a contact, a call or a
 * voicemail), which fills the recipient. On success the new (or existing) conversation opens.
 */
import { Button, Group, Modal, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { SMS_MAX_LENGTH, SMS_TOO_LONG } from '@switchboard/domain';
import { useEffect, useState, type FormEvent } from 'react';
import { errorMessages, HttpError } from '../../../lib/http';
import { useSendMessage } from '../api/send-message';
import type { ConversationItem } from '../types';
import type { InboxNumberOption } from './InboxPage';

export function NewMessageModal({
  opened,
  onClose,
  numbers,
  initialTo,
  onSent,
}: {
  opened: boolean;
  onClose: () => void;
  numbers: InboxNumberOption[];
  initialTo: string;
  onSent: (item: ConversationItem) => void;
}) {
  const send = useSendMessage();
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState(initialTo);
  const [content, setContent] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (!opened) return;
    setTo(initialTo);
    setErrors({});
    setFailure(null);
  }, [opened, initialTo]);
  useEffect(() => {
    if (from === null && numbers[0]) setFrom(numbers[0].value);
  }, [numbers, from]);

  const tooLong = content.length > SMS_MAX_LENGTH;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!from || !to.trim() || !content.trim() || tooLong) return;
    setErrors({});
    setFailure(null);
    send.mutate(
      { number_id: Number(from), to: to.trim(), content: content.trim() },
      {
        onSuccess: (item) => {
          setContent('');
          onSent(item);
        },
        onError: (error) => {
          if (error instanceof HttpError && error.status === 422) setErrors(error.fieldErrors);
          setFailure(errorMessages(error instanceof HttpError ? error.body : null)?.message ?? 'The message could not be sent.');
        },
      },
    );
  };

  return (
    <Modal opened={opened} onClose={onClose} title="New message" centered>
      <form onSubmit={submit}>
        <Stack gap="sm">
          {numbers.length === 0 ? (
            <Text size="sm" c="dimmed">
              Buy a number first: texts are sent from one of your company's numbers.
            </Text>
          ) : (
            <Select label="From" data={numbers} value={from} onChange={setFrom} allowDeselect={false} error={errors.number_id?.[0]} />
          )}
          <TextInput
            label="To"
            placeholder="(312) 555-0100"
            inputMode="tel"
            value={to}
            onChange={(e) => setTo(e.currentTarget.value)}
            error={errors.to?.[0]}
            data-autofocus={initialTo ? undefined : true}
            required
          />
          <Textarea
            label="Message"
            autosize
            minRows={3}
            maxRows={8}
            value={content}
            onChange={(e) => setContent(e.currentTarget.value)}
            error={tooLong ? SMS_TOO_LONG : errors.content?.[0]}
            data-autofocus={initialTo ? true : undefined}
            required
          />
          {failure && Object.keys(errors).length === 0 ? (
            <Text size="sm" c="red" role="alert">
              {failure}
            </Text>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={send.isPending} disabled={!from || !to.trim() || !content.trim() || tooLong}>
              Send
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
