/** Shapes of the numbers endpoints (spec 002 §3 "Number"; docs/numbers.md). */
import type { MenuFallback } from '@switchboard/contracts';
import type { Forward, RouteEntry, Schedule } from '@switchboard/domain';

/** A number the company owns, with its routing setup and schedule. */
export interface PhoneNumber {
  id: number;
  company_id: number;
  /** E.164. */
  number: string;
  national_number: string;
  label: string | null;
  type: string | number;
  type_label: string;
  routes: RouteEntry[];
  schedule: Schedule;
  route_type: string;
  schedule_label: string;
  /** Menu replays after an invalid or missing key (0 to 5), then `menu_fallback` (docs/telephony.md "Menu replays and fallback"). */
  menu_replays?: number;
  menu_fallback?: MenuFallback;
  created_at?: string;
}

/** GET /api/numbers/{id}: the number with its custom-field values (entity type Number 1). */
export interface NumberWithValues extends PhoneNumber {
  eavAttributeValues: Array<{ attribute_id: number; value: unknown; name: string; type: string }>;
}

/** A forward as the routing editor keeps it: geo forwards carry the two-letter states they serve. */
export type EditorForward = Forward & { states?: string[] | null };

/** The number detail (GET /api/numbers/list/{id}): labels of spec 002 §3 and the triggers. */
export interface NumberDetail extends PhoneNumber {
  service_type: number;
  category_label: string;
  provider_label: string;
  sms_enabled: boolean;
  triggers?: Trigger[];
  sms_verification?: { status: string };
}

/** Paging meta of the datatable (spec 002: current_page, total, last_page). */
export interface PageMeta {
  current_page: number;
  per_page: number;
  total: number;
  last_page: number;
}

export const TRIGGER_EVENTS = ['call.missed', 'call.voicemail', 'sms.received'] as const;
export const TRIGGER_ACTIONS = ['email', 'webhook'] as const;

/** An automation on a number's events (docs/numbers.md "Triggers"). */
export interface Trigger {
  id: number;
  number_id: number;
  event: (typeof TRIGGER_EVENTS)[number];
  action: (typeof TRIGGER_ACTIONS)[number];
  target: string;
  created_at: string;
}

/** A background batch (release, bulk update, bulk purchase). */
export interface NumberBatch {
  id: string;
  company_id: number;
  kind: 'release' | 'update' | 'purchase';
  total: number;
  done: number;
  failed: number;
  progress: number;
  items: { key: string; status: 'pending' | 'done' | 'failed'; error?: string | null; number_id?: number | null }[];
  created_at: string;
  finished_at: string | null;
}

/** 202 answer of the batch-starting calls. */
export interface BatchStarted {
  message: string;
  batchId: string;
  data: NumberBatch;
}

/** A number offered by the carrier's inventory (GET /api/numbers/search). */
export interface AvailableNumber {
  number: string;
  national_number: string;
  type: 'local' | 'toll_free' | string;
  region: string | null;
  locality: string | null;
  provider_id: string | number;
}

/** Search parameters of GET /api/numbers/search. */
export interface NumberSearchParams {
  type: 'local' | 'toll_free';
  areaCode?: string;
  prefix?: string;
  mode?: string;
  pattern?: string;
  limit?: number;
}

/** Datatable filters and sort (GET /companies/{companyId}/numbers/datatable). */
export interface NumberTableQuery {
  page: number;
  perPage: number;
  sort: 'number' | 'label' | 'created_at' | 'type';
  dir: 'asc' | 'desc';
  search?: string;
  type?: number;
  label?: string;
}

/** A greeting the routing editor can assign (handed in by the app from the greetings feature). */
export interface GreetingOption {
  value: string;
  label: string;
}

/** Greeting assignment of a number (GET/PUT /api/numbers/{id}/greetings); extension 0 = the menu. */
export interface GreetingAssignment {
  extension: number;
  kind: 'menu' | 'voicemail' | 'whisper';
  greeting_id: number;
}

/** Manual open/closed override of a number (PUT /api/numbers/{id}/override). */
export interface NumberOverride {
  number_id: number;
  mode: 'auto' | 'open' | 'closed';
  until: string | null;
  is_open: boolean;
}
