/** GoHighLevel provider module (docs/integrations-providers.md "GoHighLevel"): the real adapter and its sandbox. */
import type { ProviderModule } from '../provider.js';
import { goHighLevelAdapter } from './gohighlevel.adapter.js';
import { goHighLevelSandbox } from './gohighlevel.sandbox.js';

/** Registered by the integrations framework under `gohighlevel`. */
export const provider: ProviderModule = { adapter: goHighLevelAdapter, sandbox: goHighLevelSandbox };

/** The same module under a descriptive name (the framework's registry imports `<name>Provider`). */
export const goHighLevelProvider = provider;
