/**
 * In-app calling (spec 002 §3 User.in_app_calling_status, §4, §7 "In-app calling"; foundation §3
 * SIP fields): access tokens for the browser softphone, the company's users with their status,
 * the status toggle, answering/rejecting a ringing call, and the outbound-call token.
 */
import { z } from 'zod';
import { Id } from './common.js';

export const IN_APP_CALLING_STATUSES = ['active', 'away'] as const;
export const InAppCallingStatus = z.enum(IN_APP_CALLING_STATUSES);
export type InAppCallingStatus = z.infer<typeof InAppCallingStatus>;

/** The live event name on `user.{userId}`. */
export const IN_APP_CALLING_EVENT = 'in-app calling';

export const InAppCallParams = z.object({ companyId: Id, callId: Id });

/** An access token for the browser: a Twilio Voice grant JWT, or a signed sandbox token. */
export const InAppTokenBody = z.object({
  token: z.string(),
  identity: z.string(),
  carrier: z.enum(['sandbox', 'twilio']),
  /** Seconds the token stays valid. */
  ttl: z.number().int(),
});
export type InAppTokenBody = z.infer<typeof InAppTokenBody>;

export const InAppUser = z.object({
  id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  role: z.string(),
  in_app_calling_status: InAppCallingStatus,
  /** All three SIP fields are present (foundation §3): the user may place and answer calls. */
  has_sip: z.boolean(),
  /** Active and has the SIP fields: rings on in-app-calling routes. */
  can_take_calls: z.boolean(),
});
export type InAppUser = z.infer<typeof InAppUser>;
export const InAppUsersBody = z.object({ data: z.array(InAppUser) });

export const InAppStatusInput = z.object({ status: InAppCallingStatus });
export const InAppStatusBody = z.object({ message: z.string(), data: InAppUser });

export const CanAnswerBody = z.object({
  canAnswer: z.boolean(),
  /** Why not: 'answered', 'ended', 'rejected', 'missing_sip'. */
  reason: z.string().optional(),
});
export type CanAnswerBody = z.infer<typeof CanAnswerBody>;

export const JoinTokenInput = z.object({ joinToken: z.string().min(1).max(200) });

export const InAppCallState = z.object({
  call_id: z.number().int(),
  state: z.enum(['ringing', 'answered', 'ended']),
  answered_by: z.number().int().nullable(),
  answered_at: z.string().nullable(),
});
export const InAppAnswerBody = z.object({ message: z.string(), data: InAppCallState });

export const OutboundTokenInput = z.object({ number_id: Id, destination: z.string().min(3).max(32) });
export const OutboundTokenBody = InAppTokenBody.extend({ call_id: z.number().int(), from: z.string(), to: z.string() });

/** Payloads of the 'in-app calling' event on `user.{userId}`. */
export const InAppCallingEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('ringing'),
    callId: z.number().int(),
    companyId: z.number().int(),
    from: z.string(),
    to: z.string(),
    numberLabel: z.string(),
    joinToken: z.string(),
    timeoutS: z.number().int(),
    /** The caller's contact name when the caller is a known contact. */
    contactName: z.string().nullable().optional(),
  }),
  z.object({ type: z.literal('answered'), callId: z.number().int(), byUserId: z.number().int() }),
  z.object({ type: z.literal('ended'), callId: z.number().int(), reason: z.string() }),
  z.object({ type: z.literal('status'), status: InAppCallingStatus }),
]);
export type InAppCallingEvent = z.infer<typeof InAppCallingEvent>;
