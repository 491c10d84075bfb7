/**
 * Recordings the sandbox carrier makes of simulated calls (docs/transcription.md "The sandbox
 * loop"): the lines a person typed in the Phone simulator for the caller and the agent are spoken
 * with the product's speech synthesizer (passed in as `speak`: meSpeak through modules/greetings)
 * into the two channels of a 16-bit PCM WAV at 8 kHz, one after the other with a short pause, like
 * Twilio's `record-from-answer-dual`: channel 0 is the leg that reached the carrier first (an
 * inbound call: the caller; a call placed from the browser: the agent), channel 1 the dialed party.
 * A line may carry the time it was said (`at`), so a real-time conversation keeps its times.
 * The script with each line's channel and times goes into the WAV's `sbtx` chunk, which the
 * sandbox transcriber reads back from the file alone.
 */
import { SANDBOX_SCRIPT_CHUNK, monoSamples, readWav, writeWav, type ScriptedSegment } from '../../platform/transcription/index.js';

/**
 * A line of the simulated conversation: `caller` is the outside party, `agent` the business's
 * side; `at` (s from the start of the recording) when it was said, else right after the last line.
 */
export type ScriptLine = { speaker: 'caller' | 'agent'; text: string; at?: number };
/** Speech synthesis: text → a mono 16-bit PCM WAV. */
export type Speak = (text: string) => Promise<Buffer>;

/** Sample rate of sandbox recordings (telephone quality). */
export const RECORDING_RATE = 8000;
/** Silence between two lines (s). */
const GAP_S = 0.4;

/**
 * Speaks `script` into a two-channel WAV (channel 0 the caller, 1 the agent; `agentFirst`: the
 * agent on channel 0, as a call placed from the browser records); each line starts at its `at`
 * (never over the line before it). The audio lasts at least `minSeconds` (silence after the last
 * line). Without a `speak` function or lines, the recording is silence of `minSeconds` with an empty script.
 * @returns the WAV, its length in whole seconds (rounded up) and the script with times.
 */
export async function recordConversation(
  script: ScriptLine[],
  minSeconds: number,
  speak?: Speak,
  options: { agentFirst?: boolean } = {},
): Promise<{ wav: Buffer; durationS: number; segments: ScriptedSegment[] }> {
  const channels: number[][] = [[], []];
  const segments: ScriptedSegment[] = [];
  let t = 0; // samples
  for (const line of script) {
    if (!speak) break;
    const voice = monoSamples(readWav(await speak(line.text)), RECORDING_RATE);
    const channel = (line.speaker === 'caller') !== Boolean(options.agentFirst) ? 0 : 1;
    if (line.at !== undefined) t = Math.max(t, Math.round(line.at * RECORDING_RATE));
    const target = channels[channel]!;
    while (target.length < t) target.push(0);
    for (const s of voice) target.push(s);
    segments.push({ channel, text: line.text, start: round2(t / RECORDING_RATE), end: round2((t + voice.length) / RECORDING_RATE) });
    t += voice.length + Math.round(GAP_S * RECORDING_RATE);
  }
  const total = Math.max(t, Math.round(minSeconds * RECORDING_RATE), 1);
  const pcm = channels.map((c) => {
    const out = new Int16Array(total);
    out.set(c.slice(0, total));
    return out;
  });
  const wav = writeWav(pcm, RECORDING_RATE, [{ id: SANDBOX_SCRIPT_CHUNK, body: Buffer.from(JSON.stringify({ version: 1, segments }), 'utf8') }]);
  return { wav, durationS: Math.ceil(total / RECORDING_RATE), segments };
}

/** A voicemail of the caller's lines (mono, channel 0), with its script, at least `minSeconds` long. */
export async function recordVoicemail(lines: string[], minSeconds: number, speak?: Speak): Promise<{ wav: Buffer; durationS: number }> {
  const two = await recordConversation(
    lines.map((text) => ({ speaker: 'caller' as const, text })),
    minSeconds,
    speak,
  );
  const info = readWav(two.wav);
  const mono = monoSamples(info, RECORDING_RATE, 0);
  const script = info.chunks.get(SANDBOX_SCRIPT_CHUNK)!;
  return { wav: writeWav([mono], RECORDING_RATE, [{ id: SANDBOX_SCRIPT_CHUNK, body: script }]), durationS: two.durationS };
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
