/**
 * Telnyx's fax webhook dialect (Telnyx API v2 "Programmable Fax" webhooks): JSON bodies
 * `{ data: { id, event_type, occurred_at, payload: { fax_id, direction, from, to, status,
 * page_count, media_url, failure_reason } } }`, signed with Ed25519 over `{telnyx-timestamp}|{raw body}`
 * (header `telnyx-signature-ed25519`, base64; `telnyx-timestamp` in unix seconds). Shared by the
 * Telnyx adapter and the sandbox, which calls our webhook exactly as Telnyx does (docs/fax.md).
 */
import crypto from 'node:crypto';
import { clip } from '@switchboard/domain';
import { z } from 'zod';
import type { FaxStatus, FaxWebhookEvent, WebhookHeaders } from '../fax.port.js';

/** Header names of a signed Telnyx webhook. */
export const TELNYX_SIGNATURE_HEADER = 'telnyx-signature-ed25519';
export const TELNYX_TIMESTAMP_HEADER = 'telnyx-timestamp';
/** Oldest (or furthest in the future) signed timestamp accepted, seconds. */
export const SIGNATURE_TOLERANCE_S = 300;

/** DER prefix of an Ed25519 SubjectPublicKeyInfo; Telnyx shows the 32-byte raw key in base64. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * The Ed25519 public key of a Telnyx account (Mission Control "Public key": base64 of the 32 raw
 * bytes; a base64 DER/PEM SPKI is accepted too). @throws Error when the text is no Ed25519 key.
 */
export function telnyxPublicKey(text: string): crypto.KeyObject {
  const trimmed = text.trim();
  if (trimmed.startsWith('-----BEGIN')) return crypto.createPublicKey(trimmed);
  const raw = Buffer.from(trimmed, 'base64');
  if (raw.length === 32) return crypto.createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
  return crypto.createPublicKey({ key: raw, format: 'der', type: 'spki' });
}

/** Base64 of the 32 raw bytes of an Ed25519 public key (the form Telnyx shows). */
export function rawPublicKeyBase64(key: crypto.KeyObject): string {
  return key.export({ format: 'der', type: 'spki' }).subarray(ED25519_SPKI_PREFIX.length).toString('base64');
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Signature headers for `rawBody` signed at `timestampS` with `privateKey` (the sandbox; tests). */
export function signTelnyxWebhook(privateKey: crypto.KeyObject, rawBody: string, timestampS = Math.floor(Date.now() / 1000)): Record<string, string> {
  const signature = crypto.sign(null, Buffer.from(`${timestampS}|${rawBody}`), privateKey).toString('base64');
  return { [TELNYX_SIGNATURE_HEADER]: signature, [TELNYX_TIMESTAMP_HEADER]: String(timestampS) };
}

/** Whether `rawBody` carries a valid Ed25519 signature by `publicKey` within the time tolerance. */
export function verifyTelnyxWebhook(publicKey: crypto.KeyObject, rawBody: string, headers: WebhookHeaders, nowMs = Date.now()): boolean {
  const signature = header(headers, TELNYX_SIGNATURE_HEADER);
  const timestamp = header(headers, TELNYX_TIMESTAMP_HEADER);
  if (!signature || !timestamp || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > SIGNATURE_TOLERANCE_S) return false;
  const sig = Buffer.from(signature, 'base64');
  if (sig.length !== 64) return false;
  return crypto.verify(null, Buffer.from(`${timestamp}|${rawBody}`), publicKey, sig);
}

const TelnyxFaxBody = z.object({
  data: z.object({
    id: z.string().min(1),
    event_type: z.string(),
    payload: z.object({
      fax_id: z.string().min(1),
      direction: z.enum(['inbound', 'outbound']).optional(),
      from: z.string().optional(),
      to: z.string().optional(),
      page_count: z.number().int().nonnegative().nullish(),
      media_url: z.string().nullish(),
      failure_reason: z.string().nullish(),
    }),
  }),
});

/**
 * The most characters kept of each text of a fax event (docs/operations.md "Bounds on outside
 * input"; the webhook body itself is at most 1 MB, fax.routes.ts): Telnyx ids are UUIDs (36),
 * numbers E.164 (16; SIP addresses longer), `failure_reason` one of Telnyx's documented words
 * (e.g. `user_busy`, `receiver_call_dropped`), media URLs signed links of a few hundred characters.
 */
export const FAX_TEXT_LIMITS = Object.freeze({ id: 64, party: 256, reason: 200, url: 2048 });

/** Telnyx fax event types and our status for each (others, e.g. `fax.media.processed`, are ignored). */
const EVENT_STATUS: Record<string, FaxStatus> = {
  'fax.queued': 'queued',
  'fax.sending.started': 'sending',
  'fax.delivered': 'delivered',
  'fax.failed': 'failed',
  'fax.receiving.started': 'receiving',
  'fax.received': 'received',
};

/** The neutral event of a Telnyx fax webhook body, or null for an event we do not use or a body that is not a fax event. */
export function parseTelnyxFaxEvent(body: unknown): FaxWebhookEvent | null {
  const parsed = TelnyxFaxBody.safeParse(body);
  if (!parsed.success) return null;
  const { id, event_type, payload } = parsed.data.data;
  const status = EVENT_STATUS[event_type];
  if (!status) return null;
  // Longer than any id: not an event of Telnyx's (and it must not become a receipt key).
  if (id.length > FAX_TEXT_LIMITS.id || payload.fax_id.length > FAX_TEXT_LIMITS.id) return null;
  const direction = payload.direction ?? (status === 'received' || status === 'receiving' ? 'inbound' : 'outbound');
  const mediaUrl = payload.media_url ?? null;
  return {
    eventId: id,
    faxId: payload.fax_id,
    direction,
    status,
    from: clip(payload.from ?? '', FAX_TEXT_LIMITS.party),
    to: clip(payload.to ?? '', FAX_TEXT_LIMITS.party),
    pages: payload.page_count ?? null,
    // A URL longer than any signed link is not fetched.
    mediaUrl: mediaUrl !== null && mediaUrl.length <= FAX_TEXT_LIMITS.url ? mediaUrl : null,
    error: status === 'failed' ? clip(payload.failure_reason ?? 'failed', FAX_TEXT_LIMITS.reason) : null,
  };
}

/** A Telnyx fax webhook body (the sandbox; tests). */
export function telnyxFaxEventBody(
  eventType: string,
  payload: {
    fax_id: string;
    direction: 'inbound' | 'outbound';
    from: string;
    to: string;
    page_count?: number | null;
    media_url?: string | null;
    failure_reason?: string | null;
    status?: string;
  },
): string {
  return JSON.stringify({
    data: { record_type: 'event', id: crypto.randomUUID(), event_type: eventType, occurred_at: new Date().toISOString(), payload },
    meta: { attempt: 1, delivered_to: '' },
  });
}
