/** Salesforce provider module (docs/integrations-providers.md "Salesforce"): the real adapter and its sandbox. */
import type { ProviderModule } from '../provider.js';
import { salesforceAdapter } from './salesforce.adapter.js';
import { salesforceSandbox } from './salesforce.sandbox.js';

/** Registered by the integrations framework under `salesforce`. */
export const provider: ProviderModule = { adapter: salesforceAdapter, sandbox: salesforceSandbox };

/** The same module under a descriptive name (the framework's registry imports `<name>Provider`). */
export const salesforceProvider = provider;
