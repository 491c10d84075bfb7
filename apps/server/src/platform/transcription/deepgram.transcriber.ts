/**
 * The Deepgram adapter (hosted speech to text through the official `@deepgram/sdk`, pre-recorded
 * audio, `POST {DEEPGRAM_API_URL}/v1/listen` with `Authorization: Token <key>`):
 * `listen.v1.media.transcribeFile` with `multichannel` (one transcript per channel: the caller's and
 * the agent's), `utterances` (segments with start/end in seconds and their `channel`),
 * `smart_format` and `detect_language`, model nova-3.
 *
 * Errors (docs/transcription.md "The transcription port"): a timeout (DEEPGRAM_TIMEOUT_S), a network
 * failure, 408, 429 and 5xx are retryable `TranscriptionError`s; other 4xx (bad key, bad audio) are
 * not. The SDK's own retries are off: the transcription job is the one place that retries.
 */
import { DeepgramClient, DeepgramError, DeepgramTimeoutError } from '@deepgram/sdk';
import { TranscriptionError, boundTranscription, type RecognisedSegment, type Transcriber, type TranscriptionResult } from './transcription.port.js';

/** The fields of Deepgram's pre-recorded response read here (ListenV1Response). */
type Utterance = { start?: number; end?: number; channel?: number; transcript?: string };
type DgResponse = {
  metadata?: { duration?: number; channels?: number };
  results?: { channels?: Array<{ detected_language?: string; alternatives?: Array<{ transcript?: string }> }>; utterances?: Utterance[] };
};

export type DeepgramSettings = {
  apiKey: string;
  /** API origin without a trailing slash (DEEPGRAM_API_URL, default https://api.deepgram.com). */
  baseUrl?: string;
  /** Longest wait for one transcription, seconds (DEEPGRAM_TIMEOUT_S, default 120). */
  timeoutS?: number;
};

/** The words of a Deepgram error body ({err_code, err_msg} or {category, message}), else ''. */
function providerMessage(body: unknown): string {
  if (!body || typeof body !== 'object') return typeof body === 'string' ? body.slice(0, 200) : '';
  const b = body as Record<string, unknown>;
  const msg = b.err_msg ?? b.message ?? b.details;
  return typeof msg === 'string' ? msg : '';
}

export class DeepgramTranscriber implements Transcriber {
  readonly name = 'deepgram' as const;
  private readonly client: DeepgramClient;

  /** @throws Error when `apiKey` is empty (loadConfig reports it first). */
  constructor(settings: DeepgramSettings) {
    if (!settings.apiKey) throw new Error('TRANSCRIPTION=deepgram needs DEEPGRAM_API_KEY.');
    this.client = new DeepgramClient({
      apiKey: settings.apiKey,
      ...(settings.baseUrl ? { baseUrl: settings.baseUrl } : {}),
      timeoutInSeconds: settings.timeoutS ?? 120,
      maxRetries: 0,
    });
  }

  /**
   * Sends the recording (bytes as they are; `contentType` e.g. audio/wav) and maps the utterances to
   * segments in time order. @throws TranscriptionError (see the module doc).
   */
  async transcribe(audio: Buffer, contentType = 'audio/wav'): Promise<TranscriptionResult> {
    let res: DgResponse;
    try {
      res = (await this.client.listen.v1.media.transcribeFile(
        audio,
        { model: 'nova-3', multichannel: true, utterances: true, smart_format: true, detect_language: true },
        { headers: { 'Content-Type': contentType } },
      )) as DgResponse;
    } catch (e) {
      if (e instanceof DeepgramTimeoutError) throw new TranscriptionError('Deepgram did not answer in time (DEEPGRAM_TIMEOUT_S).', true);
      if (e instanceof DeepgramError) {
        const status = e.statusCode ?? 0;
        // SDK 5.x reports its own timeout as a DeepgramError without a status whose cause is "timeout".
        if (status === 0 && (e.cause === 'timeout' || /^"?timeout"?$/i.test(e.message))) {
          throw new TranscriptionError('Deepgram did not answer in time (DEEPGRAM_TIMEOUT_S).', true);
        }
        if (status === 0) throw new TranscriptionError(`Deepgram could not be reached: ${e.message}`, true);
        const detail = providerMessage(e.body);
        throw new TranscriptionError(`Deepgram answered ${status}${detail ? `: ${detail}` : ''}`, status === 408 || status === 429 || status >= 500);
      }
      if (e instanceof Error) throw new TranscriptionError(`Deepgram could not be reached: ${e.message}`, true);
      throw e;
    }
    const segments: RecognisedSegment[] = (res.results?.utterances ?? [])
      .filter((u) => (u.transcript ?? '').trim())
      .map((u) => ({ channel: u.channel ?? 0, transcript: u.transcript!.trim(), start: u.start ?? 0, end: u.end ?? u.start ?? 0 }))
      .sort((a, b) => a.start - b.start || a.channel - b.channel);
    // The answer is outside input: at most TRANSCRIPT_LIMITS reaches the product.
    return boundTranscription({
      provider: 'deepgram',
      language: res.results?.channels?.find((c) => c.detected_language)?.detected_language ?? 'en',
      audioS: res.metadata?.duration ?? 0,
      channels: res.metadata?.channels ?? res.results?.channels?.length ?? 1,
      segments,
    }).result;
  }
}
