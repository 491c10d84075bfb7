/**
 * `switchboard/module-boundaries`: the server's module boundaries (docs/architecture.md
 * "Module map" and "Boundary checks").
 * - No cycle between modules, direct or through others: an import from module A into module B is
 *   reported when B reaches A again; the message prints the cycle with one import (file:line) per edge.
 * - A module never imports another module's `*.repository.ts` or `*.routes.ts`.
 * - `platform/` and `carriers/` import no module.
 * `modules/registry.ts` (the composition root), files outside these areas and tests are exempt.
 */
import path from 'node:path';
import { isExemptFile, locate, moduleGraph, resolveModuleImport, shortestPath } from './module-graph.js';

/** Every import specifier of a file, with its AST node (static, type-only, re-exports, `import()`). */
export function importSources(node, found) {
  const literal = (n) => (n && n.type === 'Literal' && typeof n.value === 'string' ? n : null);
  switch (node.type) {
    case 'ImportDeclaration':
    case 'ExportNamedDeclaration':
    case 'ExportAllDeclaration':
    case 'ImportExpression':
      if (literal(node.source)) found(node.source);
      break;
    case 'TSImportType': {
      const argument = node.argument ?? node.parameter;
      if (argument?.type === 'TSLiteralType' && literal(argument.literal)) found(argument.literal);
      else if (literal(argument)) found(argument);
      break;
    }
    case 'TSExternalModuleReference':
      if (literal(node.expression)) found(node.expression);
      break;
    default:
  }
}

export const importVisitors = (found) => {
  const visit = (node) => importSources(node, found);
  return {
    ImportDeclaration: visit,
    ExportNamedDeclaration: visit,
    ExportAllDeclaration: visit,
    ImportExpression: visit,
    TSImportType: visit,
    TSExternalModuleReference: visit,
  };
};

function describeCycle(edges, srcRoot, filename, line, chain) {
  const steps = [`${chain[0]} → ${chain[1]} (${path.relative(srcRoot, filename)}:${line})`];
  for (let i = 1; i < chain.length - 1; i++) {
    const at = edges.get(chain[i])?.get(chain[i + 1]);
    steps.push(`${chain[i]} → ${chain[i + 1]} (${at ? `${at.file}:${at.line}` : '?'})`);
  }
  return `${chain.join(' → ')}: ${steps.join('; ')}`;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Server modules: no cycles, no foreign repositories or routes, platform/ and carriers/ import no module.' },
    schema: [],
    messages: {
      cycle:
        'Import cycle between modules: {{cycle}}. Break it: depend one way (docs/architecture.md "Module map"), react through a domain event, or invert with a hook.',
      repository: 'Use the other module through its service, never its repository ({{module}}).',
      routes: "Modules never import each other's routes ({{module}}); the composition root (modules/registry.ts) wires routes.",
      platform: '{{area}}/ is below modules/: it must not import them ({{module}}).',
    },
  },
  create(context) {
    const filename = context.filename;
    if (isExemptFile(filename)) return {};
    const where = locate(filename);
    if (!where || where.area === 'other' || (where.area === 'modules' && !where.module)) return {};
    const { srcRoot, area } = where;
    return importVisitors((source) => {
      const hit = resolveModuleImport(srcRoot, filename, source.value);
      if (!hit) return;
      if (area !== 'modules') {
        context.report({ node: source, messageId: 'platform', data: { area, module: hit.module ? `modules/${hit.module}` : 'modules/' } });
        return;
      }
      if (!hit.module || hit.module === where.module) return;
      const base = path.basename(hit.target).replace(/\.[cm]?[jt]sx?$/, '');
      if (base.endsWith('.repository')) context.report({ node: source, messageId: 'repository', data: { module: hit.module } });
      else if (base.endsWith('.routes')) context.report({ node: source, messageId: 'routes', data: { module: hit.module } });
      const { edges } = moduleGraph(srcRoot);
      const back = shortestPath(edges, hit.module, where.module);
      if (back) {
        const cycle = describeCycle(edges, srcRoot, filename, source.loc.start.line, [where.module, ...back]);
        context.report({ node: source, messageId: 'cycle', data: { cycle } });
      }
    });
  },
};
