/**
 * Salesforce sandbox (docs/integrations-providers.md "Salesforce"): an in-process emulation of the REST API v68.0 parts
 * the adapter uses — `userinfo`, SOQL `query` (the equality filters the adapter writes, OR-ed), Lead and Task create
 * and update, Task describe — answering in Salesforce's shapes: `{ id, success, errors }` on create, 204 on update,
 * `[{ message, errorCode, fields }]` errors (401 INVALID_SESSION_ID, 400 REQUIRED_FIELD_MISSING,
 * INVALID_FIELD_FOR_INSERT_UPDATE for `TaskSubtype` on update, INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST), 403
 * REQUEST_LIMIT_EXCEEDED past its own daily allocation (5,000 requests), and `Sforce-Limit-Info: api-usage=n/5000`.
 * The sandbox org has the custom Lead fields UTM_Source__c, UTM_Medium__c and UTM_Campaign__c. State is per instance.
 */
import type { ProviderSandbox } from '../provider.js';
import { SF_VERSION } from './salesforce.adapter.js';

type Rec = Record<string, unknown> & { Id: string };
const LEAD_FIELDS = new Set([
  'FirstName',
  'LastName',
  'Company',
  'Phone',
  'MobilePhone',
  'Email',
  'LeadSource',
  'Description',
  'Status',
  'IsConverted',
  'CreatedDate',
  'UTM_Source__c',
  'UTM_Medium__c',
  'UTM_Campaign__c',
]);
const TASK_FIELDS = new Set([
  'Subject',
  'Type',
  'Status',
  'Priority',
  'ActivityDate',
  'CallType',
  'CallDurationInSeconds',
  'CallDisposition',
  'CallObject',
  'Description',
  'TaskSubtype',
  'WhoId',
]);
const DAILY = 5000;

/** A Salesforce error answer. */
function sfError(status: number, errorCode: string, message: string, fields: string[] = [], headers: Record<string, string> = {}): Response {
  return Response.json([{ message, errorCode, fields }], { status, headers });
}

/** Creates a fresh Salesforce sandbox org. */
export function salesforceSandbox(): ProviderSandbox {
  const received: Array<{ at: string; summary: string; body: unknown }> = [];
  const store: Record<string, Map<string, Rec>> = { Lead: new Map(), Task: new Map() };
  let used = 0;
  let seq = 1;
  const newId = (prefix: string) => `${prefix}5g0000${String(seq++).padStart(6, '0')}AAA`;

  /** Field-level validation; a Response when invalid. */
  function invalid(type: 'Lead' | 'Task', fields: Record<string, unknown>, create: boolean): Response | null {
    const allowed = type === 'Lead' ? LEAD_FIELDS : TASK_FIELDS;
    for (const k of Object.keys(fields)) {
      if (!allowed.has(k)) return sfError(400, 'INVALID_FIELD', `No such column '${k}' on sobject of type ${type}`, [k]);
    }
    if (type === 'Lead' && create) {
      const missing = ['LastName', 'Company'].filter((f) => !fields[f]);
      if (missing.length) return sfError(400, 'REQUIRED_FIELD_MISSING', `Required fields are missing: [${missing.join(', ')}]`, missing);
    }
    if (type === 'Task') {
      if (!create && 'TaskSubtype' in fields)
        return sfError(
          400,
          'INVALID_FIELD_FOR_INSERT_UPDATE',
          'Unable to create/update fields: TaskSubtype. Please check the security settings of this field.',
          ['TaskSubtype'],
        );
      if ('TaskSubtype' in fields && !['Task', 'Email', 'Call', 'ListEmail', 'Cadence', 'LinkedIn'].includes(String(fields.TaskSubtype))) {
        return sfError(400, 'INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST', `bad value for restricted picklist field: ${String(fields.TaskSubtype)}`, [
          'TaskSubtype',
        ]);
      }
      if ('CallType' in fields && !['Inbound', 'Outbound', 'Internal'].includes(String(fields.CallType))) {
        return sfError(400, 'INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST', `bad value for restricted picklist field: ${String(fields.CallType)}`, ['CallType']);
      }
      if ('CallDurationInSeconds' in fields && !Number.isInteger(fields.CallDurationInSeconds))
        return sfError(400, 'INVALID_TYPE_ON_FIELD_IN_RECORD', 'Call Duration: value not of required type', ['CallDurationInSeconds']);
      if (typeof fields.WhoId === 'string' && !store.Lead!.has(fields.WhoId))
        return sfError(400, 'INVALID_CROSS_REFERENCE_KEY', 'invalid cross reference id', ['WhoId']);
    }
    return null;
  }

  /** Runs the adapter's SOQL shape: `SELECT Id FROM <T> WHERE … a = 'x' OR b = 'y' …`. */
  function soql(q: string): Rec[] | null {
    const from = /FROM\s+(Lead|Task)\b/i.exec(q)?.[1];
    if (!from) return null;
    const tests = [...q.matchAll(/(\w+)\s*=\s*'((?:[^'\\]|\\.)*)'/g)].map((m) => [m[1]!, m[2]!.replace(/\\(.)/g, '$1')] as const);
    const rows = [...store[from]!.values()].filter((r) => r.IsConverted !== true && tests.some(([f, v]) => String(r[f] ?? '') === v));
    const limit = Number(/LIMIT\s+(\d+)/i.exec(q)?.[1] ?? 2000);
    return rows.reverse().slice(0, limit);
  }

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname;
    const token = (request.headers.get('authorization') ?? '').replace(/^Bearer\s+/i, '');
    if (!token.startsWith('sandbox-')) return sfError(401, 'INVALID_SESSION_ID', 'Session expired or invalid');
    used += 1;
    const limit = { 'sforce-limit-info': `api-usage=${Math.min(used, DAILY)}/${DAILY}` };
    if (used > DAILY) return sfError(403, 'REQUEST_LIMIT_EXCEEDED', 'TotalRequests Limit exceeded.', [], limit);
    const json = (body: unknown, status = 200) =>
      status === 204 ? new Response(null, { status, headers: limit }) : Response.json(body, { status, headers: limit });
    const base = `/services/data/${SF_VERSION}`;
    const m = request.method;

    if (m === 'GET' && path === '/services/oauth2/userinfo') {
      return json({
        sub: 'https://login.salesforce.com/id/00D5g000000SANDBOX/0055g000000SANDUSR',
        organization_id: '00D5g000000SANDBOX',
        preferred_username: 'sales@sandbox-motors.example',
        name: 'Sandbox Sales',
      });
    }
    if (m === 'GET' && path === `${base}/query`) {
      const rows = soql(url.searchParams.get('q') ?? '');
      if (!rows) return sfError(400, 'MALFORMED_QUERY', 'unexpected token');
      return json({
        totalSize: rows.length,
        done: true,
        records: rows.map((r) => ({ attributes: { type: r.attributes_type, url: `${base}/sobjects/${String(r.attributes_type)}/${r.Id}` }, Id: r.Id })),
      });
    }
    if (m === 'GET' && path === `${base}/sobjects/Task/describe`) return json({ name: 'Task', fields: [...TASK_FIELDS].map((name) => ({ name })) });
    const obj = new RegExp(`^${base.replace(/\./g, '\\.')}/sobjects/(Lead|Task)(?:/([A-Za-z0-9]{15,18}))?$`).exec(path);
    if (obj) {
      const type = obj[1] as 'Lead' | 'Task';
      const id = obj[2];
      const body = ((await request.json().catch(() => null)) ?? {}) as Record<string, unknown>;
      if (m === 'POST' && !id) {
        const bad = invalid(type, body, true);
        if (bad) return bad;
        const rec: Rec = { ...body, Id: newId(type === 'Lead' ? '00Q' : '00T'), attributes_type: type };
        store[type]!.set(rec.Id, rec);
        received.push({
          at: new Date().toISOString(),
          summary: `${type} created: ${String(body.Subject ?? `${String(body.FirstName ?? '')} ${String(body.LastName ?? '')}`.trim())}`,
          body: rec,
        });
        return json({ id: rec.Id, success: true, errors: [] }, 201);
      }
      if (m === 'PATCH' && id) {
        const rec = store[type]!.get(id);
        if (!rec) return sfError(404, 'NOT_FOUND', 'The requested resource does not exist');
        const bad = invalid(type, body, false);
        if (bad) return bad;
        Object.assign(rec, body);
        received.push({ at: new Date().toISOString(), summary: `${type} updated: ${id}`, body: { Id: id, ...body } });
        return json(null, 204);
      }
    }
    return sfError(404, 'NOT_FOUND', 'The requested resource does not exist');
  }

  return { fetch: handle, sent: () => received.slice() };
}
