/**
 * Meta Conversions API payloads (docs/integrations-providers.md "Meta Ads"), pure functions.
 *
 * Checked against Meta's documentation (Marketing API v27.0, released 4 November 2026, the current version on
 * 2026-11-29): "Server Event Parameters" (updated 12 Feb 2026), "Customer Information Parameters" (updated 9 Jan 2026),
 * "Main Body Parameters", "Handling Duplicate Pixel and Conversions API Events", "Sending Offline Events Using the
 * Conversions API" (updated 5 Jan 2026).
 * - `event_time` is a Unix timestamp in SECONDS (GMT) and may be at most 7 days in the past; one older event makes
 *   Meta refuse the whole request, so such items are skipped before sending ({@link MAX_EVENT_AGE_MS}).
 * - Deduplication: `event_id` + `event_name`, within 48 hours of each other.
 * - `action_source`: `phone_call` ("Conversion was made over the phone"); non-web events need only `action_source`
 *   (no `event_source_url`, `client_user_agent`).
 * - Contact information is normalised then SHA-256 hashed (lowercase hex): `em` trimmed and lowercased; `ph` digits
 *   only with the country code (E.164 without `+`); `fn`/`ln` lowercased, no punctuation, UTF-8; `external_id`
 *   hashing is recommended. `fbc`, `fbp`, `client_ip_address`, `client_user_agent` are NOT hashed.
 * - `fbc` format: `fb.1.<creation time in ms>.<fbclid>` (built from the click id and the session start when the
 *   tracking script did not see the `_fbc` cookie).
 */
import crypto from 'node:crypto';
import type { DeliveryItem } from '../provider.js';

/** Graph API version used by the real adapter (Marketing API changelog: v27.0, 4 November 2026). */
export const GRAPH_VERSION = 'v27.0';
/** Meta refuses events older than this (7 days). */
export const MAX_EVENT_AGE_MS = 7 * 24 * 3600 * 1000;
/** At most 1,000 events per request (Conversions API batch limit). */
export const MAX_EVENTS_PER_REQUEST = 1000;

/** One server event as Meta's `data[]` entry. */
export type MetaServerEvent = {
  event_name: string;
  event_time: number;
  event_id: string;
  action_source: 'phone_call';
  user_data: Record<string, string | string[]>;
  custom_data?: Record<string, string | number>;
};

/** SHA-256 of a UTF-8 string as lowercase hex (64 chars). */
export function sha256Hex(value: string): string {
  return crypto.createHash('sha256').update(value, 'utf8').digest('hex');
}

/** `em`: trimmed, lowercased. Null when empty or without `@`. */
export function normalizeEmail(email: string | null): string | null {
  const v = (email ?? '').trim().toLowerCase();
  return v.includes('@') ? v : null;
}

/** `ph`: digits only, with the country code (E.164 `+15551234567` → `15551234567`). Null when fewer than 7 digits. */
export function normalizePhone(phone: string | null): string | null {
  const digits = (phone ?? '').replace(/\D/g, '').replace(/^00/, '');
  return digits.length >= 7 ? digits : null;
}

/** `fn`/`ln`: lowercased, punctuation and spaces removed (Unicode aware). Null when empty. */
export function normalizeName(name: string | null): string | null {
  const v = (name ?? '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}\s]/gu, '');
  return v || null;
}

/**
 * Meta's `event_id` for an item: stable across retries and replays (derived from the call/text id, the kind, and for
 * outcomes the outcome), so Meta deduplicates a resend with the same `event_name` within 48 h.
 */
export function metaEventId(item: DeliveryItem): string {
  const subject = item.call ? `call-${item.call.id}` : item.text ? `text-${item.text.id}` : item.deliveryKey;
  if (item.kind === 'outcome' || item.kind === 'outcome-adjustment') return `sb-${subject}-outcome-${item.call?.outcome ?? 'none'}`;
  return `sb-${subject}-${item.kind}`;
}

/** Meta's standard event name for a kind when the integration's settings name none (`Contact` for calls, `Lead` for leads). */
export function defaultEventName(item: DeliveryItem): string {
  if (item.kind === 'lead') return 'Lead';
  if (item.kind === 'outcome' || item.kind === 'outcome-adjustment') return item.call?.outcome === 'appt_booked' ? 'Schedule' : 'Lead';
  return 'Contact';
}

/**
 * `fbc` for the item: the `_fbc` cookie when the script saw it, else built from `fbclid` as `fb.1.<ms>.<fbclid>` with
 * the session start (or the call time) as creation time. Null without a Meta click.
 */
export function fbcOf(item: DeliveryItem): string | null {
  const a = item.attribution;
  if (a.fbc) return a.fbc;
  if (!a.fbclid) return null;
  const at = Date.parse(a.sessionStartedAt ?? item.occurredAt);
  return `fb.1.${Number.isFinite(at) ? at : 0}.${a.fbclid}`;
}

/** The hashed and plain `user_data` of an item (only keys that have a value). */
export function userDataOf(item: DeliveryItem): Record<string, string | string[]> {
  const c = item.contact;
  const out: Record<string, string | string[]> = {};
  const ph = normalizePhone(c.phone ?? item.call?.callerNumber ?? item.text?.from ?? null);
  if (ph) out.ph = [sha256Hex(ph)];
  const em = normalizeEmail(c.email);
  if (em) out.em = [sha256Hex(em)];
  const fn = normalizeName(c.firstName);
  if (fn) out.fn = [sha256Hex(fn)];
  const ln = normalizeName(c.lastName);
  if (ln) out.ln = [sha256Hex(ln)];
  if (c.id !== null) out.external_id = [sha256Hex(`contact-${c.id}`)];
  const fbc = fbcOf(item);
  if (fbc) out.fbc = fbc;
  if (item.attribution.fbp) out.fbp = item.attribution.fbp;
  if (item.attribution.clientIp) out.client_ip_address = item.attribution.clientIp;
  if (item.attribution.userAgent) out.client_user_agent = item.attribution.userAgent;
  return out;
}

/** The server event for one item (see the file's notes for every rule applied). */
export function buildServerEvent(item: DeliveryItem): MetaServerEvent {
  const conversion = item.conversion;
  const custom: Record<string, string | number> = {};
  const valueCents = conversion?.valueCents ?? item.call?.valueCents ?? null;
  if (valueCents !== null) {
    custom.value = valueCents / 100;
    custom.currency = (conversion?.currency ?? item.call?.currency ?? 'USD').toLowerCase();
  }
  if (item.call?.outcome) custom.lead_outcome = item.call.outcome;
  if (item.call?.departmentType) custom.department = item.call.departmentType;
  if (item.call) custom.call_duration_s = item.call.durationS;
  const event: MetaServerEvent = {
    event_name: conversion?.name || defaultEventName(item),
    event_time: Math.floor(Date.parse(item.occurredAt) / 1000),
    event_id: metaEventId(item),
    action_source: 'phone_call',
    user_data: userDataOf(item),
  };
  if (Object.keys(custom).length) event.custom_data = custom;
  return event;
}

/** Whether the item is too old for Meta (more than 7 days before `now`). */
export function tooOld(item: DeliveryItem, now: Date): boolean {
  return now.getTime() - Date.parse(item.occurredAt) > MAX_EVENT_AGE_MS;
}

/**
 * `appsecret_proof` (Graph API "Securing Requests"): HMAC-SHA256 of the access token keyed by the app secret, hex.
 * Null when no app secret is configured.
 */
export function appSecretProof(accessToken: string, appSecret: string): string | null {
  return appSecret ? crypto.createHmac('sha256', appSecret).update(accessToken).digest('hex') : null;
}
