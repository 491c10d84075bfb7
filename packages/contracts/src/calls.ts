/**
 * Call-flow payloads (docs/telephony.md): company/user schedules with holidays, the manual number override,
 * greetings and their assignment to a number's flow, voicemails, call detail with tags, note,
 * qualification and custom-field values, notes, and the blocks query version (spec 001 "Blocks",
 * "Calls", "Notes"; spec 002 "Schedule", "Greetings"). Times are ISO-8601 strings (UTC).
 */
import { z } from 'zod';
import { Id, PageMeta } from './common.js';
import { BlockSchema, CallSchema, ScheduleBlockSchema, ScheduleInput, ScheduleSchema } from './telephony.js';
import { EavAttributeValue, EavAttributeValueOut } from './contacts.js';
import { CallRecording, Transcription } from './transcription.js';

// ---------------------------------------------------------------- schedules

const DateText = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a YYYY-MM-DD date.');

/** GET /companies/{companyId}/schedule: the company schedule, its 24-hour blocks and holiday dates. */
export const CompanyScheduleBody = z.object({
  data: z.object({
    schedule: ScheduleSchema,
    /** The same as `schedule.blocks` (the earlier place of the blocks, kept). */
    blocks: z.array(ScheduleBlockSchema),
    label: z.string(),
    holidays: z.array(z.string()),
  }),
});
/** PUT /companies/{companyId}/schedule: schedule and/or holidays. */
export const PutCompanyScheduleInput = z.object({
  schedule: ScheduleInput.optional(),
  holidays: z.array(DateText).max(366).optional(),
});
export const UserScheduleBody = z.object({
  data: z.object({ schedule: ScheduleSchema, blocks: z.array(ScheduleBlockSchema), label: z.string() }),
});
export const PutUserScheduleInput = z.object({ schedule: ScheduleInput });

/** PUT /numbers/{id}/override: manual open/closed override ('auto' follows the schedule). */
export const NumberOverrideInput = z.object({
  mode: z.enum(['auto', 'open', 'closed']),
  until: z.string().datetime({ offset: true }).nullish(),
});
export const NumberOverrideBody = z.object({
  message: z.string(),
  data: z.object({ number_id: z.number(), mode: z.enum(['auto', 'open', 'closed']), until: z.string().nullable(), is_open: z.boolean() }),
});

// ---------------------------------------------------------------- greetings

/** A greeting (spec 002 "Greeting": id, content, voice). `url` plays in the browser and in calls. */
export const GreetingSchema = z.object({
  id: z.number(),
  company_id: z.number(),
  name: z.string(),
  content: z.string(),
  voice: z.string(),
  source: z.enum(['tts', 'upload']),
  url: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type GreetingDto = z.infer<typeof GreetingSchema>;
export const GreetingListQuery = z.object({ company_id: Id });
export const GreetingListBody = z.object({ data: z.array(GreetingSchema) });
export const GreetingBody = z.object({ data: GreetingSchema });
export const GreetingSavedBody = z.object({ message: z.string(), data: GreetingSchema });
/**
 * Longest greeting text (characters) for speech synthesis (POST /greetings and /greetings/speak;
 * about a minute of speech; docs/domain-decisions.md "Speech synthesis").
 */
export const GREETING_TEXT_MAX = 1000;
const greetingTextTooLong = `The content may not be greater than ${GREETING_TEXT_MAX} characters.`;
/** Multipart fields of POST /greetings (plus an optional `file`; `_method=PUT` + `id` updates). */
export const GreetingFormFields = z.object({
  company_id: Id,
  name: z.string().trim().min(1).max(100).optional(),
  content: z.string().max(GREETING_TEXT_MAX, greetingTextTooLong).optional(),
  voice: z.string().max(40).optional(),
  _method: z.string().optional(),
  id: Id.optional(),
});
export const VoiceSchema = z.object({ id: z.string(), name: z.string(), language: z.string() });
export const VoiceListBody = z.object({ data: z.array(VoiceSchema) });
export const SpeakInput = z.object({ content: z.string().trim().min(1).max(GREETING_TEXT_MAX, greetingTextTooLong), voice: z.string().max(40).optional() });

/** PUT /numbers/{id}/greetings: greeting per (extension, kind); extension 0 = the number's menu. */
export const GreetingAssignmentSchema = z.object({
  extension: z.number().int().min(0),
  kind: z.enum(['menu', 'voicemail', 'whisper']),
  greeting_id: z.number().int().positive(),
});
export const PutNumberGreetingsInput = z.object({ assignments: z.array(GreetingAssignmentSchema).max(200) });
export const NumberGreetingsBody = z.object({ data: z.array(GreetingAssignmentSchema) });

// ---------------------------------------------------------------- voicemails

export const VoicemailListQuery = z.object({
  company_id: Id,
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(25),
});
export const VoicemailItemSchema = z.object({
  id: z.number(),
  call_id: z.number(),
  number_id: z.number(),
  from: z.string(),
  to: z.string(),
  recording_url: z.string(),
  duration_s: z.number(),
  is_read: z.boolean(),
  created_at: z.string(),
  /** The caller's contact, when known. */
  contact: z.object({ id: z.number(), name: z.string() }).nullable().optional(),
  /** The business number's label ('' when none). */
  number_label: z.string().optional(),
  /** The list's items: the voicemail's transcript (state and text), null when it is not transcribed. */
  transcript: z
    .object({ state: z.enum(['loading', 'complete', 'failed']), text: z.string() })
    .nullable()
    .optional(),
});
export type VoicemailItem = z.infer<typeof VoicemailItemSchema>;
export const VoicemailListBody = z.object({ data: z.array(VoicemailItemSchema), meta: PageMeta });
export const VoicemailBody = z.object({ message: z.string(), data: VoicemailItemSchema });

// ---------------------------------------------------------------- calls

export const TagSchema = z.object({ id: z.number(), name: z.string() });
export const NoteSchema = z.object({
  id: z.number(),
  model_type: z.string(),
  model_id: z.number(),
  body: z.string(),
  user_id: z.number().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
/**
 * A forward of a call: the destination rung (E.164 or an in-app identity `user_{id}`), what came of
 * it (`ringing` while undecided, `no-answer`, `busy`, `declined` (did not press the confirm key),
 * `failed`, `answered`, or `unknown` when several rang together and the carrier did not say which
 * one answered) and when it started ringing.
 */
export const CallForwardSchema = z.object({
  number: z.string(),
  outcome: z.enum(['ringing', 'no-answer', 'busy', 'declined', 'failed', 'answered', 'unknown']),
  rang_at: z.string(),
  /** For an in-app identity `user_{id}`: the person's name (docs/calling.md "Names of people in a call"). */
  name: z.string().optional(),
});
export type CallForward = z.infer<typeof CallForwardSchema>;
/** Call outcomes (spec 002 §3 "Other enumerations"), exact values. */
export const CALL_OUTCOMES = ['appt_booked', 'vehicle_ordered', 'parts_ordered', 'get_back_commitment', 'not_opportunity', 'opportunity', 'unknown'] as const;
/** Department types (spec 002 §3 "Other enumerations"), exact values. */
export const DEPARTMENT_TYPES = [
  'sales',
  'service',
  'parts',
  'trade',
  'credit',
  'body_shop',
  'admin',
  'accessories',
  'hr',
  'custom_shop',
  'rentals',
  'unknown',
  'quick_lube',
] as const;
const OptionRow = z.object({ value: z.string(), label: z.string() });
/**
 * `ascOptions` of GET /calls/{id}?include=ascOptions: the choices a person has when scoring a call
 * (docs/domain-decisions.md "Call scoring options"): outcomes and departments (spec 002 §3) and
 * qualifications (spec 001 §3: qualified 1, not qualified 2, lead 3).
 */
export const AscOptionsSchema = z.object({
  outcomes: z.array(OptionRow),
  departments: z.array(OptionRow),
  qualifications: z.array(z.object({ id: z.number(), label: z.string() })),
});
export type AscOptions = z.infer<typeof AscOptionsSchema>;
/**
 * GET /calls/{id} query: `include` is a comma-separated list (or `include[]`) of history, note,
 * ascOptions, eavAttributeValues (spec 001 §7). History, note and eavAttributeValues are always
 * present; `ascOptions` only when asked for.
 */
export const CallDetailQuery = z.object({ include: z.union([z.string().max(200), z.array(z.string().max(50)).max(20)]).optional() });

/**
 * GET /calls/{id}: the call with history, tags, note (latest), notes, qualification, eavAttributeValues.
 * `outbound` is 1 for a call the business placed, else 0; `isInbound` is `outbound === 0` (spec 001 §3).
 */
export const CallDetailSchema = CallSchema.extend({
  outbound: z.union([z.literal(0), z.literal(1)]),
  isInbound: z.boolean(),
  ascOptions: AscOptionsSchema.optional(),
  tags: z.array(TagSchema),
  note: NoteSchema.nullable(),
  notes: z.array(NoteSchema),
  qualification: z.number().nullable(),
  /** Custom-field values (entity type Call 6), as on contacts. */
  eavAttributeValues: z.array(EavAttributeValueOut),
  /** The call's two-channel recording (docs/transcription.md), null when not recorded. */
  recording: CallRecording.nullable().optional(),
  /** With `include=transcription`: the call's transcript (spec 001 "Call (analysis view)"), null when none. */
  transcription: Transcription.nullable().optional(),
  /** With `include=transcription`: the transcript of the call's voicemail (speaker client), null when none. */
  voicemail_transcription: Transcription.nullable().optional(),
  /** The known caller (outside party's contact), else null. */
  contact: z.object({ id: z.number(), name: z.string() }).nullable().optional(),
  /** The business number's label ('' when none). */
  number_label: z.string().optional(),
  /** The inbox conversation holding this call, when there is one (call back by text). */
  conversation_id: z.number().nullable().optional(),
  /** Whether the outside party is blocked now (globally or on this number). */
  caller_blocked: z.boolean().optional(),
  /** Every forward the call rang, in order, with its outcome (docs/telephony.md "Forwards"). */
  forwards: z.array(CallForwardSchema).optional(),
});
export type CallDetail = z.infer<typeof CallDetailSchema>;
export const CallTagsInput = z.object({ tags: z.array(z.string().trim().min(1).max(50)).min(1).max(50) });
export const CallTagsBody = z.object({ data: z.array(TagSchema) });
/** PATCH /calls/{id}: qualification qualified 1, not qualified 2, lead 3 (null clears). */
export const PatchCallInput = z.object({
  qualification: z
    .union([z.literal(1), z.literal(2), z.literal(3)])
    .nullable()
    .optional(),
  eavAttributeValues: z.array(EavAttributeValue).max(500).optional(),
  recalculateAiAttributes: z.unknown().optional(),
});

export const CreateNoteInput = z.object({
  model_type: z.enum(['call']),
  model_id: Id,
  body: z.string().trim().min(1).max(5000),
});
export const UpdateNoteInput = z.object({ body: z.string().trim().min(1).max(5000) });
export const NoteBody = z.object({ data: NoteSchema });
/** `POST /notes` 201 and `PUT /notes/{id}`: the saved note with its message. */
export const NoteSavedBody = z.object({ message: z.string(), data: NoteSchema });

// ---------------------------------------------------------------- blocks (query version)

/** GET /blocks?company_id&perPage (default 1000)&page: the query version of the blocks list. */
export const BlockQueryListQuery = z.object({
  company_id: Id,
  page: z.coerce.number().int().min(1).default(1),
  perPage: z.coerce.number().int().min(1).max(1000).default(1000),
});
export const BlockQueryListBody = z.object({ data: z.array(BlockSchema), meta: PageMeta });
