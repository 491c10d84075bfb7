/**
 * Kysely table types added for transcription (call recordings, transcripts, segments); migration 0030_transcription. Part of `DB` (schema.ts); every table is listed in
 * `modules/ownership.ts` TABLE_OWNERS under its owner.
 */
import type { ColumnType, Generated } from 'kysely';

/** modules/calls: a call's two-channel recording (channel 0 caller, 1 agent). */
export interface CallRecordingsTable {
  id: Generated<number>;
  company_id: number;
  call_id: number;
  /** The carrier's recording id (RecordingSid); unique, so a repeated callback is a no-op. */
  carrier_sid: string;
  /** Where the carrier serves the recording (fetched once into the blob store). */
  source_url: string;
  /** The blob key once copied (private to the company); null while pending. */
  blob_key: string | null;
  channels: Generated<number>;
  duration_s: Generated<number>;
  state: Generated<'pending' | 'stored' | 'failed'>;
  error: string | null;
  created_at: Generated<Date>;
  stored_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** modules/transcription: one transcript per call recording (voicemail_id null) or per voicemail. */
export interface TranscriptsTable {
  id: Generated<number>;
  company_id: number;
  call_id: number;
  voicemail_id: number | null;
  recording_id: number | null;
  state: Generated<'loading' | 'complete' | 'failed'>;
  text: Generated<string>;
  /** {provider, language, audio_s, error}. */
  metadata: ColumnType<Record<string, unknown>, string | undefined, string>;
  /** Percent of talk time, 0-100 (numeric: read as a string). */
  agent_pct: ColumnType<string | null, number | null | undefined, number | null>;
  client_pct: ColumnType<string | null, number | null | undefined, number | null>;
  attempts: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  completed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** modules/transcription: a transcript's segments (speaker: mixed 0, agent 1, client 2; times in seconds). */
export interface TranscriptSegmentsTable {
  id: Generated<number>;
  transcript_id: number;
  position: number;
  channel: number;
  speaker: number;
  transcript: string;
  start_s: number;
  end_s: number;
}

export interface TranscriptionTables {
  call_recordings: CallRecordingsTable;
  transcripts: TranscriptsTable;
  transcript_segments: TranscriptSegmentsTable;
}
