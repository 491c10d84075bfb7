/**
 * `switchboard/no-module-state`: no module-level mutable state in the server's modules (docs/architecture.md
 * "Hooks"; issue 21 item 3). State that outlives a request belongs to the app context (`ctx.hooks` for what a
 * lower module asks a higher one, the database for everything else), never to a module's top-level variables:
 * several servers share one process in the tests, and a provider kept in a module variable leaks between them.
 *
 * Reported, in files of `apps/server/src/modules/<module>/` (tests exempt):
 * - a top-level `let` or `var`;
 * - a top-level `const` bound to a container (`new Map|Set|WeakMap|WeakSet|Array(…)`, `[…]`, `{…}`) that this file
 *   mutates: a mutating method call (`set`, `add`, `delete`, `clear`, `push`, `splice`, …), an assignment to one of
 *   its properties or elements, `delete x.y`, `x.y++`.
 *
 * Option `allow`: `[{ file, name, why }]`, `file` relative to `apps/server/src/modules/`: the existing cases that
 * are not hooks (per-context caches, test-tunable settings) kept on purpose; each needs its reason. An allowed
 * name that the file no longer declares is reported too (the list stays true).
 */
import path from 'node:path';
import { locate } from './module-graph.js';

const CONTAINERS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet', 'Array']);
const MUTATORS = new Set(['set', 'add', 'delete', 'clear', 'push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin']);

/** Whether `init` creates a container whose contents can change. */
function isContainer(init) {
  if (!init) return false;
  if (init.type === 'TSAsExpression' || init.type === 'TSSatisfiesExpression' || init.type === 'TSTypeAssertion') return isContainer(init.expression);
  if (init.type === 'ArrayExpression' || init.type === 'ObjectExpression') return true;
  return init.type === 'NewExpression' && init.callee.type === 'Identifier' && CONTAINERS.has(init.callee.name);
}

/** Whether the reference `id` (an Identifier) changes the contents of the value it names. */
function mutates(id) {
  let node = id;
  // Walk up `x.a.b` / `x[k]` chains whose object is the reference.
  while (node.parent && node.parent.type === 'MemberExpression' && node.parent.object === node) {
    const member = node.parent;
    const up = member.parent;
    if (up?.type === 'AssignmentExpression' && up.left === member) return true;
    if (up?.type === 'UpdateExpression') return true;
    if (up?.type === 'UnaryExpression' && up.operator === 'delete') return true;
    const name = member.computed ? (member.property.type === 'Literal' ? String(member.property.value) : null) : member.property.name;
    if (up?.type === 'CallExpression' && up.callee === member && node === id && name && MUTATORS.has(name)) return true;
    if (up?.type === 'ChainExpression' && up.parent?.type === 'CallExpression' && up.parent.callee === up && node === id && name && MUTATORS.has(name))
      return true;
    node = member;
  }
  return false;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Server modules keep no mutable state at module level (hooks live on ctx.hooks).' },
    schema: [
      {
        type: 'object',
        properties: {
          allow: {
            type: 'array',
            items: {
              type: 'object',
              properties: { file: { type: 'string' }, name: { type: 'string' }, why: { type: 'string', minLength: 1 } },
              required: ['file', 'name', 'why'],
              additionalProperties: false,
            },
          },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      let: 'Module-level `{{kind}} {{name}}`: mutable state in a module leaks between apps. Keep it on the context (a hook: ctx.hooks, platform/hooks/registry.ts) or in the database.',
      container:
        'Module-level `{{name}}` is mutated here: state in a module leaks between apps. Keep it on the context (a hook: ctx.hooks, platform/hooks/registry.ts) or in the database.',
      stale: 'The no-module-state allowlist names `{{name}}` in this file, which no longer declares it: remove the entry from eslint.config.js.',
    },
  },
  create(context) {
    const where = locate(context.filename);
    if (!where || where.area !== 'modules' || !where.module || /\.test\.tsx?$/.test(context.filename)) return {};
    const relative = path.relative(path.join(where.srcRoot, 'modules'), path.resolve(context.filename)).split(path.sep).join('/');
    const allowed = new Set((context.options[0]?.allow ?? []).filter((a) => a.file === relative).map((a) => a.name));
    const declared = new Set();
    const check = (declaration) => {
      for (const d of declaration.declarations) {
        if (d.id.type !== 'Identifier') continue;
        const name = d.id.name;
        declared.add(name);
        if (allowed.has(name)) continue;
        if (declaration.kind !== 'const') {
          context.report({ node: d, messageId: 'let', data: { kind: declaration.kind, name } });
          continue;
        }
        if (!isContainer(d.init)) continue;
        const [variable] = context.sourceCode.getDeclaredVariables(d);
        const hit = variable?.references.find((r) => r.identifier !== d.id && mutates(r.identifier));
        if (hit) context.report({ node: d, messageId: 'container', data: { name } });
      }
    };
    return {
      'Program > VariableDeclaration': check,
      'Program > ExportNamedDeclaration > VariableDeclaration': check,
      'Program:exit'(node) {
        for (const name of allowed) if (!declared.has(name)) context.report({ node, messageId: 'stale', data: { name } });
      },
    };
  },
};
