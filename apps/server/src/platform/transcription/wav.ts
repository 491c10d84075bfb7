/**
 * RIFF/WAVE reading and writing for recordings (docs/transcription.md "Audio"): the format chunk
 * (channels, sample rate, bits), the PCM data, and custom chunks. The sandbox carrier writes its
 * script of a simulated call into a `sbtx` chunk (JSON) of the two-channel WAV it produced; the
 * sandbox transcriber reads it back from the file alone, the way a provider reads audio.
 */

/** The custom chunk id the sandbox carrier stores its script in. */
export const SANDBOX_SCRIPT_CHUNK = 'sbtx';

/** A line the sandbox carrier spoke: its channel (0 caller, 1 agent), words and times (s). */
export type ScriptedSegment = { channel: number; text: string; start: number; end: number };

export type WavInfo = {
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  /** Length of the audio in seconds. */
  durationS: number;
  /** The PCM bytes (interleaved by channel). */
  data: Buffer;
  /** Other chunks by id (e.g. `sbtx`). */
  chunks: Map<string, Buffer>;
};

/** Thrown when the bytes are not a PCM RIFF/WAVE file. */
export class InvalidAudioError extends Error {}

/** Parses a RIFF/WAVE file. @throws InvalidAudioError when it is not one (or not PCM). */
export function readWav(buf: Buffer): WavInfo {
  if (buf.length < 12 || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') {
    throw new InvalidAudioError('The recording is not a WAV (RIFF/WAVE) file.');
  }
  const chunks = new Map<string, Buffer>();
  let fmt: Buffer | undefined;
  let data: Buffer | undefined;
  let at = 12;
  while (at + 8 <= buf.length) {
    const id = buf.toString('ascii', at, at + 4);
    // mespeak (and some tools) write 0 or an oversized length for the data chunk: clamp to the file.
    const size = Math.min(buf.readUInt32LE(at + 4), buf.length - at - 8);
    const body = buf.subarray(at + 8, at + 8 + size);
    if (id === 'fmt ') fmt = body;
    else if (id === 'data') data = body;
    else chunks.set(id, body);
    at += 8 + size + (size % 2);
  }
  if (!fmt || fmt.length < 16 || !data) throw new InvalidAudioError('The WAV file has no format or data chunk.');
  const format = fmt.readUInt16LE(0);
  const channels = fmt.readUInt16LE(2);
  const sampleRate = fmt.readUInt32LE(4);
  const bitsPerSample = fmt.readUInt16LE(14);
  if (format !== 1 || bitsPerSample !== 16 || channels < 1 || sampleRate < 1) throw new InvalidAudioError('The WAV file is not 16-bit PCM.');
  return { channels, sampleRate, bitsPerSample, durationS: data.length / (channels * 2 * sampleRate), data, chunks };
}

/** Mono 16-bit samples of a WAV (its first channel), resampled to `rate` Hz (box filter). */
export function monoSamples(wav: WavInfo, rate: number, channel = 0): Int16Array {
  const frames = Math.floor(wav.data.length / (wav.channels * 2));
  const outLen = Math.floor((frames * rate) / wav.sampleRate);
  const out = new Int16Array(outLen);
  const step = wav.sampleRate / rate;
  for (let i = 0; i < outLen; i++) {
    const a = Math.floor(i * step);
    const b = Math.max(a + 1, Math.floor((i + 1) * step));
    let sum = 0;
    for (let j = a; j < b && j < frames; j++) sum += wav.data.readInt16LE((j * wav.channels + channel) * 2);
    out[i] = Math.round(sum / (b - a));
  }
  return out;
}

/**
 * Builds a 16-bit PCM WAV from per-channel samples (all at `sampleRate`; shorter channels are
 * padded with silence) and optional extra chunks written after the data.
 */
export function writeWav(channels: Int16Array[], sampleRate: number, extra: Array<{ id: string; body: Buffer }> = []): Buffer {
  const frames = Math.max(1, ...channels.map((c) => c.length));
  const n = channels.length;
  const data = Buffer.alloc(frames * n * 2);
  for (let i = 0; i < frames; i++) for (let c = 0; c < n; c++) data.writeInt16LE(channels[c]![i] ?? 0, (i * n + c) * 2);
  const fmt = Buffer.alloc(16);
  fmt.writeUInt16LE(1, 0);
  fmt.writeUInt16LE(n, 2);
  fmt.writeUInt32LE(sampleRate, 4);
  fmt.writeUInt32LE(sampleRate * n * 2, 8);
  fmt.writeUInt16LE(n * 2, 12);
  fmt.writeUInt16LE(16, 14);
  const chunk = (id: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.write(id, 0, 'ascii');
    head.writeUInt32LE(body.length, 4);
    return Buffer.concat([head, body, body.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
  };
  const body = Buffer.concat([Buffer.from('WAVE', 'ascii'), chunk('fmt ', fmt), chunk('data', data), ...extra.map((e) => chunk(e.id, e.body))]);
  const head = Buffer.alloc(8);
  head.write('RIFF', 0, 'ascii');
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body]);
}
