import { Button, FileButton, Group, Paper, Stack, Text } from '@mantine/core';
import { IconFileSpreadsheet } from '@tabler/icons-react';
import { useState, type DragEvent } from 'react';

/** A drop area with a file button for one CSV or XLSX file. */
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
        <Text fw={500}>Drop a CSV or XLSX file here</Text>
        <Text size="sm" c="dimmed">
          The first row holds the column names; name and phone number columns are required.
        </Text>
        <Group>
          <FileButton onChange={(f) => f && onFile(f)} accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet">
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
