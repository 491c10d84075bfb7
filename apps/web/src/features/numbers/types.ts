/** Shapes of the numbers endpoints (spec 002 §3 "Number"; docs/numbers.md), inferred from packages/contracts. */
import type {
  AvailableNumberSchema,
  BatchSchema,
  BatchStartedBody,
  GreetingAssignmentSchema,
  Infer,
  Input,
  NumberDatatableQuery,
  NumberDetailSchema,
  NumberOverrideBody,
  NumberSchema,
  NumberSearchQuery,
  TriggerSchema,
} from '@switchboard/contracts';
import { TRIGGER_ACTIONS, TRIGGER_EVENTS } from '@switchboard/contracts';
import type { Forward, RouteEntry, Schedule } from '@switchboard/domain';

export type { PageMeta } from '@switchboard/contracts';
export { TRIGGER_ACTIONS, TRIGGER_EVENTS };

/**
 * The routing editor works on the domain's `RouteEntry`/`Schedule` (packages/domain: narrower
 * presets and route types); the contract's route and schedule schemas are their wire form.
 */
type WithDomainRouting<T> = Omit<T, 'routes' | 'schedule'> & { routes: RouteEntry[]; schedule: Schedule };

/** A number the company owns, with its routing setup, schedule and the spec's fields (custom-field values included). */
export type PhoneNumber = WithDomainRouting<Infer<typeof NumberSchema>>;

/** GET /api/numbers/{id}: the number with its custom-field values (entity type Number 1). */
export type NumberWithValues = PhoneNumber;

/** A forward as the routing editor keeps it: geo forwards carry the two-letter states they serve. */
export type EditorForward = Forward & { states?: string[] | null };

/** The number detail (GET /api/numbers/list/{id}): labels of spec 002 §3 and the triggers. */
export type NumberDetail = WithDomainRouting<Infer<typeof NumberDetailSchema>>;

/** An automation on a number's events (docs/numbers.md "Triggers"). */
export type Trigger = Infer<typeof TriggerSchema>;

/** A background batch (release, bulk update, bulk purchase). */
export type NumberBatch = Infer<typeof BatchSchema>;

/** 202 answer of the batch-starting calls. */
export type BatchStarted = Infer<typeof BatchStartedBody>;

/** A number offered by the carrier's inventory (GET /api/numbers/search). */
export type AvailableNumber = Infer<typeof AvailableNumberSchema>;

/** Search parameters of GET /api/numbers/search (as sent). */
export type NumberSearchParams = Input<typeof NumberSearchQuery>;

/** Datatable filters and sort (GET /companies/{companyId}/numbers/datatable). */
export type NumberTableQuery = Infer<typeof NumberDatatableQuery>;

/** A greeting the routing editor can assign (handed in by the app from the greetings feature). */
export interface GreetingOption {
  value: string;
  label: string;
}

/** Greeting assignment of a number (GET/PUT /api/numbers/{id}/greetings); extension 0 = the menu. */
export type GreetingAssignment = Infer<typeof GreetingAssignmentSchema>;

/** Manual open/closed override of a number (PUT /api/numbers/{id}/override). */
export type NumberOverride = Infer<typeof NumberOverrideBody>['data'];
