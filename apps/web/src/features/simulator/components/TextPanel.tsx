import { Button, Card, Group, Stack, Textarea, Title } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useHandsetMessages } from '../api/get-handset-messages';
import { useSendSms } from '../api/send-sms';
import type { SimulatorNumber } from '../types';
import { HandsetThread } from './HandsetThread';

/** Text a company number from the outside handset and read what the company texted back. */
export function TextPanel({ from, target }: { from: string | null; target: SimulatorNumber | null }) {
  const [body, setBody] = useState('');
  const send = useSendSms();
  const messages = useHandsetMessages(from);
  const thread = (messages.data ?? []).filter((m) => !target || m.business_number === target.number);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!from || !target || !body.trim()) return;
    send.mutate({ from, to: target.number, body: body.trim() }, { onSuccess: () => setBody('') });
  };

  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={4} mb="sm">
        Text
      </Title>
      <Stack gap="sm">
        {from ? <HandsetThread messages={thread} handset={from} /> : null}
        <form onSubmit={submit}>
          <Group align="flex-end" gap="xs" wrap="nowrap">
            <Textarea
              label="Text message"
              placeholder="Hi, are you open today?"
              autosize
              minRows={1}
              maxRows={4}
              value={body}
              onChange={(e) => setBody(e.currentTarget.value)}
              style={{ flex: 1 }}
            />
            <Button type="submit" leftSection={<IconSend size={16} />} loading={send.isPending} disabled={!from || !target || !body.trim()}>
              Send
            </Button>
          </Group>
        </form>
      </Stack>
    </Card>
  );
}
