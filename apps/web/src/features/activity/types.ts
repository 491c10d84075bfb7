/** Shapes of GET /api/activity (spec 001 §3 "Activity item", §7 "GET /activity"), inferred from packages/contracts. */
import type { ActivityItem, ActivityList, AnswerStatusName, CallReportFiltersInput, Infer } from '@switchboard/contracts';

export type { ActivityItem };
export type ActivityKindShown = ActivityItem['kind'];

/** The type flags of the feed (spec 001 §7: calls, voicemails, messages, faxes on; notes off) and call-tracking matches. */
export interface ActivityTypeFlags {
  calls: boolean;
  voicemails: boolean;
  messages: boolean;
  faxes: boolean;
  notes: boolean;
  trackingmatch: boolean;
}

/** The report filters the activity screen offers (a subset of GET /analytics/calls's), as the screen holds them. */
export interface ActivityReportFilters {
  from: string | null;
  to: string | null;
  number_ids: number[];
  answerStatus: AnswerStatusName[];
  isFirstContact: boolean | null;
  trafficSource: string[];
  /** Seconds. */
  minDuration: number | null;
}

/** Everything the feed is filtered by: type flags, one tracked visit (`dniSessionId`) and report filters. */
export interface ActivityFilter extends ActivityTypeFlags {
  dniSessionId: string | null;
  report: ActivityReportFilters;
}

/** The `filter` object sent to GET /api/activity. */
export type ActivityFilterBody = Partial<ActivityTypeFlags> & CallReportFiltersInput & { dniSessionId?: string | number };

export type ActivityPage = Infer<typeof ActivityList>;
