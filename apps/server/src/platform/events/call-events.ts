/**
 * Domain events of the calls family (owned by the calls module; other modules only subscribe).
 * Each entry: event name → zod schema of its payload. See `platform/events/index.ts`.
 */
import { z } from 'zod';

const when = z.union([z.date(), z.string()]);

export const CALL_EVENTS = {
  /** A call was stored or its status, duration or voicemail changed (after commit). */
  'call.changed': z.object({
    callId: z.number().int(),
    companyId: z.number().int(),
    numberId: z.number().int(),
    /** E.164 of the caller (inbound) or callee (outbound): the outside party. */
    from: z.string(),
    /** CALL_STATUS code (domain). */
    status: z.number().int(),
    direction: z.enum(['inbound', 'outbound']).optional(),
    /** Set once a voicemail was recorded for the call. */
    voicemailId: z.number().int().nullable().optional(),
    /** Call length in seconds, when known. */
    durationS: z.number().nullable().optional(),
    /** The company's contact of the outside party as the calls module matched it (undefined: the subscriber looks it up). */
    contactId: z.number().int().nullable().optional(),
    /** When the call started (defaults to now on first sight). */
    startedAt: when.nullable().optional(),
    /**
     * When the call ended (UTC), null while it goes on. A call that ended has reached its final status, whatever the
     * status (an answered call ends 12 Connected): webhooks send `call.completed` then.
     */
    endedAt: when.nullable().optional(),
    /**
     * A past call recorded after the fact (calls' `importCallHistory`: the demo's history, an imported call log),
     * announced once, already finished. Not a live event: subscribers that tell people or other systems about
     * calls, meter carrier usage, look callers up or follow live calls (inbox threads, call tracking, alerts,
     * outbound webhooks, number triggers, billing, caller ID) ignore it; the reporting store builds its fact. Absent: a live call.
     */
    history: z.boolean().optional(),
  }),
  /**
   * A person changed what a call is about after the fact (spec 001 "Call (analysis view)"): its
   * qualification, tags or custom-field values (PATCH /calls/{id}, call tags). Readers that keep
   * their own copy (the reporting store) read the call again through the calls module.
   */
  'call.annotated': z.object({
    callId: z.number().int(),
    companyId: z.number().int(),
  }),
} as const;
