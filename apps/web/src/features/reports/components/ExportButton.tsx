import { Anchor, Badge, Button, Checkbox, Divider, Group, Modal, ScrollArea, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ExportColumn } from '@switchboard/contracts';
import { IconDownload } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { formatDateTime } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { useRecentExports, useStartExport, type ExportRequest } from '../api/exports';
import { exportDownloadUrl, useExportNotices } from '../realtime/use-export-notices';

/**
 * The columns of an export kept as a column preset (spec 001 "Column presets"; composed by app/routes with the
 * report preferences' `useColumnPreset` and `ColumnChooser` shown inline): the chosen columns in order, and the
 * chooser that shows, hides, orders, saves and applies presets (it replaces the dialog's own column checkboxes).
 */
export interface ExportColumnPreset {
  /** The columns to export, in order. */
  columns: string[];
  /** The column chooser, shown in the dialog in place of its column checkboxes. */
  tools: ReactNode;
}

/** One thing the button can export: its label, columns and the request for the chosen columns. */
export interface ExportChoice {
  value: string;
  label: string;
  columns: readonly ExportColumn[];
  request: (columns: string[]) => ExportRequest;
  /** When given, the columns are this preset's (ordered, saved as a preset); else a plain choice in the natural order. */
  preset?: ExportColumnPreset;
}

const STATUS_COLORS = { queued: 'gray', running: 'blue', done: 'teal', failed: 'red' } as const;

/**
 * "Export": a dialog to pick what to export (when there are several kinds) and its columns, then starts
 * the background export and shows the server's result message (spec 001 §7); the file is offered when
 * `export ready` arrives, and the dialog lists the person's recent exports with their downloads. A
 * choice with a `preset` exports that preset's columns in its order, chosen with its column chooser.
 * `onOpenChange` tells the route when the dialog opens or closes (it asks for presets only then).
 */
export function ExportButton({ choices, disabled, onOpenChange }: { choices: ExportChoice[]; disabled?: boolean; onOpenChange?: (opened: boolean) => void }) {
  useExportNotices();
  const [opened, handlers] = useDisclosure(false, { onOpen: () => onOpenChange?.(true), onClose: () => onOpenChange?.(false) });
  const { open, close } = handlers;
  const [kind, setKind] = useState(choices[0]!.value);
  const choice = choices.find((c) => c.value === kind) ?? choices[0]!;
  const [selected, setSelected] = useState<Record<string, string[]>>({});
  const known = choice.columns.map((c) => c.key);
  const preset = choice.preset;
  const columns = preset ? preset.columns.filter((k) => known.includes(k)) : (selected[choice.value] ?? known);
  const start = useStartExport();
  const recent = useRecentExports(opened);
  const labelOf = (key: string) => choice.columns.find((c) => c.key === key)?.label ?? key;

  const setColumns = (next: string[]) => setSelected((s) => ({ ...s, [choice.value]: known.filter((k) => next.includes(k)) }));
  const submit = () =>
    start.mutate(choice.request(columns), {
      onSuccess: (body) => {
        notify.show({ type: 'success', message: body.message, keepOthers: true });
        close();
      },
    });

  return (
    <>
      <Button variant="default" leftSection={<IconDownload size={16} />} onClick={open} disabled={disabled}>
        Export
      </Button>
      <Modal opened={opened} onClose={close} title="Export to CSV" size="lg">
        <Stack gap="md">
          {choices.length > 1 ? (
            <Select
              label="What to export"
              data={choices.map((c) => ({ value: c.value, label: c.label }))}
              value={kind}
              onChange={(v) => v && setKind(v)}
              allowDeselect={false}
            />
          ) : null}
          {preset ? (
            <>
              <Text size="sm" c="dimmed" data-testid="export-column-order">
                The file has these columns, in this order: {columns.map(labelOf).join(', ')}
              </Text>
              {preset.tools}
            </>
          ) : (
            <>
              <Checkbox.Group label="Columns" description="The file has these columns, in this order." value={columns} onChange={setColumns}>
                <ScrollArea.Autosize mah={300} type="auto" offsetScrollbars mt="xs" viewportProps={{ tabIndex: 0, 'aria-label': 'Columns to export' }}>
                  <SimpleGrid cols={{ base: 1, xs: 2 }} spacing={6}>
                    {choice.columns.map((c) => (
                      <Checkbox key={c.key} value={c.key} label={c.label} />
                    ))}
                  </SimpleGrid>
                </ScrollArea.Autosize>
              </Checkbox.Group>
              <Group gap="xs">
                <Button variant="subtle" size="compact-sm" onClick={() => setColumns(choice.columns.map((c) => c.key))}>
                  Select all
                </Button>
                <Button variant="subtle" size="compact-sm" onClick={() => setColumns([])}>
                  Clear
                </Button>
              </Group>
            </>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button onClick={submit} loading={start.isPending} disabled={columns.length === 0}>
              Start export
            </Button>
          </Group>
          <Divider label="Your recent exports" labelPosition="left" />
          {recent.data?.data.length ? (
            <ScrollArea.Autosize mah={200}>
              <Stack gap={6} data-testid="recent-exports">
                {recent.data.data.map((job) => (
                  <Group key={job.id} justify="space-between" wrap="nowrap" gap="xs">
                    <div style={{ minWidth: 0 }}>
                      <Text size="sm" truncate>
                        {job.fileName}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {formatDateTime(job.createdAt)}
                        {job.rows !== null ? ` · ${job.rows} rows` : ''}
                      </Text>
                    </div>
                    {job.status === 'done' ? (
                      <Anchor href={exportDownloadUrl(job)} download={job.fileName} size="sm">
                        Download
                      </Anchor>
                    ) : (
                      <Badge color={STATUS_COLORS[job.status]} variant="light">
                        {job.status}
                      </Badge>
                    )}
                  </Group>
                ))}
              </Stack>
            </ScrollArea.Autosize>
          ) : (
            <Text size="sm" c="dimmed">
              {recent.isPending ? 'Loading…' : 'No exports yet.'}
            </Text>
          )}
        </Stack>
      </Modal>
    </>
  );
}
