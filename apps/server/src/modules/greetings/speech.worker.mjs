/**
 * Speech synthesis worker (a piscina thread; see speech.ts): meSpeak is synchronous and CPU-bound,
 * so it runs here, off the server's event loop. Plain JavaScript so it loads the same under tsx
 * and under node. One engine per thread; voice data is loaded on first use of each voice.
 *
 * Task: `{ text: string, voice: string, file: string }` (file = the voice's JSON under
 * mespeak/voices). Result: the WAV bytes (RIFF/WAVE, 16-bit PCM mono, 22 050 Hz), transferred.
 * Throws when the synthesizer produced nothing.
 */
import { createRequire } from 'node:module';
import { move } from 'piscina';

const require = createRequire(import.meta.url);
let engine = null;

function load() {
  if (engine) return engine;
  const warn = console.warn;
  console.warn = () => {}; // "meSpeak: Not in browser Only able to do raw" while the engine loads
  try {
    engine = require('mespeak');
  } finally {
    console.warn = warn;
  }
  engine.loadConfig(require('mespeak/src/mespeak_config.json'));
  engine.loadVoice(require('mespeak/voices/en/en-us.json')); // eSpeak starts on the default voice
  return engine;
}

export default function synthesize({ text, voice, file }) {
  const me = load();
  if (!me.isVoiceLoaded(voice)) me.loadVoice(require(`mespeak/voices/${file}`));
  const out = me.speak(text, { rawdata: 'buffer', voice, speed: 160 });
  if (!out || out.length < 44) throw new Error('speech synthesis produced no audio');
  const bytes = new Uint8Array(out);
  return move(bytes);
}
