import { ActionIcon, Button, Checkbox, Group, Popover, Stack, Text } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconColumns } from '@tabler/icons-react';

export interface ColumnOption {
  key: string;
  label: string;
}

interface ColumnsMenuProps {
  columns: ColumnOption[];
  /** Chosen keys in display order. */
  value: string[];
  onChange: (keys: string[]) => void;
}

/**
 * "Columns": show, hide and order a table's columns (checkboxes; up/down buttons with accessible
 * names move a shown column). The screen keeps the choice in its URL; saving it as a column preset is
 * the report-preferences tools' job when the route composes them in.
 */
export function ColumnsMenu({ columns, value, onChange }: ColumnsMenuProps) {
  const shown = value.filter((k) => columns.some((c) => c.key === k));
  const hidden = columns.filter((c) => !shown.includes(c.key));
  const label = (key: string) => columns.find((c) => c.key === key)?.label ?? key;
  const move = (index: number, by: number) => {
    const next = [...shown];
    const [item] = next.splice(index, 1);
    next.splice(index + by, 0, item!);
    onChange(next);
  };
  return (
    <Popover position="bottom-end" shadow="md" withinPortal trapFocus>
      <Popover.Target>
        <Button variant="default" leftSection={<IconColumns size={16} />}>
          Columns
        </Button>
      </Popover.Target>
      <Popover.Dropdown maw={320}>
        <Stack gap={6} data-testid="columns-menu">
          <Text size="xs" c="dimmed">
            Shown, in order
          </Text>
          {shown.map((key, i) => (
            <Group key={key} gap={4} wrap="nowrap" justify="space-between">
              <Checkbox
                label={label(key)}
                checked
                onChange={() => shown.length > 1 && onChange(shown.filter((k) => k !== key))}
                disabled={shown.length === 1}
              />
              <Group gap={2} wrap="nowrap">
                <ActionIcon variant="subtle" size="sm" aria-label={`Move ${label(key)} up`} disabled={i === 0} onClick={() => move(i, -1)}>
                  <IconArrowUp size={14} />
                </ActionIcon>
                <ActionIcon variant="subtle" size="sm" aria-label={`Move ${label(key)} down`} disabled={i === shown.length - 1} onClick={() => move(i, 1)}>
                  <IconArrowDown size={14} />
                </ActionIcon>
              </Group>
            </Group>
          ))}
          {hidden.length ? (
            <>
              <Text size="xs" c="dimmed" mt={4}>
                Hidden
              </Text>
              {hidden.map((c) => (
                <Checkbox key={c.key} label={c.label} checked={false} onChange={() => onChange([...shown, c.key])} />
              ))}
            </>
          ) : null}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
