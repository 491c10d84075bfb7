/**
 * "Save as favorite" for a report or dashboard (spec 002 "Favorite report"): asks for a name and saves the screen's
 * current state {path, filters, grouping, columns}. Props:
 * - `state`: the state to save (or a function returning it, read when the person clicks Save);
 * - `defaultName`: the name proposed in the form.
 */
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { IconStar } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useSaveFavoriteReport } from '../api/favorite-reports';
import type { FavoriteReportStateInput } from '../types';

export type FavoriteStateToSave = Omit<FavoriteReportStateInput, 'name'>;

export interface SaveFavoriteButtonProps {
  state: FavoriteStateToSave | (() => FavoriteStateToSave);
  defaultName?: string;
}

export function SaveFavoriteButton({ state, defaultName = '' }: SaveFavoriteButtonProps) {
  const [opened, setOpened] = useState(false);
  const [name, setName] = useState(defaultName);
  const [error, setError] = useState<string | null>(null);
  const save = useSaveFavoriteReport();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setError('Enter a name for the favorite.');
    setError(null);
    const current = typeof state === 'function' ? state() : state;
    save.mutate(
      { state: { ...current, name: name.trim() } },
      {
        onSuccess: (r) => {
          notify.success(r.message);
          setOpened(false);
        },
        onError: (err) => {
          if (err instanceof HttpError && err.status === 422) setError(Object.values(err.fieldErrors).flat()[0] ?? err.message);
          else notify.danger(err.message, 10_000);
        },
      },
    );
  };

  return (
    <>
      <Button
        variant="default"
        leftSection={<IconStar size={16} />}
        onClick={() => {
          setName(defaultName);
          setError(null);
          setOpened(true);
        }}
      >
        Save as favorite
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title="Save as favorite">
        <form onSubmit={submit}>
          <Stack>
            <TextInput label="Name" data-autofocus value={name} onChange={(e) => setName(e.currentTarget.value)} error={error} maxLength={100} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpened(false)}>
                Cancel
              </Button>
              <Button type="submit" loading={save.isPending}>
                Save
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
