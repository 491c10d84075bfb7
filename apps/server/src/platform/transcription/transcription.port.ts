/**
 * The transcription port (docs/transcription.md "The transcription port"): speech to text of a
 * recording. Adapters: `sandbox` (default; reads the script the sandbox carrier wrote into the
 * WAV), `deepgram` (hosted, official `@deepgram/sdk`, multichannel) and `whisper` (local
 * whisper.cpp through `@fugood/whisper.node`, when WHISPER_MODEL_PATH is set). The product's code
 * path is the same for all three: the transcription job hands the audio to `transcribe` and stores
 * what comes back, bounded by `boundTranscription`.
 */
import { boundText } from '@switchboard/domain';

/** One recognised stretch of speech: the audio channel it came from, its words and times (s). */
export type RecognisedSegment = { channel: number; transcript: string; start: number; end: number };

export type TranscriptionResult = {
  /** The adapter's name: sandbox, deepgram, whisper. */
  provider: string;
  /** BCP 47 language detected or assumed, e.g. "en". */
  language: string;
  /** Length of the audio in seconds. */
  audioS: number;
  /** Channels of the audio (2: channel 0 the caller, 1 the agent). */
  channels: number;
  /** Segments in time order. */
  segments: RecognisedSegment[];
};

/**
 * The most a transcription keeps (docs/operations.md "Bounds on outside input"). A recording lasts
 * at most as long as a call, and a carrier ends a call after 4 hours (Twilio's `timeLimit`, 14,400 s
 * at most by default); fast speech is about 20 characters a second per speaker, so 2 channels × 4 h
 * hold well under 720,000 characters; an utterance (a provider's segment) is a sentence or a few:
 * 5,000 characters is minutes of speech without a pause. Providers answering more than that
 * (a fault, or a forged answer) are cut here, never handed on to search, rules or the inbox.
 */
export const TRANSCRIPT_LIMITS = Object.freeze({ segments: 20_000, segmentChars: 5_000, totalChars: 720_000 });

/**
 * `result` with its segments bounded by TRANSCRIPT_LIMITS: at most `segments` segments, each text
 * cut to `segmentChars`, and no more segments once `totalChars` are reached. Linear in the input.
 * @returns the bounded result and whether anything was cut (the adapters log it).
 */
export function boundTranscription(result: TranscriptionResult): { result: TranscriptionResult; truncated: boolean } {
  let truncated = result.segments.length > TRANSCRIPT_LIMITS.segments;
  let total = 0;
  const segments: RecognisedSegment[] = [];
  for (const s of result.segments.slice(0, TRANSCRIPT_LIMITS.segments)) {
    const text = boundText(s.transcript, TRANSCRIPT_LIMITS.segmentChars);
    if (text.truncated) truncated = true;
    if (total + text.text.length > TRANSCRIPT_LIMITS.totalChars) {
      truncated = true;
      break;
    }
    total += text.text.length;
    segments.push(text.truncated ? { ...s, transcript: text.text } : s);
  }
  return { result: truncated ? { ...result, segments } : result, truncated };
}

/** A provider failure worth retrying (network, 5xx, rate limit) or not (bad audio, bad key). */
export class TranscriptionError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

export interface Transcriber {
  readonly name: 'sandbox' | 'deepgram' | 'whisper';
  /**
   * Transcribes a recording (WAV bytes; one channel per speaker when `channels` is 2).
   * @throws TranscriptionError (retryable or not) when the provider fails.
   */
  transcribe(audio: Buffer, contentType: string): Promise<TranscriptionResult>;
}
