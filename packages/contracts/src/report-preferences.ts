/**
 * zod schemas of report preferences: column presets (spec 001 "Column preset", "Column presets": the 14 report
 * kinds, `GET/POST /column-presets`, `GET/PUT/DELETE /column-presets/{id}`, the three success messages) and favourite
 * reports (spec 002 "Favorite report": `{id, value}` with `value` a JSON string; `GET, POST /favorite-reports`,
 * `PUT, DELETE /favorite-reports/{id}`). Decisions where the spec says "not shown": docs/alerts.md.
 */
import { z } from 'zod';
import { Id, Timestamp } from './common.js';

// ---- column presets ----

/** The report kinds of spec 001 "Column preset" (exact names). */
export const COLUMN_PRESET_KINDS = [
  'dashboard',
  'dashboard_messages',
  'dashboard_faxes',
  'dashboard_voicemails',
  'call_analytics_by_number',
  'by_forwarding_number',
  'by_duration',
  'by_unique_caller',
  'by_source',
  'by_tracking_pool',
  'by_missed_calls',
  'numbers',
  'call_flows',
  'call_tracking_pools',
] as const;
export const ColumnPresetKind = z.enum(COLUMN_PRESET_KINDS);
export type ColumnPresetKind = z.infer<typeof ColumnPresetKind>;

/** Success messages of spec 001 "Column presets". */
export const COLUMN_PRESET_CREATED = 'Column preset was successfully created';
export const COLUMN_PRESET_UPDATED = 'Column preset was successfully updated';
export const COLUMN_PRESET_REMOVED = 'Column preset was successfully removed';

/** Most columns one preset may hold; a column key is a report's column identifier (e.g. `answered`, `source`). */
export const MAX_PRESET_COLUMNS = 60;
const ColumnKey = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'A column key is letters, digits, "_", ".", ":" or "-".');

/**
 * A preset's `data` (spec: "id and data"): the chosen columns in display order, and optionally the column the table
 * is sorted by. Column keys are the report's own (the web's report tables define them); duplicates are refused.
 */
export const ColumnPresetData = z.object({
  columns: z
    .array(ColumnKey)
    .min(1, 'Choose at least one column.')
    .max(MAX_PRESET_COLUMNS)
    .refine((cols) => new Set(cols).size === cols.length, 'A column is listed twice.'),
  sort: z
    .object({ column: ColumnKey, dir: z.enum(['asc', 'desc']) })
    .nullish()
    .transform((v) => v ?? null),
});
export type ColumnPresetData = z.infer<typeof ColumnPresetData>;
/** The `data` of an answer (no transforms: response schemas are encoded). */
export const ColumnPresetDataOut = z.object({
  columns: z.array(z.string()),
  sort: z.object({ column: z.string(), dir: z.enum(['asc', 'desc']) }).nullable(),
});

/**
 * One preset. Scope: a company (`companyId`) or a business unit (`businessUnitId`, shared by all its companies);
 * exactly one is set. `userId` is who created it.
 */
export const ColumnPreset = z.object({
  id: z.number().int(),
  kind: ColumnPresetKind,
  name: z.string(),
  data: ColumnPresetDataOut,
  companyId: z.number().int().nullable(),
  businessUnitId: z.number().int().nullable(),
  userId: z.number().int().nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type ColumnPreset = z.infer<typeof ColumnPreset>;

/**
 * `GET /column-presets`: `companyId` lists the company's presets and its business unit's; `businessUnitId` lists the
 * business unit's own. `kind` narrows to one report kind. One of `companyId`/`businessUnitId` is required (422).
 */
export const ColumnPresetListQuery = z.object({
  companyId: Id.optional(),
  company_id: Id.optional(),
  businessUnitId: Id.optional(),
  business_unit_id: Id.optional(),
  kind: ColumnPresetKind.optional(),
});
export const ColumnPresetList = z.object({ data: z.array(ColumnPreset) });
export const ColumnPresetBody = z.object({ data: ColumnPreset });

/** `POST /column-presets`: exactly one of `companyId` / `businessUnitId`. */
export const CreateColumnPresetInput = z.object({
  kind: ColumnPresetKind,
  name: z.string().trim().min(1, 'The name field is required.').max(100),
  data: ColumnPresetData,
  companyId: Id.optional(),
  businessUnitId: Id.optional(),
});
export type CreateColumnPresetInput = z.input<typeof CreateColumnPresetInput>;

/** `PUT /column-presets/{id}`: the name and/or the data (kind and scope do not change). */
export const UpdateColumnPresetInput = z.object({
  name: z.string().trim().min(1, 'The name field is required.').max(100).optional(),
  data: ColumnPresetData.optional(),
});
export type UpdateColumnPresetInput = z.input<typeof UpdateColumnPresetInput>;

/** Answer of create/update: the spec's message and the preset. */
export const ColumnPresetSaved = z.object({ message: z.string(), data: ColumnPreset });

// ---- favourite reports ----

/** Largest `value` accepted (characters of the JSON text). */
export const MAX_FAVORITE_VALUE_LENGTH = 16_000;

/**
 * What a favourite's `value` holds once parsed (not shown in the spec; docs/alerts.md "Favourite reports"): a name,
 * the app path it reopens (`/dashboard`, `/reports`, `/tracking/reports`…, a relative in-app path only), and the
 * screen's state: filters (flat object of scalars or lists of scalars), grouping and columns.
 */
export const FavoriteReportState = z.object({
  name: z.string().trim().min(1, 'The name field is required.').max(100),
  path: z
    .string()
    .max(200)
    .regex(/^\/(?!\/)[A-Za-z0-9/_-]*$/, 'The path must be a path of this app, like /reports.'),
  filters: z
    .record(z.string().max(64), z.union([z.string().max(500), z.number(), z.boolean(), z.null(), z.array(z.union([z.string().max(200), z.number()])).max(500)]))
    .default({}),
  grouping: z
    .string()
    .max(64)
    .nullish()
    .transform((v) => v ?? null),
  columns: z.array(ColumnKey).max(MAX_PRESET_COLUMNS).default([]),
});
export type FavoriteReportState = z.infer<typeof FavoriteReportState>;
export type FavoriteReportStateInput = z.input<typeof FavoriteReportState>;

/** Parses a favourite's `value` text; null when it is not JSON of the {@link FavoriteReportState} shape. */
export function parseFavoriteValue(value: string): FavoriteReportState | null {
  let raw: unknown;
  try {
    raw = JSON.parse(value);
  } catch (e) {
    if (e instanceof SyntaxError) return null;
    throw e;
  }
  const r = FavoriteReportState.safeParse(raw);
  return r.success ? r.data : null;
}

/** The `value` field: a JSON string of {@link FavoriteReportState}, at most {@link MAX_FAVORITE_VALUE_LENGTH} characters. */
const FavoriteValue = z
  .string()
  .min(2, 'The value field is required.')
  .max(MAX_FAVORITE_VALUE_LENGTH, `The value may not be greater than ${MAX_FAVORITE_VALUE_LENGTH} characters.`)
  .refine((v) => parseFavoriteValue(v) !== null, 'The value must be a JSON object with a name, an app path, filters, grouping and columns.');

/** A favourite report (spec 002: id, value); per user and company. */
export const FavoriteReport = z.object({
  id: z.number().int(),
  value: z.string(),
  companyId: z.number().int(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type FavoriteReport = z.infer<typeof FavoriteReport>;

export const FavoriteReportListQuery = z.object({ companyId: Id.optional(), company_id: Id.optional() });
export const FavoriteReportList = z.object({ data: z.array(FavoriteReport) });
export const CreateFavoriteReportInput = z.object({ companyId: Id, value: FavoriteValue });
export type CreateFavoriteReportInput = z.input<typeof CreateFavoriteReportInput>;
export const UpdateFavoriteReportInput = z.object({ value: FavoriteValue });
export type UpdateFavoriteReportInput = z.input<typeof UpdateFavoriteReportInput>;
export const FavoriteReportSaved = z.object({ message: z.string(), data: FavoriteReport });

/** Messages of the favourite calls (not shown in the spec). */
export const FAVORITE_REPORT_SAVED = 'Favorite report saved';
export const FAVORITE_REPORT_UPDATED = 'Favorite report updated';
export const FAVORITE_REPORT_DELETED = 'Favorite report deleted';
/** Most favourites one person keeps in one company. */
export const MAX_FAVORITE_REPORTS = 100;
