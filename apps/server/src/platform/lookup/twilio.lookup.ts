/**
 * Twilio Lookup v2 adapter (`LOOKUP=twilio`; docs/caller-id.md "Providers"): one
 * `GET {base}/v2/PhoneNumbers/{E.164}?Fields=caller_name,line_type_intelligence` with HTTP Basic
 * authentication by the carrier's account SID and auth token. Twilio's documented REST API is
 * called with `fetch` (the twilio SDK may only live under carriers/twilio/, and platform imports no
 * carrier). Caller name (CNAM) is answered for US numbers only; elsewhere the answer is "not found"
 * with the line type. Errors: a network failure, a timeout (`timeoutMs`), 401/403 (credentials),
 * 429 and 5xx are `LookupUnavailableError`; 404 (unknown number) and `valid: false` are "not found".
 */
import { clip } from '@switchboard/domain';
import { LookupUnavailableError, type LookupAnswer, type LookupPort } from './lookup.port.js';

/** The subset of Twilio's PhoneNumber resource read here (snake_case, as on the wire). */
type TwilioPhoneNumber = {
  phone_number?: string;
  country_code?: string | null;
  valid?: boolean;
  caller_name?: { caller_name?: string | null; caller_type?: string | null; error_code?: number | null } | null;
  line_type_intelligence?: { type?: string | null; carrier_name?: string | null; error_code?: number | null } | null;
};

/**
 * The most characters kept of the provider's texts (docs/operations.md "Bounds on outside input"):
 * a CNAM is at most 15 characters (the industry standard Twilio documents); 64 leaves room for a
 * provider that spells more without letting an answer flood the cache, the inbox or the logs.
 * Carrier names and line types are short words too; a country code is two letters.
 */
export const LOOKUP_TEXT_LIMITS = Object.freeze({ callerName: 64, carrierName: 128, lineType: 32, countryCode: 2 });

/** Maps Twilio's JSON to a `LookupAnswer`, its texts cut to LOOKUP_TEXT_LIMITS (exported for the adapter's tests). */
export function answerFromTwilio(e164: string, body: TwilioPhoneNumber): LookupAnswer {
  const cn = body.caller_name ?? null;
  const lt = body.line_type_intelligence ?? null;
  const name = cn && !cn.error_code && typeof cn.caller_name === 'string' ? clip(cn.caller_name.trim(), LOOKUP_TEXT_LIMITS.callerName).trim() : '';
  const type = cn?.caller_type?.toUpperCase();
  return {
    e164,
    found: body.valid !== false && name !== '',
    callerName: name || null,
    callerType: type === 'BUSINESS' ? 'business' : type === 'CONSUMER' ? 'consumer' : null,
    lineType: lt && !lt.error_code && typeof lt.type === 'string' ? clip(lt.type, LOOKUP_TEXT_LIMITS.lineType) : null,
    carrierName: lt && !lt.error_code && typeof lt.carrier_name === 'string' ? clip(lt.carrier_name, LOOKUP_TEXT_LIMITS.carrierName) : null,
    countryCode: typeof body.country_code === 'string' ? clip(body.country_code, LOOKUP_TEXT_LIMITS.countryCode) : null,
  };
}

/** Largest Lookup answer read (a real one is under 2 KB): a larger one is refused unread. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** The body of `res` as text, at most `maxBytes`. @throws Error when it is longer (the stream is cancelled). */
async function readCapped(res: Response, maxBytes: number): Promise<string> {
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new Error(`answer larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
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
      let body: TwilioPhoneNumber;
      try {
        body = JSON.parse(await readCapped(res, MAX_ANSWER_BYTES)) as TwilioPhoneNumber;
      } catch (e) {
        throw new LookupUnavailableError(`Twilio Lookup answered unreadably: ${(e as Error).message}`, res.status);
      }
      return answerFromTwilio(e164, body);
    },
  };
}
