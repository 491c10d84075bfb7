/**
 * Number administration payloads (spec 002 §3 "Number", §7 "Numbers", "Number templates", "Ports";
 * docs/numbers.md): locate, detail, datatable and export, batches (release, bulk update, bulk
 * purchase), prefixes and patterns, overlays, forward contacts, number limit, extension suggestions,
 * triggers, templates and port-in requests. Times are ISO-8601 strings (UTC).
 */
import { z } from 'zod';
import { Id, PageMeta } from './common.js';
import {
  NumberCallSettingsInput,
  NumberSchema,
  RouteEntryInput,
  RouteEntrySchema,
  ScheduleInput,
  ScheduleSchema,
  TRIGGER_ACTIONS,
  TRIGGER_EVENTS,
  TriggerSchema,
} from './telephony.js';

// ---------------------------------------------------------------- number detail and locate

/** A number with its labels (spec 002 §3 tables); the spec's fields (triggers, sms_verification, ...) are on every number. */
export const NumberDetailSchema = NumberSchema.extend({
  service_type: z.number(),
  category_label: z.string(),
  provider_label: z.string(),
});
export type NumberDetailDto = z.infer<typeof NumberDetailSchema>;
/** `POST /numbers/{id}/rotate`: the number after the swap and the number it replaced. */
export const RotateBody = z.object({ message: z.string(), previous_number: z.string(), data: NumberDetailSchema });

export const NumberListParams = z.object({ idOrNumber: z.string().min(1).max(40) });
export const NumberListQuery = z.object({ include: z.string().max(200).optional() });

export const LocateInput = z.object({ number: z.string().min(1).max(40) });
export const LocateResult = z.object({
  number: z.string(),
  national_number: z.string(),
  /** The caller's company's number with this E.164, if any. */
  owned: NumberDetailSchema.nullable(),
  /** Whether the carrier offers this number for purchase now. */
  available: z.boolean(),
});
export const LocateBulkInput = z.object({ numbers: z.array(z.string().min(1).max(40)).min(1).max(100) });
export const LocateBulkBody = z.object({ data: z.array(LocateResult) });

// ---------------------------------------------------------------- batches

export const BATCH_KINDS = ['release', 'update', 'purchase'] as const;
export const BatchItemSchema = z.object({
  key: z.string(),
  status: z.enum(['pending', 'done', 'failed']),
  error: z.string().nullable().optional(),
  number_id: z.number().nullable().optional(),
});
export const BatchSchema = z.object({
  id: z.string(),
  company_id: z.number(),
  kind: z.enum(BATCH_KINDS),
  total: z.number(),
  done: z.number(),
  failed: z.number(),
  progress: z.number(),
  items: z.array(BatchItemSchema),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export const BatchStartedBody = z.object({ message: z.string(), batchId: z.string(), data: BatchSchema });
export const BatchParams = z.object({ companyId: Id, batchId: z.string().uuid() });
export const RemoveBulkInput = z.object({ ids: z.array(Id).min(1).max(1000) });
export const BulkUpdateInput = z.object({
  ids: z.array(Id).min(1).max(1000),
  label: z.string().max(100).optional(),
  routes: z.array(RouteEntryInput).max(100).optional(),
  schedule: ScheduleInput.optional(),
});
export const BulkPurchaseInput = z.object({
  company_id: Id,
  numbers: z
    .array(z.object({ number: z.string().min(1).max(40), provider_id: z.coerce.number().int().min(1).max(4) }))
    .min(1)
    .max(100),
});
/** Live events: progress 0..100 (whole percent), completion with the finish time. */
export const BatchProgressEvent = z.object({ batchId: z.string(), progress: z.number() });
export const BatchCompletedEvent = z.object({ batchId: z.string(), finishedAt: z.string(), done: z.number(), failed: z.number() });

// ---------------------------------------------------------------- datatable and export

export const NUMBER_SORT_COLUMNS = ['number', 'label', 'created_at', 'type'] as const;
const DatatableFilters = z.object({
  search: z.string().max(100).optional(),
  type: z.coerce.number().int().min(1).max(4).optional(),
  label: z.string().max(100).optional(),
});
export const NumberDatatableQuery = DatatableFilters.extend({
  page: z.coerce.number().int().min(1).default(1),
  perPage: z.coerce.number().int().min(1).max(100).default(25),
  sort: z.enum(NUMBER_SORT_COLUMNS).default('created_at'),
  dir: z.enum(['asc', 'desc']).default('desc'),
  filters: DatatableFilters.optional(),
});
export const NumberDatatableBody = z.object({ data: z.array(NumberDetailSchema), meta: PageMeta });
export const NumberExportInput = DatatableFilters.extend({
  sort: z.enum(NUMBER_SORT_COLUMNS).default('created_at'),
  dir: z.enum(['asc', 'desc']).default('desc'),
  filters: DatatableFilters.optional(),
});

// ---------------------------------------------------------------- prefixes, patterns, overlays, labels

export const NumberPrefixesBody = z.object({ data: z.array(z.object({ value: z.string(), label: z.string() })) });
export const NumberPatternsBody = z.object({
  data: z.array(z.object({ pattern: z.string(), digits: z.string(), mode: z.enum(['contains', 'starts_with', 'ends_with']), description: z.string() })),
});
export const OverlayParams = z.object({ areaCode: z.string().regex(/^\d{3}$/, 'The area code must be 3 digits.') });
export const OverlayBody = z.object({ data: z.array(z.string()) });
const LabelRow = z.object({ id: z.number(), label: z.string() });
/**
 * GET /numbers/enumerations. `number_types` are keyed by a number's `type` (1 local, 2 toll free,
 * 3 Canadian) and carry the `type_label` a voice-and-SMS number of that type shows (fax numbers
 * show "Fax number"); `number_type_labels` is the spec's label table keyed by its own ids (2 Local,
 * 1 Toll-Free, 3 Fax, 4 Bulk), each with the number `types` it labels (docs/domain-decisions.md
 * "Number type labels").
 */
export const NumberEnumerationsBody = z.object({
  number_types: z.array(LabelRow.extend({ type_label: z.string() })),
  number_type_labels: z.array(LabelRow.extend({ types: z.array(z.number()) })),
  service_types: z.array(LabelRow),
  categories: z.array(LabelRow),
  providers: z.array(LabelRow),
});

// ---------------------------------------------------------------- forward contacts

export const ForwardContactSchema = z.object({
  id: z.number(),
  company_id: z.number(),
  name: z.string(),
  number: z.string(),
  national_number: z.string(),
  created_at: z.string(),
});
export const ForwardContactInput = z.object({ name: z.string().trim().min(1).max(100), number: z.string().min(1).max(40) });
/** `{companyId}` and an entity `{id}` of it (forward contacts, triggers). */
export const ForwardContactParams = z.object({ companyId: Id, id: Id });
export const ForwardContactListBody = z.object({ data: z.array(ForwardContactSchema) });
export const ForwardContactBody = z.object({ message: z.string(), data: ForwardContactSchema });
export const ForwardContactUsageBody = z.object({
  data: z.array(z.object({ number_id: z.number(), number: z.string(), label: z.string(), extension: z.number(), route_label: z.string() })),
});

// ---------------------------------------------------------------- number limit

export const NumberLimitBody = z.object({ limit: z.number(), used: z.number() });
export const NumberLimitIncreaseInput = z.object({ requested_limit: z.coerce.number().int().min(1).max(100000), reason: z.string().trim().min(1).max(2000) });

// ---------------------------------------------------------------- extension suggestions

export const ExtensionSuggestionsQuery = z.object({ number_id: Id.optional(), perPage: z.coerce.number().int().min(1).max(100).default(10) });
export const ExtensionSuggestionsBody = z.object({ data: z.array(z.number()) });

// ---------------------------------------------------------------- triggers

export const TriggersInput = z.object({
  upsert: z
    .array(
      z.object({
        id: Id.optional(),
        number_id: Id,
        event: z.enum(TRIGGER_EVENTS),
        action: z.enum(TRIGGER_ACTIONS),
        target: z.string().trim().min(1).max(500),
      }),
    )
    .max(200)
    .default([]),
  remove: z.array(Id).max(200).default([]),
});
export const TriggerListBody = z.object({ message: z.string().optional(), data: z.array(TriggerSchema) });
/** `POST /companies/{companyId}/triggers/{id}/test`: how the test firing went (docs/numbers.md "Triggers"). */
export const TriggerTestBody = z.object({
  message: z.string(),
  data: z.object({ state: z.enum(['pending', 'delivered', 'failed']), status_code: z.number().nullable(), error: z.string().nullable() }),
});
/** `GET /companies/{companyId}/triggers/{id}/secret`: a webhook trigger's Standard Webhooks signing secret. */
export const TriggerSecretBody = z.object({ data: z.object({ secret: z.string() }) });

// ---------------------------------------------------------------- number templates

export const NumberTemplateSchema = z.object({
  id: z.number(),
  company_id: z.number(),
  name: z.string(),
  routes: z.array(RouteEntrySchema),
  schedule: ScheduleSchema,
  record: z.boolean(),
  call_transcription_enabled: z.boolean(),
  ai_eav_enabled: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export const NumberTemplateInput = z
  .object({
    name: z.string().trim().min(1).max(100),
    routes: z.array(RouteEntryInput).max(100).optional(),
    schedule: ScheduleInput.optional(),
  })
  .extend(NumberCallSettingsInput.shape);
export const NumberTemplateUpdateInput = NumberTemplateInput.partial();
export const NumberTemplateParams = z.object({ companyId: Id, id: Id });
/**
 * DELETE /companies/{companyId}/numberTemplates (spec 002 §7, on the collection): the template ids
 * in the body `{ids: [...]}` or in the query (`ids[]=1&ids[]=2`, or `ids=1,2`).
 */
export const NumberTemplateIdsInput = z.object({ ids: z.array(Id).min(1).max(1000) });
export const NumberTemplateIdsQuery = z.object({ ids: z.union([z.array(z.string().max(20)).max(1000), z.string().max(20000)]).optional() });
export const NumberTemplatesDeletedBody = z.object({ message: z.string(), ids: z.array(z.number()) });
export const NumberTemplateListBody = z.object({ data: z.array(NumberTemplateSchema) });
export const NumberTemplateBody = z.object({ message: z.string(), data: NumberTemplateSchema });
export const ApplyTemplateInput = z.object({ number_ids: z.array(Id).min(1).max(1000) });
export const ApplyTemplateBody = z.object({ message: z.string(), data: z.array(NumberSchema) });

// ---------------------------------------------------------------- ports

export const PORT_STATES = ['submitted', 'in_progress', 'completed', 'rejected'] as const;
export const PortRequestSchema = z.object({
  id: z.number(),
  company_id: z.number(),
  numbers: z.array(z.string()),
  carrier_name: z.string(),
  account_number: z.string(),
  authorized_name: z.string(),
  service_address: z.string(),
  has_bill_copy: z.boolean(),
  state: z.enum(PORT_STATES),
  state_label: z.string(),
  reason: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  completed_at: z.string().nullable(),
});
export const PortRequestInput = z.object({
  numbers: z.array(z.string().min(1).max(40)).min(1).max(100),
  carrier_name: z.string().trim().min(1).max(100),
  account_number: z.string().trim().min(1).max(50),
  pin: z.string().trim().min(1).max(20),
  authorized_name: z.string().trim().min(1).max(100),
  service_address: z.string().trim().min(1).max(300),
  bill_copy: z.string().max(5_000_000).nullish(),
});
export const PortListBody = z.object({ data: z.array(PortRequestSchema) });
export const PortCreatedBody = z.object({ message: z.string(), data: PortRequestSchema });
export const PortUpdatedEvent = z.object({ id: z.number(), state: z.enum(PORT_STATES), reason: z.string().nullable(), numbers: z.array(z.string()) });
