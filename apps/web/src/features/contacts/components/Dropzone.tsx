import { Button, FileButton, Group, Paper, Stack, Text } from '@mantine/core';
import { IconFileSpreadsheet } from '@tabler/icons-react';
import { useState, type DragEvent } from 'react';

/** A drop area with a file button for one CSV, XLSX or vCard file. */
export function Dropzone({ onFile, loading }: { onFile: (file: File) => void; loading?: boolean }) {
  const [over, setOver] = useState(false);
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file) onFile(file);
  };
  return (
    <Paper
      withBorder
      p="xl"
      radius="md"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      style={{ borderStyle: 'dashed', background: over ? 'var(--mantine-color-blue-light)' : undefined }}
    >
      <Stack align="center" gap="xs">
        <IconFileSpreadsheet size={40} stroke={1.3} color="var(--mantine-color-blue-6)" />
        <Text fw={500}>Drop a CSV, XLSX or vCard file here</Text>
        <Text size="sm" c="dimmed">
          Exports of Google Contacts, Outlook and iCloud work as they are; other files need a header row with name and phone number columns.
        </Text>
        <Group>
          <FileButton
            onChange={(f) => f && onFile(f)}
            accept=".csv,.xlsx,.vcf,text/csv,text/vcard,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          >
            {(props) => (
              <Button {...props} loading={loading}>
                Choose file
              </Button>
            )}
          </FileButton>
        </Group>
      </Stack>
    </Paper>
  );
}
