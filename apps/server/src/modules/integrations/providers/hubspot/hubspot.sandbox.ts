/**
 * HubSpot sandbox (docs/integrations-providers.md "HubSpot"): an in-process emulation of the 2026-09 CRM APIs the adapter
 * uses — account info, property groups and batch read/create, contacts and calls search/create/update with the call →
 * contact association — answering in HubSpot's shapes: `{ status: 'error', message, correlationId, category }` errors
 * (401 EXPIRED_AUTHENTICATION, 400 VALIDATION_ERROR for unknown properties, 409 CONFLICT "Existing ID: n" for a
 * duplicate e-mail or unique value), and 429 `{ errorType: 'RATE_LIMIT', policyName: 'TEN_SECONDLY_ROLLING' }` with
 * `X-HubSpot-RateLimit-*` headers past 100 requests per 10 s per token (its own number, under HubSpot's 110). A fresh
 * sandbox portal has none of the integration's custom properties. State is per instance.
 */
import crypto from 'node:crypto';
import type { ProviderSandbox } from '../provider.js';
import { DISPOSITIONS, HUBSPOT_VERSION } from './hubspot.adapter.js';

type Rec = { id: string; properties: Record<string, string>; associations: string[] };
const STANDARD: Record<string, string[]> = {
  contacts: ['phone', 'email', 'firstname', 'lastname', 'mobilephone', 'company'],
  calls: [
    'hs_timestamp',
    'hs_call_title',
    'hs_call_body',
    'hs_call_direction',
    'hs_call_duration',
    'hs_call_disposition',
    'hs_call_status',
    'hs_call_from_number',
    'hs_call_to_number',
    'hs_call_recording_url',
  ],
};
const STATUSES = new Set([
  'BUSY',
  'CALLING_CRM_USER',
  'CANCELED',
  'COMPLETED',
  'CONNECTING',
  'FAILED',
  'IN_PROGRESS',
  'MISSED',
  'NO_ANSWER',
  'QUEUED',
  'RINGING',
]);

/** A HubSpot error answer. */
function hsError(status: number, category: string, message: string, headers: Record<string, string> = {}, extra: Record<string, unknown> = {}): Response {
  return Response.json({ status: 'error', message, correlationId: crypto.randomUUID(), category, ...extra }, { status, headers });
}

/** Creates a fresh HubSpot sandbox portal. */
export function hubSpotSandbox(): ProviderSandbox {
  const received: Array<{ at: string; summary: string; body: unknown }> = [];
  const custom: Record<string, Map<string, Record<string, unknown>>> = { contacts: new Map(), calls: new Map() };
  const groups = new Set<string>();
  const objects: Record<string, Map<string, Rec>> = { contacts: new Map(), calls: new Map() };
  const calls = new Map<string, number[]>();
  let nextId = 51_000;

  const known = (type: string, name: string) => STANDARD[type]!.includes(name) || custom[type]!.has(name);
  const unique = (type: string) => [...custom[type]!.values()].filter((p) => p.hasUniqueValue === true).map((p) => String(p.name));

  /** Validates property names and values; a Response when invalid. */
  function invalid(type: string, props: Record<string, unknown>): Response | null {
    const errors: Array<Record<string, unknown>> = [];
    for (const [name, value] of Object.entries(props)) {
      if (!known(type, name)) errors.push({ isValid: false, message: `Property "${name}" does not exist`, error: 'PROPERTY_DOESNT_EXIST', name });
      else if (name === 'hs_call_direction' && !['INBOUND', 'OUTBOUND'].includes(String(value)))
        errors.push({ isValid: false, message: `${String(value)} was not a valid option`, error: 'INVALID_OPTION', name });
      else if (name === 'hs_call_duration' && !/^\d+$/.test(String(value)))
        errors.push({ isValid: false, message: `${String(value)} was not a valid long`, error: 'INVALID_LONG', name });
      else if (name === 'hs_call_status' && !STATUSES.has(String(value)))
        errors.push({ isValid: false, message: `${String(value)} was not a valid option`, error: 'INVALID_OPTION', name });
      else if (name === 'hs_call_disposition' && !Object.values(DISPOSITIONS).includes(String(value) as never))
        errors.push({ isValid: false, message: 'Unknown call outcome', error: 'INVALID_OPTION', name });
      else if (name === 'hs_call_recording_url' && !String(value).startsWith('https://'))
        errors.push({ isValid: false, message: 'Only HTTPS recording URLs are accepted', error: 'INVALID_URL', name });
    }
    if (type === 'calls' && props.hs_timestamp === undefined)
      errors.push({ isValid: false, message: 'hs_timestamp is required', error: 'REQUIRED', name: 'hs_timestamp' });
    return errors.length ? hsError(400, 'VALIDATION_ERROR', `Property values were not valid: ${JSON.stringify(errors)}`) : null;
  }

  /** A record whose property equals the value (EQ filter). */
  const match = (type: string, filters: Array<{ propertyName: string; operator: string; value: string }>) =>
    [...objects[type]!.values()].filter((r) =>
      filters.every((f) => f.operator === 'EQ' && String(r.properties[f.propertyName] ?? '').toLowerCase() === String(f.value).toLowerCase()),
    );

  async function handle(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    const token = (request.headers.get('authorization') ?? '').replace(/^Bearer\s+/i, '');
    if (!token.startsWith('sandbox-')) return hsError(401, 'EXPIRED_AUTHENTICATION', 'The OAuth token used to make this call expired 2 hour(s) ago.');
    const now = Date.now();
    const recent = (calls.get(token) ?? []).filter((t) => now - t < 10_000);
    recent.push(now);
    calls.set(token, recent);
    const rl = {
      'x-hubspot-ratelimit-max': '100',
      'x-hubspot-ratelimit-interval-milliseconds': '10000',
      'x-hubspot-ratelimit-remaining': String(Math.max(0, 100 - recent.length)),
    };
    if (recent.length > 100)
      return hsError(429, 'RATE_LIMITS', 'You have reached your ten_secondly_rolling limit.', rl, {
        errorType: 'RATE_LIMIT',
        policyName: 'TEN_SECONDLY_ROLLING',
      });
    const ok = (body: unknown, status = 200) => Response.json(body, { status, headers: rl });
    const body = ((await request.json().catch(() => null)) ?? {}) as Record<string, unknown>;
    const m = request.method;
    const v = HUBSPOT_VERSION;

    if (m === 'GET' && path === `/account-info/${v}/details`)
      return ok({
        portalId: 24681357,
        accountType: 'STANDARD',
        timeZone: 'US/Central',
        companyCurrency: 'USD',
        uiDomain: 'app.hubspot.com',
        dataHostingLocation: 'na1',
      });

    const prop = new RegExp(`^/crm/properties/${v}/(contacts|calls)(/.*)?$`).exec(path);
    if (prop) {
      const [, type, rest = ''] = prop as unknown as [string, string, string?];
      if (m === 'GET' && rest.startsWith('/groups/')) {
        const name = rest.slice('/groups/'.length);
        return groups.has(`${type}.${name}`)
          ? ok({ name, label: 'Switchboard', displayOrder: -1, archived: false })
          : hsError(404, 'OBJECT_NOT_FOUND', `Property group ${name} does not exist`);
      }
      if (m === 'POST' && rest === '/groups') {
        if (groups.has(`${type}.${String(body.name)}`)) return hsError(409, 'CONFLICT', `A property group named ${String(body.name)} already exists`);
        groups.add(`${type}.${String(body.name)}`);
        return ok({ ...body, archived: false }, 201);
      }
      if (m === 'POST' && rest === '/batch/read') {
        const names = ((body.inputs ?? []) as Array<{ name: string }>).map((i) => i.name);
        return ok({ status: 'COMPLETE', results: names.filter((n) => known(type, n)).map((n) => custom[type]!.get(n) ?? { name: n }) });
      }
      if (m === 'POST' && rest === '/batch/create') {
        const inputs = (body.inputs ?? []) as Array<Record<string, unknown>>;
        for (const p of inputs) {
          if (known(type, String(p.name))) return hsError(409, 'CONFLICT', `A property named ${String(p.name)} already exists`);
          if (!groups.has(`${type}.${String(p.groupName)}`)) return hsError(400, 'VALIDATION_ERROR', `Property group ${String(p.groupName)} does not exist`);
        }
        inputs.forEach((p) => custom[type]!.set(String(p.name), { ...p }));
        return ok({ status: 'COMPLETE', results: inputs }, 201);
      }
    }

    const obj = new RegExp(`^/crm/objects/${v}/(contacts|calls)(?:/([^/]+))?$`).exec(path);
    if (obj) {
      const type = obj[1]!;
      const sub = obj[2];
      const store = objects[type]!;
      if (m === 'POST' && sub === 'search') {
        const groupsIn = (body.filterGroups ?? []) as Array<{ filters: Array<{ propertyName: string; operator: string; value: string }> }>;
        const hits = new Map<string, Rec>();
        for (const g of groupsIn) for (const r of match(type, g.filters)) hits.set(r.id, r);
        const results = [...hits.values()].slice(0, Number(body.limit ?? 10)).map((r) => ({ id: r.id, properties: r.properties, archived: false }));
        return ok({ total: hits.size, results });
      }
      if (m === 'POST' && sub === undefined) {
        const props = (body.properties ?? {}) as Record<string, string>;
        const bad = invalid(type, props);
        if (bad) return bad;
        if (type === 'contacts' && props.email) {
          const dup = match('contacts', [{ propertyName: 'email', operator: 'EQ', value: props.email }])[0];
          if (dup) return hsError(409, 'CONFLICT', `Contact already exists. Existing ID: ${dup.id}`);
        }
        for (const u of unique(type)) {
          if (props[u] !== undefined && match(type, [{ propertyName: u, operator: 'EQ', value: props[u] }]).length)
            return hsError(409, 'CONFLICT', `A ${type.slice(0, -1)} with ${u}=${props[u]} already exists`);
        }
        const associations: string[] = [];
        for (const a of (body.associations ?? []) as Array<{ to: { id: string }; types: Array<{ associationCategory: string; associationTypeId: number }> }>) {
          if (!objects.contacts!.has(String(a.to.id)) || !a.types.some((t) => t.associationCategory === 'HUBSPOT_DEFINED' && t.associationTypeId === 194)) {
            return hsError(400, 'VALIDATION_ERROR', `Invalid association to ${String(a.to.id)}`);
          }
          associations.push(String(a.to.id));
        }
        const rec: Rec = { id: String(nextId++), properties: { ...props }, associations };
        store.set(rec.id, rec);
        received.push({
          at: new Date(now).toISOString(),
          summary: `${type === 'calls' ? 'Call logged' : 'Contact created'}: ${props.hs_call_title ?? props.phone ?? props.email ?? rec.id}`,
          body: rec,
        });
        return ok(
          { id: rec.id, properties: rec.properties, createdAt: new Date(now).toISOString(), updatedAt: new Date(now).toISOString(), archived: false },
          201,
        );
      }
      if (m === 'PATCH' && sub) {
        const rec = store.get(sub);
        if (!rec) return hsError(404, 'OBJECT_NOT_FOUND', `resource not found: ${sub}`);
        const props = (body.properties ?? {}) as Record<string, string>;
        const bad = invalid(type, props);
        if (bad) return bad;
        Object.assign(rec.properties, props);
        received.push({
          at: new Date(now).toISOString(),
          summary: `${type === 'calls' ? 'Call updated' : 'Contact updated'}: ${rec.id}`,
          body: { id: rec.id, properties: props },
        });
        return ok({ id: rec.id, properties: rec.properties, archived: false });
      }
    }
    return hsError(404, 'OBJECT_NOT_FOUND', `No route for ${m} ${path}`);
  }

  return { fetch: handle, sent: () => received.slice() };
}
