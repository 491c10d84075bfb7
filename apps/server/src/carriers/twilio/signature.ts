/**
 * `X-Twilio-Signature` signing and checking (HMAC-SHA1 over the full URL and the sorted form
 * parameters) with the `twilio` package's own implementation. The sandbox signs its webhooks
 * with `signWebhook`, so one verification path serves both carriers.
 */
import twilio from 'twilio';

/** True when `signature` is the valid signature of (`url`, `params`) under `authToken`. */
export function validateSignature(authToken: string, url: string, params: Record<string, string>, signature: string | undefined): boolean {
  if (!signature) return false;
  try {
    return twilio.validateRequest(authToken, signature, url, params);
  } catch (e) {
    // A malformed URL or signature (the SDK parses both): not a valid signature. Other errors are bugs.
    if (e instanceof TypeError || e instanceof RangeError) return false;
    throw e;
  }
}

/** The signature Twilio would send for a POST of `params` to `url`. */
export function signWebhook(authToken: string, url: string, params: Record<string, string>): string {
  return twilio.getExpectedTwilioSignature(authToken, url, params);
}
