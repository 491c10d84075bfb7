/**
 * Carrier-neutral webhook events (docs/telephony.md "The carrier port"): what an adapter's
 * `parseInboundMessage` / `parseMessageStatus` / `parseVoice` make of a carrier's form post.
 * Modules read these and never a carrier's form field names. Each schema validates the adapter's
 * output, so an adapter that maps a field wrongly fails loudly in the contract tests
 * (carriers/carrier.contract.test.ts) instead of storing garbage.
 */
import { z } from 'zod';

/**
 * The most characters an adapter passes on from a carrier's webhook (docs/operations.md "Bounds on
 * outside input"). A signed webhook is still outside input: a carrier that misbehaves, or anyone
 * holding the auth token, must not be able to make a later step (segment counting, keyword
 * matching, search, e-mails, live events) work on megabytes.
 * - `messageBody`: Twilio's documented limit of an SMS or MMS body, 1,600 characters (Messaging
 *   webhook `Body`; error 21617 "The concatenated message body exceeds the 1600 character limit";
 *   an MMS body has the same limit, its media are at most 10 attachments of 5 MB in all).
 * - `sid`: carrier ids are 34 characters (two letters and 32 hex digits); longer is not an id.
 * - `party`: `From`/`To`: E.164 is at most 16 characters; `client:{identity}` and SIP addresses are longer.
 * - `place`: `FromCity`/`FromState` and the like (the longest US city name has 40 characters).
 * - `digits`: keys pressed in one `<Gather>` (our menus ask for a few).
 * - `url`: media and recording URLs; `contentType`: a MIME type (RFC 6838: 127 + 1 + 127).
 * - `word`: a status or reason word (`DialCallStatus`, `RecordingStatus`).
 * - `clientParam`/`clientParams`: a browser call's own parameters (Twilio Voice SDK: at most 800 bytes in all).
 */
export const CARRIER_TEXT_LIMITS = Object.freeze({
  messageBody: 1600,
  sid: 64,
  party: 256,
  place: 64,
  digits: 64,
  url: 2048,
  contentType: 255,
  word: 64,
  clientParam: 800,
  clientParams: 32,
});

/** Our delivery states of a message (docs/messaging.md "Delivery states"); 'received' is inbound only. */
export const DELIVERY_STATES = ['queued', 'sending', 'sent', 'delivered', 'undelivered', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** The progress words of a call leg (the carrier's call status in our vocabulary). */
export const CALL_STATUS_WORDS = ['queued', 'initiated', 'ringing', 'in-progress', 'completed', 'busy', 'no-answer', 'failed', 'canceled'] as const;
export type CallStatusWord = (typeof CALL_STATUS_WORDS)[number];
/** Call status words that end a call. */
export const FINAL_CALL_STATUS_WORDS: readonly CallStatusWord[] = ['completed', 'busy', 'no-answer', 'failed', 'canceled'];

/**
 * An inbound SMS/MMS. `from`/`to` as the carrier sent them (the product parses them to E.164).
 * Every text is bounded by the adapter (docs/operations.md "Bounds on outside input"): the body to
 * the carrier's own limit (Twilio: 1,600 characters), with `bodyTruncated` and `bodyLength` telling
 * what was received.
 */
export const InboundMessageEvent = z.object({
  /** The carrier's message id (non-empty). */
  sid: z.string().min(1).max(CARRIER_TEXT_LIMITS.sid),
  // Limits count characters (code points); a schema counts UTF-16 units: up to two per character.
  from: z.string().max(CARRIER_TEXT_LIMITS.party * 2),
  to: z.string().max(CARRIER_TEXT_LIMITS.party * 2),
  body: z.string().max(CARRIER_TEXT_LIMITS.messageBody * 2), // 1,600 characters: up to 3,200 UTF-16 units
  /** Whether the body was cut to the carrier's limit (a longer body cannot come from the network). */
  bodyTruncated: z.boolean(),
  /** Characters (code points) of the body as received, before any cut. */
  bodyLength: z.number().int().min(0),
  /** At most 10 attachments, as the carrier announced them (downloaded later with `downloadMedia`). */
  media: z
    .array(z.object({ url: z.string().min(1).max(CARRIER_TEXT_LIMITS.url), contentType: z.string().min(1).max(CARRIER_TEXT_LIMITS.contentType) }))
    .max(10),
});
export type InboundMessageEvent = z.infer<typeof InboundMessageEvent>;

/** A delivery update of an outbound message. */
export const MessageStatusEvent = z.object({
  /** The carrier's message id (non-empty). */
  sid: z.string().min(1),
  /** The carrier's own status word, verbatim (part of the exactly-once delivery key). */
  status: z.string(),
  /** The status in our vocabulary; null for a word we do not know (changes nothing). */
  state: z.enum(DELIVERY_STATES).nullable(),
  /** The carrier's error code for a failed/undelivered message, else null. */
  errorCode: z.number().int().nullable(),
});
export type MessageStatusEvent = z.infer<typeof MessageStatusEvent>;

/**
 * One voice webhook (a call arriving, a menu choice, a dial result, a recording, a status change,
 * a browser call connecting). Fields the post did not carry are undefined; durations are whole
 * seconds (0 when absent or not a number).
 */
export const VoiceEvent = z.object({
  /** This leg's call id. */
  callSid: z.string().min(1).optional(),
  /** The parent call of a forward's leg (whisper/confirm). */
  parentCallSid: z.string().min(1).optional(),
  from: z.string().optional(),
  to: z.string().optional(),
  /** The in-app identity (`user_{id}`) of a caller who placed this leg from a browser softphone. */
  fromClient: z.string().min(1).optional(),
  /** The caller's state/province and city, when the carrier knows them. */
  fromState: z.string().optional(),
  fromCity: z.string().optional(),
  /** Keys the caller pressed (menu choice, accept prompt). */
  digits: z.string().optional(),
  /** This leg's status (status callbacks); undefined for a word outside `CALL_STATUS_WORDS`. */
  callStatus: z.enum(CALL_STATUS_WORDS).optional(),
  callDurationS: z.number().int().min(0),
  /** The outcome of a Dial ('completed', 'answered', 'busy', 'no-answer', 'failed', 'canceled'). */
  dialStatus: z.string().optional(),
  dialDurationS: z.number().int().min(0),
  recordingUrl: z.string().optional(),
  recordingSid: z.string().optional(),
  recordingDurationS: z.number().int().min(0),
  /** A recording status callback's status ('in-progress', 'completed', 'absent', 'failed'). */
  recordingStatus: z.string().optional(),
  /** Channels of the recording (2: a dual-channel call recording, caller and agent). */
  recordingChannels: z.number().int().min(0),
  /** Parameters a browser call carries from its access token (in-app calling: `call_id`, `To`, ...). */
  clientParams: z.record(z.string(), z.string()),
});
export type VoiceEvent = z.infer<typeof VoiceEvent>;

/** Whole non-negative seconds of a carrier's duration field (0 when absent or not a number). */
export function seconds(v: string | undefined): number {
  return Math.max(0, Math.round(Number(v ?? 0)) || 0);
}
