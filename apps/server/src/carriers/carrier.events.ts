/**
 * Carrier-neutral webhook events (docs/telephony.md "The carrier port"): what an adapter's
 * `parseInboundMessage` / `parseMessageStatus` / `parseVoice` make of a carrier's form post.
 * Modules read these and never a carrier's form field names. Each schema validates the adapter's
 * output, so an adapter that maps a field wrongly fails loudly in the contract tests
 * (carriers/carrier.contract.test.ts) instead of storing garbage.
 */
import { z } from 'zod';

/** Our delivery states of a message (docs/messaging.md "Delivery states"); 'received' is inbound only. */
export const DELIVERY_STATES = ['queued', 'sending', 'sent', 'delivered', 'undelivered', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** The progress words of a call leg (the carrier's call status in our vocabulary). */
export const CALL_STATUS_WORDS = ['queued', 'initiated', 'ringing', 'in-progress', 'completed', 'busy', 'no-answer', 'failed', 'canceled'] as const;
export type CallStatusWord = (typeof CALL_STATUS_WORDS)[number];
/** Call status words that end a call. */
export const FINAL_CALL_STATUS_WORDS: readonly CallStatusWord[] = ['completed', 'busy', 'no-answer', 'failed', 'canceled'];

/** An inbound SMS/MMS. `from`/`to` as the carrier sent them (the product parses them to E.164). */
export const InboundMessageEvent = z.object({
  /** The carrier's message id (non-empty). */
  sid: z.string().min(1),
  from: z.string(),
  to: z.string(),
  body: z.string(),
  /** At most 10 attachments, as the carrier announced them (downloaded later with `downloadMedia`). */
  media: z.array(z.object({ url: z.string().min(1), contentType: z.string().min(1) })).max(10),
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
