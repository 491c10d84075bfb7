/**
 * Caller-name lookups (docs/caller-id.md): the port, its adapters and `createLookup`, which picks
 * the adapter `LOOKUP` selected. Used by modules/caller-id only.
 */
import type { Config } from '../config.js';
import type { LookupPort } from './lookup.port.js';
import { createSandboxLookup } from './sandbox.lookup.js';
import { createTwilioLookup } from './twilio.lookup.js';

export * from './lookup.port.js';
export { failNextSandboxLookups, isSandboxFailureNumber, setSandboxCallerName } from './sandbox.lookup.js';

/** The configured adapter: the sandbox (default) or Twilio Lookup v2 with the carrier's credentials. */
export function createLookup(config: Config): LookupPort {
  if (config.lookup.adapter === 'twilio') {
    return createTwilioLookup({ accountSid: config.twilioAccountSid, authToken: config.twilioAuthToken, baseUrl: config.lookup.twilioBaseUrl });
  }
  return createSandboxLookup(config.lookup.sandboxLatencyMs);
}
