/**
 * What the product needs from a carrier (ARCHITECTURE "The carrier port"). Adapters:
 * `twilio/` (production, the official `twilio` package) and `sandbox/` (default, a simulated
 * carrier that calls our `/webhooks/twilio/...` routes exactly as Twilio does).
 *
 * The call-flow engine produces carrier-neutral `CallFlowStep`s; the adapter renders them
 * (TwiML for Twilio's dialect). Inbound webhooks are parsed by the adapter into carrier-neutral
 * events (carrier.events.ts); webhook URLs, status words, media downloads and what the carrier can
 * do (`capabilities`) are the adapter's too, so modules never test a carrier's name or read its
 * form fields (docs/telephony.md "The carrier port"). Every adapter passes carrier.contract.test.ts.
 */
import type { DeliveryState, InboundMessageEvent, MessageStatusEvent, VoiceEvent } from './carrier.events.js';

/** A number the carrier offers for purchase. */
export type AvailableNumber = {
  /** E.164, e.g. "+12125550123". */
  number: string;
  kind: 'local' | 'toll_free';
  /** Two-letter state/province, when known. */
  region: string | null;
  locality: string | null;
  /** The provider id (spec 002 provider labels) to pass back when buying. */
  provider_id: number;
};

export type NumberSearch = {
  kind: 'local' | 'toll_free';
  /** 3-digit NANP area code (local) or toll-free prefix like "800" or "8**". */
  areaCode?: string;
  /** Digits to match, with `mode`. */
  pattern?: string;
  mode?: 'contains' | 'starts_with' | 'ends_with';
  /** Max results (default 20). */
  limit?: number;
};

/** One carrier-neutral instruction of a call flow, rendered by the adapter (TwiML verbs). */
export type CallFlowStep =
  | { kind: 'say'; text: string; voice?: string }
  | { kind: 'play'; url: string }
  | { kind: 'pause'; seconds: number }
  | { kind: 'gather'; numDigits: number; timeoutS: number; action: string; prompt: Array<{ kind: 'say'; text: string } | { kind: 'play'; url: string }> }
  | {
      kind: 'dial';
      /** Forwards rung together; each may carry a whisper/confirm URL fetched when that leg answers. */
      numbers: Array<{ number: string; url?: string }>;
      /** In-app-calling identities rung together with the numbers (TwiML `<Client>`). */
      clients?: string[];
      timeoutS: number;
      action: string;
      /** Caller ID shown to the forward; omitted = the caller's own number (pass-through). */
      callerId?: string;
      /** Hold music URL while ringing. */
      ringTone?: string;
      /**
       * Record the call from the answer, two channels (caller on channel 0, the answering party on 1;
       * Twilio `record-from-answer-dual`); the carrier posts `recordingStatusCallback` (webhook kind
       * `voice.recorded`) once the recording is complete (docs/transcription.md "Recordings").
       */
      record?: boolean;
      recordingStatusCallback?: string;
    }
  | { kind: 'record'; action: string; maxLengthS: number; playBeep: boolean; recordingStatusCallback?: string }
  | { kind: 'redirect'; url: string }
  | { kind: 'hangup' }
  | { kind: 'reject'; reason: 'rejected' | 'busy' };

export type RenderedResponse = { contentType: string; body: string };

export type OutboundMessage = {
  from: string;
  to: string;
  body: string;
  /** Publicly reachable media URLs (MMS). */
  mediaUrls: string[];
  /** Where the carrier posts `MessageStatus` updates. */
  statusCallback: string;
};

export type PurchasedNumber = { sid: string; number: string };

/** A browser softphone access token (in-app calling). */
export type ClientToken = { token: string; identity: string; ttlS: number };

/**
 * The webhooks a carrier posts to, by purpose. Voice: a call arriving (`voice`), a menu choice,
 * a dial result, a forward's whisper and accept legs, a voicemail recording, status callbacks,
 * and a call placed from the browser with its dial result. Messaging: inbound SMS/MMS and the
 * delivery status of inbox and campaign messages.
 */
export const WEBHOOK_KINDS = [
  'voice',
  'voice.gather',
  'voice.dial',
  'voice.whisper',
  'voice.confirm',
  'voice.recording',
  'voice.recorded',
  'voice.status',
  'voice.client',
  'voice.client.dial',
  'voice.client.hold',
  'messaging',
  'messaging.status',
  'campaigns.status',
] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

/** What a carrier can do; modules branch on these, never on the carrier's name. */
export type CarrierCapabilities = {
  /** Issues browser softphone tokens (in-app calling: incoming calls to a user). */
  voiceSdk: boolean;
  /** Browser softphones may place outgoing calls (Twilio: a TwiML app is configured). */
  voiceSdkOutgoing: boolean;
  /** Picture messages (MMS). */
  mms: boolean;
  /** Sends and receives faxes. */
  fax: boolean;
  /** Completes number port-in requests through its API (otherwise they are worked by hand). */
  numberPorting: boolean;
  /** A simulated carrier: no real phone network; the product advances simulated processes (port requests, demo traffic) itself. */
  simulator: boolean;
};

export interface CarrierPort {
  /** The adapter's id (reported to the web so it loads the matching softphone); never branched on in modules. */
  readonly name: 'sandbox' | 'twilio';
  /** The carrier's name as people see it (e.g. a number's provider in the app): "Sandbox", "Twilio". */
  readonly displayName: string;
  readonly capabilities: CarrierCapabilities;
  /** The SIP domain of in-app calling addresses (`sip:user_{id}@{sipDomain}`). */
  readonly sipDomain: string;
  /** Origins the browser softphone SDK connects to (added to the CSP `connect-src`); [] when it needs none. */
  readonly browserOrigins: readonly string[];
  /** The path (no origin, no query) our server serves the `kind` webhook on. */
  webhookPath(kind: WebhookKind): string;
  /** The public URL (PUBLIC_URL + path + encoded `query`) the carrier is told to post `kind` to. */
  webhookUrl(kind: WebhookKind, query?: Record<string, string | number | undefined>): string;
  /** An inbound SMS/MMS post as an event; null when the post carries no message id. */
  parseInboundMessage(form: Record<string, string>): InboundMessageEvent | null;
  /** A delivery-status post as an event; null when the post carries no message id. */
  parseMessageStatus(form: Record<string, string>): MessageStatusEvent | null;
  /** Any voice webhook post as an event. */
  parseVoice(form: Record<string, string>): VoiceEvent;
  /** The carrier's message status word in our vocabulary; null for a word we do not know. */
  messageState(word: string): DeliveryState | null;
  /** Headers the carrier needs on a download of `url` (its auth for its own media hosts), else {}. */
  mediaRequestHeaders(url: string): Record<string, string>;
  /**
   * Downloads inbound media the carrier announced, with its auth, through the server-side fetch
   * guard (platform/http/safe-fetch.ts; 30 s deadline).
   * @throws UnsafeUrlError / ResponseTooLargeError when the guard refuses the URL (do not retry);
   *   Error when the carrier answers with a non-2xx status (retry later).
   */
  downloadMedia(url: string): Promise<{ data: Buffer; contentType: string | null }>;
  /** Searches the carrier's inventory. */
  searchNumbers(query: NumberSearch): Promise<AvailableNumber[]>;
  /**
   * Buys `number` and points its voice and messaging webhooks at us.
   * @throws CarrierError when the number is no longer available.
   */
  buyNumber(number: string, urls: { voiceUrl: string; smsUrl: string; statusCallback?: string }): Promise<PurchasedNumber>;
  /** Releases a purchased number (idempotent). */
  releaseNumber(sid: string): Promise<void>;
  /**
   * Hands an SMS/MMS to the carrier.
   * @returns the carrier's message SID and initial status (usually "queued").
   * @throws CarrierError with the carrier's error code when refused outright.
   */
  sendMessage(message: OutboundMessage): Promise<{ sid: string; status: string }>;
  /**
   * Optional batch form of `sendMessage` (campaign dispatch): hands many messages over in one
   * round trip. Results are in input order; a refused message carries `error` instead of a SID.
   */
  sendMessages?(messages: OutboundMessage[]): Promise<Array<{ sid: string; status: string } | { error: { message: string; code: number | null } }>>;
  /**
   * Optional: the message the carrier accepted with this exact `statusCallback` URL, or null.
   * Campaign dispatch uses it to reconcile a send whose outcome a crashed worker never recorded.
   */
  findMessageByStatusCallback?(statusCallback: string): Promise<{ sid: string; status: string } | null>;
  /** Renders call-flow steps as the carrier's voice response. */
  renderVoice(steps: CallFlowStep[]): RenderedResponse;
  /** Renders a messaging webhook response, optionally replying with `reply`. */
  renderMessaging(reply?: string): RenderedResponse;
  /** The request header (lower case) carrying a webhook's signature, e.g. `x-twilio-signature`. */
  readonly signatureHeader: string;
  /**
   * Checks a webhook's signature (`X-Twilio-Signature` over `url` and the form `params`).
   * @param url the full public URL the carrier posted to (PUBLIC_URL + path + query).
   */
  verifyWebhook(url: string, params: Record<string, string>, signature: string | undefined): boolean;
  /**
   * Downloads a call recording the carrier announced in a webhook (`RecordingUrl`).
   * @throws CarrierError when the carrier does not serve it.
   */
  fetchRecording(url: string): Promise<{ data: Buffer; contentType: string }>;
  /**
   * An access token for the in-app softphone of `identity` (`user_{id}`): incoming calls to that
   * `<Client>`, and with `outgoing` calls placed from the browser (Twilio: a Voice grant with the
   * TwiML app; sandbox: an HMAC-signed token). `params` travel with an outgoing call.
   * @throws CarrierError when the carrier is not configured for browser calling.
   */
  createClientToken(identity: string, options?: { outgoing?: boolean; ttlS?: number; params?: Record<string, string> }): ClientToken;
  /**
   * Outbound calling (docs/calling.md): ends browser call `callSid` (the browser leg, our call's
   * carrier SID) and the leg it dialed. Idempotent (an ended call is left alone).
   * @throws CarrierError when the carrier refuses.
   */
  hangupCall(callSid: string): Promise<void>;
  /**
   * Outbound calling: holds (`hold` true) or resumes the party browser call `callSid` dialed; while
   * held it hears `musicUrl` (null: the carrier's default music) on a loop.
   * @returns false when the call has no party in conversation. @throws CarrierError ('not supported by this carrier').
   */
  holdCall(callSid: string, hold: boolean, musicUrl: string | null): Promise<boolean>;
  /** True when holding moves the other party out of the browser's dial, whose result then arrives while held (Twilio: a queue; docs/calling.md "Twilio"). */
  readonly holdLeavesDial?: boolean;
  /**
   * Outbound calling: plays keypad tones `digits` (0-9, *, #, w = pause) to the party browser call
   * `callSid` dialed. @returns false when the call has no party in conversation.
   * @throws CarrierError ('not supported by this carrier': its softphone SDK sends them from the browser).
   */
  sendDigits(callSid: string, digits: string): Promise<boolean>;
  /**
   * Outbound calling, blind transfer: the party browser call `callSid` dialed leaves the browser and
   * follows `steps` (a `dial` of one number or one in-app client); the browser leg then ends.
   * @returns false when the call has no party in conversation. @throws CarrierError
   */
  transferCall(callSid: string, steps: CallFlowStep[]): Promise<boolean>;
  /**
   * Blind transfer of an inbound call answered in the app (docs/calling.md "Transfer of an answered inbound call"):
   * the call's own leg `callSid` (the caller) leaves its current `<Dial>` (the browser's leg ends) and follows
   * `steps`. @returns false when the call is no longer in progress. @throws CarrierError
   */
  redirectCall(callSid: string, steps: CallFlowStep[]): Promise<boolean>;
}
