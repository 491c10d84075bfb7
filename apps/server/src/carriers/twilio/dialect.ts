/**
 * The parts of the carrier port that are Twilio's webhook dialect: the webhook paths we serve,
 * parsing Twilio's form posts (`MessageSid`, `CallSid`, `DialCallStatus`, ...) into carrier-neutral
 * events (carrier.events.ts), Twilio's message status words, TwiML rendering, `X-Twilio-Signature`
 * checks with the account's auth token, and media downloads through the fetch guard. The Twilio
 * adapter and the sandbox (which speaks the same dialect) both extend this, so the dialect lives
 * in one place.
 */
import { boundText, clip } from '@switchboard/domain';
import type { Config } from '../../platform/config.js';
import { safeFetch } from '../../platform/http/safe-fetch.js';
import {
  CALL_STATUS_WORDS,
  CARRIER_TEXT_LIMITS as L,
  InboundMessageEvent,
  MessageStatusEvent,
  VoiceEvent,
  seconds,
  type CallStatusWord,
  type DeliveryState,
} from '../carrier.events.js';
import type { CallFlowStep, RenderedResponse, WebhookKind } from '../carrier.port.js';
import { validateSignature } from './signature.js';
import { renderMessagingTwiml, renderVoiceTwiml } from './twiml.js';

/** Where each webhook is served (the URLs numbers, messages and calls are configured with). */
export const TWILIO_WEBHOOK_PATHS: Record<WebhookKind, string> = {
  voice: '/webhooks/twilio/voice',
  'voice.gather': '/webhooks/twilio/voice/gather',
  'voice.dial': '/webhooks/twilio/voice/dial',
  'voice.whisper': '/webhooks/twilio/voice/whisper',
  'voice.confirm': '/webhooks/twilio/voice/confirm',
  'voice.recording': '/webhooks/twilio/voice/recording',
  'voice.recorded': '/webhooks/twilio/voice/recorded',
  'voice.status': '/webhooks/twilio/voice/status',
  'voice.client': '/webhooks/twilio/voice/client',
  'voice.client.dial': '/webhooks/twilio/voice/client/dial',
  'voice.client.hold': '/webhooks/twilio/voice/client/hold',
  messaging: '/webhooks/twilio/messaging',
  'messaging.status': '/webhooks/twilio/messaging/status',
  'campaigns.status': '/webhooks/twilio/campaigns/status',
};

/** Most attachments one MMS carries (Twilio: 10). */
const MAX_MEDIA = 10;
/** Deadline of one media download (ms). */
const MEDIA_TIMEOUT_MS = 30_000;

const nonEmpty = (v: string | undefined, max: number = L.word): string | undefined => (v === undefined || v === '' ? undefined : clip(v, max));

function intOrNull(v: string | undefined): number | null {
  if (v === undefined || v === '') return null;
  const n = Number.parseInt(v, 10);
  return Number.isFinite(n) ? n : null;
}

/** Twilio's message status word → our delivery state (Twilio's 'sending' is still in flight: our 'sending'). */
export function twilioMessageState(word: string): DeliveryState | null {
  switch (word.toLowerCase()) {
    case 'accepted':
    case 'scheduled':
    case 'queued':
      return 'queued';
    case 'sending':
      return 'sending';
    case 'sent':
      return 'sent';
    case 'delivered':
    case 'read':
      return 'delivered';
    case 'undelivered':
      return 'undelivered';
    case 'failed':
    case 'canceled':
      return 'failed';
    default:
      return null;
  }
}

export abstract class TwilioDialect {
  /** Twilio signs every webhook in this header. */
  readonly signatureHeader = 'x-twilio-signature';

  constructor(protected readonly config: Config) {}

  webhookPath(kind: WebhookKind): string {
    return TWILIO_WEBHOOK_PATHS[kind];
  }

  /** PUBLIC_URL + the kind's path + `query` (undefined values left out, values URI-encoded). */
  webhookUrl(kind: WebhookKind, query?: Record<string, string | number | undefined>): string {
    const q = Object.entries(query ?? {})
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
      .join('&');
    return `${this.config.publicUrl}${TWILIO_WEBHOOK_PATHS[kind]}${q ? `?${q}` : ''}`;
  }

  /**
   * Fields: MessageSid, From, To, Body, NumMedia, MediaUrl{i}, MediaContentType{i}. Texts are cut to
   * CARRIER_TEXT_LIMITS (the body to Twilio's 1,600 characters, `bodyTruncated`/`bodyLength` say
   * what came); a MessageSid longer than any carrier id is no message (null, like a missing one);
   * a media URL longer than a URL may be is left out.
   */
  parseInboundMessage(form: Record<string, string>): InboundMessageEvent | null {
    if (!form.MessageSid || form.MessageSid.length > L.sid) return null;
    const numMedia = Math.max(0, Math.min(intOrNull(form.NumMedia) ?? 0, MAX_MEDIA));
    const media: InboundMessageEvent['media'] = [];
    for (let i = 0; i < numMedia; i++) {
      const url = form[`MediaUrl${i}`];
      if (url && url.length <= L.url) media.push({ url, contentType: clip(form[`MediaContentType${i}`], L.contentType) || 'application/octet-stream' });
    }
    const body = boundText(form.Body ?? '', L.messageBody);
    return InboundMessageEvent.parse({
      sid: form.MessageSid,
      from: clip(form.From ?? '', L.party),
      to: clip(form.To ?? '', L.party),
      body: body.text,
      bodyTruncated: body.truncated,
      bodyLength: body.originalLength,
      media,
    });
  }

  /** Fields: MessageSid (or the older SmsSid), MessageStatus (or SmsStatus), ErrorCode. */
  parseMessageStatus(form: Record<string, string>): MessageStatusEvent | null {
    const sid = form.MessageSid ?? form.SmsSid;
    if (!sid || sid.length > L.sid) return null;
    const status = clip(form.MessageStatus ?? form.SmsStatus ?? '', L.word);
    return MessageStatusEvent.parse({ sid, status, state: twilioMessageState(status), errorCode: intOrNull(form.ErrorCode) });
  }

  /**
   * Fields: CallSid, ParentCallSid, From, To, FromState, FromCity, Digits, CallStatus, CallDuration,
   * DialCallStatus, DialCallDuration, RecordingUrl, RecordingSid, RecordingDuration; a browser
   * call's token params arrive as extra lower-case fields (Twilio's own fields are PascalCase).
   * Texts are cut to CARRIER_TEXT_LIMITS; at most 32 client params (names up to 64 characters).
   */
  parseVoice(form: Record<string, string>): VoiceEvent {
    const clientParams: Record<string, string> = {};
    let params = 0;
    for (const [k, v] of Object.entries(form)) {
      if (!/^[a-z]/.test(k) || k.length > L.word) continue;
      if (++params > L.clientParams) break;
      clientParams[k] = clip(v, L.clientParam);
    }
    const status = form.CallStatus;
    const from = clip(form.From, L.party);
    return VoiceEvent.parse({
      callSid: nonEmpty(form.CallSid, L.sid),
      parentCallSid: nonEmpty(form.ParentCallSid, L.sid),
      from,
      to: clip(form.To, L.party),
      // A browser softphone's leg comes `From` `client:{identity}`.
      fromClient: nonEmpty(/^client:(.+)$/.exec(from ?? '')?.[1], L.party),
      fromState: nonEmpty(form.FromState, L.place),
      fromCity: nonEmpty(form.FromCity, L.place),
      digits: clip(form.Digits, L.digits),
      callStatus: status && (CALL_STATUS_WORDS as readonly string[]).includes(status) ? (status as CallStatusWord) : undefined,
      callDurationS: seconds(form.CallDuration),
      dialStatus: nonEmpty(form.DialCallStatus),
      dialDurationS: seconds(form.DialCallDuration),
      recordingUrl: nonEmpty(form.RecordingUrl, L.url),
      recordingSid: nonEmpty(form.RecordingSid, L.sid),
      recordingDurationS: seconds(form.RecordingDuration),
      recordingStatus: nonEmpty(form.RecordingStatus),
      recordingChannels: seconds(form.RecordingChannels),
      clientParams,
    });
  }

  messageState(word: string): DeliveryState | null {
    return twilioMessageState(word);
  }

  /** The adapter's auth for its own media hosts. */
  abstract mediaRequestHeaders(url: string): Record<string, string>;

  /** Through safeFetch (public addresses only, size cap, 30 s); auth headers are dropped on a cross-origin redirect. */
  async downloadMedia(url: string): Promise<{ data: Buffer; contentType: string | null }> {
    const res = await safeFetch(url, { headers: this.mediaRequestHeaders(url), timeoutMs: MEDIA_TIMEOUT_MS });
    if (!res.ok) throw new Error(`media download failed: ${res.status} ${url}`);
    return { data: res.body, contentType: res.contentType ?? null };
  }

  /** Call-flow steps as TwiML (`text/xml`). */
  renderVoice(steps: CallFlowStep[]): RenderedResponse {
    return renderVoiceTwiml(steps);
  }

  /** A messaging webhook answer, optionally replying with `reply`. */
  renderMessaging(reply?: string): RenderedResponse {
    return renderMessagingTwiml(reply);
  }

  /** Checks `X-Twilio-Signature` over `url` (PUBLIC_URL + path + query) and the form params. */
  verifyWebhook(url: string, params: Record<string, string>, signature: string | undefined): boolean {
    return validateSignature(this.config.twilioAuthToken, url, params, signature);
  }
}
