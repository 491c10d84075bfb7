/**
 * Text to speech with meSpeak (eSpeak compiled to JavaScript, npm `mespeak`, GPL): runs in Node
 * without network, returns a RIFF/WAVE file (16-bit PCM mono, 22 050 Hz) a browser can play and
 * Twilio's `<Play>` accepts. Voice data is loaded on first use of each voice.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

type MeSpeak = {
  loadConfig(data: unknown): void;
  loadVoice(data: unknown): void;
  isVoiceLoaded(id: string): boolean;
  speak(text: string, options: Record<string, unknown>): ArrayLike<number> | null;
};

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

let engine: MeSpeak | null = null;

function load(): MeSpeak {
  if (engine) return engine;
  const warn = console.warn;
  console.warn = () => {}; // "meSpeak: Not in browser Only able to do raw" while the engine loads
  try {
    engine = require('mespeak') as MeSpeak;
  } finally {
    console.warn = warn;
  }
  engine.loadConfig(require('mespeak/src/mespeak_config.json'));
  engine.loadVoice(require('mespeak/voices/en/en-us.json')); // eSpeak starts on the default voice
  return engine;
}

/** Whether `id` is one of {@link VOICES}. */
export function isKnownVoice(id: string | undefined | null): boolean {
  return VOICES.some((v) => v.id === id);
}

/**
 * Synthesizes `text` with `voice` (default {@link DEFAULT_VOICE}).
 * @returns a WAV file (RIFF/WAVE, PCM)
 * @throws Error when the synthesizer produced nothing
 */
export function synthesize(text: string, voice: string = DEFAULT_VOICE): Buffer {
  const me = load();
  const v = VOICES.find((x) => x.id === voice) ?? VOICES.find((x) => x.id === DEFAULT_VOICE)!;
  if (!me.isVoiceLoaded(v.id)) me.loadVoice(require(`mespeak/voices/${v.file}`));
  const out = me.speak(text, { rawdata: 'buffer', voice: v.id, speed: 160 });
  if (!out || out.length < 44) throw new Error('speech synthesis produced no audio');
  return Buffer.from(out as Uint8Array);
}
