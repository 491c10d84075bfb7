/**
 * The whisper.cpp adapter (local speech to text through the maintained binding
 * `@fugood/whisper.node`), used when WHISPER_MODEL_PATH names a ggml model file. The binding is NOT
 * a dependency of the product (its prebuilt GPU variants weigh about 250 MB): enable it with
 * `npm install @fugood/whisper.node` (docs/transcription.md "Local transcription"). It is loaded
 * with a dynamic import on first use; when it is missing the adapter fails with a clear message.
 *
 * Each channel of the recording (caller, agent) is resampled to 16 kHz mono float PCM and
 * transcribed on its own, so every segment keeps its channel; whisper's segment times (t0/t1, in
 * 10 ms units as whisper.cpp reports them) become seconds.
 */
import { TranscriptionError, type RecognisedSegment, type Transcriber, type TranscriptionResult } from './transcription.port.js';
import { InvalidAudioError, monoSamples, readWav } from './wav.js';

/** The few calls of `@fugood/whisper.node` used here (typed locally: the package is optional). */
type WhisperSegment = { text: string; t0: number; t1: number };
type WhisperContext = {
  transcribeData(
    audio: ArrayBuffer,
    options: { language?: string; temperature?: number },
  ): { stop: () => void; promise: Promise<{ result?: string; segments: WhisperSegment[] }> };
  release?(): Promise<void>;
};
type WhisperModule = { initWhisper(options: { model: string; useGpu?: boolean }): Promise<WhisperContext> };

const WHISPER_PACKAGE = '@fugood/whisper.node';
const WHISPER_RATE = 16_000;

export class WhisperTranscriber implements Transcriber {
  readonly name = 'whisper' as const;
  private context: Promise<WhisperContext> | null = null;

  constructor(private readonly modelPath: string) {
    if (!modelPath) throw new Error('TRANSCRIPTION=whisper needs WHISPER_MODEL_PATH (a ggml model file).');
  }

  private async load(): Promise<WhisperContext> {
    this.context ??= (async () => {
      let mod: WhisperModule;
      try {
        mod = (await import(/* @vite-ignore */ WHISPER_PACKAGE as string)) as WhisperModule;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') {
          throw new TranscriptionError(
            `WHISPER_MODEL_PATH is set but the whisper.cpp binding is not installed: run \`npm install ${WHISPER_PACKAGE}\` (docs/transcription.md).`,
            false,
          );
        }
        throw e;
      }
      return mod.initWhisper({ model: this.modelPath, useGpu: false });
    })();
    try {
      return await this.context;
    } catch (e) {
      this.context = null;
      throw e;
    }
  }

  async transcribe(audio: Buffer): Promise<TranscriptionResult> {
    let wav;
    try {
      wav = readWav(audio);
    } catch (e) {
      if (e instanceof InvalidAudioError) throw new TranscriptionError(`whisper.cpp needs a PCM WAV recording: ${e.message}`, false);
      throw e;
    }
    const whisper = await this.load();
    const segments: RecognisedSegment[] = [];
    for (let channel = 0; channel < wav.channels; channel++) {
      const pcm = monoSamples(wav, WHISPER_RATE, channel);
      const floats = new Float32Array(pcm.length);
      for (let i = 0; i < pcm.length; i++) floats[i] = pcm[i]! / 32768;
      const { promise } = whisper.transcribeData(floats.buffer, { language: 'en', temperature: 0 });
      const out = await promise;
      for (const s of out.segments) {
        const text = s.text.trim();
        if (text && !/^\[.*\]$/.test(text)) segments.push({ channel, transcript: text, start: s.t0 / 100, end: s.t1 / 100 });
      }
    }
    segments.sort((a, b) => a.start - b.start || a.channel - b.channel);
    return { provider: 'whisper', language: 'en', audioS: Math.round(wav.durationS * 100) / 100, channels: wav.channels, segments };
  }
}
