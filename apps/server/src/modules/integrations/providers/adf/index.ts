/** ADF lead export provider module (docs/integrations-providers.md "ADF"): the real adapter and its sandbox (a dealer-CRM stand-in). */
import type { ProviderModule } from '../provider.js';
import { adfAdapter } from './adf.adapter.js';
import { adfSandbox } from './adf.sandbox.js';

/** Registered by the integrations framework under `adf`. */
export const provider: ProviderModule = { adapter: adfAdapter, sandbox: adfSandbox };

/** The same module under a descriptive name (the framework's registry imports `<name>Provider`). */
export const adfProvider = provider;
