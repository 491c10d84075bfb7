import { ActionIcon, Badge, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconTag, IconX } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useCreateLabel } from '../api/create-label';
import { useDeleteLabel } from '../api/delete-label';
import { useLabels } from '../api/get-labels';

/** The company's contact labels: add and remove. */
export function LabelsManager() {
  const labels = useLabels();
  const create = useCreateLabel();
  const remove = useDeleteLabel();
  const [label, setLabel] = useState('');
  const [error, setError] = useState<string | null>(null);
  const list = labels.data?.data ?? [];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await create.mutateAsync(label.trim());
      notify.success(`Label "${label.trim()}" created`);
      setLabel('');
    } catch (e) {
      if (e instanceof HttpError) setError(e.fieldErrors.label?.[0] ?? e.message);
    }
  };

  return (
    <Card withBorder radius="md">
      <Stack gap="sm">
        <Group gap="xs">
          <IconTag size={18} />
          <Title order={4}>Labels</Title>
        </Group>
        <form onSubmit={submit}>
          <Group align="flex-start" gap="xs">
            <TextInput aria-label="New label" placeholder="e.g. VIP" value={label} onChange={(e) => setLabel(e.currentTarget.value)} error={error} w={240} />
            <Button type="submit" variant="light" loading={create.isPending} disabled={!label.trim()}>
              Add label
            </Button>
          </Group>
        </form>
        {labels.isPending ? null : list.length === 0 ? (
          <Text size="sm" c="dimmed">
            No labels yet. Labels tag contacts (e.g. VIP, Lead); add them to many contacts at once from Contacts.
          </Text>
        ) : (
          <Group gap="xs">
            {list.map((l) => (
              <Badge
                key={l.id}
                size="lg"
                variant="light"
                color="grape"
                rightSection={
                  <ActionIcon size="xs" variant="transparent" color="grape" aria-label={`Delete label ${l.label}`} onClick={() => remove.mutate(l.id)}>
                    <IconX size={12} />
                  </ActionIcon>
                }
              >
                {l.label}
              </Badge>
            ))}
          </Group>
        )}
      </Stack>
    </Card>
  );
}
