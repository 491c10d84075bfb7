/**
 * GoHighLevel sandbox (docs/integrations-providers.md "GoHighLevel"): an in-process emulation of the API v2 parts the
 * adapter uses — location token from an agency token, installed locations, location, contact upsert and tags,
 * conversation search/create/messages, inbound/outbound call messages of a conversation provider — answering in
 * GoHighLevel's shapes: `{ statusCode, message }` errors (401 "Invalid JWT", 400 for a missing or wrong `Version` header
 * or an invalid body), and the burst limit of 100 requests per 10 s per location with `X-RateLimit-*` headers on every
 * answer (429 past it). State is per instance.
 */
import crypto from 'node:crypto';
import type { ProviderSandbox } from '../provider.js';
import { GHL_VERSION } from './gohighlevel.adapter.js';

const LOCATIONS = [
  { _id: 'sbxLoc0001MotorsAAA', name: 'Sandbox Motors', address: '1 Main St, Austin, TX' },
  { _id: 'sbxLoc0002DentalAAA', name: 'Sandbox Dental', address: '9 Elm St, Dallas, TX' },
];
const CALL_STATUSES = new Set(['pending', 'completed', 'answered', 'busy', 'no-answer', 'failed', 'canceled', 'voicemail']);
type Contact = { id: string; locationId: string; phone?: string; email?: string; firstName?: string; lastName?: string; source?: string; tags: string[] };
type Message = {
  id: string;
  conversationId: string;
  contactId: string;
  type: number;
  messageType: 'TYPE_CALL';
  direction: string;
  dateAdded: string;
  body: string;
  status: string;
  meta: unknown;
};

/** A GoHighLevel error answer. */
function ghlError(status: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ statusCode: status, message }, { status, headers });
}

/** Creates a fresh GoHighLevel sandbox (agency with two locations). */
export function goHighLevelSandbox(): ProviderSandbox {
  const received: Array<{ at: string; summary: string; body: unknown }> = [];
  const contacts = new Map<string, Contact>();
  const conversations = new Map<string, { id: string; locationId: string; contactId: string }>();
  const messages: Message[] = [];
  const windows = new Map<string, number[]>();
  const id = () =>
    crypto
      .randomBytes(10)
      .toString('base64url')
      .replace(/[^A-Za-z0-9]/g, 'x')
      .slice(0, 20);

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname;
    const token = (request.headers.get('authorization') ?? '').replace(/^Bearer\s+/i, '');
    if (!token.startsWith('sandbox-')) return ghlError(401, 'Invalid JWT');
    const now = Date.now();
    const recent = (windows.get(token) ?? []).filter((t) => now - t < 10_000);
    recent.push(now);
    windows.set(token, recent);
    const rl = {
      'x-ratelimit-limit-daily': '200000',
      'x-ratelimit-daily-remaining': '199000',
      'x-ratelimit-interval-milliseconds': '10000',
      'x-ratelimit-max': '100',
      'x-ratelimit-remaining': String(Math.max(0, 100 - recent.length)),
    };
    if (recent.length > 100) return ghlError(429, 'Too many requests', rl);
    const family = path.startsWith('/conversations') ? 'conversations' : 'contacts';
    if (request.headers.get('version') !== GHL_VERSION[family]) return ghlError(400, `Version header must be ${GHL_VERSION[family]}`, rl);
    const ok = (body: unknown, status = 200) => Response.json({ ...(body as object), traceId: crypto.randomUUID() }, { status, headers: rl });
    const isForm = (request.headers.get('content-type') ?? '').includes('x-www-form-urlencoded');
    const raw = ['GET', 'HEAD'].includes(request.method) ? '' : await request.text();
    const body = (isForm ? Object.fromEntries(new URLSearchParams(raw)) : raw ? (JSON.parse(raw) as Record<string, unknown>) : {}) as Record<string, unknown>;
    const m = request.method;

    if (m === 'POST' && path === '/oauth/locationToken') {
      const loc = LOCATIONS.find((l) => l._id === body.locationId);
      if (!loc || !body.companyId) return ghlError(400, 'companyId and an installed locationId are required', rl);
      return ok({
        access_token: `sandbox-loc-${loc._id}`,
        token_type: 'Bearer',
        expires_in: 86399,
        scope: 'contacts.write conversations/message.write',
        locationId: loc._id,
        userId: 'sbxUser0001',
      });
    }
    if (m === 'GET' && path === '/oauth/installedLocations')
      return ok({ locations: LOCATIONS.map((l) => ({ ...l, isInstalled: true })), count: LOCATIONS.length, installToFutureLocations: false });
    const loc = /^\/locations\/([^/]+)$/.exec(path);
    if (m === 'GET' && loc) {
      const l = LOCATIONS.find((x) => x._id === loc[1]);
      return l ? ok({ location: { id: l._id, name: l.name, address: l.address, timezone: 'America/Chicago' } }) : ghlError(404, 'Location not found', rl);
    }
    if (m === 'POST' && path === '/contacts/upsert') {
      if (!LOCATIONS.some((l) => l._id === body.locationId)) return ghlError(422, 'locationId is invalid', rl);
      if (!body.phone && !body.email) return ghlError(422, 'phone or email is required', rl);
      const existing = [...contacts.values()].find(
        (c) => c.locationId === body.locationId && ((body.phone && c.phone === body.phone) || (body.email && c.email === body.email)),
      );
      const fields = Object.fromEntries(
        ['phone', 'email', 'firstName', 'lastName', 'source'].filter((k) => typeof body[k] === 'string').map((k) => [k, body[k]]),
      );
      if (existing) {
        Object.assign(existing, fields);
        return ok({ new: false, contact: existing });
      }
      const c: Contact = { id: id(), locationId: String(body.locationId), tags: [], ...fields };
      contacts.set(c.id, c);
      received.push({ at: new Date(now).toISOString(), summary: `Contact ${c.phone ?? c.email}`, body: c });
      return ok({ new: true, contact: c });
    }
    const tags = /^\/contacts\/([^/]+)\/tags$/.exec(path);
    if (m === 'POST' && tags) {
      const c = contacts.get(tags[1]!);
      if (!c) return ghlError(400, 'Contact not found', rl);
      for (const t of (body.tags ?? []) as string[]) if (!c.tags.includes(t)) c.tags.push(t);
      received.push({ at: new Date(now).toISOString(), summary: `Tags on ${c.id}: ${c.tags.join(', ')}`, body: { contactId: c.id, tags: body.tags } });
      return ok({ tags: c.tags }, 201);
    }
    if (m === 'GET' && path === '/conversations/search') {
      const rows = [...conversations.values()].filter(
        (c) => c.locationId === url.searchParams.get('locationId') && (!url.searchParams.get('contactId') || c.contactId === url.searchParams.get('contactId')),
      );
      return ok({ conversations: rows, total: rows.length });
    }
    if (m === 'POST' && (path === '/conversations/' || path === '/conversations')) {
      if (!contacts.has(String(body.contactId))) return ghlError(400, 'Contact not found', rl);
      const c = { id: id(), locationId: String(body.locationId), contactId: String(body.contactId) };
      conversations.set(c.id, c);
      return ok(
        { success: true, conversation: { ...c, dateAdded: new Date(now).toISOString(), dateUpdated: new Date(now).toISOString(), deleted: false } },
        201,
      );
    }
    const list = /^\/conversations\/([^/]+)\/messages$/.exec(path);
    if (m === 'GET' && list) {
      const rows = messages.filter((x) => x.conversationId === list[1]).reverse();
      return ok({ messages: { lastMessageId: rows.at(-1)?.id ?? '', nextPage: false, messages: rows.slice(0, Number(url.searchParams.get('limit') ?? 20)) } });
    }
    if (m === 'POST' && (path === '/conversations/messages/inbound' || path === '/conversations/messages/outbound')) {
      const inbound = path.endsWith('inbound');
      const conv = conversations.get(String(body.conversationId));
      if (body.type !== 'Call') return ghlError(400, 'type must be Call', rl);
      if (!conv || !body.conversationProviderId) return ghlError(400, 'conversationId and conversationProviderId are required', rl);
      if (inbound && body.contactId !== conv.contactId) return ghlError(400, 'contactId does not match the conversation', rl);
      const call = (body.call ?? {}) as { from?: string; to?: string; status?: string };
      if (!call.from || !call.to || !CALL_STATUSES.has(String(call.status)))
        return ghlError(400, 'call.from, call.to and a valid call.status are required', rl);
      const msg: Message = {
        id: id(),
        conversationId: conv.id,
        contactId: conv.contactId,
        type: 1,
        messageType: 'TYPE_CALL',
        direction: inbound ? 'inbound' : 'outbound',
        dateAdded: new Date(Date.parse(String(body.date ?? '')) || now).toISOString(),
        body: String(body.message ?? ''),
        status: String(call.status),
        meta: { call: { duration: null, status: call.status } },
      };
      messages.push(msg);
      received.push({
        at: new Date(now).toISOString(),
        summary: `${inbound ? 'Inbound' : 'Outbound'} call ${call.from} → ${call.to} (${String(call.status)})`,
        body,
      });
      return ok({ success: true, conversationId: conv.id, messageId: msg.id, message: 'Message added', contactId: conv.contactId, dateAdded: msg.dateAdded });
    }
    return ghlError(404, `Cannot ${m} ${path}`, rl);
  }

  return { fetch: handle, sent: () => received.slice() };
}
