/**
 * The whisper.cpp adapter with a stand-in of `@fugood/whisper.node` (the binding is optional and not
 * installed here; its API as published: `initWhisper({filePath, useGpu})`, `transcribeData(ArrayBuffer of
 * 16-bit mono 16 kHz PCM)` → {stop, promise} with segment times in ms): what it hands the binding per
 * channel, the mapping to segments, its failures; and the startup checks of TRANSCRIPTION=whisper and
 * TRANSCRIPTION=deepgram in `loadConfig` (a missing key, model file or binding is a configuration
 * error, not a failure at the first call).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createTranscriber } from './index.js';
import { TranscriptionError } from './transcription.port.js';
import { writeWav } from './wav.js';
import { WHISPER_PACKAGE, WhisperTranscriber, whisperBindingInstalled, whisperSetupProblem, type WhisperModule } from './whisper.transcriber.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'whisper-test-'));
const MODEL = path.join(tmp, 'ggml-tiny.en.bin');
fs.writeFileSync(MODEL, 'not really a model');
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

type Call = { samples: Int16Array; options: unknown };

/** A stand-in binding: answers each channel with `perChannel[i]` (times in ms), records what it was given. */
function fakeBinding(perChannel: Array<Array<{ text: string; t0: number; t1: number }>>, opts: { failInit?: boolean; failRun?: boolean } = {}) {
  const inits: unknown[] = [];
  const calls: Call[] = [];
  const mod: WhisperModule = {
    async initWhisper(options) {
      inits.push(options);
      if (opts.failInit) throw new Error('Failed to initialize whisper context');
      return {
        transcribeData(audio, options) {
          calls.push({ samples: new Int16Array(audio.slice(0)), options });
          const segments = perChannel[calls.length - 1] ?? [];
          return {
            stop: async () => undefined,
            promise: opts.failRun
              ? Promise.reject(new Error('Transcription failed'))
              : Promise.resolve({ result: segments.map((s) => s.text).join(''), segments, isAborted: false }),
          };
        },
      };
    },
  };
  return { mod, inits, calls };
}

/** 1.5 s of two-channel 8 kHz audio: a constant level per channel, so resampling is easy to check. */
const wav = writeWav([new Int16Array(12_000).fill(1000), new Int16Array(12_000).fill(-2000)], 8000);

describe('WhisperTranscriber', () => {
  it('loads the model once with filePath, hands each channel as 16 kHz 16-bit PCM, and maps ms times to seconds by channel', async () => {
    const b = fakeBinding([
      [
        { text: ' Hi, I need a quote.', t0: 480, t1: 2200 },
        { text: ' Monday works.', t0: 7500, t1: 8900 },
      ],
      [
        { text: ' [BLANK_AUDIO]', t0: 0, t1: 400 },
        { text: ' It is twelve thousand dollars.', t0: 2600, t1: 5040 },
      ],
    ]);
    const w = new WhisperTranscriber(MODEL, async () => b.mod);
    const result = await w.transcribe(wav);
    expect(b.inits).toEqual([{ filePath: MODEL, useGpu: false }]);
    expect(b.calls).toHaveLength(2);
    for (const [i, level] of [1000, -2000].entries()) {
      expect(b.calls[i]!.samples.length).toBe(24_000); // 1.5 s at 16 kHz
      expect(b.calls[i]!.samples.every((x) => x === level)).toBe(true);
      expect(b.calls[i]!.options).toEqual({ language: 'en', temperature: 0 });
    }
    expect(result).toEqual({
      provider: 'whisper',
      language: 'en',
      audioS: 1.5,
      channels: 2,
      segments: [
        { channel: 0, transcript: 'Hi, I need a quote.', start: 0.48, end: 2.2 },
        { channel: 1, transcript: 'It is twelve thousand dollars.', start: 2.6, end: 5.04 },
        { channel: 0, transcript: 'Monday works.', start: 7.5, end: 8.9 },
      ],
    });

    await w.transcribe(wav);
    expect(b.inits).toHaveLength(1); // the context is kept
  });

  it('a missing binding, a model that does not load and audio that is not a WAV are not retryable; a failed run is', async () => {
    const missing = new WhisperTranscriber(MODEL, async () => {
      throw Object.assign(new Error(`Cannot find package '${WHISPER_PACKAGE}'`), { code: 'ERR_MODULE_NOT_FOUND' });
    });
    const e1 = await missing.transcribe(wav).catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(TranscriptionError);
    expect(e1).toMatchObject({ retryable: false });
    expect((e1 as Error).message).toContain(`npm install ${WHISPER_PACKAGE}`);

    const badModel = new WhisperTranscriber(MODEL, async () => fakeBinding([], { failInit: true }).mod);
    expect(await badModel.transcribe(wav).catch((e: unknown) => e)).toMatchObject({
      retryable: false,
      message: `whisper.cpp could not load the model ${MODEL}: Failed to initialize whisper context`,
    });

    const ok = new WhisperTranscriber(MODEL, async () => fakeBinding([]).mod);
    expect(await ok.transcribe(Buffer.from('ID3 mp3 bytes')).catch((e: unknown) => e)).toMatchObject({ retryable: false });

    const failing = new WhisperTranscriber(MODEL, async () => fakeBinding([], { failRun: true }).mod);
    expect(await failing.transcribe(wav).catch((e: unknown) => e)).toMatchObject({ retryable: true, message: 'whisper.cpp failed: Transcription failed' });
  });
});

describe('startup checks of the transcription settings', () => {
  it('whisperSetupProblem: no path, no file, no binding; null when all are there', () => {
    expect(whisperSetupProblem('')).toMatch(/needs WHISPER_MODEL_PATH/);
    expect(whisperSetupProblem(path.join(tmp, 'missing.bin'))).toMatch(/is not a file/);
    expect(whisperSetupProblem(tmp)).toMatch(/is not a file/);
    expect(whisperSetupProblem(MODEL, () => false)).toContain(`npm install ${WHISPER_PACKAGE}`);
    expect(whisperSetupProblem(MODEL, () => true)).toBeNull();
  });

  it('whisperBindingInstalled looks where the adapter imports from', () => {
    const root = path.resolve(import.meta.dirname, '../../../../..');
    expect(whisperBindingInstalled()).toBe(fs.existsSync(path.join(root, 'node_modules', WHISPER_PACKAGE, 'package.json')));
  });

  it('loadConfig refuses TRANSCRIPTION=whisper without a model file or without the binding, and deepgram without a key', () => {
    expect(() => loadConfig({ TRANSCRIPTION: 'whisper' })).toThrow(/^Invalid configuration: TRANSCRIPTION=whisper needs WHISPER_MODEL_PATH/);
    expect(() => loadConfig({ TRANSCRIPTION: 'whisper', WHISPER_MODEL_PATH: path.join(tmp, 'nope.bin') })).toThrow(/WHISPER_MODEL_PATH .* is not a file/);
    if (!whisperBindingInstalled()) {
      expect(() => loadConfig({ TRANSCRIPTION: 'whisper', WHISPER_MODEL_PATH: MODEL })).toThrow(`npm install ${WHISPER_PACKAGE}`);
    }
    expect(() => loadConfig({ TRANSCRIPTION: 'deepgram' })).toThrow('Invalid configuration: TRANSCRIPTION=deepgram needs DEEPGRAM_API_KEY');
    expect(() => loadConfig({ TRANSCRIPTION: 'deepgram', DEEPGRAM_API_KEY: 'k', DEEPGRAM_API_URL: 'api.deepgram.com' })).toThrow(/DEEPGRAM_API_URL/);
  });

  it('reads the Deepgram settings with their defaults, and the factory builds the configured adapter', () => {
    expect(loadConfig({}).transcription).toEqual({
      adapter: 'sandbox',
      deepgramApiKey: '',
      deepgramApiUrl: 'https://api.deepgram.com',
      deepgramTimeoutS: 120,
      whisperModelPath: '',
    });
    const c = loadConfig({ TRANSCRIPTION: 'deepgram', DEEPGRAM_API_KEY: 'k', DEEPGRAM_API_URL: 'https://api.eu.deepgram.com/', DEEPGRAM_TIMEOUT_S: '300' });
    expect(c.transcription).toMatchObject({ adapter: 'deepgram', deepgramApiKey: 'k', deepgramApiUrl: 'https://api.eu.deepgram.com', deepgramTimeoutS: 300 });
    expect(createTranscriber(c).name).toBe('deepgram');
    expect(createTranscriber(loadConfig({})).name).toBe('sandbox');
  });
});
