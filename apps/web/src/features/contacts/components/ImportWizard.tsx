import { Alert, Button, Group, Modal, MultiSelect, Progress, Radio, Select, SimpleGrid, Stack, Stepper, Table, Text } from '@mantine/core';
import { Dropzone } from './Dropzone';
import { importColumnsError } from '@switchboard/domain';
import { IconAlertCircle, IconCheck, IconDownload } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { HttpError } from '../../../lib/http';
import { useImportPreview } from '../api/import-preview';
import { useStartImport } from '../api/start-import';
import { useImportBatch } from '../realtime/use-import-batch';
import type { ImportDuplicateChoice, ImportField, ImportMapping, ImportPreview, Ref } from '../types';

/** Fields that may take several columns (the first valid number wins, a mobile one first). */
const MULTI_FIELDS: ReadonlySet<ImportField> = new Set(['number', 'email']);

/** What a row with the number of an existing contact (or of an earlier row) does; docs/contacts.md "Import". */
const DUPLICATE_CHOICES: Array<{ value: ImportDuplicateChoice; label: string; description: string }> = [
  { value: 'skip', label: 'Skip them', description: 'Keep the contact as it is.' },
  { value: 'fill', label: 'Fill empty fields', description: 'Add what the contact is missing; keep what it has.' },
  { value: 'overwrite', label: 'Overwrite', description: 'Replace the contact’s details with the file’s (empty cells change nothing).' },
];

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

/**
 * Import contacts from CSV, XLSX or vCard (Google Contacts, Outlook and iCloud exports are mapped
 * for you): upload → preview and map columns → groups and duplicates → progress, counts that add up
 * and the per-row report to download.
 */
export function ImportWizard({ opened, onClose, groups }: ImportWizardProps) {
  const [step, setStep] = useState(0);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [mapping, setMapping] = useState<ImportMapping>({});
  const [groupIds, setGroupIds] = useState<string[]>([]);
  const [duplicates, setDuplicates] = useState<ImportDuplicateChoice>('skip');
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
    setDuplicates('skip');
    setFileError(null);
    setBatchId(null);
  };
  const close = () => {
    onClose();
    if (batchId === null || batch.done) reset();
  };

  // The entry is removed 5 s after the import finished, unless its report has rows to look at
  // (updated, skipped or invalid): then it stays until the person closes it.
  const hasReport = batch.merged + batch.skipped + batch.invalid > 0;
  useEffect(() => {
    if (!batch.done || (hasReport && !batch.failed)) return;
    const timer = setTimeout(() => {
      onClose();
      reset();
    }, REMOVE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [batch.done, hasReport]);

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
      const { batchId: id } = await start.mutateAsync({ file, mapping: toServer(mapping) as ImportMapping, groupIds: groupIds.map(Number), duplicates });
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
        <Stepper.Step label="Upload" description="CSV, XLSX or vCard" />
        <Stepper.Step label="Map columns" />
        <Stepper.Step label="Groups and duplicates" />
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
            {FIELDS.map(({ field, label }) => {
              const current = mapping[field];
              return MULTI_FIELDS.has(field) ? (
                <MultiSelect
                  key={field}
                  label={label}
                  placeholder={current === undefined ? 'Skip' : undefined}
                  clearable
                  data={columnOptions}
                  value={current === undefined ? [] : (Array.isArray(current) ? current : [current]).map(String)}
                  onChange={(v) => setMapping((m) => ({ ...m, [field]: v.length ? v.map(Number) : undefined }))}
                />
              ) : (
                <Select
                  key={field}
                  label={label}
                  placeholder="Skip"
                  clearable
                  data={columnOptions}
                  value={current === undefined ? null : String(current)}
                  onChange={(v) => setMapping((m) => ({ ...m, [field]: v === null ? undefined : Number(v) }))}
                />
              );
            })}
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
          <Radio.Group
            label="Rows with a number you already have"
            description="Numbers are checked as they are imported; rows without a valid number are not imported and are listed in the report."
            value={duplicates}
            onChange={(v) => setDuplicates(v as ImportDuplicateChoice)}
          >
            <Stack gap="xs" mt="xs">
              {DUPLICATE_CHOICES.map((c) => (
                <Radio key={c.value} value={c.value} label={c.label} description={c.description} />
              ))}
            </Stack>
          </Radio.Group>
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
              <Text size="sm">
                {batch.inserted} added · {batch.merged} updated · {batch.skipped} skipped duplicates · {batch.invalid} invalid — {batch.total} rows
              </Text>
              {batch.reportUrl && hasReport ? (
                <Button component="a" href={batch.reportUrl} download variant="subtle" size="compact-sm" mt="xs" leftSection={<IconDownload size={14} />}>
                  Download the report
                </Button>
              ) : null}
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
