/**
 * The whisper.cpp adapter (local speech to text through the maintained binding
 * `@fugood/whisper.node`), used when TRANSCRIPTION=whisper and WHISPER_MODEL_PATH names a ggml model
 * file. The binding is NOT a dependency of the product (its prebuilt GPU variants weigh about
 * 250 MB): enable it with `npm install @fugood/whisper.node` (docs/transcription.md "Local
 * transcription"). {@link whisperSetupProblem} is checked by `loadConfig`, so a missing binding or
 * model file stops the server at start with a clear message; the binding itself is loaded with a
 * dynamic import on first use.
 *
 * Each channel of the recording (caller, agent) is resampled to 16 kHz mono 16-bit PCM (what the
 * binding's `transcribeData` takes) and transcribed on its own, so every segment keeps its channel;
 * the binding reports segment times `t0`/`t1` in milliseconds, stored as seconds.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { TranscriptionError, boundTranscription, type RecognisedSegment, type Transcriber, type TranscriptionResult } from './transcription.port.js';
import { InvalidAudioError, monoSamples, readWav } from './wav.js';

/** The few calls of `@fugood/whisper.node` used here (typed locally: the package is optional). */
type WhisperSegment = { text: string; t0: number; t1: number };
export type WhisperContext = {
  /** `audio`: 16-bit signed PCM, mono, 16 kHz. Segment times in ms. */
  transcribeData(
    audio: ArrayBuffer,
    options: { language?: string; temperature?: number },
  ): { stop: () => Promise<void>; promise: Promise<{ result?: string; segments: WhisperSegment[]; isAborted?: boolean }> };
  release?(): Promise<void>;
};
export type WhisperModule = { initWhisper(options: { filePath: string; useGpu?: boolean }): Promise<WhisperContext> };

export const WHISPER_PACKAGE = '@fugood/whisper.node';
const WHISPER_RATE = 16_000;

/** Imports the binding (tests pass a stand-in). */
const importBinding = async (): Promise<WhisperModule> => (await import(/* @vite-ignore */ WHISPER_PACKAGE as string)) as WhisperModule;

/** Whether `@fugood/whisper.node` is installed where this file would import it from. */
export function whisperBindingInstalled(): boolean {
  const dirs = createRequire(import.meta.url).resolve.paths(WHISPER_PACKAGE) ?? [];
  return dirs.some((dir) => fs.existsSync(path.join(dir, WHISPER_PACKAGE, 'package.json')));
}

/**
 * Why TRANSCRIPTION=whisper cannot work with `modelPath` (null: it can): no model path, no file
 * there, or the binding not installed. `loadConfig` turns it into a startup error.
 */
export function whisperSetupProblem(modelPath: string, bindingInstalled: () => boolean = whisperBindingInstalled): string | null {
  if (!modelPath) return 'TRANSCRIPTION=whisper needs WHISPER_MODEL_PATH (a ggml model file such as ggml-base.en.bin).';
  if (!fs.existsSync(modelPath) || !fs.statSync(modelPath).isFile())
    return `WHISPER_MODEL_PATH ${modelPath} is not a file (download a ggml model, e.g. ggml-base.en.bin).`;
  if (!bindingInstalled()) {
    return `TRANSCRIPTION=whisper needs the whisper.cpp binding, which is not installed: run \`npm install ${WHISPER_PACKAGE}\` (docs/transcription.md "Local transcription").`;
  }
  return null;
}

export class WhisperTranscriber implements Transcriber {
  readonly name = 'whisper' as const;
  private context: Promise<WhisperContext> | null = null;

  /**
   * @param modelPath the ggml model file (WHISPER_MODEL_PATH).
   * @param load imports the binding (default: `import('@fugood/whisper.node')`).
   * @throws Error when `modelPath` is empty.
   */
  constructor(
    private readonly modelPath: string,
    private readonly load: () => Promise<WhisperModule> = importBinding,
  ) {
    if (!modelPath) throw new Error('TRANSCRIPTION=whisper needs WHISPER_MODEL_PATH (a ggml model file).');
  }

  private async whisper(): Promise<WhisperContext> {
    this.context ??= (async () => {
      let mod: WhisperModule;
      try {
        mod = await this.load();
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
          throw new TranscriptionError(
            `WHISPER_MODEL_PATH is set but the whisper.cpp binding is not installed: run \`npm install ${WHISPER_PACKAGE}\` (docs/transcription.md).`,
            false,
          );
        }
        throw e;
      }
      try {
        return await mod.initWhisper({ filePath: this.modelPath, useGpu: false });
      } catch (e) {
        throw new TranscriptionError(`whisper.cpp could not load the model ${this.modelPath}: ${e instanceof Error ? e.message : String(e)}`, false);
      }
    })();
    try {
      return await this.context;
    } catch (e) {
      this.context = null;
      throw e;
    }
  }

  /**
   * Transcribes a PCM WAV, channel by channel. @throws TranscriptionError (not retryable) for audio
   * that is not a 16-bit PCM WAV, a missing binding or a model that does not load; retryable when
   * whisper.cpp fails during a transcription.
   */
  async transcribe(audio: Buffer): Promise<TranscriptionResult> {
    let wav;
    try {
      wav = readWav(audio);
    } catch (e) {
      if (e instanceof InvalidAudioError) throw new TranscriptionError(`whisper.cpp needs a PCM WAV recording: ${e.message}`, false);
      throw e;
    }
    const whisper = await this.whisper();
    const segments: RecognisedSegment[] = [];
    for (let channel = 0; channel < wav.channels; channel++) {
      const pcm = monoSamples(wav, WHISPER_RATE, channel);
      let out;
      try {
        out = await whisper.transcribeData(pcm.buffer as ArrayBuffer, { language: 'en', temperature: 0 }).promise;
      } catch (e) {
        throw new TranscriptionError(`whisper.cpp failed: ${e instanceof Error ? e.message : String(e)}`, true);
      }
      if (out.isAborted) throw new TranscriptionError('whisper.cpp stopped before the end of the recording.', true);
      for (const s of out.segments) {
        const text = s.text.trim();
        // whisper marks non-speech as "[BLANK_AUDIO]", "[Music]"…: not words anyone said.
        if (text && !/^[[(].*[\])]$/.test(text)) segments.push({ channel, transcript: text, start: s.t0 / 1000, end: s.t1 / 1000 });
      }
    }
    segments.sort((a, b) => a.start - b.start || a.channel - b.channel);
    return boundTranscription({ provider: 'whisper', language: 'en', audioS: Math.round(wav.durationS * 100) / 100, channels: wav.channels, segments }).result;
  }
}
