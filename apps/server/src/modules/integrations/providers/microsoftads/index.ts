/** Microsoft Advertising provider module (docs/integrations-providers.md "Microsoft Ads"): the real adapter and its sandbox. */
import type { ProviderModule } from '../provider.js';
import { microsoftAdsAdapter } from './microsoftads.adapter.js';
import { microsoftAdsSandbox } from './microsoftads.sandbox.js';

/** Registered by the integrations framework under `microsoftads`. */
export const provider: ProviderModule = { adapter: microsoftAdsAdapter, sandbox: microsoftAdsSandbox };

/** The same module under a descriptive name (the framework's registry imports `<name>Provider`). */
export const microsoftAdsProvider = provider;
