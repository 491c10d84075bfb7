/** "Send a fax": fax number, recipient, PDF, optional cover note; progress while it uploads (docs/fax.md "Web"). */
import { Alert, Button, FileInput, Group, Modal, Select, Stack, TextInput, Textarea, Progress } from '@mantine/core';
import { FAX_COVER_NOTE_MAX, FAX_MAX_BYTES } from '@switchboard/contracts';
import { formatPhone, parsePhone } from '@switchboard/domain';
import { useState } from 'react';
import { HttpError, errorMessages } from '../../../lib/http';
import { useSendFax, type FaxNumber } from '../api/faxes';

interface Props {
  opened: boolean;
  onClose: () => void;
  companyId: number;
  numbers: FaxNumber[];
}

export function SendFaxDialog({ opened, onClose, companyId, numbers }: Props) {
  const send = useSendFax();
  const [numberId, setNumberId] = useState<string | null>(numbers[0] ? String(numbers[0].id) : null);
  const [to, setTo] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const fileError =
    file && (file.size > FAX_MAX_BYTES ? 'The PDF may not be larger than 10 MB.' : file.type && file.type !== 'application/pdf' ? 'Choose a PDF file.' : null);

  const submit = async () => {
    const local: Record<string, string> = {};
    if (!numberId) local.number_id = 'Choose a fax number.';
    if (!parsePhone(to)) local.to = 'Enter a valid fax number.';
    if (!file) local.file = 'Choose a PDF to send.';
    if (fileError) local.file = fileError;
    setErrors(local);
    if (Object.keys(local).length) return;
    try {
      await send.mutateAsync({ companyId, numberId: Number(numberId), to, coverNote: note, file: file! });
      setTo('');
      setFile(null);
      setNote('');
      onClose();
    } catch (e) {
      if (e instanceof HttpError && e.status === 422) {
        const body = e.body as { errors?: Record<string, string[]> };
        setErrors(Object.fromEntries(Object.entries(body.errors ?? {}).map(([k, v]) => [k, v[0] ?? ''])));
      } else setErrors({ form: errorMessages(e instanceof HttpError ? e.body : null)?.message ?? 'The fax could not be sent.' });
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Send a fax" size="lg">
      <Stack>
        {errors.form && <Alert color="red">{errors.form}</Alert>}
        <Select
          label="From fax number"
          data={numbers.map((n) => ({
            value: String(n.id),
            label: `${formatPhone(n.number)}${n.label && n.label !== formatPhone(n.number) ? ` · ${n.label}` : ''}`,
          }))}
          value={numberId}
          onChange={setNumberId}
          error={errors.number_id}
          allowDeselect={false}
          required
        />
        <TextInput
          label="To"
          placeholder="(312) 555-0142"
          inputMode="tel"
          value={to}
          onChange={(e) => setTo(e.currentTarget.value)}
          error={errors.to}
          required
        />
        <FileInput
          label="PDF document"
          placeholder="Choose a PDF (10 MB at most)"
          accept="application/pdf"
          value={file}
          onChange={setFile}
          error={errors.file ?? fileError}
          clearable
          required
        />
        <Textarea
          label="Cover note"
          description="Optional: adds a cover page in front of the document."
          autosize
          minRows={3}
          maxLength={FAX_COVER_NOTE_MAX}
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          error={errors.cover_note}
        />
        {send.isPending && <Progress value={100} animated aria-label="Sending" />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} loading={send.isPending}>
            Send fax
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
