import { ActionIcon, Button, Card, Group, Modal, MultiSelect, Select, Stack, Switch, Table, Text, TextInput, Tooltip, VisuallyHidden } from '@mantine/core';
import { defaultSchedule, displayRouteType, localTimeZone, scheduleLabel, type RouteEntry, type Schedule } from '@switchboard/domain';
import { IconCopy, IconEdit, IconPlus, IconTemplate, IconTrash } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { EmptyCard } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { ScheduleEditor } from '../../../components/schedule/ScheduleEditor';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useApplyTemplate, useDeleteTemplate, useSaveTemplate, useTemplates } from '../api/templates';
import type { NumberTemplate, TemplateNumber } from '../types';
import { useCan } from '../../../lib/access';
import { templateColumnsOf } from './template-columns';

function routesSummary(routes: RouteEntry[]): string {
  if (routes.length === 0) return 'No extensions';
  const forwards = routes.reduce((n, r) => n + r.forwards.length, 0);
  return `${routes.length} ${routes.length === 1 ? 'extension' : 'extensions'} · ${forwards} ${forwards === 1 ? 'forward' : 'forwards'} · ${displayRouteType(routes[0]!)}`;
}

function TemplateForm({ template, numbers, onClose }: { template: NumberTemplate | null; numbers: TemplateNumber[]; onClose: () => void }) {
  const save = useSaveTemplate();
  const [name, setName] = useState(template?.name ?? '');
  const [schedule, setSchedule] = useState<Schedule>(template?.schedule ?? defaultSchedule(localTimeZone()));
  const [routes, setRoutes] = useState<RouteEntry[]>(template?.routes ?? []);
  const [record, setRecord] = useState(template?.record ?? false);
  const [transcription, setTranscription] = useState(template?.call_transcription_enabled ?? false);
  const [ai, setAi] = useState(template?.ai_eav_enabled ?? false);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const copyFrom = (id: string | null) => {
    const n = numbers.find((x) => String(x.id) === id);
    if (n) setRoutes(n.routes);
  };
  const submit = () =>
    save.mutate(
      { id: template?.id ?? null, input: { name: name.trim(), routes, schedule, record, call_transcription_enabled: transcription, ai_eav_enabled: ai } },
      {
        onSuccess: (r) => {
          notify.success(r.message);
          onClose();
        },
        onError: (e) => {
          if (e instanceof HttpError && e.status === 422) setErrors(e.fieldErrors);
        },
      },
    );
  return (
    <Stack>
      <TextInput
        label="Template name"
        placeholder="Sales line"
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={errors.name?.[0]}
        data-autofocus
        maxLength={100}
      />
      <Card withBorder radius="md" padding="sm">
        <Text size="sm" fw={500}>
          Routing
        </Text>
        <Text size="sm" c="dimmed" mb="xs">
          {routesSummary(routes)}
        </Text>
        <Select
          label="Copy routing from a number"
          description="Set up one number in its routing editor, then reuse its extensions here."
          placeholder={numbers.length ? 'Choose a number' : 'No numbers yet'}
          data={numbers.map((n) => ({ value: String(n.id), label: n.label }))}
          onChange={copyFrom}
          value={null}
          searchable
          leftSection={<IconCopy size={14} />}
        />
      </Card>
      <ScheduleEditor schedule={schedule} onChange={setSchedule} />
      <Switch
        label="AI attributes"
        description="Fill call attributes automatically; recording and transcription are then managed by it."
        checked={ai}
        onChange={(e) => setAi(e.currentTarget.checked)}
      />
      {!ai ? (
        <Group>
          <Switch label="Record calls" checked={record} onChange={(e) => setRecord(e.currentTarget.checked)} />
          <Switch label="Transcribe calls" checked={transcription} onChange={(e) => setTranscription(e.currentTarget.checked)} />
        </Group>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={submit} loading={save.isPending} disabled={!name.trim()}>
          {template ? 'Save template' : 'Create template'}
        </Button>
      </Group>
    </Stack>
  );
}

function ApplyForm({ template, numbers, onClose }: { template: NumberTemplate; numbers: TemplateNumber[]; onClose: () => void }) {
  const apply = useApplyTemplate();
  const [ids, setIds] = useState<string[]>([]);
  return (
    <Stack>
      <Text size="sm">The routing and business hours of “{template.name}” replace those of the numbers you choose.</Text>
      <MultiSelect
        label="Numbers"
        placeholder={numbers.length ? 'Choose numbers' : 'No numbers yet'}
        data={numbers.map((n) => ({ value: String(n.id), label: n.label }))}
        value={ids}
        onChange={setIds}
        searchable
        clearable
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button
          disabled={ids.length === 0}
          loading={apply.isPending}
          onClick={() =>
            apply.mutate(
              { id: template.id, numberIds: ids.map(Number) },
              {
                onSuccess: (r) => {
                  notify.success(r.message);
                  onClose();
                },
              },
            )
          }
        >
          Apply to {ids.length || ''} {ids.length === 1 ? 'number' : 'numbers'}
        </Button>
      </Group>
    </Stack>
  );
}

export interface NumberTemplatesPageProps {
  /** The company's numbers to copy routing from and apply templates to (handed in by the app). */
  numbers?: TemplateNumber[];
  /** The list's columns in order (a column preset of kind `call_flows`, composed by app/routes). */
  columns?: string[];
  /** The column chooser (report preferences' `ColumnChooser`, composed by app/routes). */
  columnTools?: ReactNode;
}

/**
 * Number templates, the company's call flows: reusable routing + hours listed with the columns a person chose (spec 001
 * "Column preset" `call_flows`); create, edit, delete, apply to numbers. `numbers` come from the app.
 */
export function NumberTemplatesPage({ numbers = [], columns, columnTools }: NumberTemplatesPageProps) {
  const shown = templateColumnsOf(columns);
  // Templates are created, changed, deleted and applied with `numbers.manage`; other roles read them.
  const canManage = useCan('numbers.manage');
  const templates = useTemplates();
  const remove = useDeleteTemplate();
  const [editing, setEditing] = useState<NumberTemplate | 'new' | null>(null);
  const [applying, setApplying] = useState<NumberTemplate | null>(null);
  const [deleting, setDeleting] = useState<NumberTemplate | null>(null);
  const list = templates.data?.data ?? [];
  return (
    <>
      <PageHeader
        title="Number templates"
        description="Save a routing setup and business hours once, then apply it to many numbers."
        actions={
          canManage ? (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
              New template
            </Button>
          ) : undefined
        }
      />
      {templates.isPending ? (
        <ListSkeleton rows={3} height={90} />
      ) : list.length === 0 ? (
        <EmptyCard
          icon={<IconTemplate />}
          title="No templates yet"
          description="Create one from a number you have already set up."
          action={canManage ? <Button onClick={() => setEditing('new')}>Create a template</Button> : undefined}
        />
      ) : (
        <>
          {columnTools ? (
            <Group justify="flex-end" mb="sm">
              {columnTools}
            </Group>
          ) : null}
          <Card withBorder radius="md" p={0}>
            <Table.ScrollContainer minWidth={640}>
              <Table verticalSpacing="sm" highlightOnHover data-testid="call-flows-table">
                <Table.Thead>
                  <Table.Tr>
                    {shown.map((c) => (
                      <Table.Th key={c.key}>{c.label}</Table.Th>
                    ))}
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.map((t) => (
                    <Table.Tr key={t.id} data-testid="template-row">
                      {shown.map((c) => (
                        <Table.Td key={c.key} data-column={c.key}>
                          {c.cell(t)}
                        </Table.Td>
                      ))}
                      <Table.Td ta="right">
                        <Group gap={4} wrap="nowrap" justify="flex-end">
                          {canManage ? (
                            <>
                              <Button variant="light" size="xs" onClick={() => setApplying(t)}>
                                Apply to numbers
                              </Button>
                              <Tooltip label="Edit">
                                <ActionIcon variant="subtle" aria-label={`Edit ${t.name}`} onClick={() => setEditing(t)}>
                                  <IconEdit size={16} />
                                </ActionIcon>
                              </Tooltip>
                              <Tooltip label="Delete">
                                <ActionIcon variant="subtle" color="red" aria-label={`Delete ${t.name}`} onClick={() => setDeleting(t)}>
                                  <IconTrash size={16} />
                                </ActionIcon>
                              </Tooltip>
                            </>
                          ) : null}
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Card>
        </>
      )}
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing === 'new' ? 'New template' : 'Edit template'} size="xl">
        {editing !== null ? (
          <TemplateForm
            key={editing === 'new' ? 'new' : editing.id}
            template={editing === 'new' ? null : editing}
            numbers={numbers}
            onClose={() => setEditing(null)}
          />
        ) : null}
      </Modal>
      <Modal opened={applying !== null} onClose={() => setApplying(null)} title={`Apply ${applying?.name ?? 'template'}`}>
        {applying ? <ApplyForm template={applying} numbers={numbers} onClose={() => setApplying(null)} /> : null}
      </Modal>
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={`Delete ${deleting?.name ?? 'template'}?`}
        loading={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: (r) => {
              notify.success(r.message);
              setDeleting(null);
            },
          })
        }
      >
        Numbers that used it keep their current routing.
      </ConfirmModal>
    </>
  );
}
