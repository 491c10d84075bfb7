/**
 * The providers this server knows (docs/integrations.md "Provider port"): ProviderId → {adapter, sandbox} of each
 * `providers/<id>/index.ts`. With `INTEGRATIONS=sandbox` (default) the framework runs each real adapter against its
 * in-process sandbox (`ProviderSandbox.fetch`); with `live` against the network (or the base URL overrides
 * `INTEGRATIONS_<ID>_BASE_URL` of tests' local stand-ins). A provider without a module here shows as "not available".
 */
import type { ProviderId, ProviderModule, ProviderSandbox } from './providers/provider.js';
import { ga4Provider } from './providers/ga4/index.js';
import { googleAdsProvider } from './providers/googleads/index.js';
import { slackProvider } from './providers/slackbot/index.js';
import { adfProvider } from './providers/adf/index.js';
import { goHighLevelProvider } from './providers/gohighlevel/index.js';
import { hubSpotProvider } from './providers/hubspot/index.js';
import { metaAdsProvider } from './providers/metaads/index.js';
import { microsoftAdsProvider } from './providers/microsoftads/index.js';
import { salesforceProvider } from './providers/salesforce/index.js';

/** Registered provider modules (every provider of spec 002 §1). */
const MODULES: Partial<Record<ProviderId, ProviderModule>> = {
  ga4: ga4Provider,
  googleads: googleAdsProvider,
  slackbot: slackProvider,
  metaads: metaAdsProvider,
  microsoftads: microsoftAdsProvider,
  hubspot: hubSpotProvider,
  salesforce: salesforceProvider,
  gohighlevel: goHighLevelProvider,
  adf: adfProvider,
};

/** The module of `provider`, or undefined when this server has none. */
export function providerModule(provider: ProviderId): ProviderModule | undefined {
  return MODULES[provider];
}

/** The sandbox providers of this process: like a real provider, one per process whatever the servers in it. */
class SandboxPool {
  private readonly byProvider = new Map<ProviderId, ProviderSandbox>();
  get(provider: ProviderId): ProviderSandbox | undefined {
    const m = MODULES[provider];
    if (!m) return undefined;
    let s = this.byProvider.get(provider);
    if (!s) {
      s = m.sandbox();
      this.byProvider.set(provider, s);
    }
    return s;
  }
}
const pool = new SandboxPool();
/** The process's sandbox of `provider` (its state is the sandbox provider's memory). */
export function providerSandbox(provider: ProviderId): ProviderSandbox | undefined {
  return pool.get(provider);
}
