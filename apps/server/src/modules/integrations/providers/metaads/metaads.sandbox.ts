/**
 * Meta Ads sandbox (docs/integrations-providers.md "Meta Ads"): an in-process emulation of the Graph API v27.0 parts the
 * adapter uses, answering in Meta's shapes — `{ data, paging }` edges, `{ error: { message, type, code, error_subcode,
 * fbtrace_id } }` errors, `X-Business-Use-Case-Usage` with `estimated_time_to_regain_access` when its per-pixel limit
 * (120 requests per minute, its own number) is exceeded — and validating events as the Conversions API does (7-day
 * `event_time`, valid `action_source`, hashed contact fields, ≤ 1,000 events; dedup of `event_id` + `event_name` within
 * 48 h). Bearer tokens must start with `sandbox-` (else error 190). State lives in the closure of {@link metaAdsSandbox}.
 */
import crypto from 'node:crypto';
import type { ProviderSandbox } from '../provider.js';
import { GRAPH_VERSION, MAX_EVENT_AGE_MS } from './metaads.payload.js';

const ACTION_SOURCES = new Set(['email', 'website', 'app', 'phone_call', 'chat', 'physical_store', 'system_generated', 'business_messaging', 'other']);
const HASHED = ['em', 'ph', 'fn', 'ln', 'ge', 'db', 'ct', 'st', 'zp', 'country'];
const LIMIT = 120;
const WINDOW_MS = 60_000;

const BUSINESSES = [
  { id: '100200300400500', name: 'Sandbox Motors Group', verification_status: 'verified' },
  { id: '100200300400600', name: 'Sandbox Agency', verification_status: 'not_verified' },
];
const AD_ACCOUNTS: Record<string, Array<Record<string, unknown>>> = {
  '100200300400500': [
    { id: 'act_5550001', account_id: '5550001', name: 'Sandbox Motors – Search', currency: 'USD', timezone_name: 'America/Chicago', account_status: 1 },
  ],
  '100200300400600': [
    { id: 'act_5550002', account_id: '5550002', name: 'Client – Sandbox Dental', currency: 'USD', timezone_name: 'America/New_York', account_status: 1 },
  ],
};
const PIXELS = [
  { id: '880011223344', name: 'Sandbox Motors Dataset', last_fired_time: '2026-11-28T17:00:00+0000', is_unavailable: false },
  { id: '880011223355', name: 'Sandbox Dental Pixel', last_fired_time: '2026-11-27T09:30:00+0000', is_unavailable: false },
];
const CUSTOM_CONVERSIONS = [
  { id: '23850000000001', name: 'Qualified phone call', custom_event_type: 'CONTACT', event_source_type: 'pixel', is_archived: false },
  { id: '23850000000002', name: 'Appointment booked', custom_event_type: 'SCHEDULE', event_source_type: 'pixel', is_archived: false },
];

/** A Graph error answer. */
function graphError(status: number, code: number, message: string, subcode?: number, headers: Record<string, string> = {}): Response {
  const error: Record<string, unknown> = {
    message,
    type: code === 190 ? 'OAuthException' : 'GraphMethodException',
    code,
    fbtrace_id: crypto.randomBytes(8).toString('base64url'),
  };
  if (subcode) error.error_subcode = subcode;
  return Response.json({ error }, { status, headers: { 'www-authenticate': code === 190 ? 'OAuth "Facebook Platform" "invalid_token"' : '', ...headers } });
}

/** An edge answer with Meta's paging envelope (one page). */
function edgeAnswer(rows: unknown[]): Response {
  return Response.json({ data: rows, paging: { cursors: { before: 'QVFIUmJ', after: 'QVFIUmE' } } });
}

/** Creates a fresh Meta sandbox (its own events, limits and inbox). */
export function metaAdsSandbox(): ProviderSandbox {
  const received: Array<{ at: string; summary: string; body: unknown }> = [];
  const seen = new Map<string, number>();
  const calls = new Map<string, number[]>();

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const prefix = `/${GRAPH_VERSION}`;
    const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname;
    const token = (request.headers.get('authorization') ?? '').replace(/^Bearer\s+/i, '') || url.searchParams.get('access_token') || '';
    if (!token.startsWith('sandbox-'))
      return graphError(
        400,
        190,
        'Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.',
        460,
      );
    const parts = path.split('/').filter(Boolean);
    const m = request.method;

    if (m === 'GET' && path === '/me') return Response.json({ id: '10229900000001', name: 'Sandbox Marketer' });
    if (m === 'DELETE' && path === '/me/permissions') return Response.json({ success: true });
    if (m === 'GET' && path === '/me/businesses') return edgeAnswer(BUSINESSES);
    if (m === 'GET' && path === '/me/adaccounts') return edgeAnswer(Object.values(AD_ACCOUNTS).flat());
    if (m === 'GET' && parts.length === 2 && parts[1] === 'owned_ad_accounts') return edgeAnswer(AD_ACCOUNTS[parts[0]!] ?? []);
    if (m === 'GET' && parts.length === 2 && parts[1] === 'client_ad_accounts') return edgeAnswer([]);
    if (m === 'GET' && parts.length === 2 && (parts[1] === 'adspixels' || parts[1] === 'owned_pixels')) return edgeAnswer(PIXELS);
    if (m === 'GET' && parts.length === 2 && parts[1] === 'customconversions') return edgeAnswer(CUSTOM_CONVERSIONS);
    if (m === 'GET' && parts.length === 1) {
      const pixel = PIXELS.find((p) => p.id === parts[0]);
      return pixel
        ? Response.json({ id: pixel.id, name: pixel.name })
        : graphError(400, 100, `Unsupported get request. Object with ID '${parts[0]}' does not exist`, 33);
    }
    if (m === 'POST' && parts.length === 2 && parts[1] === 'events') return events(parts[0]!, request);
    return graphError(400, 2500, `Unknown path components: ${path}`);
  }

  async function events(pixelId: string, request: Request): Promise<Response> {
    if (!PIXELS.some((p) => p.id === pixelId)) return graphError(400, 100, `Unsupported post request. Object with ID '${pixelId}' does not exist`, 33);
    const now = Date.now();
    const recent = (calls.get(pixelId) ?? []).filter((t) => now - t < WINDOW_MS);
    recent.push(now);
    calls.set(pixelId, recent);
    if (recent.length > LIMIT) {
      const usage = JSON.stringify({
        [pixelId]: [{ type: 'ads_management', call_count: 100, total_cputime: 40, total_time: 60, estimated_time_to_regain_access: 1 }],
      });
      return graphError(400, 80004, 'There have been too many calls to this ad-account. Wait a bit and try again.', 2446079, {
        'x-business-use-case-usage': usage,
      });
    }
    const body = (await request.json().catch(() => null)) as { data?: unknown; test_event_code?: string } | null;
    const data = Array.isArray(body?.data) ? (body.data as Array<Record<string, unknown>>) : null;
    if (!data || data.length === 0 || data.length > 1000) return graphError(400, 100, 'Invalid parameter: data must be an array of 1 to 1000 events', 2804003);
    for (const [i, e] of data.entries()) {
      const t = Number(e.event_time);
      if (typeof e.event_name !== 'string' || !e.event_name) return graphError(400, 100, `Invalid parameter: data[${i}].event_name is required`, 2804008);
      if (!Number.isInteger(t)) return graphError(400, 100, `Invalid parameter: data[${i}].event_time must be a Unix timestamp in seconds`, 2804004);
      if (now - t * 1000 > MAX_EVENT_AGE_MS)
        return graphError(400, 100, `Invalid parameter: The timestamp for data[${i}] is too far in the past (more than 7 days).`, 2804003);
      if (t * 1000 - now > 60_000) return graphError(400, 100, `Invalid parameter: data[${i}].event_time is in the future.`, 2804004);
      if (!ACTION_SOURCES.has(String(e.action_source))) return graphError(400, 100, `Invalid parameter: data[${i}].action_source is not valid`, 2804050);
      const ud = (e.user_data ?? {}) as Record<string, unknown>;
      for (const k of HASHED) {
        const vals = ud[k] === undefined ? [] : Array.isArray(ud[k]) ? (ud[k] as unknown[]) : [ud[k]];
        if (vals.some((v) => !/^[0-9a-f]{64}$/.test(String(v))))
          return graphError(400, 100, `Invalid parameter: data[${i}].user_data.${k} must be SHA-256 hashed`, 2804019);
      }
      if (!Object.keys(ud).length) return graphError(400, 100, `Invalid parameter: data[${i}].user_data is empty`, 2804007);
    }
    for (const e of data) {
      const key = `${pixelId}|${String(e.event_id)}|${String(e.event_name)}`;
      const at = seen.get(key);
      if (e.event_id !== undefined && at !== undefined && now - at < 48 * 3600 * 1000) continue; // deduplicated, still "received"
      seen.set(key, now);
      received.push({
        at: new Date(now).toISOString(),
        summary: `${String(e.event_name)} (${String(e.action_source)}) → pixel ${pixelId}${body?.test_event_code ? ` [test ${body.test_event_code}]` : ''}`,
        body: e,
      });
    }
    return Response.json({ events_received: data.length, messages: [], fbtrace_id: crypto.randomBytes(8).toString('base64url') });
  }

  return { fetch: handle, sent: () => received.slice() };
}
