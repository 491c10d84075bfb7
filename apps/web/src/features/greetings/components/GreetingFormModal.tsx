import { Button, FileInput, Group, Modal, SegmentedControl, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconPlayerPlay, IconUpload } from '@tabler/icons-react';
import { GREETING_TEXT_MAX } from '@switchboard/contracts';
import { useEffect, useRef, useState } from 'react';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useCompanyId } from '../../../lib/session';
import { useVoices } from '../api/get-voices';
import { useSaveGreeting } from '../api/save-greeting';
import { useSpeak } from '../api/speak';
import type { Greeting } from '../types';
import { fileSrc } from '../../../lib/files';

const DEFAULT_VOICE = 'en/en-us';

/**
 * Create or edit a greeting: a name and either text spoken by a voice (Preview plays the synthesized
 * audio from POST /api/greetings/speak) or an uploaded audio file.
 */
export function GreetingFormModal({ opened, greeting, onClose }: { opened: boolean; greeting: Greeting | null; onClose: () => void }) {
  const companyId = useCompanyId();
  const voices = useVoices();
  const save = useSaveGreeting();
  const preview = useSpeak();
  const [source, setSource] = useState<'tts' | 'upload'>('tts');
  const [name, setName] = useState('');
  const [content, setContent] = useState('');
  const [voice, setVoice] = useState<string>(DEFAULT_VOICE);
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [audioUrl, setAudioUrl] = useState<string | null>(null);
  const audioRef = useRef<HTMLAudioElement>(null);

  useEffect(() => {
    if (!opened) return;
    setSource(greeting?.source ?? 'tts');
    setName(greeting?.name ?? '');
    setContent(greeting?.content ?? '');
    setVoice(greeting?.voice || DEFAULT_VOICE);
    setFile(null);
    setErrors({});
    setAudioUrl(null);
  }, [opened, greeting]);

  // Object URLs hold the audio in memory until revoked.
  useEffect(
    () => () => {
      if (audioUrl) URL.revokeObjectURL(audioUrl);
    },
    [audioUrl],
  );

  const playPreview = () =>
    preview.mutate(
      { content: content.trim(), voice },
      {
        onSuccess: (blob) => {
          setAudioUrl(URL.createObjectURL(blob));
          requestAnimationFrame(() => void audioRef.current?.play().catch(() => undefined));
        },
      },
    );

  const submit = () => {
    if (companyId === null) return;
    const local: Record<string, string[]> = {};
    if (!name.trim()) local.name = ['Give the greeting a name.'];
    if (source === 'tts' && !content.trim()) local.content = ['Write what the greeting says.'];
    if (source === 'upload' && !file && !greeting) local.file = ['Choose an audio file.'];
    setErrors(local);
    if (Object.keys(local).length) return;
    save.mutate(
      {
        id: greeting?.id,
        company_id: companyId,
        name: name.trim(),
        content: source === 'tts' ? content.trim() : (greeting?.content ?? ''),
        voice: source === 'tts' ? voice : undefined,
        file: source === 'upload' ? file : null,
      },
      {
        onSuccess: (result) => {
          notify.success(result.message);
          onClose();
        },
        onError: (error) => {
          if (error instanceof HttpError && error.status === 422) setErrors(error.fieldErrors);
        },
      },
    );
  };

  const voiceData = (voices.data?.data ?? []).map((v) => ({ value: v.id, label: v.name }));
  return (
    <Modal opened={opened} onClose={onClose} title={greeting ? 'Edit greeting' : 'New greeting'} size="lg">
      <Stack>
        <TextInput
          label="Name"
          placeholder="After-hours message"
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={errors.name?.[0]}
          data-autofocus
          maxLength={100}
        />
        <SegmentedControl
          aria-label="Greeting source"
          value={source}
          onChange={(v) => setSource(v as 'tts' | 'upload')}
          data={[
            { value: 'tts', label: 'Type text' },
            { value: 'upload', label: 'Upload audio' },
          ]}
        />
        {source === 'tts' ? (
          <>
            <Textarea
              label="What callers hear"
              placeholder="Thanks for calling Acme Plumbing. We are closed right now..."
              autosize
              minRows={3}
              maxLength={GREETING_TEXT_MAX}
              value={content}
              onChange={(e) => setContent(e.currentTarget.value)}
              error={errors.content?.[0]}
            />
            <Group align="flex-end">
              <Select
                label="Voice"
                data={voiceData}
                value={voice}
                onChange={(v) => v && setVoice(v)}
                allowDeselect={false}
                searchable
                style={{ flex: 1 }}
                placeholder={voices.isPending ? 'Loading voices…' : undefined}
                error={errors.voice?.[0]}
              />
              <Button variant="default" leftSection={<IconPlayerPlay size={16} />} onClick={playPreview} loading={preview.isPending} disabled={!content.trim()}>
                Preview
              </Button>
            </Group>
            {audioUrl ? (
              <audio ref={audioRef} controls src={audioUrl} style={{ width: '100%' }} aria-label="Greeting preview" data-testid="greeting-preview" />
            ) : null}
          </>
        ) : (
          <>
            <FileInput
              label="Audio file"
              description={greeting?.source === 'upload' ? 'Leave empty to keep the current recording.' : 'WAV or MP3.'}
              placeholder="Choose a file"
              accept="audio/wav,audio/x-wav,audio/mpeg,audio/mp3,.wav,.mp3"
              leftSection={<IconUpload size={16} />}
              value={file}
              onChange={setFile}
              clearable
              error={errors.file?.[0]}
            />
            {greeting?.source === 'upload' && !file ? (
              <audio controls preload="none" src={fileSrc(greeting.url)} style={{ width: '100%' }} aria-label="Current recording" />
            ) : null}
          </>
        )}
        {errors.body ? (
          <Text c="red" size="sm">
            {errors.body[0]}
          </Text>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} loading={save.isPending}>
            {greeting ? 'Save greeting' : 'Create greeting'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
