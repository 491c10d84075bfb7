/**
 * Transcription contracts (spec 001 "Call (analysis view)": "Transcription has id, state (loading or
 * complete), text, metadata, statistics (agent and client percentage) and raw segments. Each segment
 * has channel, speaker, transcript, start time and end time"; "Transcript speakers: mixed 0, agent 1,
 * client 2"; docs/transcription.md). Times are seconds from the start of the recording; percentages
 * are 0-100 of the talk time. State `failed` (with `metadata.error`) is the product's addition.
 */
import { z } from 'zod';

/** Transcript speakers (spec 001). */
export const TRANSCRIPT_SPEAKER = { mixed: 0, agent: 1, client: 2 } as const;
export const TranscriptSpeaker = z.union([z.literal(0), z.literal(1), z.literal(2)]);
export type TranscriptSpeaker = z.infer<typeof TranscriptSpeaker>;
/** People-facing names of the speakers. */
export const TRANSCRIPT_SPEAKER_LABELS: Record<TranscriptSpeaker, string> = { 0: 'Mixed', 1: 'Agent', 2: 'Client' };

export const TranscriptState = z.enum(['loading', 'complete', 'failed']);
export type TranscriptState = z.infer<typeof TranscriptState>;

/** One raw segment: the recording channel it came from, its speaker, its words and its times (s). */
export const TranscriptSegment = z.object({
  channel: z.number().int().min(0),
  speaker: TranscriptSpeaker,
  transcript: z.string(),
  start: z.number().min(0),
  end: z.number().min(0),
});
export type TranscriptSegment = z.infer<typeof TranscriptSegment>;

export const TranscriptMetadata = z.object({
  /** The adapter that transcribed: sandbox, deepgram, whisper. */
  provider: z.string().nullable(),
  /** BCP 47 language, e.g. "en". */
  language: z.string().nullable(),
  /** Length of the audio in seconds. */
  audio_s: z.number().nullable(),
  /** Why the transcription failed (state `failed`). */
  error: z.string().nullable(),
  /** What was transcribed: the call's recording or its voicemail. */
  source: z.enum(['recording', 'voicemail']),
});
export type TranscriptMetadata = z.infer<typeof TranscriptMetadata>;

/** Agent and client share of the talk time, in percent (0-100, two decimals); null until complete. */
export const TranscriptStatistics = z.object({
  agent: z.number().nullable(),
  client: z.number().nullable(),
});

/** A call's (or voicemail's) transcription (spec 001 "Call (analysis view)"). */
export const Transcription = z.object({
  id: z.number().int(),
  state: TranscriptState,
  text: z.string(),
  metadata: TranscriptMetadata,
  statistics: TranscriptStatistics,
  segments: z.array(TranscriptSegment),
});
export type Transcription = z.infer<typeof Transcription>;

/** A call's recording as the call detail plays it. */
export const CallRecording = z.object({
  id: z.number().int(),
  /** The company-scoped route that streams it (HTTP Range supported). */
  url: z.string(),
  channels: z.number().int(),
  duration_s: z.number().int(),
  state: z.enum(['pending', 'stored', 'failed']),
});
export type CallRecording = z.infer<typeof CallRecording>;

/** `transcript updated` on `company.{companyId}`: a call's transcript changed state; readers refetch the call. */
export const TRANSCRIPT_UPDATED = 'transcript updated';
export const TranscriptUpdatedEvent = z.object({
  call_id: z.number().int(),
  transcript_id: z.number().int(),
  voicemail_id: z.number().int().nullable(),
  state: TranscriptState,
});
export type TranscriptUpdatedEvent = z.infer<typeof TranscriptUpdatedEvent>;

/** The sandbox simulator's script of a call: what the caller and the agent say, in order. */
export const SimulatorScriptLine = z.object({
  speaker: z.enum(['caller', 'agent']),
  text: z.string().trim().min(1).max(500),
});
export const SimulatorScript = z.object({ lines: z.array(SimulatorScriptLine).max(40) });
export type SimulatorScript = z.infer<typeof SimulatorScript>;
