import { Anchor, Badge, Button, Drawer, Group, Select, Skeleton, Stack, TagsInput, Text, Textarea, Timeline, Title } from '@mantine/core';
import { CALL_STATUS, formatPhone } from '@switchboard/domain';
import { IconArrowDownLeft, IconArrowUpRight, IconPhone } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { CustomFieldValuesEditor, type CustomFieldAttribute } from '../../../components/CustomFieldValuesEditor';
import { formatDateTime } from '../../../lib/format';
import { useCall } from '../api/get-call';
import { useCallUpdate } from '../hooks/use-call-update';
import type { CallDetail } from '../types';

/** Qualification labels (spec 001 §3: qualified 1, not qualified 2, lead 3). */
const QUALIFICATIONS = [
  { value: '1', label: 'Qualified' },
  { value: '2', label: 'Not qualified' },
  { value: '3', label: 'Lead' },
];

const STATUS_COLORS: Partial<Record<number, string>> = {
  [CALL_STATUS.CONNECTED]: 'teal',
  [CALL_STATUS.VOICEMAIL]: 'grape',
  [CALL_STATUS.MISSED]: 'red',
  [CALL_STATUS.NO_ANSWER]: 'orange',
  [CALL_STATUS.NO_ANSWER_8]: 'orange',
  [CALL_STATUS.BLOCKED]: 'red',
  [CALL_STATUS.REJECTED]: 'red',
};

function duration(seconds: number): string {
  return seconds >= 60 ? `${Math.floor(seconds / 60)} min ${seconds % 60} s` : `${seconds} s`;
}

function detailText(detail: Record<string, unknown>): string {
  return Object.entries(detail)
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => `${k.replaceAll('_', ' ')}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
    .join(' · ');
}

function NoteEditor({ call, onSave, saving }: { call: CallDetail; onSave: (body: string) => void; saving: boolean }) {
  const [body, setBody] = useState(call.note?.body ?? '');
  useEffect(() => setBody(call.note?.body ?? ''), [call.note?.body]);
  const changed = body.trim() !== (call.note?.body ?? '').trim();
  return (
    <Stack gap={6}>
      <Textarea label="Note" placeholder="What was the call about?" autosize minRows={2} maxLength={5000} value={body} onChange={(e) => setBody(e.currentTarget.value)} />
      <Group justify="flex-end">
        <Button size="xs" variant="light" disabled={!changed || !body.trim()} loading={saving} onClick={() => onSave(body.trim())}>
          Save note
        </Button>
      </Group>
    </Stack>
  );
}

function CallBody({ call, attributes }: { call: CallDetail; attributes: CustomFieldAttribute[] }) {
  const update = useCallUpdate(call.id);
  const tagNames = call.tags.map((t) => t.name);
  const onTags = (next: string[]) => {
    const added = next.filter((n) => !tagNames.some((t) => t.toLowerCase() === n.toLowerCase()));
    const removed = tagNames.filter((t) => !next.some((n) => n.toLowerCase() === t.toLowerCase()));
    added.forEach((name) => update.mutate({ kind: 'add-tag', name }));
    removed.forEach((name) => update.mutate({ kind: 'remove-tag', name }));
  };
  return (
    <Stack gap="md">
      <Group gap="xs">
        {call.isInbound ? <IconArrowDownLeft size={18} /> : <IconArrowUpRight size={18} />}
        <Title order={4} ff="monospace">
          {formatPhone(call.from)}
        </Title>
        <Badge color={STATUS_COLORS[call.status] ?? 'gray'} variant="light" data-testid="call-status">
          {call.status_label}
        </Badge>
      </Group>
      <Text size="sm" c="dimmed">
        {call.isInbound ? 'Called' : 'From'} {formatPhone(call.to)}
        {call.extension !== null ? ` · extension ${call.extension}` : ''}
        {call.forwarded_to ? ` · answered at ${call.forwarded_to}` : ''}
        {call.from_state ? ` · caller in ${call.from_state}` : ''}
        {' · '}
        {formatDateTime(call.started_at)} · {duration(call.duration_s)}
      </Text>
      {call.voicemail ? <audio controls preload="none" src={call.voicemail.recording_url} style={{ width: '100%' }} aria-label="Voicemail recording" /> : null}
      <Select
        label="Qualification"
        placeholder="Not set"
        data={QUALIFICATIONS}
        value={call.qualification ? String(call.qualification) : null}
        onChange={(v) => update.mutate({ kind: 'qualification', value: v ? (Number(v) as 1 | 2 | 3) : null })}
        clearable
      />
      <TagsInput label="Tags" placeholder="Type a tag and press Enter" value={tagNames} onChange={onTags} clearable={false} />
      <NoteEditor call={call} saving={update.isPending && update.variables?.kind === 'note'} onSave={(body) => update.mutate({ kind: 'note', body })} />
      {attributes.length > 0 ? (
        <div>
          <Text size="sm" fw={500} mb="xs">
            Custom fields
          </Text>
          <CustomFieldValuesEditor attributes={attributes} values={call.eavAttributeValues} onSave={(values) => update.mutateAsync({ kind: 'custom-fields', values })} />
        </div>
      ) : null}
      <div>
        <Text size="sm" fw={500} mb="xs">
          History
        </Text>
        {call.history.length === 0 ? (
          <Text size="sm" c="dimmed">
            No steps recorded.
          </Text>
        ) : (
          <Timeline active={call.history.length - 1} bulletSize={18} lineWidth={2} data-testid="call-history">
            {call.history.map((e) => (
              <Timeline.Item key={e.id} title={e.status_label} bullet={<IconPhone size={10} />} color={STATUS_COLORS[e.status] ?? 'blue'}>
                <Text size="xs" c="dimmed">
                  {formatDateTime(e.created_at)}
                </Text>
                {detailText(e.detail) ? <Text size="xs">{detailText(e.detail)}</Text> : null}
              </Timeline.Item>
            ))}
          </Timeline>
        )}
      </div>
    </Stack>
  );
}

/**
 * The call detail drawer: status, history timeline, qualification, tags and note (optimistic), and
 * the call's custom-field values. `attributes`: the company's Call custom fields, handed in by the app.
 */
export function CallDrawer({ callId, onClose, attributes = [] }: { callId: number | null; onClose: () => void; attributes?: CustomFieldAttribute[] }) {
  const call = useCall(callId);
  return (
    <Drawer opened={callId !== null} onClose={onClose} position="right" size="md" title="Call details" closeButtonProps={{ 'aria-label': 'Close' }}>
      {call.isPending && callId !== null ? (
        <Stack>
          <Skeleton height={28} width="60%" />
          <Skeleton height={14} />
          <Skeleton height={36} />
          <Skeleton height={36} />
          <Skeleton height={120} />
        </Stack>
      ) : call.data ? (
        <CallBody call={call.data} attributes={attributes} />
      ) : (
        <Stack>
          <Text size="sm">This call could not be loaded. It may belong to another company.</Text>
          <Anchor component="button" onClick={onClose} size="sm">
            Close
          </Anchor>
        </Stack>
      )}
    </Drawer>
  );
}
