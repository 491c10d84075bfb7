/**
 * Telephony payloads (spec 002 "Numbers", foundation §3 call-routing setup and schedule,
 * spec 001 "Blocks", and the sandbox carrier's simulator). Times are ISO-8601 strings (UTC).
 */
import { z } from 'zod';
import { SCHEDULE_HOURS_MESSAGES, SCHEDULE_PRESET, WEEKDAYS, fromBlocks, isSchedulePreset, toBlocks } from '@switchboard/domain';
import { Id, PageMeta } from './common.js';
import { EavAttributeValueOut } from './contacts.js';
import { SimulatorScriptLine } from './transcription.js';

// ---------------------------------------------------------------- schedule and routes

const HourText = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, 'Use a 24-hour HH:mm time.');
export const DayHoursSchema = z.object({ open: HourText.nullable(), close: HourText.nullable() });
const WeekHoursSchema = z.object({
  mon: DayHoursSchema,
  tue: DayHoursSchema,
  wed: DayHoursSchema,
  thu: DayHoursSchema,
  fri: DayHoursSchema,
  sat: DayHoursSchema,
  sun: DayHoursSchema,
});
/**
 * One 24-hour block of a schedule (foundation §3 "sent as 24-hour HH:mm blocks (start/end per day
 * block)"): a weekday, its start and its end ("24:00" = end of day; an end before the start runs
 * past midnight). Built and read by the domain's `toBlocks`/`fromBlocks`.
 */
export const ScheduleBlockSchema = z.object({
  day: z.enum(WEEKDAYS),
  start: HourText,
  end: HourText,
});
export type ScheduleBlockDto = z.infer<typeof ScheduleBlockSchema>;

const ScheduleBase = z.object({
  preset: z.coerce.number().int().min(1).max(6),
  timezone: z.string().min(1),
});

/**
 * A schedule as the server answers it (foundation §3): preset 1..6, IANA timezone, the spec's
 * `blocks` (24-hour HH:mm start/end per day, from the preset's effective hours: 24/7 gives seven
 * 00:00-24:00 blocks, Direct Voicemail none) and, as a convenience for editors, the same hours as
 * a per-weekday open/close "HH:mm" or null (`hours`, the stored form).
 */
export const ScheduleSchema = ScheduleBase.extend({
  hours: WeekHoursSchema,
  blocks: z.array(ScheduleBlockSchema),
});
export type ScheduleDto = z.infer<typeof ScheduleSchema>;

/**
 * A schedule as a client sends it: preset and timezone with the spec's `blocks` (at most one block
 * per day; for preset 4 Custom each ends after it starts), or the open/close `hours` (422 on
 * `hours` when neither is given). When both come, the `hours` win: an editor that loaded a
 * schedule (with its `blocks`) and changed its hours sends both, and what it changed is the hours. Parsed into the stored form `{preset, timezone,
 * hours}` (blocks through the domain's `fromBlocks`; presets other than 4 Custom take their own
 * hours, as when the editor picks them).
 */
export const ScheduleInput = ScheduleBase.extend({
  hours: WeekHoursSchema.optional(),
  blocks: z.array(ScheduleBlockSchema).max(7).optional(),
})
  .superRefine((v, ctx) => {
    if (!v.hours && !v.blocks) {
      ctx.addIssue({ code: 'custom', path: ['hours'], message: 'Send the schedule as blocks (day, start, end) or as hours.' });
      return;
    }
    if (v.blocks) {
      const days = v.blocks.map((b) => b.day);
      const twice = days.find((d, i) => days.indexOf(d) !== i);
      if (twice) ctx.addIssue({ code: 'custom', path: ['blocks'], message: `The day ${twice} has more than one block.` });
      // The saving rule of the hours (domain scheduleHoursErrors), said of the block: for the hours
      // that count (preset 4 Custom) the end is after the start ("24:00" = end of the day).
      if (v.preset === SCHEDULE_PRESET.CUSTOM) {
        v.blocks.forEach((b, i) => {
          if (b.start === '24:00' || (b.end !== '24:00' && b.end <= b.start))
            ctx.addIssue({ code: 'custom', path: ['blocks', i, 'end'], message: SCHEDULE_HOURS_MESSAGES.closeNotAfterOpen });
        });
      }
    }
  })
  .transform((v): { preset: number; timezone: string; hours: z.infer<typeof WeekHoursSchema> } => {
    if (v.hours) return { preset: v.preset, timezone: v.timezone, hours: v.hours };
    const s = fromBlocks(v.blocks ?? [], isSchedulePreset(v.preset) ? v.preset : SCHEDULE_PRESET.CUSTOM, v.timezone);
    // fromBlocks resolves an unknown zone to UTC; keep the zone as sent so the server's check names it.
    return { preset: v.preset, timezone: v.timezone, hours: s.hours };
  });
export type ScheduleInputDto = z.input<typeof ScheduleInput>;

/** A stored schedule `{preset, timezone, hours}` in the answer's form (ScheduleSchema: `blocks` added). */
export function scheduleView(schedule: { preset: number; timezone: string; hours: z.infer<typeof WeekHoursSchema> }): ScheduleDto {
  const preset = isSchedulePreset(schedule.preset) ? schedule.preset : SCHEDULE_PRESET.CUSTOM;
  return { preset: schedule.preset, timezone: schedule.timezone, hours: schedule.hours, blocks: toBlocks({ ...schedule, preset }) };
}

export const RouteTypeSchema = z.enum(['standard', 'simultaneous', 'sequential', 'geo', 'voicemail', 'in-app-calling']);

/** A forward as the editor sends it; `valid`, `international`, `updated_at` are stripped before saving. */
export const ForwardInput = z
  .object({
    number: z.string().nullish(),
    valid: z.unknown().optional(),
    international: z.unknown().optional(),
    updated_at: z.unknown().optional(),
  })
  .passthrough();

/** An extension entry as the editor sends it: every field optional (defaults of foundation §3 fill the rest). */
export const RouteEntryInput = z.object({
  extension: z.union([z.number().int().min(0).max(99999), z.string().regex(/^\d{1,5}$/), z.null()]).optional(),
  label: z.string().max(100).optional(),
  forwards: z.array(ForwardInput).max(20).optional(),
  schedule: ScheduleInput.optional(),
  stagger: z.boolean().optional(),
  caller_id_pass_thru: z.boolean().optional(),
  type: RouteTypeSchema.optional(),
  confirm_key: z.number().int().nullable().optional(),
  confirm_key_wait: z.number().int().min(1).max(120).optional(),
  timeout: z.number().int().min(5).max(600).optional(),
  onhold_music_id: z.number().int().nullable().optional(),
  geo_by_state_enabled: z.boolean().optional(),
  geo_by_state_static_fallback: z.boolean().optional(),
  confirm_whisper: z.string().max(500).optional(),
  email_alert_address: z.string().max(255).optional(),
  voicemail_enabled: z.boolean().optional(),
  round_robin: z.string().nullable().optional(),
});

/** A saved extension entry (all fields present). */
export const RouteEntrySchema = z.object({
  /** On a number's routes (spec 002 §3): `"{numberId}.{extension}"`. */
  _id: z.string().optional(),
  extension: z.number(),
  label: z.string(),
  /** On a number's routes each forward has `_id` `"{numberId}.{extension}.{position}"`. */
  forwards: z.array(z.object({ _id: z.string().optional(), number: z.string(), states: z.array(z.string()).optional() })),
  schedule: ScheduleSchema,
  stagger: z.boolean(),
  caller_id_pass_thru: z.boolean(),
  type: RouteTypeSchema,
  confirm_key: z.number().nullable(),
  confirm_key_wait: z.number(),
  timeout: z.number(),
  onhold_music_id: z.number().nullable(),
  geo_by_state_enabled: z.boolean(),
  geo_by_state_static_fallback: z.boolean(),
  confirm_whisper: z.string(),
  email_alert_address: z.string(),
  voicemail_enabled: z.boolean(),
  round_robin: z.string().nullable(),
});

// ---------------------------------------------------------------- numbers

/**
 * The number's menu after an invalid or missing choice (docs/telephony.md "Menu replays and
 * fallback"): replayed `menu_replays` times (0 to 5, default 2), then `menu_fallback`:
 * first (connect the first extension), voicemail (the first extension's voicemail) or hangup.
 */
export const MENU_REPLAYS_MAX = 5;
export const MenuFallbackSchema = z.enum(['first', 'voicemail', 'hangup']);
export type MenuFallback = z.infer<typeof MenuFallbackSchema>;

export const TRIGGER_EVENTS = ['call.missed', 'call.voicemail', 'sms.received'] as const;
export const TRIGGER_ACTIONS = ['email', 'webhook'] as const;

/** A number's trigger (PUT /companies/{companyId}/triggers). */
export const TriggerSchema = z.object({
  id: z.number(),
  number_id: z.number(),
  event: z.enum(TRIGGER_EVENTS),
  action: z.enum(TRIGGER_ACTIONS),
  target: z.string(),
  created_at: z.string(),
  /**
   * The trigger's latest firing (docs/numbers.md "Triggers"): pending (being sent or retried), delivered or failed,
   * when (ISO, UTC), the webhook's last HTTP status and the last error. Null before the first; absent in a number's view.
   */
  last_fired: z
    .object({
      state: z.enum(['pending', 'delivered', 'failed']),
      at: z.string(),
      status_code: z.number().nullable(),
      error: z.string().nullable(),
    })
    .nullable()
    .optional(),
});

/** A route's forward with its id (spec 002 §3 "forwards (_id, number)"). */
export const NumberForwardSchema = z.object({ _id: z.string(), number: z.string() });

/**
 * The spec 002 §3 "Number" fields beside the stored setup. Ids of routes and forwards are derived,
 * stable while the setup is unchanged: route `"{numberId}.{extension}"`, forward
 * `"{numberId}.{extension}.{position}"` (docs/numbers.md "Spec fields of a number").
 */
export const NumberSpecFields = z.object({
  /** Every forward of every route, in route order. */
  forwards: z.array(NumberForwardSchema),
  tags: z.array(z.object({ id: z.number(), name: z.string() })),
  /** The port-in request that brought the number, when it came by porting; else null. */
  port: z.object({ id: z.number(), state: z.string() }).nullable(),
  triggers: z.array(TriggerSchema),
  eavAttributeValues: z.array(EavAttributeValueOut),
  /** Unread inbound message items of the number's conversations. */
  unread_messages_count: z.number().int(),
  /** Whether the signed-in user muted at least one notification channel of this number. */
  hasNotificationBlocks: z.boolean(),
  call_transcription_enabled: z.boolean(),
  sms_enabled: z.boolean(),
  /** SMS verification of the number (docs/numbers.md): "unverified" until SMS verification exists. */
  sms_verification: z.object({ status: z.string() }),
  record: z.boolean(),
  ai_eav_enabled: z.boolean(),
});

/** A company's number (spec 002 §3 "Number"). */
export const NumberSchema = z
  .object({
    id: z.number(),
    company_id: z.number(),
    number: z.string(),
    national_number: z.string(),
    label: z.string(),
    type: z.number(),
    type_label: z.string(),
    category: z.number(),
    provider_id: z.number(),
    routes: z.array(RouteEntrySchema),
    schedule: ScheduleSchema,
    route_type: z.string(),
    schedule_label: z.string(),
    menu_replays: z.number(),
    menu_fallback: MenuFallbackSchema,
    created_at: z.string(),
  })
  .extend(NumberSpecFields.shape);
export type NumberDto = z.infer<typeof NumberSchema>;

export const NumberListBody = z.object({ data: z.array(NumberSchema) });
export const NumberBody = NumberSchema;
export const NumberUpdatedBody = z.object({ message: z.string(), data: NumberSchema });

/** GET /numbers/search query. `pattern` may hold vanity letters (converted with the keypad). */
export const NumberSearchQuery = z.object({
  type: z.enum(['local', 'toll_free']).default('local'),
  areaCode: z.string().optional(),
  prefix: z.string().optional(),
  mode: z.enum(['contains', 'starts_with', 'ends_with']).default('contains'),
  pattern: z.string().max(20).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const AvailableNumberSchema = z.object({
  number: z.string(),
  national_number: z.string(),
  type: z.enum(['local', 'toll_free']),
  region: z.string().nullable(),
  locality: z.string().nullable(),
  provider_id: z.number(),
});
export const NumberSearchBody = z.object({ data: z.array(AvailableNumberSchema) });

/**
 * POST /numbers (spec 002 §7: `company_id`, `provider_id`). The number to buy may come as
 * `number` (any format), or as the spec's company-creation number fields `national_number` or
 * `vanity` (letters become keypad digits); without any of them the server buys the first number
 * the carrier offers for the provider: provider 2 (toll-free registry) a toll-free number (prefix
 * `area_code`, default 8**), otherwise a local number in `area_code` (default: the area code of the
 * company's newest local number). docs/numbers.md "Buying with the spec's payload".
 */
export const BuyNumberInput = z.object({
  company_id: Id,
  provider_id: z.coerce.number().int().min(1).max(4),
  /** Service type (spec 002 "Number enumerations"): 1 voice and SMS (default), 2 fax (docs/fax.md). */
  service_type: z.coerce.number().int().min(1).max(2).optional(),
  number: z.string().min(1).max(40).optional(),
  national_number: z.string().min(1).max(40).optional(),
  vanity: z.string().min(1).max(40).optional(),
  area_code: z
    .string()
    .regex(/^(\d{3}|8\*\*)$/, 'The area code must be 3 digits.')
    .optional(),
});

/** The per-number call settings of spec 002 §3 "Number" (also set by number templates). */
export const NumberCallSettingsInput = z.object({
  record: z.boolean().optional(),
  call_transcription_enabled: z.boolean().optional(),
  ai_eav_enabled: z.boolean().optional(),
});

export const UpdateNumberInput = z
  .object({
    label: z.string().max(100).optional(),
    routes: z.array(RouteEntryInput).max(100).optional(),
    schedule: ScheduleInput.optional(),
    menu_replays: z.number().int().min(0).max(MENU_REPLAYS_MAX).optional(),
    menu_fallback: MenuFallbackSchema.optional(),
  })
  .extend(NumberCallSettingsInput.shape);

// ---------------------------------------------------------------- calls

/**
 * One step of a call's history. `status`/`status_label`: the call's status when the step was
 * recorded; `title`/`text`: what the step was, in words (docs/telephony.md "Call history").
 */
export const CallEventSchema = z.object({
  id: z.number(),
  status: z.number(),
  status_label: z.string(),
  detail: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  title: z.string().optional(),
  text: z.string().optional(),
});
export const VoicemailSchema = z.object({ id: z.number(), recording_url: z.string(), duration_s: z.number(), is_read: z.boolean(), created_at: z.string() });
export const CallSchema = z.object({
  id: z.number(),
  company_id: z.number(),
  number_id: z.number(),
  carrier_sid: z.string(),
  from: z.string(),
  to: z.string(),
  from_state: z.string().nullable(),
  direction: z.string(),
  status: z.number(),
  status_label: z.string(),
  extension: z.number().nullable(),
  forwarded_to: z.string().nullable(),
  duration_s: z.number(),
  contact_id: z.number().nullable(),
  started_at: z.string(),
  answered_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  history: z.array(CallEventSchema),
  voicemail: VoicemailSchema.nullable(),
});

// ---------------------------------------------------------------- blocks (spec 001 "Blocked caller")

export const BlockSchema = z.object({
  id: z.number(),
  company_id: z.number(),
  number_id: z.number().nullable(),
  target: z.string(),
  global: z.boolean(),
  action: z.string(),
  created_at: z.string(),
});
export const BlockListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(1000).default(50),
});
export const BlockListBody = z.object({ data: z.array(BlockSchema), meta: PageMeta });
export const CreateBlockInput = z.object({
  company_id: Id,
  target: z.string().min(1).max(40),
  number_id: Id.nullish(),
  global: z.boolean().default(true),
  action: z.string().max(40).default('reject'),
});
export const BlockCreatedBody = z.object({ message: z.string(), data: BlockSchema });

// ---------------------------------------------------------------- sandbox simulator

export const SimulateCallInput = z.object({
  from: z.string().min(1),
  to: z.string().min(1),
  digits: z
    .string()
    .regex(/^[0-9*#]*$/, 'Digits may hold 0-9, * and #.')
    .optional(),
  forwards: z.record(z.string(), z.enum(['answer', 'no-answer', 'busy'])).optional(),
  confirm: z.boolean().optional(),
  voicemail_seconds: z.number().int().min(0).max(600).optional(),
  talk_seconds: z.number().int().min(1).max(3600).optional(),
  /** What the caller and the agent say, spoken into the call's recording (docs/transcription.md "The sandbox loop"). */
  script: z.array(SimulatorScriptLine).max(40).optional(),
});
export const SimulatorLogEntry = z.object({ at: z.string(), step: z.string(), detail: z.string() });
export const SimulateCallBody = z.object({ sid: z.string(), status: z.string(), log: z.array(SimulatorLogEntry) });

export const SimulateMessageInput = z.object({
  from: z.string().min(1),
  to: z.string().min(1),
  body: z.string().max(1600).default(''),
  media_urls: z.array(z.string().url()).max(10).optional(),
});
export const HandsetMessageSchema = z.object({
  sid: z.string(),
  direction: z.enum(['inbound', 'outbound']),
  from: z.string(),
  to: z.string(),
  business_number: z.string(),
  body: z.string(),
  media: z.array(z.string()),
  status: z.string(),
  error_code: z.number().nullable(),
  created_at: z.string(),
});
export const SimulateMessageBody = z.object({ data: HandsetMessageSchema, webhook_status: z.number() });
export const HandsetParams = z.object({ number: z.string().min(1) });
export const HandsetMessagesBody = z.object({ data: z.array(HandsetMessageSchema) });
