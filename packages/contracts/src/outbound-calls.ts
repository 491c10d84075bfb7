/**
 * Outbound calling contracts: caller IDs, placing a call, in-call controls, the sandbox handset
 * (spec 000 "in-app calling" and SIP fields; spec 002 §7 "In-app calling" `POST /v1/calls/token`;
 * docs/calling.md). Paths are under `/api/companies/{companyId}/outbound-calls`.
 */
import { z } from 'zod';
import { Id } from './common.js';
import { InAppTokenBody } from './in-app-calling.js';
import { SimulatorScriptLine } from './transcription.js';

/** A company number the user may show as caller ID (a `user` role: only their assigned numbers). */
export const CallerIdOption = z.object({
  id: z.number().int(),
  /** E.164. */
  number: z.string(),
  label: z.string(),
});
export type CallerIdOption = z.infer<typeof CallerIdOption>;

/** GET .../outbound-calls/caller-ids: the choices and the remembered one (null: none usable). */
export const CallerIdsBody = z.object({ data: z.array(CallerIdOption), selected_id: z.number().int().nullable() });
export type CallerIdsBody = z.infer<typeof CallerIdsBody>;

/** PUT .../outbound-calls/caller-id {number_id}: remembers the choice. */
export const CallerIdInput = z.object({ number_id: Id });

/** POST .../outbound-calls {caller_id, to}: places a call from the browser (the dialer). */
export const PlaceOutboundCallInput = z.object({
  /** The number id shown as caller ID. */
  caller_id: Id,
  /** The number to call, in any common format ("(312) 555-0100", "+13125550100"). */
  to: z.string().trim().min(1).max(32),
});
export type PlaceOutboundCallInput = z.infer<typeof PlaceOutboundCallInput>;

/** The token to connect the call with (Twilio Voice SDK `connect({params})`; sandbox softphone connect) and the stored call. */
export const PlaceOutboundCallBody = InAppTokenBody.extend({
  call_id: z.number().int(),
  company_id: z.number().int(),
  /** E.164 caller ID shown to the callee. */
  from: z.string(),
  /** E.164 callee. */
  to: z.string(),
  /** Params the SDK sends with the call (call_id, number_id, To). */
  params: z.record(z.string(), z.string()),
});
export type PlaceOutboundCallBody = z.infer<typeof PlaceOutboundCallBody>;

export const OutboundCallParams = z.object({ companyId: Id, callId: Id });

/** POST .../outbound-calls/{callId}/hold {hold}: the other side hears hold music while held. */
export const HoldInput = z.object({ hold: z.boolean() });
/** POST .../outbound-calls/{callId}/mute {muted}: recorded in the call history (the browser mutes its microphone). */
export const MuteInput = z.object({ muted: z.boolean() });
/** POST .../outbound-calls/{callId}/dtmf {digits}: keypad tones to the other side (0-9, *, #, w = half-second pause). */
export const DtmfInput = z.object({ digits: z.string().regex(/^[0-9*#w]{1,32}$/, 'Digits are 0-9, * and # (at most 32).') });
/** POST .../outbound-calls/{callId}/transfer: blind transfer to a user of the company or to a number (exactly one). */
export const TransferInput = z
  .object({ user_id: Id.optional(), number: z.string().trim().min(1).max(32).optional() })
  .refine((v) => (v.user_id === undefined) !== (v.number === undefined), { message: 'Choose a user or a number to transfer to.', path: ['target'] });
export type TransferInput = z.infer<typeof TransferInput>;

/** The call's in-call state after a control. */
export const CallControlBody = z.object({
  message: z.string(),
  data: z.object({ call_id: z.number().int(), on_hold: z.boolean(), muted: z.boolean(), transferred_to: z.string().nullable() }),
});
export type CallControlBody = z.infer<typeof CallControlBody>;

/** The live event name on `user.{userId}` for the calls a user placed. */
export const OUTBOUND_CALL_EVENT = 'outbound call';
/** `outbound call` on `user.{userId}`: the callee answered, the call was held/resumed, or it ended (`reason`). */
export const OutboundCallEvent = z.object({
  callId: z.number().int(),
  state: z.enum(['answered', 'held', 'resumed', 'ended']),
  reason: z.string().optional(),
});
export type OutboundCallEvent = z.infer<typeof OutboundCallEvent>;

/** Sandbox Phone simulator: a call placed from the browser ringing (or talking on) an outside handset. */
export const HandsetCall = z.object({
  sid: z.string(),
  /** The caller ID shown on the handset (E.164). */
  from: z.string(),
  /** The handset (E.164). */
  to: z.string(),
  state: z.enum(['ringing', 'answered', 'ended']),
  end_reason: z.string().nullable(),
  on_hold: z.boolean(),
  /** Keypad tones the handset heard, in order. */
  digits: z.string(),
  transferred_to: z.string().nullable(),
  /**
   * While held: what the handset hears, the number's on-hold greeting (a signed, short-lived URL
   * of the audio); null with `on_hold` = the carrier's default music.
   */
  hold_music_url: z.string().nullable(),
  /**
   * What was said during the answered call, in order (docs/calling.md "Sandbox"): `caller` is the
   * person at the outside handset, `agent` the user in the browser; `at` = seconds since the answer.
   * Spoken into the two channels of the call's recording when the number records.
   */
  lines: z.array(z.object({ speaker: z.enum(['caller', 'agent']), text: z.string(), at: z.number() })),
  created_at: z.string(),
  answered_at: z.string().nullable(),
});
export type HandsetCall = z.infer<typeof HandsetCall>;
export const HandsetCallsBody = z.object({ data: z.array(HandsetCall) });
export const HandsetCallParams = z.object({ sid: z.string().regex(/^CA[0-9a-f]{32}$/) });
export const HandsetCallBody = z.object({ data: HandsetCall });
/**
 * POST /api/simulator/handset-calls/{sid}/say {speaker, text}: a line said during the answered call
 * (`caller`: the outside person; `agent`: the user in the browser), at most 40 per call.
 */
export const HandsetSayInput = SimulatorScriptLine;
/** At most this many lines are said on one handset call. */
export const HANDSET_MAX_LINES = 40;
/** POST /api/simulator/softphone/connect {token}: the sandbox softphone connects a call it holds a token for. */
export const SoftphoneConnectInput = z.object({ token: z.string().min(10).max(4000) });
export const SoftphoneConnectBody = z.object({ sid: z.string(), status: z.string() });
