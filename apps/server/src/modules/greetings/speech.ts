/**
 * Text to speech with meSpeak (eSpeak compiled to JavaScript, npm `mespeak`, GPL): runs in Node
 * without network, returns a RIFF/WAVE file (16-bit PCM mono, 22 050 Hz) a browser can play and
 * Twilio's `<Play>` accepts. meSpeak is synchronous and CPU-bound (about half a second per 1,000
 * characters), so it runs in a small pool of worker threads (piscina; `speech.worker.mjs`) and
 * the event loop keeps answering health checks, webhooks and API calls meanwhile. The pool is
 * bounded: {@link SPEECH_THREADS} threads (started on demand, stopped when idle) and
 * {@link SPEECH_QUEUE} waiting syntheses; beyond that a synthesis is refused with 503.
 * Text length is bounded by the contracts (`GREETING_TEXT_MAX`); docs/domain-decisions.md "Speech synthesis".
 */
import os from 'node:os';
import { Piscina } from 'piscina';
import { ServiceUnavailableError } from '../../platform/http/errors.js';

/** Voices offered by `GET /api/greetings/voices` (id = meSpeak voice id). */
export const VOICES: ReadonlyArray<{ id: string; name: string; language: string; file: string }> = [
  { id: 'en/en-us', name: 'English (US)', language: 'en-US', file: 'en/en-us.json' },
  { id: 'en/en', name: 'English (UK)', language: 'en-GB', file: 'en/en.json' },
  { id: 'en/en-rp', name: 'English (Received Pronunciation)', language: 'en-GB', file: 'en/en-rp.json' },
  { id: 'en/en-sc', name: 'English (Scottish)', language: 'en-GB', file: 'en/en-sc.json' },
  { id: 'en/en-n', name: 'English (Northern)', language: 'en-GB', file: 'en/en-n.json' },
  { id: 'en/en-wm', name: 'English (West Midlands)', language: 'en-GB', file: 'en/en-wm.json' },
  { id: 'es', name: 'Spanish', language: 'es-ES', file: 'es.json' },
  { id: 'es-la', name: 'Spanish (Latin America)', language: 'es-419', file: 'es-la.json' },
  { id: 'fr', name: 'French', language: 'fr-FR', file: 'fr.json' },
  { id: 'de', name: 'German', language: 'de-DE', file: 'de.json' },
  { id: 'it', name: 'Italian', language: 'it-IT', file: 'it.json' },
  { id: 'pt', name: 'Portuguese (Brazil)', language: 'pt-BR', file: 'pt.json' },
  { id: 'nl', name: 'Dutch', language: 'nl-NL', file: 'nl.json' },
];

/** The voice used when none (or an unknown one) is given. */
export const DEFAULT_VOICE = 'en/en-us';

/** Worker threads for synthesis: one core left to the server, at most two. */
export const SPEECH_THREADS = Math.max(1, Math.min(2, os.availableParallelism() - 1));
/** Syntheses that may wait for a thread before new ones are refused (503). */
export const SPEECH_QUEUE = 16;

let pool: Piscina | null = null;

function speechPool(): Piscina {
  pool ??= new Piscina({
    filename: new URL('./speech.worker.mjs', import.meta.url).href,
    minThreads: 0,
    maxThreads: SPEECH_THREADS,
    maxQueue: SPEECH_QUEUE,
    idleTimeout: 30_000,
  });
  return pool;
}

/** Whether `id` is one of {@link VOICES}. */
export function isKnownVoice(id: string | undefined | null): boolean {
  return VOICES.some((v) => v.id === id);
}

/**
 * Synthesizes `text` with `voice` (default {@link DEFAULT_VOICE}) on a worker thread.
 * @returns a WAV file (RIFF/WAVE, PCM)
 * @throws ServiceUnavailableError (503, Retry-After) when {@link SPEECH_QUEUE} syntheses already wait
 * @throws Error when the synthesizer produced nothing
 */
export async function synthesize(text: string, voice: string = DEFAULT_VOICE): Promise<Buffer> {
  const v = VOICES.find((x) => x.id === voice) ?? VOICES.find((x) => x.id === DEFAULT_VOICE)!;
  let out: Uint8Array;
  try {
    out = await speechPool().run({ text, voice: v.id, file: v.file });
  } catch (e) {
    if (e instanceof Error && /queue is at limit/i.test(e.message))
      throw new ServiceUnavailableError(2, 'Speech synthesis is busy. Please try again in a moment.');
    throw e;
  }
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}
