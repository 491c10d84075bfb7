/**
 * The call's recording and transcript in the call detail (spec 001 "Call (analysis view)";
 * docs/transcription.md "In the app"): a player with a seek bar for the two-channel recording
 * (streamed with HTTP ranges), and the transcript's segments by speaker (Agent / Client / Mixed)
 * with their times, the agent and client talk percentages, "Transcribing…" while loading, and the
 * failure message; a voicemail's transcript (the caller's words) below as "Voicemail transcript". Live: refetches on `transcript updated` and `call updated` for this call.
 */
import { Alert, Badge, Group, Loader, Paper, Progress, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { TRANSCRIPT_SPEAKER_LABELS, type CallRecording, type Transcription } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useRealtimeEvent } from '../../../lib/realtime';
import { useCompanyId } from '../../../lib/session';

type TranscriptDetail = { recording?: CallRecording | null; transcription?: Transcription | null; voicemail_transcription?: Transcription | null };

/** "m:ss" of seconds. */
function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

const SPEAKER_COLORS: Record<number, string> = { 0: 'gray', 1: 'blue', 2: 'teal' };

export function CallTranscript({ callId }: { callId: number }) {
  const companyId = useCompanyId();
  const queryClient = useQueryClient();
  const key = companyKey(companyId, 'call-transcript', callId);
  const q = useQuery({
    queryKey: key,
    queryFn: () => http.get<TranscriptDetail>(`/api/calls/${callId}?include=transcription`),
    enabled: companyId !== null,
  });
  const refresh = (id: number) => {
    if (id === callId) void queryClient.invalidateQueries({ queryKey: key });
  };
  const channel = companyId !== null ? (`company.${companyId}` as const) : null;
  useRealtimeEvent(channel, 'transcript updated', (p) => refresh(p.call_id));
  useRealtimeEvent(channel, 'call updated', (p) => refresh(p.id));

  if (q.isPending) return null;
  if (q.isError) return <Alert color="red">The transcript could not be loaded.</Alert>;
  const { recording, transcription, voicemail_transcription: voicemailTranscript } = q.data;
  if (!recording && !transcription && !voicemailTranscript) return null;
  return (
    <Stack gap="xs" data-testid="call-transcript">
      {recording ? (
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            Recording · {clock(recording.duration_s)}
          </Text>
          {recording.state === 'stored' ? (
            <audio controls preload="metadata" src={recording.url} style={{ width: '100%' }} aria-label="Call recording" />
          ) : (
            <Text size="sm" c="dimmed">
              {recording.state === 'pending' ? 'The recording is being saved…' : 'The recording could not be saved.'}
            </Text>
          )}
        </Stack>
      ) : null}
      {transcription ? <TranscriptBody t={transcription} /> : null}
      {voicemailTranscript ? (
        <div data-testid="voicemail-transcript">
          <TranscriptBody t={voicemailTranscript} title="Voicemail transcript" />
        </div>
      ) : null}
    </Stack>
  );
}

function TranscriptBody({ t, title = 'Transcript' }: { t: Transcription; title?: string }) {
  if (t.state === 'loading') {
    return (
      <Group gap="xs" data-testid="transcript-loading">
        <Loader size="xs" />
        <Text size="sm" c="dimmed">
          {title === 'Transcript' ? 'Transcribing…' : `${title}: transcribing…`}
        </Text>
      </Group>
    );
  }
  if (t.state === 'failed') {
    return (
      <Alert color="red" title={title === 'Transcript' ? 'Transcription failed' : `${title}: transcription failed`} data-testid="transcript-failed">
        {t.metadata.error ?? 'The recording could not be transcribed.'}
      </Alert>
    );
  }
  const { agent, client } = t.statistics;
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        {title}
      </Text>
      {agent !== null && client !== null ? (
        <Stack gap={2} data-testid="transcript-talk">
          <Progress.Root size="md" aria-label="Talk time">
            <Progress.Section value={agent} color="blue" aria-label={`Agent ${agent}% of the talk time`} />
            <Progress.Section value={client} color="teal" aria-label={`Client ${client}% of the talk time`} />
          </Progress.Root>
          <Text size="xs" c="dimmed">
            Agent {agent}% · Client {client}%
          </Text>
        </Stack>
      ) : null}
      {t.segments.length === 0 ? (
        <Text size="sm" c="dimmed">
          No speech was recognised.
        </Text>
      ) : (
        <Stack gap={6} data-testid="transcript-segments">
          {t.segments.map((s, i) => (
            <Paper key={i} withBorder p="xs" radius="sm" data-speaker={TRANSCRIPT_SPEAKER_LABELS[s.speaker]}>
              <Group gap="xs" mb={2}>
                <Badge size="xs" variant="light" color={SPEAKER_COLORS[s.speaker]}>
                  {TRANSCRIPT_SPEAKER_LABELS[s.speaker]}
                </Badge>
                <Text size="xs" c="dimmed">
                  {clock(s.start)}–{clock(s.end)}
                </Text>
              </Group>
              <Text size="sm">{s.transcript}</Text>
            </Paper>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
