/**
 * The repository's own ESLint plugin (`switchboard/…`): the server's boundary checks described in
 * docs/architecture.md "Boundary checks". Wired in `eslint.config.js`; tests next to the rules.
 */
import moduleBoundaries from './module-boundaries.js';
import moduleLayers from './module-layers.js';
import noModuleState from './no-module-state.js';
import tableOwnership from './table-ownership.js';

export default {
  meta: { name: 'eslint-plugin-switchboard', version: '1.0.0' },
  rules: {
    'module-boundaries': moduleBoundaries,
    'module-layers': moduleLayers,
    'no-module-state': noModuleState,
    'table-ownership': tableOwnership,
  },
};
