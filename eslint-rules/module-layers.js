/**
 * `switchboard/module-layers`: a module imports only modules at its own level of the module map
 * or below (`MODULE_LAYERS` in `apps/server/src/modules/ownership.ts`; docs/architecture.md
 * "Module map"). Imports within a level are allowed (the cycle rule keeps them one-way). A module
 * missing from the map is reported at each of its cross-module imports, so a new module is placed
 * before it depends on anything. Tests and `modules/registry.ts` are exempt.
 */
import { isExemptFile, locate, readModuleMap, resolveModuleImport } from './module-graph.js';
import { importVisitors } from './module-boundaries.js';

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Server modules depend downwards only, by the levels of MODULE_LAYERS.' },
    schema: [],
    messages: {
      upward:
        'Module {{from}} (level {{fromLevel}}) must not import {{to}} (level {{toLevel}}): modules depend downwards only (docs/architecture.md "Module map"). React through a domain event or invert with a hook.',
      unplaced: 'Module {{module}} has no level in MODULE_LAYERS (apps/server/src/modules/ownership.ts): place it in the module map.',
    },
  },
  create(context) {
    const filename = context.filename;
    if (isExemptFile(filename)) return {};
    const where = locate(filename);
    if (!where?.module) return {};
    const { layers } = readModuleMap(where.srcRoot);
    if (!layers.length) return {};
    const level = (m) => {
      const i = layers.findIndex((names) => names.includes(m));
      return i < 0 ? null : i + 1;
    };
    return importVisitors((source) => {
      const hit = resolveModuleImport(where.srcRoot, filename, source.value);
      if (!hit?.module || hit.module === where.module) return;
      const fromLevel = level(where.module);
      const toLevel = level(hit.module);
      if (fromLevel === null || toLevel === null) {
        context.report({ node: source, messageId: 'unplaced', data: { module: fromLevel === null ? where.module : hit.module } });
      } else if (toLevel > fromLevel) {
        context.report({ node: source, messageId: 'upward', data: { from: where.module, fromLevel, to: hit.module, toLevel } });
      }
    });
  },
};
