/**
 * The caller-name lookup port (docs/caller-id.md "Providers"): given an E.164 number, the name a
 * provider's CNAM database holds for it and its line type. Adapters: `sandbox.lookup.ts` (offline
 * directory, the default) and `twilio.lookup.ts` (Twilio Lookup v2 over its documented REST API).
 * Adapters never cache: the caller-id module caches answers per number (spec 001 "enhanced-caller-id").
 */

/** What a provider answered about one number. `found` false: the number is withheld or not registered (no name). */
export type LookupAnswer = {
  /** The number asked about (E.164). */
  e164: string;
  /** A caller name was found (CNAM). Line type may still be known when false. */
  found: boolean;
  /** CNAM as the provider spells it (often upper case, at most 15 characters in the US), or null. */
  callerName: string | null;
  /** 'business' | 'consumer' when the provider says so, else null. */
  callerType: 'business' | 'consumer' | null;
  /** Line type intelligence: mobile, landline, fixedVoip, nonFixedVoip, tollFree, premium, … (Twilio's words), or null. */
  lineType: string | null;
  /** The carrier of the line, or null. */
  carrierName: string | null;
  /** ISO 3166 alpha-2 country of the number, or null. */
  countryCode: string | null;
};

/** The provider could not answer now (network, 5xx, rate limit, bad credentials): nothing is cached; try again later. */
export class LookupUnavailableError extends Error {
  constructor(
    message: string,
    /** The provider's HTTP status, when it answered. */
    readonly providerStatus: number | null = null,
  ) {
    super(message);
    this.name = 'LookupUnavailableError';
  }
}

/** A caller-name lookup provider. */
export interface LookupPort {
  /** 'sandbox' or 'twilio' (what `LOOKUP` selected). */
  readonly name: 'sandbox' | 'twilio';
  /**
   * Looks `e164` up at the provider (one billable request).
   * @throws LookupUnavailableError when the provider cannot answer now.
   */
  lookup(e164: string): Promise<LookupAnswer>;
}
