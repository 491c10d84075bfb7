/**
 * The configured transcriber (docs/transcription.md "Configuration"): TRANSCRIPTION=sandbox
 * (default, offline), deepgram (DEEPGRAM_API_KEY, DEEPGRAM_API_URL, DEEPGRAM_TIMEOUT_S) or whisper
 * (WHISPER_MODEL_PATH and the optional `@fugood/whisper.node`). The settings are read and checked by
 * `loadConfig` (platform/config.ts), so a missing key, model file or binding stops the server at start.
 * @throws Error when the chosen adapter lacks its setting.
 */
import type { Config } from '../config.js';
import { DeepgramTranscriber } from './deepgram.transcriber.js';
import { SandboxTranscriber } from './sandbox.transcriber.js';
import type { Transcriber } from './transcription.port.js';
import { WhisperTranscriber } from './whisper.transcriber.js';

export { TranscriptionError, type RecognisedSegment, type Transcriber, type TranscriptionResult } from './transcription.port.js';
export { SANDBOX_SCRIPT_CHUNK, monoSamples, readWav, writeWav, type ScriptedSegment } from './wav.js';

export function createTranscriber(config: Pick<Config, 'transcription'>): Transcriber {
  const t = config.transcription;
  if (t.adapter === 'deepgram') return new DeepgramTranscriber({ apiKey: t.deepgramApiKey, baseUrl: t.deepgramApiUrl, timeoutS: t.deepgramTimeoutS });
  if (t.adapter === 'whisper') return new WhisperTranscriber(t.whisperModelPath);
  return new SandboxTranscriber();
}
