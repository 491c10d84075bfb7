/** Shapes of GET /api/activity (spec 001 §3 "Activity item"), inferred from packages/contracts. */
import type { ActivityFilter as ActivityFilterSchema, ActivityItem, ActivityList, Infer } from '@switchboard/contracts';

export type { ActivityItem };
export type ActivityKindShown = ActivityItem['kind'];

/** Which kinds the feed shows (the query's type flags the page offers). */
export type ActivityFilter = Pick<Infer<typeof ActivityFilterSchema>, 'calls' | 'voicemails' | 'messages'>;

export type ActivityPage = Infer<typeof ActivityList>;
