/**
 * The sandbox transcriber: reads the WAV it is given (nothing else) and returns the lines the
 * sandbox carrier spoke into it, stored in the file's `sbtx` chunk, as segments with their
 * channels and times, the way a provider would. A WAV without a script (e.g. a tone) has no
 * speech: no segments. Bytes that are not a WAV fail (not retryable), as a provider answers 400.
 */
import { InvalidAudioError, SANDBOX_SCRIPT_CHUNK, readWav, type ScriptedSegment } from './wav.js';
import { TranscriptionError, boundTranscription, type Transcriber, type TranscriptionResult } from './transcription.port.js';

export class SandboxTranscriber implements Transcriber {
  readonly name = 'sandbox' as const;

  async transcribe(audio: Buffer): Promise<TranscriptionResult> {
    let wav;
    try {
      wav = readWav(audio);
    } catch (e) {
      if (e instanceof InvalidAudioError) throw new TranscriptionError(`The sandbox transcriber could not read the audio: ${e.message}`, false);
      throw e;
    }
    const script = wav.chunks.get(SANDBOX_SCRIPT_CHUNK);
    const lines: ScriptedSegment[] = script ? (JSON.parse(script.toString('utf8')) as { segments: ScriptedSegment[] }).segments : [];
    return boundTranscription({
      provider: 'sandbox',
      language: 'en',
      audioS: Math.round(wav.durationS * 100) / 100,
      channels: wav.channels,
      segments: lines
        .filter((l) => l.channel < wav.channels && l.text.trim())
        .sort((a, b) => a.start - b.start)
        .map((l) => ({ channel: l.channel, transcript: l.text.trim(), start: l.start, end: l.end })),
    }).result;
  }
}
