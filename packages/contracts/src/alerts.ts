/**
 * zod schemas of alerts (spec 001 "Alert", "Alerts": `GET /monitoring/alerts` perPage 10, company or businessUnitId,
 * companyIds, filters; `GET /monitoring/alerts/counts`; `GET/PUT /monitoring/alerts/{id}` (state, comment, reason;
 * "Alert updated successfully"); `GET /monitoring/alerts/{id}/history`), the monitors' settings and live events.
 * What raises an alert and the fields beyond the spec's are decisions recorded in docs/alerts.md.
 */
import { z } from 'zod';
import { Id, PageMeta, Timestamp, TimestampText } from './common.js';

/** The monitors (not shown in the spec; docs/alerts.md "Monitors"). */
export const ALERT_TYPES = ['missed_calls', 'number_silent', 'pool_exhausted', 'delivery_failures', 'carrier_error', 'voicemail_unanswered'] as const;
export const AlertType = z.enum(ALERT_TYPES);
export type AlertType = z.infer<typeof AlertType>;

/** Labels a person reads for each monitor. */
export const ALERT_TYPE_LABELS: Record<AlertType, string> = {
  missed_calls: 'Missed calls',
  number_silent: 'Number without calls',
  pool_exhausted: 'Tracking pool exhausted',
  delivery_failures: 'Campaign deliveries failing',
  carrier_error: 'Carrier error repeating',
  voicemail_unanswered: 'Voicemail unanswered',
};

/**
 * An alert's states: `open` (new), `acknowledged` (someone is on it), `resolved`, `dismissed` (with a reason). `open`
 * and `acknowledged` are active: a subject has at most one active alert.
 */
export const ALERT_STATES = ['open', 'acknowledged', 'resolved', 'dismissed'] as const;
export const AlertState = z.enum(ALERT_STATES);
export type AlertState = z.infer<typeof AlertState>;
export const ACTIVE_ALERT_STATES: readonly AlertState[] = ['open', 'acknowledged'];

/** Dismiss reasons of spec 001 "Alert" (exact). */
export const ALERT_DISMISS_REASONS = ['not-relevant', 'already-aware', 'duplicate', 'other'] as const;
export const AlertDismissReason = z.enum(ALERT_DISMISS_REASONS);
export type AlertDismissReason = z.infer<typeof AlertDismissReason>;
export const ALERT_DISMISS_REASON_LABELS: Record<AlertDismissReason, string> = {
  'not-relevant': 'Not relevant',
  'already-aware': 'Already aware',
  duplicate: 'Duplicate',
  other: 'Other',
};

export const ALERT_SEVERITIES = ['warning', 'critical'] as const;
export const AlertSeverity = z.enum(ALERT_SEVERITIES);

/** Success message on update (spec 001 "Alerts"). */
export const ALERT_UPDATED = 'Alert updated successfully';
/** Alerts page size (spec 001 §9). */
export const ALERTS_PAGE_SIZE = 10;

/** What an alert is about: the subject it is raised once for (a number, a pool, a campaign, a voicemail…). */
export const AlertSubject = z.object({
  type: z.enum(['company', 'number', 'pool', 'campaign', 'carrier_error', 'voicemail']),
  id: z.string(),
  label: z.string(),
});

export const Alert = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  companyName: z.string(),
  type: AlertType,
  severity: AlertSeverity,
  state: AlertState,
  title: z.string(),
  message: z.string(),
  subject: AlertSubject,
  /** The figures that raised it (monitor-specific: counts, thresholds, window). */
  details: z.record(z.string(), z.unknown()),
  reason: AlertDismissReason.nullable(),
  comment: z.string().nullable(),
  /** When a person first opened it (null: unread). */
  readAt: Timestamp.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  resolvedAt: Timestamp.nullable(),
});
export type Alert = z.infer<typeof Alert>;

const IdList = z.preprocess((v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v), z.array(Id).max(500));
const EnumList = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v), z.array(z.enum(values)).max(20));

/** The list's filters: `state`, `type`, `severity` (comma lists or arrays), `search`, `from`/`to`. */
const alertFilterFields = {
  state: EnumList(ALERT_STATES).optional(),
  type: EnumList(ALERT_TYPES).optional(),
  severity: EnumList(ALERT_SEVERITIES).optional(),
  search: z.string().trim().max(200).optional(),
  from: TimestampText.optional(),
  to: TimestampText.optional(),
};

/**
 * The spec's `filters` object of `GET /monitoring/alerts` (spec 001 §7 "Alerts": "…, companyIds, filters"): a bracket
 * object (`filters[state]=open,acknowledged&filters[search]=pool`) or a JSON text (`filters={"type":["missed_calls"]}`)
 * holding the same keys as the flat parameters. An unknown key is refused (422), so a misspelt filter is never silently
 * ignored.
 */
export const AlertListFilters = z.preprocess((v) => {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch (error) {
    if (error instanceof SyntaxError) return v; // not JSON: left for the schema to refuse (422)
    throw error;
  }
}, z.strictObject(alertFilterFields).optional());
export type AlertListFilters = z.infer<typeof AlertListFilters>;

/**
 * `GET /monitoring/alerts`: `company` (or `companyId`/`company_id`) or `businessUnitId` (all its companies the caller
 * belongs to, narrowed by `companyIds`); filters `state`, `type`, `severity` (comma lists), `search` (title, message,
 * subject), `from`/`to` (created, UTC dates or timestamps), flat or in the spec's `filters` object
 * ({@link AlertListFilters}; a key given both ways takes the `filters` value); `page`, `perPage` (default 10, at most 100).
 */
export const AlertListQuery = z.object({
  company: Id.optional(),
  companyId: Id.optional(),
  company_id: Id.optional(),
  businessUnitId: Id.optional(),
  companyIds: IdList.optional(),
  ...alertFilterFields,
  filters: AlertListFilters,
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  perPage: z.coerce.number().int().min(1).max(100).default(ALERTS_PAGE_SIZE),
});
export type AlertListQuery = z.input<typeof AlertListQuery>;
export const AlertListBody = z.object({ data: z.array(Alert), meta: PageMeta });

/** `GET /monitoring/alerts/counts`: the same scope as the list (no filters). */
export const AlertCountsQuery = AlertListQuery.pick({ company: true, companyId: true, company_id: true, businessUnitId: true, companyIds: true });
export const AlertCounts = z.object({
  open: z.number().int(),
  acknowledged: z.number().int(),
  resolved: z.number().int(),
  dismissed: z.number().int(),
  /** Active alerts nobody opened yet. */
  unread: z.number().int(),
  total: z.number().int(),
  byType: z.record(z.string(), z.number().int()),
});
export type AlertCounts = z.infer<typeof AlertCounts>;
export const AlertCountsBody = z.object({ data: AlertCounts });
export const AlertBody = z.object({ data: Alert });

/**
 * `PUT /monitoring/alerts/{id}`: state, comment, reason. Dismissing needs a reason (422); the reason `other` needs a
 * comment; a reason is only taken with the state `dismissed`.
 */
export const UpdateAlertInput = z
  .object({
    state: AlertState.optional(),
    comment: z.string().trim().max(2000).nullish(),
    reason: AlertDismissReason.nullish(),
  })
  .superRefine((v, c) => {
    if (v.state === 'dismissed' && !v.reason)
      c.addIssue({ code: 'custom', path: ['reason'], message: 'The reason field is required when dismissing an alert.' });
    if (v.reason && v.state !== 'dismissed') c.addIssue({ code: 'custom', path: ['reason'], message: 'A reason is only given when dismissing an alert.' });
    if (v.reason === 'other' && !v.comment)
      c.addIssue({ code: 'custom', path: ['comment'], message: 'The comment field is required when the reason is other.' });
    if (v.state === undefined && v.comment === undefined) c.addIssue({ code: 'custom', path: ['state'], message: 'Nothing to update.' });
  });
export type UpdateAlertInput = z.input<typeof UpdateAlertInput>;
export const AlertUpdatedBody = z.object({ message: z.string(), data: Alert });

/** One change in an alert's life, kept for ever: who (null = the monitor) and when. */
export const AlertHistoryEntry = z.object({
  id: z.number().int(),
  alertId: z.number().int(),
  action: z.enum(['created', 'read', 'updated', 'resolved', 'reopened']),
  fromState: AlertState.nullable(),
  toState: AlertState.nullable(),
  reason: AlertDismissReason.nullable(),
  comment: z.string().nullable(),
  userId: z.number().int().nullable(),
  userName: z.string().nullable(),
  createdAt: Timestamp,
});
export type AlertHistoryEntry = z.infer<typeof AlertHistoryEntry>;
export const AlertHistoryBody = z.object({ data: z.array(AlertHistoryEntry) });

// ---- monitor settings (not in the spec; docs/alerts.md) ----

export const MonitorSettings = z.object({
  missedCalls: z.object({
    enabled: z.boolean(),
    /** Alert when missed calls exceed this share (%) of the last hour's inbound calls… */
    percent: z.number().int().min(1).max(100),
    /** …and there were at least this many inbound calls in that hour. */
    minCalls: z.number().int().min(1).max(10_000),
  }),
  numberSilent: z.object({ enabled: z.boolean(), days: z.number().int().min(1).max(365) }),
  poolExhausted: z.object({ enabled: z.boolean() }),
  deliveryFailures: z.object({
    enabled: z.boolean(),
    percent: z.number().int().min(1).max(100),
    minMessages: z.number().int().min(1).max(100_000),
    windowMinutes: z.number().int().min(5).max(1440),
  }),
  carrierError: z.object({
    enabled: z.boolean(),
    count: z.number().int().min(2).max(10_000),
    windowMinutes: z.number().int().min(5).max(1440),
  }),
  voicemailUnanswered: z.object({ enabled: z.boolean(), hours: z.number().int().min(1).max(720) }),
});
export type MonitorSettings = z.infer<typeof MonitorSettings>;

/** Defaults of a company that never changed its thresholds. */
export const DEFAULT_MONITOR_SETTINGS: MonitorSettings = {
  missedCalls: { enabled: true, percent: 30, minCalls: 5 },
  numberSilent: { enabled: true, days: 7 },
  poolExhausted: { enabled: true },
  deliveryFailures: { enabled: true, percent: 20, minMessages: 20, windowMinutes: 60 },
  carrierError: { enabled: true, count: 5, windowMinutes: 60 },
  voicemailUnanswered: { enabled: true, hours: 4 },
};

export const MonitorSettingsQuery = z.object({ companyId: Id.optional(), company_id: Id.optional() });
/** `GET /monitoring/settings`: the company's thresholds, whether the caller may change them, and the caller's e-mail choice. */
export const MonitorSettingsBody = z.object({
  data: z.object({ monitors: MonitorSettings, canEdit: z.boolean(), emailAlerts: z.boolean() }),
});
/** `PUT /monitoring/settings` (owners and administrators). */
export const UpdateMonitorSettingsInput = z.object({ companyId: Id, monitors: MonitorSettings });
/** `PUT /monitoring/notification-preferences`: the caller's own choice of alert e-mails in the company. */
export const UpdateAlertEmailInput = z.object({ companyId: Id, emailAlerts: z.boolean() });
export const MONITOR_SETTINGS_UPDATED = 'Alert settings updated';
export const ALERT_EMAIL_UPDATED = 'Alert e-mail preference updated';

/** Live events of this area on `company.{companyId}` (event name → payload schema); merged into LIVE_EVENTS. */
export const ALERTS_COMPANY_EVENTS = {
  'alert created': Alert,
  'alert updated': Alert,
} as const;
