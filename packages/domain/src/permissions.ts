/**
 * Roles and what they may do: the ONE role → ability matrix (docs/permissions.md). The server
 * enforces it on every route from the route's declaration (`apps/server/src/platform/http/access.ts`);
 * the web hides what a role cannot use (`apps/web/src/lib/access.ts`, `useCan`). Spec 000 §6 names the
 * roles; which role may do what is not in the spec and is decided here, the way CallRail-like
 * products do it:
 * - owner: everything, including billing, invoices, ownership and deleting the account;
 * - administrator: everything but ownership and billing;
 * - billing: billing and invoices (and seeing the company it pays for);
 * - reporting: read-only reports, activity, call log and recordings;
 * - user: their inbox, calls, contacts and the numbers assigned to them;
 * - deactivated: nothing;
 * - an org-administrator reaches every company of the business unit as an `administrator`
 *   (ORG_ADMIN_ROLE), plus the business unit's own abilities.
 */

import { USER_ROLES, type UserRole } from './labels.js';

/** The roles of a company membership (spec 000 §6, `USER_ROLES`), highest first. */
export const ROLES = USER_ROLES;
export type Role = UserRole;

/** The role an org-administrator acts with in every company of its business unit. */
export const ORG_ADMIN_ROLE: Role = 'administrator';

/**
 * Every ability, named by what it allows, with the roles that have it. `read: true` marks an
 * ability that changes nothing (an API key with only read scopes may use it).
 */
export const ABILITY_MATRIX = {
  /** See the company: its name, zone, settings and member names (company switcher, headers). */
  'company.read': { read: true, roles: ['owner', 'administrator', 'billing', 'reporting', 'user'] },
  /** Change the company's settings: general and messaging settings, custom-field definitions and values. */
  'settings.manage': { read: false, roles: ['owner', 'administrator'] },
  /** See the company's numbers and their setup (a `user`: the numbers assigned to them; `reporting`: for report filters). */
  'numbers.read': { read: true, roles: ['owner', 'administrator', 'reporting', 'user'] },
  /** Configure numbers: routing, greetings, templates, forward contacts, triggers, schedules and overrides. */
  'numbers.manage': { read: false, roles: ['owner', 'administrator'] },
  /** Search, buy, port, release and rotate numbers and ask for a higher number limit (costs money). */
  'numbers.purchase': { read: false, roles: ['owner', 'administrator'] },
  /** The call log, a call's details and recordings, voicemails. */
  'calls.read': { read: true, roles: ['owner', 'administrator', 'reporting', 'user'] },
  /** Work calls: place and answer calls in the app, annotate calls (tags, notes, lead status), handle voicemails, block callers. */
  'calls.work': { read: false, roles: ['owner', 'administrator', 'user'] },
  /** Read the inbox: conversations, their items and counts. */
  'inbox.read': { read: true, roles: ['owner', 'administrator', 'user'] },
  /** Work the inbox: send and schedule messages, mark read, notes, delete items. */
  'inbox.work': { read: false, roles: ['owner', 'administrator', 'user'] },
  /** Read contacts, groups and labels. */
  'contacts.read': { read: true, roles: ['owner', 'administrator', 'user'] },
  /** Create, change and delete contacts one by one, and group them. */
  'contacts.write': { read: false, roles: ['owner', 'administrator', 'user'] },
  /** Contacts in bulk: import, export, bulk update and bulk delete. */
  'contacts.bulk': { read: false, roles: ['owner', 'administrator'] },
  /** Read campaigns and their events. */
  'campaigns.read': { read: true, roles: ['owner', 'administrator', 'reporting'] },
  /** Create, change, send, pause and delete campaigns. */
  'campaigns.manage': { read: false, roles: ['owner', 'administrator'] },
  /** Reports: dashboard, call analytics, KPIs, DNI reports, exports, activity. */
  'reports.read': { read: true, roles: ['owner', 'administrator', 'reporting'] },
  /** Start an export of a report (a file of the company's data). */
  'reports.export': { read: true, roles: ['owner', 'administrator', 'reporting'] },
  /** Read call-tracking setup: pools, sources, script, settings. */
  'tracking.read': { read: true, roles: ['owner', 'administrator', 'reporting'] },
  /** Change call-tracking setup: pools, sources, script, settings, attribute updates. */
  'tracking.manage': { read: false, roles: ['owner', 'administrator'] },
  /** Read monitoring alerts and their history. */
  'alerts.read': { read: true, roles: ['owner', 'administrator', 'reporting'] },
  /** Respond to an alert: acknowledge, resolve or dismiss it with a comment (whoever watches alerts). */
  'alerts.respond': { read: false, roles: ['owner', 'administrator', 'reporting'] },
  /** Change monitoring settings (which monitors run, thresholds). */
  'alerts.manage': { read: false, roles: ['owner', 'administrator'] },
  /** List the company's users, their roles and invitations. */
  'users.read': { read: true, roles: ['owner', 'administrator'] },
  /** Invite, remove, activate, deactivate users and change their roles (never to or from `owner`). */
  'users.manage': { read: false, roles: ['owner', 'administrator'] },
  /** Hand the ownership over, make or unmake owners. */
  'ownership.manage': { read: false, roles: ['owner'] },
  /** Delete the account (company). */
  'account.delete': { read: false, roles: ['owner'] },
  /** See billing details and invoices. */
  'billing.read': { read: true, roles: ['owner', 'billing'] },
  /** Change billing details, pay invoices. */
  'billing.manage': { read: false, roles: ['owner', 'billing'] },
  /** Integrations of the company: outbound webhooks and their deliveries, company API keys. */
  'integrations.manage': { read: false, roles: ['owner', 'administrator'] },
  /** Read the audit log and export it. */
  'audit.read': { read: true, roles: ['owner', 'administrator'] },
  /** Keep one's own settings in the company: column presets, favourite reports, one's own custom-field values. */
  'preferences.own': { read: false, roles: ['owner', 'administrator', 'billing', 'reporting', 'user'] },
  /** Contact support for the company. */
  'support.contact': { read: false, roles: ['owner', 'administrator', 'billing', 'reporting', 'user'] },
} as const satisfies Record<string, { read: boolean; roles: readonly Role[] }>;

/** An ability of the matrix, e.g. `'reports.read'`. */
export type Ability = keyof typeof ABILITY_MATRIX;

/** Every ability name, in matrix order. */
export const ABILITIES = Object.keys(ABILITY_MATRIX) as Ability[];

/** True when `role` has `ability`; `deactivated`, null and unknown roles have none. */
export function roleCan(role: Role | string | null | undefined, ability: Ability): boolean {
  if (!role || role === 'deactivated') return false;
  return (ABILITY_MATRIX[ability].roles as readonly string[]).includes(role);
}

/** The roles that have `ability`, highest first. */
export function rolesWith(ability: Ability): Role[] {
  return ROLES.filter((r) => roleCan(r, ability));
}

/** The abilities of `role`, in matrix order (empty for `deactivated`). */
export function abilitiesOf(role: Role | string | null | undefined): Ability[] {
  return ABILITIES.filter((a) => roleCan(role, a));
}

/** True for a name of the matrix. */
export function isAbility(name: string): name is Ability {
  return Object.prototype.hasOwnProperty.call(ABILITY_MATRIX, name);
}

/** True for a role of spec 000 §6. */
export function isRole(name: string): name is Role {
  return (ROLES as readonly string[]).includes(name);
}
