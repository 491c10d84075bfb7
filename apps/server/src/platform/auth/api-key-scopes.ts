/**
 * Which API-key scope a route needs (docs/api-and-webhooks.md "Scopes"). An API key (a personal access token, spec
 * 001 "API keys") reaches a route only when it holds the route's `<area>:read` or `<area>:write` scope; the user's
 * role in the company still applies on top (the route's access declaration, platform/http/access.ts).
 *
 * - A route declared `access.company(ability)`: the ability's area (`ABILITY_AREAS`), `:read` for the matrix's read
 *   abilities (`ABILITY_MATRIX[ability].read`), else `:write`.
 * - `access.operator()`: never with a key.
 * - Any other route (`access.signedIn()`, or not declared yet): the area from the route's pattern
 *   (`request.routeOptions.url`) by the first matching rule below, `:read` for GET and HEAD, else `:write`; a route no
 *   rule names is refused to API keys (secure by default).
 * - Sign-in, session and key-management routes are never reachable with an API key (`API_KEY_FORBIDDEN`): a key
 *   cannot mint keys or change passwords.
 */
import { ABILITY_MATRIX, type Ability } from '@switchboard/domain';
import type { AccessRule } from '../http/access.js';

/** An API key area (contracts `API_KEY_AREAS`). */
export type ScopeArea = 'calls' | 'messages' | 'contacts' | 'numbers' | 'campaigns' | 'reports' | 'account' | 'webhooks';

/** Routes an API key may never call, whatever its scopes. */
const API_KEY_FORBIDDEN = [
  /^\/api\/(sanctum|password|client|csrf-cookie|personalAccessTokens)(\/|$)/,
  /^\/api\/user\/mfa(\/|$)/,
  /^\/api\/(oauth|user\/oauth-identities)(\/|$)/,
  /^\/api\/dev(\/|$)/,
  /^\/api\/simulator(\/|$)/,
];

/** Route pattern → area, first match wins. */
const RULES: ReadonlyArray<[RegExp, ScopeArea]> = [
  [/^\/api\/companies\/:[^/]+\/(calls)(\/|$)/, 'calls'],
  [/^\/api\/companies\/:[^/]+\/(conversations|notificationBlocks|notificationCounts|notificationCountsByNumber)(\/|$)/, 'messages'],
  [/^\/api\/companies\/:[^/]+\/(contacts|contactLabels|custom-fields)(\/|$)/, 'contacts'],
  [
    /^\/api\/companies\/:[^/]+\/(numbers|numberTemplates|number-limit|number-limit-increase|forward-contacts|triggers|schedule|extension-suggestions)(\/|$)/,
    'numbers',
  ],
  [/^\/api\/companies\/:[^/]+\/(users|settings)(\/|$)/, 'account'],
  [/^\/api\/companies(\/|$)/, 'account'],
  [/^\/api\/(calls|voicemails|notes|blocks|v1\/calls)(\/|$)/, 'calls'],
  [/^\/api\/(inbox|message|conversations)(\/|$)/, 'messages'],
  [/^\/api\/(contacts|groups|eavAttributes|eavEntityTypes|bulkAttributeUpdate)(\/|$)/, 'contacts'],
  [/^\/api\/(numbers|numberPrefixes|v1\/numbers|greetings|dni|schedules|ports|number-templates|in-app-calling)(\/|$)/, 'numbers'],
  [/^\/api\/campaigns(\/|$)/, 'campaigns'],
  [/^\/api\/(dashboard|analytics|activity|monitoring|column-presets|favorite-reports)(\/|$)/, 'reports'],
  [/^\/api\/(webhook-endpoints|audit-log)(\/|$)/, 'webhooks'],
  [/^\/api\/(user|organizations|users|general-settings|tags|data-groups|tenant|tenant-config|contact)(\/|$)/, 'account'],
];

/** The API-key area of each ability of the matrix (an ability missing here is refused to API keys; a test checks none is). */
export const ABILITY_AREAS: Readonly<Partial<Record<Ability, ScopeArea>>> = {
  'company.read': 'account',
  'settings.manage': 'account',
  'numbers.read': 'numbers',
  'numbers.manage': 'numbers',
  'numbers.purchase': 'numbers',
  'calls.read': 'calls',
  'calls.work': 'calls',
  'inbox.read': 'messages',
  'inbox.work': 'messages',
  'contacts.read': 'contacts',
  'contacts.write': 'contacts',
  'contacts.bulk': 'contacts',
  'campaigns.read': 'campaigns',
  'campaigns.manage': 'campaigns',
  'reports.read': 'reports',
  'reports.export': 'reports',
  'tracking.read': 'numbers',
  'tracking.manage': 'numbers',
  'alerts.read': 'reports',
  'alerts.respond': 'reports',
  'alerts.manage': 'reports',
  'users.read': 'account',
  'users.manage': 'account',
  'ownership.manage': 'account',
  'account.delete': 'account',
  'billing.read': 'account',
  'billing.manage': 'account',
  'integrations.manage': 'webhooks',
  'audit.read': 'webhooks',
  'preferences.own': 'reports',
  'support.contact': 'account',
};

/**
 * The scope an API key needs for a route declared with `rule` (see the module doc), or null when API keys may not
 * call it at all.
 */
export function requiredScopeFor(method: string, pattern: string, rule: AccessRule | undefined): `${ScopeArea}:${'read' | 'write'}` | null {
  if (API_KEY_FORBIDDEN.some((r) => r.test(pattern))) return null;
  if (rule?.kind === 'operator') return null;
  if (rule?.kind === 'company') {
    const area = ABILITY_AREAS[rule.ability];
    return area ? `${area}:${ABILITY_MATRIX[rule.ability].read ? 'read' : 'write'}` : null;
  }
  return requiredScope(method, pattern);
}

/**
 * The scope an API key needs for `method` on the route `pattern` by its path alone, or null when API keys may not
 * call it at all.
 * @example requiredScope('POST', '/api/companies/:companyId/contacts') === 'contacts:write'
 */
export function requiredScope(method: string, pattern: string): `${ScopeArea}:${'read' | 'write'}` | null {
  if (API_KEY_FORBIDDEN.some((r) => r.test(pattern))) return null;
  const rule = RULES.find(([r]) => r.test(pattern));
  if (!rule) return null;
  return `${rule[1]}:${method === 'GET' || method === 'HEAD' ? 'read' : 'write'}`;
}
