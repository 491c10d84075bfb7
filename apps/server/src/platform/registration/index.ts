/**
 * The configured 10DLC registry (SMS_REGISTRY=sandbox|telnyx; docs/sms-verification.md "Configuration"), one per
 * process configuration.
 */
import type { Config } from '../config.js';
import type { SmsRegistry } from './registry.port.js';
import { SandboxRegistry } from './sandbox.js';
import { TelnyxRegistry } from './telnyx.js';

export * from './registry.port.js';
export { SandboxRegistry, registryClock, sandboxBrandOutcome, sandboxCampaignOutcome, sandboxRegistryTuning } from './sandbox.js';

const registries = new WeakMap<Config, SmsRegistry>();

/** The registry for `config` (created once per config object). */
export function smsRegistry(config: Config): SmsRegistry {
  let r = registries.get(config);
  if (!r) {
    r =
      config.smsRegistry.adapter === 'telnyx' ? new TelnyxRegistry(config.smsRegistry.telnyxApiKey, config.smsRegistry.telnyxPublicKey) : new SandboxRegistry();
    registries.set(config, r);
  }
  return r;
}
