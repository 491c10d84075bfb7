/**
 * Salesforce adapter (docs/integrations-providers.md "Salesforce"): REST API v68.0 (Winter '27, the current release on
 * 2026-11-29), plain HTTP; OAuth through an External Client App with PKCE (authorization code flow).
 *
 * - The instance URL comes from the token answer (`instance_url`) and is kept in the integration's config
 *   (`instanceUrl`); requests go to `{instanceUrl}/services/data/v68.0/…` (or to the overridden base URL of tests).
 * - Per delivered call: the Lead is found by phone or e-mail (SOQL on unconverted Leads) and updated, else created
 *   (`LastName` and `Company` are required: the caller's name or number, and the settings' company or
 *   "[not provided]" as Web-to-Lead does); `LeadSource` and the attribution: the summary in `Description` on creation,
 *   and the fields named in `settings.provider.leadFields` (e.g. `{ campaign: 'UTM_Campaign__c' }`) when the org has
 *   them. Then a Task of subtype Call (`TaskSubtype: 'Call'`, `CallType` Inbound/Outbound, `CallDurationInSeconds`,
 *   `CallDisposition`, `CallObject` = `switchboard-call-<id>`) on the Lead (`WhoId`). `CallObject` identifies the call:
 *   a retry or an outcome set later finds the Task by it and UPDATES it (TaskSubtype is not updateable, so it is left
 *   out of updates).
 * - Errors (REST API "Status Codes and Error Responses"): `[{ message, errorCode, fields }]`. 401 / INVALID_SESSION_ID
 *   → reconnect (the framework already refreshed); REQUEST_LIMIT_EXCEEDED (403, the org's 24-hour API allocation) →
 *   rate limited for an hour; 5xx, SERVER_UNAVAILABLE, UNABLE_TO_LOCK_ROW → retryable; other 4xx → permanent.
 */
import {
  PermanentProviderError,
  RateLimitedError,
  ReconnectNeededError,
  RetryableProviderError,
  retryAfterMs,
  type ConnectedAccount,
  type DeliveryAnswer,
  type DeliveryItem,
  type ProviderAdapter,
  type ProviderConnection,
  type TokenGrant,
} from '../provider.js';
import { requestJson } from '../http.js';

/** REST API version (Winter '27). */
export const SF_VERSION = 'v68.0';
/** Nominal base URL: Salesforce is per org; the real base is the token answer's `instance_url`. */
export const SF_LOGIN = 'https://login.salesforce.com';

type SfError = { message?: string; errorCode?: string; fields?: string[] };

/** Maps a failed Salesforce answer to the port's errors (see the file's notes). @returns never */
export function throwSalesforceError(status: number, headers: Headers, body: unknown, now: Date): never {
  const errors: SfError[] = Array.isArray(body) ? (body as SfError[]) : body && typeof body === 'object' ? [body as SfError] : [];
  const codes = errors.map((e) => e.errorCode ?? '');
  const msg = `Salesforce ${status}: ${errors.map((e) => `${e.errorCode ?? ''} ${e.message ?? ''}`.trim()).join('; ') || 'error'}`.slice(0, 500);
  if (status === 401 || codes.includes('INVALID_SESSION_ID')) throw new ReconnectNeededError(msg);
  if (codes.includes('REQUEST_LIMIT_EXCEEDED') || status === 429) throw new RateLimitedError(retryAfterMs(headers, 3600_000, now), msg);
  if (status >= 500 || codes.some((c) => c === 'SERVER_UNAVAILABLE' || c === 'UNABLE_TO_LOCK_ROW')) throw new RetryableProviderError(msg, status);
  throw new PermanentProviderError(msg, status);
}

/** The org's REST base: the overridden base URL (tests, sandbox) or the instance URL from the token answer. */
function instance(conn: ProviderConnection): string {
  if (conn.baseUrl !== SF_LOGIN) return conn.baseUrl;
  const url = String(conn.config.instanceUrl ?? '');
  if (!/^https:\/\/[a-z0-9.-]+$/i.test(url)) throw new ReconnectNeededError('The Salesforce instance URL is unknown: connect again.');
  return url;
}

/** One REST request; JSON in and out; errors mapped. */
async function sf(conn: ProviderConnection, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const base = instance(conn);
  const { json } = await requestJson(
    conn,
    `${base}${path}`,
    {
      method,
      headers: { authorization: `Bearer ${conn.accessToken}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    },
    { provider: 'Salesforce', onError: throwSalesforceError },
  );
  return json;
}

/** A SOQL string literal: quotes and backslashes escaped (SOQL "Quoted String Escape Sequences"). */
export function soqlString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** Runs a SOQL query. @returns its records */
async function query(conn: ProviderConnection, soql: string): Promise<Array<{ Id: string }>> {
  const json = await sf(conn, 'GET', `/services/data/${SF_VERSION}/query?q=${encodeURIComponent(soql)}`);
  return (json.records ?? []) as Array<{ Id: string }>;
}

/** The CallObject that identifies our call in Salesforce. */
export const callObjectOf = (item: DeliveryItem): string => `switchboard-call-${item.call!.id}`;

/** Lead fields for an item (create: true adds the required LastName/Company and the Description). */
export function leadFields(item: DeliveryItem, create: boolean): Record<string, unknown> {
  const c = item.contact;
  const a = item.attribution;
  const provider = item.settings.provider;
  const phone = c.phone ?? item.call?.callerNumber ?? item.text?.from ?? null;
  const f: Record<string, unknown> = { LeadSource: typeof provider.leadSource === 'string' && provider.leadSource ? provider.leadSource : 'Phone Inquiry' };
  if (phone) f.Phone = phone;
  if (c.email) f.Email = c.email.trim().toLowerCase();
  if (c.firstName) f.FirstName = c.firstName.slice(0, 40);
  const map = (provider.leadFields ?? {}) as Record<string, string>;
  const values: Record<string, string | null> = {
    source: a.source,
    medium: a.medium,
    campaign: a.campaign,
    keyword: a.keyword,
    landingPage: a.landingPage,
    gclid: a.gclid,
    msclkid: a.msclkid,
    fbclid: a.fbclid,
  };
  for (const [key, field] of Object.entries(map)) {
    if (/^[A-Za-z][A-Za-z0-9_]{0,39}(__c)?$/.test(field) && values[key]) f[field] = values[key];
  }
  if (create) {
    f.LastName = (c.lastName || c.name || phone || 'Unknown caller').slice(0, 80);
    f.Company = typeof provider.company === 'string' && provider.company ? provider.company : '[not provided]';
    const touch = [a.source, a.medium, a.campaign].filter(Boolean).join(' / ');
    f.Description = [
      touch ? `First call from ${touch}` : null,
      a.keyword ? `Keyword: ${a.keyword}` : null,
      a.landingPage ? `Landing page: ${a.landingPage}` : null,
      item.call ? `Call: ${item.call.url}` : null,
    ]
      .filter(Boolean)
      .join('\n');
  }
  return f;
}

/** `CallDisposition` of a call: the outcome when set, else what happened (≤ 255 chars). */
export function callDisposition(item: DeliveryItem): string {
  const call = item.call!;
  if (call.outcome) return `${call.outcome}${call.departmentType ? ` (${call.departmentType})` : ''}`;
  if (item.kind === 'voicemail') return 'voicemail';
  if (!call.answered || call.status === 'missed') return 'no answer';
  return 'connected';
}

/** Task fields for an item's call (create: true adds TaskSubtype and WhoId). */
export function taskFields(item: DeliveryItem, leadId: string, create: boolean): Record<string, unknown> {
  const call = item.call!;
  const inbound = call.direction === 'inbound';
  const f: Record<string, unknown> = {
    Subject: `${inbound ? 'Inbound' : 'Outbound'} call ${inbound ? 'from' : 'to'} ${call.callerNumber}`.slice(0, 255),
    Type: 'Call',
    Status: 'Completed',
    Priority: 'Normal',
    ActivityDate: call.startedAt.slice(0, 10),
    CallType: inbound ? 'Inbound' : 'Outbound',
    CallDurationInSeconds: Math.max(0, Math.round(call.durationS)),
    CallDisposition: callDisposition(item).slice(0, 255),
    CallObject: callObjectOf(item),
    Description: [
      call.summary ? `Summary: ${call.summary}` : null,
      `Call and transcript: ${call.url}`,
      call.recordingUrl ? `Recording: ${call.recordingUrl}` : null,
      call.transcript ? `Transcript:\n${call.transcript}` : null,
    ]
      .filter(Boolean)
      .join('\n')
      .slice(0, 32000),
  };
  if (create) {
    f.TaskSubtype = 'Call';
    f.WhoId = leadId;
  }
  return f;
}

/** Finds the unconverted Lead by phone or e-mail, updates it or creates it. @returns its id */
async function upsertLead(conn: ProviderConnection, item: DeliveryItem): Promise<string> {
  const update = leadFields(item, false);
  const ors = [
    update.Phone ? `Phone = ${soqlString(String(update.Phone))}` : null,
    update.Phone ? `MobilePhone = ${soqlString(String(update.Phone))}` : null,
    update.Email ? `Email = ${soqlString(String(update.Email))}` : null,
  ].filter(Boolean);
  if (!ors.length) throw new PermanentProviderError('The contact has neither a phone number nor an e-mail address.');
  const found = await query(conn, `SELECT Id FROM Lead WHERE IsConverted = false AND (${ors.join(' OR ')}) ORDER BY CreatedDate DESC LIMIT 1`);
  if (found[0]) {
    await sf(conn, 'PATCH', `/services/data/${SF_VERSION}/sobjects/Lead/${found[0].Id}`, update);
    return found[0].Id;
  }
  const created = await sf(conn, 'POST', `/services/data/${SF_VERSION}/sobjects/Lead`, leadFields(item, true));
  return String(created.id);
}

/** Logs the call as a Task, or updates the Task already logged for it. */
async function upsertTask(conn: ProviderConnection, item: DeliveryItem, leadId: string): Promise<{ id: string; updated: boolean }> {
  const found = await query(conn, `SELECT Id FROM Task WHERE CallObject = ${soqlString(callObjectOf(item))} LIMIT 1`);
  if (found[0]) {
    await sf(conn, 'PATCH', `/services/data/${SF_VERSION}/sobjects/Task/${found[0].Id}`, taskFields(item, leadId, false));
    return { id: found[0].Id, updated: true };
  }
  const created = await sf(conn, 'POST', `/services/data/${SF_VERSION}/sobjects/Task`, taskFields(item, leadId, true));
  return { id: String(created.id), updated: false };
}

/** The Salesforce adapter (exported as `provider.adapter` from `salesforce/index.ts`). */
export const salesforceAdapter: ProviderAdapter = {
  id: 'salesforce',
  displayName: 'Salesforce',
  apiBaseUrl: SF_LOGIN,
  oauth: {
    authorizationEndpoint: `${SF_LOGIN}/services/oauth2/authorize`,
    tokenEndpoint: `${SF_LOGIN}/services/oauth2/token`,
    revocationEndpoint: `${SF_LOGIN}/services/oauth2/revoke`,
    scopes: ['api', 'refresh_token'],
    pkce: true,
    clientAuth: 'client_secret_post',
    envPrefix: 'SALESFORCE',
  },
  appSettings: [],
  secretFields: [],
  kinds: ['call', 'lead', 'text', 'missed-call', 'voicemail', 'outcome', 'outcome-adjustment'],
  callMedia: true,
  maxBatch: 1,
  // Salesforce limits API requests per org per 24 h (answered REQUEST_LIMIT_EXCEEDED), not per second; this pacing is ours.
  rateLimit: { requests: 10, perMs: 1000, scope: 'integration' },
  lookups: {},

  async identify(conn, grant: TokenGrant | null): Promise<ConnectedAccount> {
    // Salesforce always answers instance_url; a grant without it (the framework's sandbox authorization server) keeps
    // the login host, which the sandbox serves.
    const instanceUrl = typeof grant?.instance_url === 'string' ? grant.instance_url : String(conn.config.instanceUrl ?? '') || SF_LOGIN;
    const orgFromId = typeof grant?.id === 'string' ? (/\/id\/([^/]+)\//.exec(grant.id)?.[1] ?? '') : '';
    const withInstance: ProviderConnection = { ...conn, config: { ...conn.config, instanceUrl } };
    const info = await sf(withInstance, 'GET', '/services/oauth2/userinfo');
    const orgId = String(info.organization_id ?? orgFromId);
    return { externalAccountId: orgId, accountName: String(info.preferred_username ?? info.name ?? orgId), config: { instanceUrl, orgId } };
  },

  async verify(conn): Promise<string> {
    const json = await sf(conn, 'GET', `/services/data/${SF_VERSION}/sobjects/Task/describe`);
    const fields = new Set(((json.fields ?? []) as Array<{ name: string }>).map((f) => f.name));
    const missing = ['TaskSubtype', 'CallType', 'CallDurationInSeconds', 'CallDisposition', 'CallObject'].filter((f) => !fields.has(f));
    if (missing.length) throw new PermanentProviderError(`The org's Task object lacks ${missing.join(', ')} (or the user cannot see them).`);
    return 'Leads and call Tasks can be written.';
  },

  async deliver(conn, items): Promise<DeliveryAnswer> {
    const out: DeliveryAnswer['items'] = [];
    for (const item of items) {
      const leadId = await upsertLead(conn, item);
      if (!item.call) {
        out.push({ deliveryKey: item.deliveryKey, result: 'delivered', providerRef: `Lead/${leadId}`, message: null });
        continue;
      }
      const task = await upsertTask(conn, item, leadId);
      out.push({
        deliveryKey: item.deliveryKey,
        result: 'delivered',
        providerRef: `Task/${task.id}`,
        message: task.updated ? 'Updated the call Task already logged.' : null,
      });
    }
    return { items: out };
  },

  dedupKey: (item) => (item.call ? `CallObject=${callObjectOf(item)}` : `Lead=${item.contact.phone ?? item.contact.email ?? item.deliveryKey}`),
};
