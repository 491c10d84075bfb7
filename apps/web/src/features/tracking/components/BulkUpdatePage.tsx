import { Alert, Button, Card, Code, FileButton, Group, List, Radio, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconDownload, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { PageHeader } from '../../../components/PageHeader';
import { HttpError } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import { BULK_ATTRIBUTE_COLUMNS, downloadTemplate, templateName, useBulkUpload, useManagedUnits, type BulkScope, type ManagedUnit } from '../api/bulk-update';
import { TrackingNav } from './TrackingNav';

/** Most row errors listed on screen (the rest are counted). */
const SHOWN_ERRORS = 200;

/** Saves a Blob under `name` through a temporary link. */
function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** "Business unit 4 (Acme, Acme West)": the unit and the companies of it the person manages. */
export function unitLabel(unit: ManagedUnit): string {
  return `Business unit ${unit.id} (${unit.companies.map((c) => c.name).join(', ')})`;
}

/**
 * Bulk attribute update `/tracking/bulk-update` (spec 002 "DNI" bulk attribute update): download the CSV
 * template (the tracking numbers and their attributes), edit it, upload it. A file with a bad row changes
 * nothing: each bad row is listed by its row number and column, and the person fixes and re-uploads. A person
 * who manages companies of a business unit chooses the scope first: this company, or every company of the
 * unit they manage (one file, `company_id` on each row).
 */
export function BulkUpdatePage() {
  const companyId = useCompanyId();
  const upload = useBulkUpload();
  const units = useManagedUnits().data ?? [];
  const [downloading, setDownloading] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [scopeValue, setScopeValue] = useState('company');
  const outcome = upload.data;
  const unit = units.find((u) => `unit-${u.id}` === scopeValue) ?? null;
  const scope: BulkScope | null = unit ? { kind: 'businessUnit', id: unit.id } : companyId !== null ? { kind: 'company', companyId } : null;

  const download = async () => {
    if (scope === null) return;
    setDownloading(true);
    try {
      saveBlob(await downloadTemplate(scope), templateName(scope));
    } catch (error) {
      if (!(error instanceof HttpError)) throw error; // the HTTP client already told the person
    } finally {
      setDownloading(false);
    }
  };

  return (
    <>
      <PageHeader
        title="Bulk attribute update"
        description="Set the source, medium, campaign and keyword of many tracking numbers at once from a spreadsheet."
      />
      <TrackingNav />
      <Stack gap="md">
        {units.length > 0 ? (
          <Card withBorder radius="md" data-testid="bulk-scope">
            <Radio.Group
              label="Apply to"
              description="A business unit's file lists the numbers of every company of the unit you manage; each row names its company_id."
              value={scopeValue}
              onChange={(v) => {
                setScopeValue(v);
                upload.reset();
              }}
            >
              <Stack gap="xs" mt="xs">
                <Radio value="company" label="This company" />
                {units.map((u) => (
                  <Radio key={u.id} value={`unit-${u.id}`} label={unitLabel(u)} />
                ))}
              </Stack>
            </Radio.Group>
          </Card>
        ) : null}
        <Card withBorder radius="md">
          <Title order={2} size="h4" mb="xs">
            1. Download the template
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            One row per tracking number, with the columns{' '}
            {BULK_ATTRIBUTE_COLUMNS.map((c, i) => (
              <span key={c}>
                {i > 0 ? ', ' : ''}
                <Code>{c}</Code>
              </span>
            ))}
            .{' '}
            {unit
              ? `One row per number of ${unit.companies.length === 1 ? 'the company' : `the ${unit.companies.length} companies`} of the unit you manage. `
              : ''}
            Your current static tracking numbers are filled in; add a row for a number to make it a static tracking number.
          </Text>
          <Group>
            <Button variant="default" leftSection={<IconDownload size={16} />} onClick={() => void download()} loading={downloading}>
              Download template (CSV)
            </Button>
          </Group>
        </Card>

        <Card withBorder radius="md">
          <Title order={2} size="h4" mb="xs">
            2. Upload the edited file
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            The whole file is checked first: if any row is wrong, nothing is changed and every problem is listed by row.
          </Text>
          <Group gap="sm" wrap="wrap">
            <FileButton
              onChange={(f) => {
                setFile(f);
                upload.reset();
              }}
              accept=".csv,text/csv"
            >
              {(props) => (
                <Button {...props} variant="default" leftSection={<IconUpload size={16} />}>
                  {file ? 'Choose another file' : 'Choose a CSV file'}
                </Button>
              )}
            </FileButton>
            {file ? (
              <Text size="sm" data-testid="chosen-file">
                {file.name}
              </Text>
            ) : null}
            <Button onClick={() => file && scope && upload.mutate({ file, scope })} disabled={!file || !scope} loading={upload.isPending}>
              {unit ? `Apply to business unit ${unit.id}` : 'Apply'}
            </Button>
          </Group>
          {upload.error instanceof HttpError && upload.error.status === 422 ? (
            <Alert color="red" mt="sm" icon={<IconAlertTriangle size={18} />} title="The file was refused">
              {Object.values(upload.error.fieldErrors).flat()[0] ?? upload.error.message}
            </Alert>
          ) : null}
          {outcome?.applied ? (
            <Alert color="teal" mt="sm" icon={<IconCircleCheck size={18} />} title={outcome.result.message} data-testid="bulk-applied">
              {outcome.result.rows} {outcome.result.rows === 1 ? 'row' : 'rows'}: {outcome.result.created} created, {outcome.result.updated} updated,{' '}
              {outcome.result.unchanged} unchanged.
            </Alert>
          ) : null}
          {outcome && !outcome.applied ? (
            <Alert color="red" mt="sm" icon={<IconAlertTriangle size={18} />} title="Nothing applied" data-testid="bulk-refused">
              <Stack gap="xs">
                <Text size="sm">
                  {outcome.result.message} {outcome.result.row_errors.length} {outcome.result.row_errors.length === 1 ? 'problem' : 'problems'} in{' '}
                  {outcome.result.rows} {outcome.result.rows === 1 ? 'row' : 'rows'}. Fix them in the file and upload it again. Row 1 is the first line under
                  the header.
                </Text>
                <Table.ScrollContainer minWidth={360}>
                  <Table verticalSpacing={4} withTableBorder data-testid="row-errors">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th w={70}>Row</Table.Th>
                        <Table.Th w={140}>Column</Table.Th>
                        <Table.Th>Problem</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {outcome.result.row_errors.slice(0, SHOWN_ERRORS).map((e, i) => (
                        <Table.Tr key={`${e.row}-${e.column}-${i}`} data-testid="row-error">
                          <Table.Td>{e.row}</Table.Td>
                          <Table.Td>{e.column ? <Code>{e.column}</Code> : '—'}</Table.Td>
                          <Table.Td>{e.message}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
                {outcome.result.row_errors.length > SHOWN_ERRORS ? <Text size="xs">…and {outcome.result.row_errors.length - SHOWN_ERRORS} more.</Text> : null}
              </Stack>
            </Alert>
          ) : null}
        </Card>

        <Card withBorder radius="md">
          <Title order={2} size="h4" mb="xs">
            Good to know
          </Title>
          <List size="sm" spacing={4}>
            <List.Item>
              <Code>number</Code> is a tracking number of the company, written any way (e.g. (415) 555-0100).
            </List.Item>
            <List.Item>
              <Code>company_id</Code> may stay empty for this company; in a business unit's file every row needs it.
            </List.Item>
            <List.Item>
              <Code>traffic_source</Code> is one of google_ads, microsoft_ads, meta_ads, organic, direct, referral, email, custom, static.
            </List.Item>
            <List.Item>
              An empty cell clears that attribute. A number in a tracking pool cannot be listed: its calls take their source from each visit.
            </List.Item>
          </List>
        </Card>
      </Stack>
    </>
  );
}
