/**
 * The Deepgram adapter (hosted speech to text through the official `@deepgram/sdk`, pre-recorded
 * audio): `listen.v1.media.transcribeFile` with `multichannel` (one transcript per channel: the
 * caller's and the agent's), `utterances` (segments with start/end) and `smart_format`. Network
 * errors, 429 and 5xx are retryable; other 4xx are not (bad key, bad audio).
 */
import { DeepgramClient, DeepgramError } from '@deepgram/sdk';
import { TranscriptionError, type RecognisedSegment, type Transcriber, type TranscriptionResult } from './transcription.port.js';

type Utterance = { start?: number; end?: number; channel?: number; transcript?: string };
type DgResponse = {
  metadata?: { duration?: number; channels?: number };
  results?: { channels?: Array<{ detected_language?: string; alternatives?: Array<{ transcript?: string }> }>; utterances?: Utterance[] };
};

export class DeepgramTranscriber implements Transcriber {
  readonly name = 'deepgram' as const;
  private readonly client: DeepgramClient;

  constructor(apiKey: string, options: { baseUrl?: string } = {}) {
    if (!apiKey) throw new Error('TRANSCRIPTION=deepgram needs DEEPGRAM_API_KEY.');
    this.client = new DeepgramClient({ apiKey, ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}) } as ConstructorParameters<typeof DeepgramClient>[0]);
  }

  async transcribe(audio: Buffer): Promise<TranscriptionResult> {
    let res: DgResponse;
    try {
      res = (await this.client.listen.v1.media.transcribeFile(audio, {
        model: 'nova-3',
        multichannel: true,
        utterances: true,
        smart_format: true,
        detect_language: true,
      } as never)) as unknown as DgResponse;
    } catch (e) {
      if (e instanceof DeepgramError) {
        const status = e.statusCode ?? 0;
        throw new TranscriptionError(`Deepgram answered ${status || 'an error'}: ${e.message}`, status === 0 || status === 429 || status >= 500);
      }
      if (e instanceof Error) throw new TranscriptionError(`Deepgram could not be reached: ${e.message}`, true);
      throw e;
    }
    const segments: RecognisedSegment[] = (res.results?.utterances ?? [])
      .filter((u) => (u.transcript ?? '').trim())
      .map((u) => ({ channel: u.channel ?? 0, transcript: u.transcript!.trim(), start: u.start ?? 0, end: u.end ?? u.start ?? 0 }))
      .sort((a, b) => a.start - b.start);
    return {
      provider: 'deepgram',
      language: res.results?.channels?.[0]?.detected_language ?? 'en',
      audioS: res.metadata?.duration ?? 0,
      channels: res.metadata?.channels ?? res.results?.channels?.length ?? 1,
      segments,
    };
  }
}
