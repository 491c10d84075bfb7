/** Shapes of the custom-field endpoints (spec 001 §3 "Custom field (EAV attribute)"), inferred from packages/contracts. */
import type { EavAttribute, EavChoice, EavCountStats, Infer, Input } from '@switchboard/contracts';
import { EAV_ATTRIBUTE_TYPES } from '@switchboard/contracts';

export const VALUE_TYPES = EAV_ATTRIBUTE_TYPES;
export type ValueType = (typeof VALUE_TYPES)[number];

/** A choice as the editor sends it (id when it exists already). */
export type Choice = Input<typeof EavChoice>;
export type Attribute = EavAttribute;
export type CountStats = Infer<typeof EavCountStats>['data'];
