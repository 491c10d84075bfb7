/** HubSpot provider module (docs/integrations-providers.md "HubSpot"): the real adapter and its sandbox. */
import type { ProviderModule } from '../provider.js';
import { hubSpotAdapter } from './hubspot.adapter.js';
import { hubSpotSandbox } from './hubspot.sandbox.js';

/** Registered by the integrations framework under `hubspot`. */
export const provider: ProviderModule = { adapter: hubSpotAdapter, sandbox: hubSpotSandbox };

/** The same module under a descriptive name (the framework's registry imports `<name>Provider`). */
export const hubSpotProvider = provider;
