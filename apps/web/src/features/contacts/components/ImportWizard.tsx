import { Alert, Button, Group, Modal, MultiSelect, Progress, Select, SimpleGrid, Stack, Stepper, Table, Text } from '@mantine/core';
import { Dropzone } from './Dropzone';
import { importColumnsError } from '@switchboard/domain';
import { IconAlertCircle, IconCheck } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { HttpError } from '../../../lib/http';
import { useImportPreview } from '../api/import-preview';
import { useStartImport } from '../api/start-import';
import { useImportBatch } from '../realtime/use-import-batch';
import type { ImportField, ImportMapping, ImportPreview, Ref } from '../types';

const FIELDS: Array<{ field: ImportField; label: string }> = [
  { field: 'name', label: 'Full name' },
  { field: 'first_name', label: 'First name' },
  { field: 'last_name', label: 'Last name' },
  { field: 'number', label: 'Phone number' },
  { field: 'email', label: 'Email' },
  { field: 'company_name', label: 'Company' },
  { field: 'address1', label: 'Address 1' },
  { field: 'address2', label: 'Address 2' },
  { field: 'city', label: 'City' },
  { field: 'state', label: 'State' },
  { field: 'zip', label: 'Zip' },
  { field: 'notes', label: 'Notes' },
  { field: 'gender', label: 'Gender' },
  { field: 'age_range', label: 'Age range' },
  { field: 'type', label: 'Type' },
];

/** The preview's suggested mapping, flattened (`name: {first, last}` → first_name / last_name). */
function flatten(mapping: ImportPreview['mapping']): ImportMapping {
  const { name, ...rest } = mapping;
  const flat: ImportMapping = { ...rest } as ImportMapping;
  if (typeof name === 'number') flat.name = name;
  else if (name) {
    if (name.first !== undefined) flat.first_name = name.first;
    if (name.last !== undefined) flat.last_name = name.last;
  }
  return flat;
}

/** The mapping the server takes: a full-name column, else `name: {first, last}`. */
function toServer(flat: ImportMapping): Record<string, unknown> {
  const { name, first_name, last_name, ...rest } = flat;
  const out: Record<string, unknown> = { ...rest };
  if (name !== undefined) out.name = name;
  else if (first_name !== undefined || last_name !== undefined) out.name = { first: first_name, last: last_name };
  return out;
}

/** A finished import stays on screen this long before the entry goes away. */
const REMOVE_AFTER_MS = 5000;

interface ImportWizardProps {
  opened: boolean;
  onClose: () => void;
  groups: Ref[];
}

/** Import contacts from CSV or XLSX: upload → preview and map columns → groups → progress and summary. */
export function ImportWizard({ opened, onClose, groups }: ImportWizardProps) {
  const [step, setStep] = useState(0);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [mapping, setMapping] = useState<ImportMapping>({});
  const [groupIds, setGroupIds] = useState<string[]>([]);
  const [fileError, setFileError] = useState<string | null>(null);
  const [batchId, setBatchId] = useState<string | null>(null);
  const previewCall = useImportPreview();
  const start = useStartImport();
  const batch = useImportBatch(batchId);

  const reset = () => {
    setStep(0);
    setFile(null);
    setPreview(null);
    setMapping({});
    setGroupIds([]);
    setFileError(null);
    setBatchId(null);
  };
  const close = () => {
    onClose();
    if (batchId === null || batch.done) reset();
  };

  // The entry is removed 5 s after the import finished.
  useEffect(() => {
    if (!batch.done) return;
    const timer = setTimeout(() => {
      onClose();
      reset();
    }, REMOVE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [batch.done]);

  const choose = async (picked: File | null) => {
    setFile(picked);
    setFileError(null);
    if (!picked) return;
    try {
      const result = await previewCall.mutateAsync(picked);
      setPreview(result);
      setMapping(flatten(result.mapping));
      if (result.error) setFileError(result.error);
      setStep(1);
    } catch (error) {
      setFileError(error instanceof HttpError ? (error.fieldErrors.file?.[0] ?? error.message) : 'The file could not be read.');
    }
  };

  const columnOptions = useMemo(() => (preview?.headers ?? []).map((h, i) => ({ value: String(i), label: h || `Column ${i + 1}` })), [preview]);
  const mappingError = importColumnsError(toServer(mapping) as Parameters<typeof importColumnsError>[0]);

  const begin = async () => {
    if (!file) return;
    try {
      const { batchId: id } = await start.mutateAsync({ file, mapping: toServer(mapping) as ImportMapping, groupIds: groupIds.map(Number) });
      setBatchId(id);
      setStep(3);
    } catch (error) {
      if (error instanceof HttpError) {
        setFileError(error.fieldErrors.file?.[0] ?? Object.values(error.fieldErrors)[0]?.[0] ?? error.message);
        setStep(1);
      }
    }
  };

  return (
    <Modal opened={opened} onClose={close} title="Import contacts" size="xl">
      <Stepper active={step} size="sm" mb="md">
        <Stepper.Step label="Upload" description="CSV or XLSX" />
        <Stepper.Step label="Map columns" />
        <Stepper.Step label="Groups" />
        <Stepper.Step label="Import" />
      </Stepper>

      {step === 0 ? (
        <Stack>
          <Dropzone onFile={(f) => void choose(f)} loading={previewCall.isPending} />
          {fileError ? (
            <Alert color="red" icon={<IconAlertCircle size={16} />} data-testid="import-error">
              {fileError}
            </Alert>
          ) : null}
        </Stack>
      ) : null}

      {step === 1 && preview ? (
        <Stack>
          <Text size="sm" c="dimmed">
            {file?.name}: the first rows are below. Tell us which column holds what; we guessed from the headers.
          </Text>
          <Table.ScrollContainer minWidth={500} mah={180}>
            <Table withTableBorder striped fz="xs" data-testid="import-preview">
              <Table.Thead>
                <Table.Tr>
                  {preview.headers.map((h, i) => (
                    <Table.Th key={i}>{h}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {preview.rows.slice(0, 5).map((row, r) => (
                  <Table.Tr key={r}>
                    {preview.headers.map((_, c) => (
                      <Table.Td key={c}>{row[c] ?? ''}</Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            {FIELDS.map(({ field, label }) => (
              <Select
                key={field}
                label={label}
                placeholder="Skip"
                clearable
                data={columnOptions}
                value={mapping[field] === undefined ? null : String(mapping[field])}
                onChange={(v) => setMapping((m) => ({ ...m, [field]: v === null ? undefined : Number(v) }))}
              />
            ))}
          </SimpleGrid>
          {fileError || mappingError ? (
            <Alert color="red" icon={<IconAlertCircle size={16} />} data-testid="import-error">
              {mappingError ?? fileError}
            </Alert>
          ) : null}
          <Group justify="space-between">
            <Button variant="default" onClick={reset}>
              Choose another file
            </Button>
            <Button onClick={() => setStep(2)} disabled={mappingError !== null}>
              Next
            </Button>
          </Group>
        </Stack>
      ) : null}

      {step === 2 ? (
        <Stack>
          <MultiSelect
            label="Add the imported contacts to groups"
            placeholder={groups.length ? 'Pick groups (optional)' : 'No groups yet — create them on the Groups page'}
            data={groups.map((g) => ({ value: String(g.id), label: g.name }))}
            value={groupIds}
            onChange={setGroupIds}
            searchable
            clearable
          />
          <Text size="sm" c="dimmed">
            Numbers are checked as they are imported; contacts with a number you already have are merged, not doubled.
          </Text>
          <Group justify="space-between">
            <Button variant="default" onClick={() => setStep(1)}>
              Back
            </Button>
            <Button onClick={() => void begin()} loading={start.isPending}>
              Start import
            </Button>
          </Group>
        </Stack>
      ) : null}

      {step === 3 ? (
        <Stack data-testid="import-progress">
          <Text size="sm" fw={500}>
            {batch.done ? (batch.failed ? 'Import failed' : 'Import complete') : `Importing ${file?.name ?? ''}…`}
          </Text>
          <Progress
            value={batch.progress}
            size="xl"
            animated={!batch.done}
            color={batch.failed ? 'red' : batch.done ? 'teal' : 'blue'}
            aria-label="Import progress"
            data-testid="import-progress-bar"
            data-done={batch.done ? 'true' : 'false'}
          />
          <Text size="xs" c="dimmed" ta="right">
            {Math.round(batch.progress)}%
          </Text>
          {batch.done && !batch.failed ? (
            <Alert color="teal" icon={<IconCheck size={16} />} data-testid="import-summary">
              {batch.inserted} added · {batch.merged} merged · {batch.invalid} invalid
            </Alert>
          ) : null}
          {batch.failed ? (
            <Alert color="red" icon={<IconAlertCircle size={16} />}>
              {batch.error}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {batch.done ? 'Close' : 'Continue in background'}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
