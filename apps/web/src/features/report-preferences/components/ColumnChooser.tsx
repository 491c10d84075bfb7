/**
 * The column chooser of a report table (spec 001 "Column presets"): show or hide each column, order them with
 * up/down buttons (keyboard and screen-reader friendly), pick a saved preset, save the choice as a new preset or
 * into the selected one, delete a preset. Works on the state of {@link useColumnPreset}:
 *
 *   const preset = useColumnPreset('by_source', { defaultColumns, available: options.map((o) => o.key) });
 *   <ColumnChooser options={options} preset={preset} />   // the table renders preset.columns
 *
 * By default a "Columns" button opens the chooser in a popover; `inline` shows the same panel in place (inside a
 * dialog, e.g. an export's, where a popover's Escape would also close the dialog).
 */
import { ActionIcon, Button, Checkbox, Divider, Group, Popover, ScrollArea, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconColumns3, IconDeviceFloppy, IconTrash } from '@tabler/icons-react';
import { useId, useState, type FormEvent } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { HttpError } from '../../../lib/http';
import type { ColumnOption } from '../types';
import type { ColumnPresetState } from '../use-column-preset';

export interface ColumnChooserProps {
  /** Every column the table can show, in its natural order. */
  options: ColumnOption[];
  /** From `useColumnPreset(kind, …)`. */
  preset: ColumnPresetState;
  /** The button's label ("Columns" unless told); inline, the panel's heading. */
  label?: string;
  /** Show the panel in place instead of behind a button (default false). */
  inline?: boolean;
}

export function ColumnChooser({ options, preset, label = 'Columns', inline = false }: ColumnChooserProps) {
  const [opened, setOpened] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const headingId = useId();
  const panel = <ChooserPanel options={options} preset={preset} onDelete={() => setConfirmDelete(true)} />;

  return (
    <>
      {inline ? (
        <Stack gap="xs" role="group" aria-labelledby={headingId} data-testid="column-chooser">
          <Text size="sm" fw={500} id={headingId}>
            {label}
          </Text>
          {panel}
        </Stack>
      ) : (
        <Popover opened={opened} onChange={setOpened} position="bottom-end" width={340} trapFocus shadow="md" withinPortal>
          <Popover.Target>
            <Button variant="default" leftSection={<IconColumns3 size={16} />} onClick={() => setOpened((o) => !o)} aria-expanded={opened}>
              {label}
            </Button>
          </Popover.Target>
          <Popover.Dropdown aria-label="Choose columns">{panel}</Popover.Dropdown>
        </Popover>
      )}
      <ConfirmModal
        opened={confirmDelete}
        title="Delete the column preset?"
        loading={preset.saving}
        onClose={() => setConfirmDelete(false)}
        onConfirm={async () => {
          if (preset.active) await preset.remove(preset.active.id);
          setConfirmDelete(false);
        }}
      >
        “{preset.active?.name}” is removed for everyone in the company. The table goes back to the default columns.
      </ConfirmModal>
    </>
  );
}

/** The chooser itself: the preset picker, the columns (shown ones in order with up/down, then hidden ones), update/delete, save as. */
function ChooserPanel({ options, preset, onDelete }: { options: ColumnOption[]; preset: ColumnPresetState; onDelete: () => void }) {
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const shownId = useId();
  const labelOf = (key: string) => options.find((o) => o.key === key)?.label ?? key;
  const shown = preset.columns;
  const hidden = options.filter((o) => !shown.includes(o.key));

  const toggle = (key: string, on: boolean) => {
    if (on) preset.setColumns([...shown, key]);
    else if (shown.length > 1) preset.setColumns(shown.filter((c) => c !== key));
  };
  const move = (index: number, by: -1 | 1) => {
    const next = [...shown];
    const [item] = next.splice(index, 1);
    next.splice(index + by, 0, item!);
    preset.setColumns(next);
  };
  const saveAs = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setNameError('Enter a name for the preset.');
    setNameError(null);
    try {
      await preset.saveAs(name.trim());
      setName('');
    } catch (error) {
      if (error instanceof HttpError && error.status === 422) setNameError(Object.values(error.fieldErrors).flat()[0] ?? error.message);
      else throw error;
    }
  };

  return (
    <Stack gap="sm">
      <Select
        label="Preset"
        data={[
          { value: '', label: 'Default columns' },
          ...preset.presets.map((p) => ({ value: String(p.id), label: p.businessUnitId ? `${p.name} (business unit)` : p.name })),
        ]}
        value={preset.active ? String(preset.active.id) : ''}
        onChange={(v) => preset.selectPreset(v ? Number(v) : null)}
        allowDeselect={false}
        comboboxProps={{ withinPortal: false }}
      />
      <Text size="sm" fw={500} id={shownId}>
        Shown columns
      </Text>
      <ScrollArea.Autosize mah={260} type="auto">
        <Stack gap={4} role="list" aria-labelledby={shownId}>
          {shown.map((key, i) => (
            <Group key={key} gap="xs" wrap="nowrap" justify="space-between" role="listitem">
              <Checkbox label={labelOf(key)} checked disabled={shown.length === 1} onChange={(e) => toggle(key, e.currentTarget.checked)} />
              <Group gap={2} wrap="nowrap">
                <ActionIcon variant="subtle" size="sm" aria-label={`Move ${labelOf(key)} up`} disabled={i === 0} onClick={() => move(i, -1)}>
                  <IconArrowUp size={14} />
                </ActionIcon>
                <ActionIcon variant="subtle" size="sm" aria-label={`Move ${labelOf(key)} down`} disabled={i === shown.length - 1} onClick={() => move(i, 1)}>
                  <IconArrowDown size={14} />
                </ActionIcon>
              </Group>
            </Group>
          ))}
          {hidden.map((o) => (
            // The list item wraps the checkbox (a role on the Checkbox itself would land on its input and hide it as a checkbox).
            <div key={o.key} role="listitem">
              <Checkbox label={o.label} checked={false} onChange={(e) => toggle(o.key, e.currentTarget.checked)} />
            </div>
          ))}
        </Stack>
      </ScrollArea.Autosize>
      <Divider />
      {preset.active ? (
        <Group gap="xs">
          <Button
            size="xs"
            leftSection={<IconDeviceFloppy size={14} />}
            disabled={!preset.dirty}
            loading={preset.saving}
            onClick={() => void preset.saveActive()}
          >
            Update “{preset.active.name}”
          </Button>
          <Button size="xs" variant="subtle" color="red" leftSection={<IconTrash size={14} />} onClick={onDelete}>
            Delete preset
          </Button>
        </Group>
      ) : null}
      <form onSubmit={(e) => void saveAs(e)}>
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            label="Save as a new preset"
            placeholder="Preset name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={nameError}
            maxLength={100}
            style={{ flex: 1 }}
          />
          <Button type="submit" size="sm" loading={preset.saving}>
            Save
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
