/**
 * Domain events of transcription (owned by modules/transcription), faxes (modules/fax) and caller-name lookups
 * (modules/caller-id). Other modules only subscribe: call-intelligence indexes transcripts, billing meters
 * transcription minutes, faxes and lookups, activity and webhooks show them. See `platform/events/index.ts`.
 */
import { z } from 'zod';

export const INTELLIGENCE_EVENTS = {
  /** A transcript of a call's (or a voicemail's) recording was created or changed state (after commit). */
  'transcript.changed': z.object({
    transcriptId: z.number().int(),
    callId: z.number().int(),
    companyId: z.number().int(),
    /** Set when the recording transcribed is the call's voicemail. */
    voicemailId: z.number().int().nullable(),
    state: z.enum(['loading', 'complete', 'failed']),
    /** Length of the audio transcribed in seconds (metering), once known. */
    audioS: z.number().nonnegative().nullable(),
  }),
  /** A fax was stored or its status or page count changed (after commit). */
  'fax.changed': z.object({
    faxId: z.number().int(),
    companyId: z.number().int(),
    numberId: z.number().int(),
    direction: z.enum(['inbound', 'outbound']),
    /** Fax status word of docs/fax.md (e.g. queued, sending, delivered, received, failed). */
    status: z.string(),
    pages: z.number().int().nonnegative().nullable(),
    /** E.164 of the other party. */
    remote: z.string(),
  }),
  /** A caller-name lookup was answered (after commit): by the provider (billable) or from the cache. */
  'caller-id.looked-up': z.object({
    companyId: z.number().int(),
    e164: z.string(),
    source: z.enum(['provider', 'cache']),
    found: z.boolean(),
  }),
} as const;
