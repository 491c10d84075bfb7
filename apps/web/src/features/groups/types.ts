/** Shapes of the groups endpoints (spec 001 §3 "Contact group"; GET /api/groups), inferred from packages/contracts. */
import type { ContactGroup as ContactGroupSchema, Infer } from '@switchboard/contracts';

/** A group; `active_count` = members neither unsubscribed nor invalid. */
export type ContactGroup = Infer<typeof ContactGroupSchema>;
