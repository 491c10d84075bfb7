/** Meta Ads provider module (docs/integrations-providers.md "Meta Ads"): the real adapter and its sandbox. */
import type { ProviderModule } from '../provider.js';
import { metaAdsAdapter } from './metaads.adapter.js';
import { metaAdsSandbox } from './metaads.sandbox.js';

/** Registered by the integrations framework under `metaads`. */
export const provider: ProviderModule = { adapter: metaAdsAdapter, sandbox: metaAdsSandbox };

/** The same module under a descriptive name (the framework's registry imports `<name>Provider`). */
export const metaAdsProvider = provider;
