/**
 * Twilio Lookup v2 adapter (`LOOKUP=twilio`; docs/caller-id.md "Providers"): one
 * `GET {base}/v2/PhoneNumbers/{E.164}?Fields=caller_name,line_type_intelligence` with HTTP Basic
 * authentication by the carrier's account SID and auth token. Twilio's documented REST API is
 * called with `fetch` (the twilio SDK may only live under carriers/twilio/, and platform imports no
 * carrier). Caller name (CNAM) is answered for US numbers only; elsewhere the answer is "not found"
 * with the line type. Errors: a network failure, a timeout (`timeoutMs`), 401/403 (credentials),
 * 429 and 5xx are `LookupUnavailableError`; 404 (unknown number) and `valid: false` are "not found".
 */
import { LookupUnavailableError, type LookupAnswer, type LookupPort } from './lookup.port.js';

/** The subset of Twilio's PhoneNumber resource read here (snake_case, as on the wire). */
type TwilioPhoneNumber = {
  phone_number?: string;
  country_code?: string | null;
  valid?: boolean;
  caller_name?: { caller_name?: string | null; caller_type?: string | null; error_code?: number | null } | null;
  line_type_intelligence?: { type?: string | null; carrier_name?: string | null; error_code?: number | null } | null;
};

/** Maps Twilio's JSON to a `LookupAnswer` (exported for the adapter's tests). */
export function answerFromTwilio(e164: string, body: TwilioPhoneNumber): LookupAnswer {
  const cn = body.caller_name ?? null;
  const lt = body.line_type_intelligence ?? null;
  const name = cn && !cn.error_code && cn.caller_name ? cn.caller_name.trim() : '';
  const type = cn?.caller_type?.toUpperCase();
  return {
    e164,
    found: body.valid !== false && name !== '',
    callerName: name || null,
    callerType: type === 'BUSINESS' ? 'business' : type === 'CONSUMER' ? 'consumer' : null,
    lineType: lt && !lt.error_code ? (lt.type ?? null) : null,
    carrierName: lt && !lt.error_code ? (lt.carrier_name ?? null) : null,
    countryCode: body.country_code ?? null,
  };
}

/** The Twilio adapter. `baseUrl` without a trailing slash (default https://lookups.twilio.com). */
export function createTwilioLookup(opts: { accountSid: string; authToken: string; baseUrl: string; timeoutMs?: number }): LookupPort {
  const auth = `Basic ${Buffer.from(`${opts.accountSid}:${opts.authToken}`).toString('base64')}`;
  return {
    name: 'twilio',
    async lookup(e164: string): Promise<LookupAnswer> {
      const url = `${opts.baseUrl}/v2/PhoneNumbers/${encodeURIComponent(e164)}?Fields=caller_name,line_type_intelligence`;
      let res: Response;
      try {
        res = await fetch(url, { headers: { authorization: auth, accept: 'application/json' }, signal: AbortSignal.timeout(opts.timeoutMs ?? 5000) });
      } catch (e) {
        throw new LookupUnavailableError(`Twilio Lookup could not be reached: ${(e as Error).message}`);
      }
      if (res.status === 404) return { e164, found: false, callerName: null, callerType: null, lineType: null, carrierName: null, countryCode: null };
      if (!res.ok) {
        const detail = await res.text().then(
          (t) => t.slice(0, 200),
          (e: Error) => e.message,
        );
        throw new LookupUnavailableError(`Twilio Lookup answered ${res.status}: ${detail}`, res.status);
      }
      return answerFromTwilio(e164, (await res.json()) as TwilioPhoneNumber);
    },
  };
}
