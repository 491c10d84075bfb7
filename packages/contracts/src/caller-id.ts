/**
 * Enhanced caller ID contracts (spec 001 §7 "GET /calls/{id}/enhanced-caller-id" with
 * `lookupWhenMissing`, "GET /messages/{id}/enhanced-caller-id", §3 "Conversation" `enhancedCallerId`;
 * spec 002 "POST /company/{companyId}/trestle/lookup"; the lookup-not-found notice of spec 000 §8).
 * The object's shape is not shown by the spec: docs/caller-id.md "API" records the decision.
 */
import { z } from 'zod';
import { Id } from './common.js';

/**
 * What is known of an outside party's name. `status`: `found` (a provider name), `not_found`
 * (withheld or not registered: `message` carries the spec's notice), `missing` (never looked up,
 * or the cached answer expired, and the request did not ask for a lookup).
 * `displayName`: the company's contact name first, else the provider's caller name, else null.
 */
export const EnhancedCallerId = z.object({
  number: z.string(),
  status: z.enum(['found', 'not_found', 'missing']),
  displayName: z.string().nullable(),
  /** The company's contact for the number, when there is one (its name wins over the provider's). */
  contact: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** CNAM as the provider spells it, or null. */
  callerName: z.string().nullable(),
  callerType: z.enum(['business', 'consumer']).nullable(),
  /** mobile, landline, fixedVoip, nonFixedVoip, tollFree, … (Twilio's line types), or null. */
  lineType: z.string().nullable(),
  carrierName: z.string().nullable(),
  countryCode: z.string().nullable(),
  /** Where this answer came from: `provider` (looked up now), `cache`, or null (`missing`, withheld numbers). */
  source: z.enum(['provider', 'cache']).nullable(),
  lookedUpAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  /** The lookup-not-found notice (spec 000 §8) when `status` is `not_found`, else null. */
  message: z.string().nullable(),
});
export type EnhancedCallerId = z.infer<typeof EnhancedCallerId>;

const flag = z.preprocess(
  (v) => (v === undefined || v === null || v === '' ? false : v),
  z.union([z.boolean(), z.enum(['1', '0', 'true', 'false'])]).transform((v) => v === true || v === '1' || v === 'true'),
);

/** `GET /calls/{id}/enhanced-caller-id` query: `lookupWhenMissing` 0|1 (default 0: the cache only). */
export const EnhancedCallerIdQuery = z.object({ lookupWhenMissing: flag });

/** `POST /company/{companyId}/trestle/lookup` body: the number to check (any form `parsePhone` reads; US default). */
export const TrestleLookupInput = z.object({ number: z.string().trim().min(1).max(40) });
export const TrestleLookupParams = z.object({ companyId: Id });

/** A company's caller-ID setting: inbound callers are looked up automatically (docs/caller-id.md "Automatic lookups"). */
export const CallerIdSettings = z.object({ autoLookup: z.boolean() });
export type CallerIdSettings = z.infer<typeof CallerIdSettings>;
