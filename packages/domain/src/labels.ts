/**
 * Label tables and enumerations, with exact texts (foundation §3 "Label tables", §4 "Notifications",
 * §6 "Roles"; spec 001 §3; spec 002 §3 "Number enumerations").
 */

/** Number category labels by id (foundation §3, spec 002 §3). */
export const NUMBER_CATEGORY_LABELS = {
  1: 'Voice & SMS',
  2: 'International',
  3: 'Fax',
} as const;

/** Number type labels by id (foundation §3, spec 002 §3); note 2 is local and 1 toll-free here. */
export const NUMBER_TYPE_LABELS = {
  2: 'Local Voice & SMS',
  1: 'Toll-Free Voice & SMS',
  3: 'Fax number',
  4: 'Bulk numbers',
} as const;

/** Number type ids (spec 002 §3): 1 local, 2 toll free, 3 Canadian. */
export const NUMBER_TYPES = {
  local: 1,
  toll_free: 2,
  canadian: 3,
} as const;

/** Service type ids (spec 002 §3): 1 voice and SMS, 2 fax. */
export const SERVICE_TYPES = {
  voice_sms: 1,
  fax: 2,
} as const;

/**
 * Provider labels by id (spec 002 §3, the more specific document; the foundation names them by role:
 * a carrier, a toll-free registry, a messaging provider, a provider dashboard).
 */
export const PROVIDER_LABELS = {
  1: 'Bandwidth',
  2: 'Somos',
  3: 'Messaging provider',
  4: 'Provider dashboard',
} as const;

/** Call status codes by name (foundation §3, spec 001 §3). Codes 8 and 11 repeat the labels of 5 and 3. */
export const CALL_STATUS = {
  STARTED: 1,
  EXTENSION_SELECTED: 2,
  HANGUP: 3,
  VOICEMAIL: 4,
  NO_ANSWER: 5,
  RECEIVED: 6,
  REJECTED: 7,
  NO_ANSWER_8: 8,
  ANSWERED_ALREADY: 9,
  MISSED: 10,
  HANGUP_11: 11,
  CONNECTED: 12,
  BLOCKED: 13,
} as const;

/** A call status code. */
export type CallStatusCode = (typeof CALL_STATUS)[keyof typeof CALL_STATUS];

/** Call status labels by code (foundation §3, spec 001 §3). */
export const CALL_STATUS_LABELS: Readonly<Record<CallStatusCode, string>> = {
  1: 'Started',
  2: 'Extension Selected',
  3: 'Hangup',
  4: 'Voicemail',
  5: 'No Answer',
  6: 'Received',
  7: 'Rejected',
  8: 'No Answer',
  9: 'Answered Already',
  10: 'Missed',
  11: 'Hangup',
  12: 'Connected',
  13: 'Blocked',
};

/**
 * Label of a call status code (foundation §3).
 *
 * @param code a call status code 1 to 13
 * @returns the label, e.g. 12 → "Connected"; "" for an unknown code
 */
export function callStatusLabel(code: number | null | undefined): string {
  if (typeof code !== 'number' || !Object.hasOwn(CALL_STATUS_LABELS, code)) return '';
  return CALL_STATUS_LABELS[code as CallStatusCode];
}

/** Contact source labels (foundation §3, spec 001 §3), exact case. */
export const CONTACT_SOURCE_LABELS = ['Manual', 'Import', 'keyword', 'Migration'] as const;

/** Activity item kinds (foundation §3, spec 001 §3). */
export const ACTIVITY_KINDS = ['message', 'call', 'voicemail', 'fax', 'note'] as const;
/** An activity item kind. */
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** Further activity item kinds that appear (foundation §3, spec 001 §3). */
export const EXTRA_ACTIVITY_KINDS = ['block', 'scheduledmessage', 'trackingmatch'] as const;
/** A further activity item kind. */
export type ExtraActivityKind = (typeof EXTRA_ACTIVITY_KINDS)[number];

/** Number search modes (foundation §3); the values are a design decision, the labels are exact. */
export const NUMBER_SEARCH_MODES = [
  { value: 'contains', label: 'Contains' },
  { value: 'starts_with', label: 'Starts with' },
  { value: 'ends_with', label: 'Ends with' },
] as const;
/** A number search mode value. */
export type NumberSearchMode = (typeof NUMBER_SEARCH_MODES)[number]['value'];

/** User roles of a company account (foundation §6). */
export const USER_ROLES = ['owner', 'administrator', 'billing', 'reporting', 'user', 'deactivated'] as const;
/** A user role. */
export type UserRole = (typeof USER_ROLES)[number];

/** Role of an organization (business unit) administrator (foundation §6). */
export const ORGANIZATION_ROLE = 'org-administrator';

/** In-app calling statuses (foundation §3, spec 002 §3). */
export const IN_APP_CALLING_STATUSES = ['active', 'away'] as const;
/** An in-app calling status. */
export type InAppCallingStatus = (typeof IN_APP_CALLING_STATUSES)[number];

/** Notification (notice) types (foundation §4). */
export const NOTIFICATION_TYPES = ['neutral', 'success', 'warn', 'danger', 'loading'] as const;
/** A notification type. */
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** Types of a conversation's latest item (spec 001 §3 "Conversation"). */
export const CONVERSATION_ITEM_TYPES = ['call', 'voicemail', 'message', 'scheduledmessage', 'fax'] as const;
/** A conversation item type. */
export type ConversationItemType = (typeof CONVERSATION_ITEM_TYPES)[number];
