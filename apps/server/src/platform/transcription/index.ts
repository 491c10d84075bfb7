/**
 * The configured transcriber (docs/transcription.md "Configuration"): TRANSCRIPTION=sandbox
 * (default, offline), deepgram (DEEPGRAM_API_KEY) or whisper (WHISPER_MODEL_PATH).
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
  if (t.adapter === 'deepgram') return new DeepgramTranscriber(t.deepgramApiKey);
  if (t.adapter === 'whisper') return new WhisperTranscriber(t.whisperModelPath);
  return new SandboxTranscriber();
}
