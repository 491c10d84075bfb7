/**
 * In-app calling access tokens for Twilio's Voice SDK: a JWT from the `twilio` package's
 * `jwt.AccessToken` carrying a `VoiceGrant` (incoming calls to `<Client>identity</Client>`, and
 * outgoing calls through the TwiML app `TWILIO_TWIML_APP_SID` when asked). Signed with the API key
 * `TWILIO_API_KEY` / `TWILIO_API_SECRET` (README "Configuration").
 */
import twilio from 'twilio';
import type { Config } from '../../platform/config.js';
import { CarrierError } from '../../platform/http/errors.js';
import type { ClientToken } from '../carrier.port.js';

const { AccessToken } = twilio.jwt;
const { VoiceGrant } = AccessToken;

/** Default token lifetime: 1 hour (s). */
export const CLIENT_TOKEN_TTL_S = 3600;

/**
 * A Voice access token for `identity`.
 * @throws CarrierError when TWILIO_API_KEY/TWILIO_API_SECRET (or, for outgoing calls, TWILIO_TWIML_APP_SID) are not set.
 */
export function createTwilioClientToken(
  config: Config,
  identity: string,
  options: { outgoing?: boolean; ttlS?: number; params?: Record<string, string> } = {},
): ClientToken {
  if (!config.twilioApiKey || !config.twilioApiSecret) throw new CarrierError('In-app calling needs TWILIO_API_KEY and TWILIO_API_SECRET.');
  if (options.outgoing && !config.twilioTwimlAppSid) throw new CarrierError('Calls from the browser need TWILIO_TWIML_APP_SID.');
  const ttlS = options.ttlS ?? CLIENT_TOKEN_TTL_S;
  const token = new AccessToken(config.twilioAccountSid, config.twilioApiKey, config.twilioApiSecret, { identity, ttl: ttlS });
  token.addGrant(
    new VoiceGrant({
      incomingAllow: true,
      ...(options.outgoing ? { outgoingApplicationSid: config.twilioTwimlAppSid, outgoingApplicationParams: options.params ?? {} } : {}),
    }),
  );
  return { token: token.toJwt(), identity, ttlS };
}
