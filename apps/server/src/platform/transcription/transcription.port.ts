/**
 * The transcription port (docs/transcription.md "The transcription port"): speech to text of a
 * recording. Adapters: `sandbox` (default; reads the script the sandbox carrier wrote into the
 * WAV), `deepgram` (hosted, official `@deepgram/sdk`, multichannel) and `whisper` (local
 * whisper.cpp through `@fugood/whisper.node`, when WHISPER_MODEL_PATH is set). The product's code
 * path is the same for all three: the transcription job hands the audio to `transcribe` and stores
 * what comes back.
 */

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
