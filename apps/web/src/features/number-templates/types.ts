/** Number templates (spec 002 §5 "Number templates"; docs/numbers.md), inferred from packages/contracts. */
import type { RouteEntry, Schedule } from '@switchboard/domain';
import type { Infer, Input, NumberTemplateInput, NumberTemplateSchema } from '@switchboard/contracts';

/**
 * The routing editor works on the domain's `RouteEntry`/`Schedule` (packages/domain: narrower
 * presets and route types); the contract's route and schedule schemas are their wire form.
 */
type WithDomainRouting<T> = Omit<T, 'routes' | 'schedule'> & { routes: RouteEntry[]; schedule: Schedule };

export type NumberTemplate = WithDomainRouting<Infer<typeof NumberTemplateSchema>>;
export type TemplateInput = Omit<Input<typeof NumberTemplateInput>, 'routes' | 'schedule'> & { routes?: RouteEntry[]; schedule?: Schedule };

/** A company number the page can copy routing from or apply a template to (handed in by the app). */
export interface TemplateNumber {
  id: number;
  label: string;
  routes: RouteEntry[];
}
