/** The Phone simulator's fax machine: send a PDF from the outside number to a company fax number (POST /api/simulator/faxes; docs/fax.md "Sandbox"). */
import { Alert, Button, Card, FileInput, Stack, Text, Title } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { HttpError, http } from '../../../lib/http';
import type { SimulatorNumber } from '../types';

export function FaxPanel({ from, target }: { from: string | null; target: SimulatorNumber | null }) {
  const [file, setFile] = useState<File | null>(null);
  const send = useMutation({
    mutationFn: () => {
      const form = new FormData();
      form.append('from', from ?? '');
      form.append('to', target?.number ?? '');
      form.append('file', file!);
      return http.post<{ fax_id: string; webhook_status: number }>('/api/simulator/faxes', form);
    },
  });
  const error =
    send.error instanceof HttpError ? (Object.values(send.error.fieldErrors)[0]?.[0] ?? send.error.message) : send.error ? 'The fax could not be sent.' : null;
  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="sm">
        <Title order={3} size="h4">
          Send a fax
        </Title>
        <Text size="sm" c="dimmed">
          Your fax machine sends a PDF to {target ? formatPhone(target.number) : 'the company number'} (it must be a fax number).
        </Text>
        <FileInput label="PDF to fax" accept="application/pdf" value={file} onChange={setFile} clearable placeholder="Choose a PDF" />
        {error && <Alert color="red">{error}</Alert>}
        {send.isSuccess && !error && <Alert color="green">Fax sent. It arrives on the Faxes screen and in the Inbox.</Alert>}
        <Button onClick={() => send.mutate()} disabled={!from || !target || !file} loading={send.isPending} style={{ alignSelf: 'flex-start' }}>
          Send fax
        </Button>
      </Stack>
    </Card>
  );
}
