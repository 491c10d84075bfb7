import { Anchor, Badge, Button, Drawer, Group, Select, Skeleton, Stack, TagsInput, Text, Textarea, Timeline, Title } from '@mantine/core';
import { CallButton } from '../../../components/CallButton';
import { CALL_STATUS, formatPhone } from '@switchboard/domain';
import { IconArrowDownLeft, IconArrowUpRight, IconBan, IconMessage, IconPhone, IconPhoneCall } from '@tabler/icons-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { CustomFieldValuesEditor, type CustomFieldAttribute } from '../../../components/CustomFieldValuesEditor';
import { formatDateTime, formatDuration, formatTime } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { useBlockCaller } from '../api/block-caller';
import { useCall } from '../api/get-call';
import { useCallUpdate } from '../hooks/use-call-update';
import type { CallDetail, CallForward } from '../types';
import { fileSrc } from '../../../lib/files';
import { useCan } from '../../../lib/access';
import { ReadOnly } from '../../../components/ReadOnly';
import { CallerName } from '../../../components/CallerName';
import { CallTranscript } from './CallTranscript';
import { CallSentTo } from './CallSentTo';

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

/** Any stored value in words (a history step from an older server without `text`): lists joined, never JSON. */
function valueText(v: unknown): string {
  if (Array.isArray(v)) return v.map(valueText).join(', ');
  if (v && typeof v === 'object')
    return Object.entries(v)
      .map(([k, x]) => `${k.replaceAll('_', ' ')}: ${valueText(x)}`)
      .join(', ');
  return String(v);
}
function detailText(detail: Record<string, unknown>): string {
  return Object.entries(detail)
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => `${k.replaceAll('_', ' ')}: ${valueText(v)}`)
    .join(' · ');
}

/**
 * A forward as a person reads it: a phone number formatted; an in-app identity `user_{id}` as the person's name
 * (the server's `name`, as the reports and CSV show it) with "(app)".
 */
function forwardName(f: Pick<CallForward, 'number' | 'name'>): string {
  const m = /^user_(\d+)$/.exec(f.number);
  if (!m) return formatPhone(f.number);
  return `${f.name || `user ${m[1]}`} (app)`;
}

const FORWARD_OUTCOMES: Record<CallForward['outcome'], { label: string; color: string }> = {
  ringing: { label: 'Ringing', color: 'blue' },
  'no-answer': { label: 'No answer', color: 'orange' },
  busy: { label: 'Busy', color: 'orange' },
  declined: { label: 'Declined', color: 'gray' },
  failed: { label: 'Failed', color: 'red' },
  answered: { label: 'Answered', color: 'teal' },
  unknown: { label: 'Rang (answered by one of these)', color: 'gray' },
};

/** Every forward the call rang, with its real outcome; only the one that answered reads "answered". */
function Forwards({ forwards }: { forwards: CallForward[] }) {
  if (forwards.length === 0) return null;
  return (
    <div>
      <Text size="sm" fw={500} mb={4}>
        Forwards
      </Text>
      <Stack gap={4} data-testid="call-forwards">
        {forwards.map((f, i) => (
          <Group key={`${f.number}-${i}`} gap="xs" justify="space-between" wrap="nowrap" data-testid="call-forward" data-outcome={f.outcome}>
            <Text size="sm" ff="monospace">
              {forwardName(f)}
            </Text>
            <Group gap={6} wrap="nowrap">
              <Badge size="sm" variant="light" color={FORWARD_OUTCOMES[f.outcome].color}>
                {FORWARD_OUTCOMES[f.outcome].label}
              </Badge>
              <Text size="xs" c="dimmed">
                {formatTime(f.rang_at)}
              </Text>
            </Group>
          </Group>
        ))}
      </Stack>
    </div>
  );
}

/**
 * Call back (the device's dialer through a `tel:` link: the softphone has no dial pad), Text (the
 * call's conversation in the inbox) and Block (confirmed; POST /api/blocks, global).
 */
function CallActions({ call, party, who }: { call: CallDetail; party: string; who: string }) {
  const [confirming, setConfirming] = useState(false);
  const block = useBlockCaller(call.id);
  // Text needs the inbox (`inbox.read`); blocking is working calls (`calls.work`). Reporting only reads the call.
  const canText = useCan('inbox.read');
  const canBlock = useCan('calls.work');
  return (
    <Group gap="xs" data-testid="call-actions">
      <CallButton number={party} text={false} />
      <Button size="xs" variant="light" component="a" href={`tel:${party}`} leftSection={<IconPhoneCall size={14} />}>
        Call back
      </Button>
      {call.conversation_id && canText ? (
        <Button size="xs" variant="light" component={Link} to={`/inbox/${call.conversation_id}`} leftSection={<IconMessage size={14} />}>
          Text
        </Button>
      ) : null}
      {call.caller_blocked ? (
        <Badge color="red" variant="light" size="lg" tt="none" data-testid="caller-blocked">
          Blocked
        </Badge>
      ) : canBlock ? (
        <Button size="xs" variant="light" color="red" leftSection={<IconBan size={14} />} onClick={() => setConfirming(true)}>
          Block
        </Button>
      ) : null}
      <ConfirmModal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={`Block ${who}?`}
        confirmLabel="Block"
        loading={block.isPending}
        onConfirm={() =>
          block.mutate(party, {
            onSuccess: (r) => {
              notify.success(r.message);
              setConfirming(false);
            },
          })
        }
      >
        Calls from {formatPhone(party)} will be rejected on every number of this company, and their texts will arrive already read. You can unblock them under
        Blocked callers.
      </ConfirmModal>
    </Group>
  );
}

function NoteEditor({ call, onSave, saving }: { call: CallDetail; onSave: (body: string) => void; saving: boolean }) {
  const [body, setBody] = useState(call.note?.body ?? '');
  useEffect(() => setBody(call.note?.body ?? ''), [call.note?.body]);
  const changed = body.trim() !== (call.note?.body ?? '').trim();
  return (
    <Stack gap={6}>
      <Textarea
        label="Note"
        placeholder="What was the call about?"
        autosize
        minRows={2}
        maxLength={5000}
        value={body}
        onChange={(e) => setBody(e.currentTarget.value)}
      />
      <Group justify="flex-end">
        <Button size="xs" variant="light" disabled={!changed || !body.trim()} loading={saving} onClick={() => onSave(body.trim())}>
          Save note
        </Button>
      </Group>
    </Stack>
  );
}

function CallBody({ call, attributes, journey }: { call: CallDetail; attributes: CustomFieldAttribute[]; journey?: (call: CallDetail) => ReactNode }) {
  const update = useCallUpdate(call.id);
  // Qualification, tags, note and custom values are annotations: `calls.work`; reporting sees them read-only.
  const canAnnotate = useCan('calls.work');
  const tagNames = call.tags.map((t) => t.name);
  const onTags = (next: string[]) => {
    const added = next.filter((n) => !tagNames.some((t) => t.toLowerCase() === n.toLowerCase()));
    const removed = tagNames.filter((t) => !next.some((n) => n.toLowerCase() === t.toLowerCase()));
    added.forEach((name) => update.mutate({ kind: 'add-tag', name }));
    removed.forEach((name) => update.mutate({ kind: 'remove-tag', name }));
  };
  const party = call.isInbound ? call.from : call.to;
  const business = call.isInbound ? call.to : call.from;
  const who = call.contact?.name || formatPhone(party);
  const answeredBy = call.forwards?.find((f) => f.outcome === 'answered');
  return (
    <Stack gap="md">
      <Group gap="xs" wrap="nowrap" align="flex-start">
        {call.isInbound ? <IconArrowDownLeft size={18} style={{ marginTop: 4 }} /> : <IconArrowUpRight size={18} style={{ marginTop: 4 }} />}
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Title order={4} ff={call.contact ? undefined : 'monospace'} data-testid="call-party">
            {who}
          </Title>
          {call.contact ? (
            <Text size="sm" ff="monospace" c="dimmed">
              {formatPhone(party)}
            </Text>
          ) : null}
          <CallerName callId={call.id} lookup />
        </Stack>
        <Badge color={STATUS_COLORS[call.status] ?? 'gray'} variant="light" data-testid="call-status" style={{ flexShrink: 0 }}>
          {call.status_label}
        </Badge>
      </Group>
      <Text size="sm" c="dimmed" data-testid="call-summary">
        {call.isInbound ? 'Called' : 'From'} {call.number_label ? `${call.number_label}, ${formatPhone(business)}` : formatPhone(business)}
        {call.extension !== null ? ` · extension ${call.extension}` : ''}
        {answeredBy ? ` · answered by ${forwardName(answeredBy)}` : ''}
        {call.from_state ? ` · caller in ${call.from_state}` : ''}
        {' · '}
        {formatDateTime(call.started_at)} · {formatDuration(call.duration_s)}
      </Text>
      <CallActions call={call} party={party} who={who} />
      {call.voicemail ? (
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            Voicemail · {formatDuration(call.voicemail.duration_s)}
          </Text>
          <audio controls preload="none" src={fileSrc(call.voicemail.recording_url)} style={{ width: '100%' }} aria-label="Voicemail recording" />
        </Stack>
      ) : null}
      <CallTranscript callId={call.id} />
      <Forwards forwards={call.forwards ?? []} />
      {journey?.(call)}
      <CallSentTo callId={call.id} />
      <ReadOnly when={!canAnnotate}>
        <Stack gap="md">
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
              <CustomFieldValuesEditor
                attributes={attributes}
                values={call.eavAttributeValues}
                onSave={(values) => update.mutateAsync({ kind: 'custom-fields', values })}
              />
            </div>
          ) : null}
        </Stack>
      </ReadOnly>
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
              <Timeline.Item
                key={e.id}
                title={e.title ?? e.status_label}
                bullet={<IconPhone size={10} />}
                color={STATUS_COLORS[e.status] ?? 'blue'}
                data-testid="call-history-item"
              >
                <Text size="xs" c="dimmed">
                  {formatDateTime(e.created_at)}
                </Text>
                {(e.text ?? detailText(e.detail)) ? <Text size="xs">{e.text ?? detailText(e.detail)}</Text> : null}
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
 * the call's custom-field values. `attributes`: the company's Call custom fields, handed in by the app;
 * `journey`: renders the call's marketing source and visitor journey (call tracking's CallJourney, composed
 * in app/; given the loaded call so it can skip outbound calls).
 */
export function CallDrawer({
  callId,
  onClose,
  attributes = [],
  journey,
}: {
  callId: number | null;
  onClose: () => void;
  attributes?: CustomFieldAttribute[];
  journey?: (call: CallDetail) => ReactNode;
}) {
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
        <CallBody call={call.data} attributes={attributes} journey={journey} />
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
