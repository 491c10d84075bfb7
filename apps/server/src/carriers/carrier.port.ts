/**
 * What the product needs from a carrier (ARCHITECTURE "The carrier port"). Adapters:
 * `twilio/` (production, the official `twilio` package) and `sandbox/` (default, a simulated
 * carrier that calls our `/webhooks/twilio/...` routes exactly as Twilio does).
 *
 * The call-flow engine produces carrier-neutral `CallFlowStep`s; the adapter renders them
 * (TwiML for Twilio's dialect). Webhook parameters are Twilio's documented form fields.
 */

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

export interface CarrierPort {
  readonly name: 'sandbox' | 'twilio';
  /** The carrier's name as people see it (e.g. a number's provider in the app): "Sandbox", "Twilio". */
  readonly displayName: string;
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
}
