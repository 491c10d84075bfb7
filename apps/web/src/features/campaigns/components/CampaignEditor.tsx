import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  CloseButton,
  FileButton,
  Grid,
  Group,
  Image,
  MultiSelect,
  SegmentedControl,
  Skeleton,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import {
  MERGE_FIELDS,
  MMS_MAX_LENGTH,
  SEGMENT_CAPACITY,
  SMS_MAX_LENGTH,
  campaignSegments,
  campaignStateForSave,
  composeCampaignMessage,
  messageLengthError,
  newCampaignDefaults,
  renderMergeFields,
  validateCampaign,
  type CampaignErrors,
  type MergeField,
} from '@switchboard/domain';
import { IconAlertCircle, IconPhoto, IconSend } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { formatDateTime } from '../../../lib/dates';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { PageHeader } from '../../../components/PageHeader';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useCampaign } from '../api/get-campaign';
import { useSaveCampaign, type CampaignFormValues } from '../api/save-campaign';
import { useSendingNumbers } from '../api/get-sending-numbers';
import { SendingNumberField, SMS_VERIFICATION_PATH } from './SendingNumberField';
import type { Campaign, Option } from '../types';
import { fileSrc } from '../../../lib/files';

interface EditorState {
  title: string;
  text: string;
  unsubscribe_text: string;
  skip_inbox: boolean;
  groups: string[];
  number_id: string | null;
  when: 'now' | 'later';
  /** datetime-local value, local time. */
  sendAt: string;
  dynamic_fields: MergeField[];
  media: string[];
  files: File[];
}

function fromCampaign(c: Campaign | null): EditorState {
  const d = newCampaignDefaults();
  const future = c?.should_be_sent_at && new Date(c.should_be_sent_at).getTime() > Date.now();
  return {
    title: c?.title ?? d.title,
    text: c?.text ?? d.text,
    unsubscribe_text: c?.unsubscribe_text ?? d.unsubscribe_text,
    skip_inbox: c?.skip_inbox ?? d.skip_inbox,
    groups: (c?.groups ?? d.groups).map(String),
    number_id: c?.number_id ? String(c.number_id) : null,
    when: future ? 'later' : 'now',
    sendAt: future ? dayjs(c!.should_be_sent_at).format('YYYY-MM-DDTHH:mm') : '',
    dynamic_fields: c?.dynamic_fields?.length ? c.dynamic_fields : d.dynamic_fields,
    media: c?.media ?? [],
    files: [],
  };
}

interface CampaignEditorProps {
  campaignId: number | null;
  /** The company's groups and numbers (handed in by the app). */
  groups: Option[];
  numbers: Option[];
  loadingOptions?: boolean;
  /** Whether the company allows links in messages (company settings, handed in by the app); the server decides in the end. */
  linksEnabled?: boolean;
}

/** The campaign editor `/campaigns/new`, `/campaigns/:id/edit`: message, merge fields, media, audience, number and timing. */
export function CampaignEditor({ campaignId, groups, numbers, loadingOptions, linksEnabled = false }: CampaignEditorProps) {
  const existing = useCampaign(campaignId);
  if (campaignId !== null && existing.isPending) {
    return (
      <Stack>
        <Skeleton h={40} w={300} />
        <Skeleton h={400} />
      </Stack>
    );
  }
  return (
    <EditorForm
      key={existing.data?.id ?? 'new'}
      campaign={existing.data ?? null}
      groups={groups}
      numbers={numbers}
      loadingOptions={loadingOptions}
      linksEnabled={linksEnabled}
    />
  );
}

function EditorForm({
  campaign,
  groups,
  numbers,
  loadingOptions,
  linksEnabled,
}: {
  campaign: Campaign | null;
  groups: Option[];
  numbers: Option[];
  loadingOptions?: boolean;
  linksEnabled: boolean;
}) {
  const navigate = useNavigate();
  const save = useSaveCampaign();
  const [v, setV] = useState<EditorState>(() => fromCampaign(campaign));
  const [attempted, setAttempted] = useState<'draft' | 'send' | null>(null);
  const [serverErrors, setServerErrors] = useState<Record<string, string[]>>({});
  const [confirming, setConfirming] = useState(false);
  const sendingNumbers = useSendingNumbers();
  const textRef = useRef<HTMLTextAreaElement>(null);
  const set = <K extends keyof EditorState>(key: K, value: EditorState[K]) => {
    setV((s) => ({ ...s, [key]: value }));
    setServerErrors((e) => ({ ...e, [key === 'when' || key === 'sendAt' ? 'should_be_sent_at' : key]: [] }));
  };
  const previews = useMemo(() => v.files.map((f) => URL.createObjectURL(f)), [v.files]);
  useEffect(() => () => previews.forEach((u) => URL.revokeObjectURL(u)), [previews]);

  const hasMedia = v.media.length + v.files.length > 0;
  const sendAtIso = v.when === 'later' && v.sendAt ? new Date(v.sendAt).toISOString() : v.when === 'later' ? 'invalid' : null;
  const input = {
    title: v.title,
    text: v.text,
    unsubscribe_text: v.unsubscribe_text,
    groups: v.groups.map(Number),
    number_id: v.number_id ? Number(v.number_id) : null,
    should_be_sent_at: sendAtIso,
    media: [...v.media, ...v.files],
  };
  const errors: CampaignErrors = attempted ? validateCampaign(input, { linksEnabled, draft: attempted === 'draft' }) : {};
  const lengthError = messageLengthError(v.text, v.unsubscribe_text, hasMedia);
  const fieldError = (key: keyof CampaignErrors) => serverErrors[key]?.[0] ?? errors[key]?.[0] ?? (key === 'text' ? (lengthError ?? undefined) : undefined);
  const length = [...v.text].length + [...v.unsubscribe_text].length;
  const limit = hasMedia ? MMS_MAX_LENGTH : SMS_MAX_LENGTH;
  // Segments as sent (docs/campaigns.md "Segments and UCS-2"): merge fields at full length, then the unsubscribe text.
  const segments = useMemo(() => campaignSegments(v.text, v.unsubscribe_text, v.dynamic_fields), [v.text, v.unsubscribe_text, v.dynamic_fields]);
  const selectedGroups = groups.filter((g) => v.groups.includes(g.value));
  const recipients = selectedGroups.reduce((sum, g) => sum + (g.count ?? 0), 0);

  const insertTag = (tag: string) => {
    const el = textRef.current;
    const start = el?.selectionStart ?? v.text.length;
    const end = el?.selectionEnd ?? v.text.length;
    set('text', v.text.slice(0, start) + tag + v.text.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + tag.length, start + tag.length);
    });
  };

  /**
   * Sending is costly: a valid send first asks for a confirmation ({@link ConfirmModal}); `confirmed` skips it. A send
   * from a number the server would refuse (not registered for SMS campaigns) stops before the confirmation with the
   * reason on the number. `then`: where a saved draft goes next (default the list).
   */
  const submit = async (action: 'draft' | 'send', confirmed = false, then?: (id: number) => string) => {
    setAttempted(action);
    setServerErrors({});
    const problems = validateCampaign(input, { linksEnabled, draft: action === 'draft' });
    if (Object.keys(problems).length > 0 || (action === 'send' && lengthError)) return;
    const refused = action === 'send' ? sendingNumbers.data?.find((n) => String(n.number_id) === v.number_id && !n.allowed) : undefined;
    if (refused) {
      setServerErrors({ number_id: [refused.message ?? ''] });
      return;
    }
    if (action === 'send' && !confirmed) {
      setConfirming(true);
      return;
    }
    const values: CampaignFormValues = {
      title: v.title.trim(),
      text: v.text,
      unsubscribe_text: v.unsubscribe_text,
      skip_inbox: v.skip_inbox,
      groups: v.groups.map(Number),
      number_id: v.number_id ? Number(v.number_id) : null,
      should_be_sent_at: sendAtIso === 'invalid' ? null : sendAtIso,
      state: campaignStateForSave(action),
      dynamic_fields: v.dynamic_fields,
      media: v.media,
      files: v.files,
    };
    try {
      const saved = await save.mutateAsync({ id: campaign?.id ?? null, values });
      setConfirming(false);
      if (action === 'draft') {
        notify.success('Campaign saved as a draft');
        navigate(then ? then(saved.id) : '/campaigns');
      } else {
        notify.success(values.should_be_sent_at ? `Campaign scheduled for ${formatDateTime(values.should_be_sent_at)}` : 'Campaign is on its way');
        navigate(`/campaigns/${saved.id}`);
      }
    } catch (error) {
      setConfirming(false);
      if (error instanceof HttpError && error.status === 422) setServerErrors(error.fieldErrors);
      else if (error instanceof HttpError && error.status !== 0) notify.danger(error.message, 10_000);
    }
  };

  const sample = renderMergeFields(
    composeCampaignMessage(v.text, v.unsubscribe_text),
    { name: 'Jamie Rivera', first_name: 'Jamie', last_name: 'Rivera', number: '+13125550100', email: 'jamie@example.com' },
    v.dynamic_fields,
  );
  const otherErrors = Object.entries(serverErrors).filter(
    ([k, m]) => !['title', 'text', 'unsubscribe_text', 'groups', 'number_id', 'should_be_sent_at'].includes(k) && m.length,
  );

  const when = sendAtIso && sendAtIso !== 'invalid' ? formatDateTime(sendAtIso) : 'now';
  const numberLabel = numbers.find((n) => n.value === v.number_id)?.label ?? 'your number';

  return (
    <>
      <ConfirmModal
        opened={confirming}
        title={v.when === 'later' ? 'Schedule this campaign?' : 'Send this campaign?'}
        confirmLabel={v.when === 'later' ? 'Schedule campaign' : 'Send campaign'}
        danger={false}
        loading={save.isPending}
        onConfirm={() => submit('send', true)}
        onClose={() => setConfirming(false)}
      >
        <span data-testid="send-summary">
          <strong>{v.title.trim()}</strong> goes to{' '}
          <strong data-testid="send-recipients">
            up to {recipients.toLocaleString()} {recipients === 1 ? 'recipient' : 'recipients'}
          </strong>{' '}
          in {selectedGroups.length} {selectedGroups.length === 1 ? 'group' : 'groups'} from {numberLabel},{' '}
          <strong data-testid="send-when">{when === 'now' ? 'starting now' : when}</strong>.{' '}
          {hasMedia ? (
            <>Each message is an MMS.</>
          ) : (
            <>
              Each message is{' '}
              <strong data-testid="send-segments">
                {segments.segments} {segments.segments === 1 ? 'segment' : 'segments'}
              </strong>{' '}
              ({segments.encoding}), up to {(recipients * segments.segments).toLocaleString()} segments in all.
            </>
          )}{' '}
          Recipients outside their allowed hours get it when those hours begin.
        </span>
      </ConfirmModal>
      <PageHeader title={campaign ? 'Edit campaign' : 'New campaign'} description="Write the message, pick who gets it, and send it now or later." />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Card withBorder radius="md">
            <Stack>
              <TextInput
                label="Title"
                description="Only your team sees it."
                required
                value={v.title}
                onChange={(e) => set('title', e.currentTarget.value)}
                error={fieldError('title')}
              />
              <Stack gap={4}>
                <Textarea
                  ref={textRef}
                  label="Message"
                  required
                  autosize
                  minRows={4}
                  maxRows={12}
                  value={v.text}
                  onChange={(e) => set('text', e.currentTarget.value)}
                  error={fieldError('text')}
                />
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <Group gap={4}>
                    <Text size="xs" c="dimmed">
                      Insert:
                    </Text>
                    {MERGE_FIELDS.map((f) => (
                      <Button key={f.tag} size="compact-xs" variant="light" onClick={() => insertTag(f.tag)} title={f.tag}>
                        {f.name}
                      </Button>
                    ))}
                  </Group>
                  <Group gap="xs">
                    {!hasMedia && segments.segments > 0 ? (
                      <Text size="xs" c="dimmed" data-testid="segment-counter" aria-live="polite">
                        {segments.segments} {segments.segments === 1 ? 'segment' : 'segments'} · {segments.encoding}
                      </Text>
                    ) : null}
                    <Text size="xs" c={length > limit ? 'red' : 'dimmed'} data-testid="char-counter">
                      {length}/{limit} {hasMedia ? 'MMS' : 'SMS'}
                    </Text>
                  </Group>
                </Group>
                {!hasMedia && segments.ucs2Characters.length ? (
                  <Alert color="yellow" variant="light" p="xs" data-testid="ucs2-warning" title="Special characters make this message longer">
                    <Text size="xs">
                      These characters switch the message to UCS-2, which fits {SEGMENT_CAPACITY['UCS-2'].single} characters per segment instead of{' '}
                      {SEGMENT_CAPACITY['GSM-7'].single}:{' '}
                      {segments.ucs2Characters.map((ch) => (
                        <Badge key={ch} variant="outline" color="yellow" size="sm" mx={2} tt="none" data-testid="ucs2-char">
                          {ch}
                        </Badge>
                      ))}
                      . Replace them (for example curly quotes with straight ones) to send fewer segments.
                    </Text>
                  </Alert>
                ) : null}
              </Stack>
              <TextInput
                label="Unsubscribe text"
                description="Added on a new line at the end of every message."
                required
                value={v.unsubscribe_text}
                onChange={(e) => set('unsubscribe_text', e.currentTarget.value)}
                error={fieldError('unsubscribe_text')}
              />
              <Stack gap={6}>
                <Group gap="xs">
                  <FileButton multiple accept="image/png,image/jpeg,image/gif" onChange={(files) => set('files', [...v.files, ...files])}>
                    {(props) => (
                      <Button {...props} variant="default" size="xs" leftSection={<IconPhoto size={14} />}>
                        Add image
                      </Button>
                    )}
                  </FileButton>
                  <Text size="xs" c="dimmed">
                    An image makes it an MMS.
                  </Text>
                </Group>
                {hasMedia ? (
                  <Group gap="xs" data-testid="campaign-media">
                    {v.media.map((url) => (
                      <MediaThumb
                        key={url}
                        src={fileSrc(url)}
                        onRemove={() =>
                          set(
                            'media',
                            v.media.filter((m) => m !== url),
                          )
                        }
                      />
                    ))}
                    {v.files.map((f, i) => (
                      <MediaThumb
                        key={`${f.name}-${i}`}
                        src={previews[i]!}
                        label={f.name}
                        onRemove={() =>
                          set(
                            'files',
                            v.files.filter((_, j) => j !== i),
                          )
                        }
                      />
                    ))}
                  </Group>
                ) : null}
              </Stack>
              <MultiSelect
                label="Groups"
                placeholder={groups.length ? 'Who receives it' : 'No groups yet: create one on the Groups page'}
                data={groups}
                value={v.groups}
                onChange={(g) => set('groups', g)}
                error={fieldError('groups')}
                searchable
                disabled={loadingOptions}
              />
              <SendingNumberField
                numbers={numbers}
                states={sendingNumbers.data}
                value={v.number_id}
                onChange={(n) => set('number_id', n)}
                error={fieldError('number_id')}
                disabled={loadingOptions}
                saving={save.isPending && attempted === 'draft'}
                onSaveAndRegister={() => void submit('draft', false, (id) => `${SMS_VERIFICATION_PATH}?campaign_draft=${id}`)}
              />
              <Stack gap={6}>
                <Text size="sm" fw={500}>
                  Delivery
                </Text>
                <SegmentedControl
                  w="fit-content"
                  value={v.when}
                  onChange={(w) => set('when', w as 'now' | 'later')}
                  data={[
                    { value: 'now', label: 'Send now' },
                    { value: 'later', label: 'Schedule' },
                  ]}
                  aria-label="Delivery"
                />
                {v.when === 'later' ? (
                  <TextInput
                    type="datetime-local"
                    label="Delivery time"
                    value={v.sendAt}
                    min={dayjs().format('YYYY-MM-DDTHH:mm')}
                    onChange={(e) => set('sendAt', e.currentTarget.value)}
                    error={fieldError('should_be_sent_at')}
                    w={260}
                  />
                ) : fieldError('should_be_sent_at') ? (
                  <Text size="xs" c="red">
                    {fieldError('should_be_sent_at')}
                  </Text>
                ) : null}
                <Text size="xs" c="dimmed">
                  Messages wait for the hours the law allows where each recipient lives (8:00 to 21:00 in most US states, shorter in some states and countries),
                  narrowed by your company&apos;s quiet hours.
                </Text>
              </Stack>
              <Checkbox
                label="Skip inbox (replies don't open conversations)"
                checked={v.skip_inbox}
                onChange={(e) => set('skip_inbox', e.currentTarget.checked)}
              />
              {otherErrors.length ? (
                <Alert color="red" icon={<IconAlertCircle size={16} />}>
                  {otherErrors.map(([, m]) => m[0]).join(' ')}
                </Alert>
              ) : null}
              <Group justify="space-between">
                <Button variant="default" onClick={() => navigate('/campaigns')}>
                  Cancel
                </Button>
                <Group gap="xs">
                  <Button variant="light" loading={save.isPending && attempted === 'draft'} onClick={() => void submit('draft')}>
                    Save draft
                  </Button>
                  <Button leftSection={<IconSend size={16} />} loading={save.isPending && attempted === 'send'} onClick={() => void submit('send')}>
                    {v.when === 'later' ? 'Schedule' : 'Send'}
                  </Button>
                </Group>
              </Group>
            </Stack>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Card withBorder radius="md">
            <Stack gap="xs">
              <Title order={5}>Preview</Title>
              <Text size="xs" c="dimmed">
                As a contact named Jamie Rivera would receive it (merge fields are cut to {MERGE_FIELDS[0]!.length} characters).
              </Text>
              <Card radius="lg" bg="var(--mantine-color-gray-1)" p="sm" data-testid="campaign-preview">
                {previews[0] || v.media[0] ? <Image src={previews[0] ?? v.media[0]} alt="Image preview" radius="sm" mah={180} fit="contain" mb={6} /> : null}
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                  {v.text.trim() ? (
                    sample
                  ) : (
                    <Text span c="dimmed">
                      Your message appears here.
                    </Text>
                  )}
                </Text>
              </Card>
              <Group gap={6}>
                <Badge variant="light">{hasMedia ? 'MMS' : 'SMS'}</Badge>
                {v.groups.length ? (
                  <Badge variant="light" color="gray">
                    {v.groups.length} {v.groups.length === 1 ? 'group' : 'groups'}
                  </Badge>
                ) : null}
              </Group>
            </Stack>
          </Card>
        </Grid.Col>
      </Grid>
    </>
  );
}

function MediaThumb({ src, label, onRemove }: { src: string; label?: string; onRemove: () => void }) {
  return (
    <Card withBorder p={4} radius="sm" pos="relative" w={96}>
      <Image src={src} alt={label ?? 'Attached image'} h={64} fit="cover" radius="xs" />
      <CloseButton size="xs" aria-label="Remove image" pos="absolute" top={2} right={2} onClick={onRemove} bg="white" />
    </Card>
  );
}
