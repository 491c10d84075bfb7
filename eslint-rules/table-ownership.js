/**
 * `switchboard/table-ownership`: a server file names only tables its owner owns
 * (docs/architecture.md "Table ownership"). The owner of a file is its
 * module (`modules/<name>/`), or `platform` (`platform/**`, migrations excepted) or `carriers`
 * (`carriers/**`); owners come from `TABLE_OWNERS` in `apps/server/src/modules/ownership.ts`.
 *
 * Tables are found in Kysely calls whose first argument is a string (or an array of strings):
 * `selectFrom`, `insertInto`, `replaceInto`, `updateTable`, `deleteFrom`, `mergeInto`, `using`,
 * the joins (`innerJoin`, `leftJoin`, …, `'table as t'` too), `sql.table('…')`; and in raw SQL text
 * (`sql` templates, and strings or templates handed to `sql(…)`, `query(…)`, `raw(…)`) after
 * FROM/JOIN/INTO/UPDATE/TABLE. Names of the file's CTEs (`with('name', …)`) are not tables. In
 * Kysely calls a name that is neither a CTE nor in `TABLE_OWNERS` is reported too (the map must
 * list every table); in raw SQL only known table names are checked. Tests are exempt.
 */
import { isExemptFile, locate, readModuleMap } from './module-graph.js';

const TABLE_METHODS = new Set([
  'selectFrom',
  'insertInto',
  'replaceInto',
  'updateTable',
  'deleteFrom',
  'mergeInto',
  'using',
  'innerJoin',
  'leftJoin',
  'rightJoin',
  'fullJoin',
  'crossJoin',
  'innerJoinLateral',
  'leftJoinLateral',
  'crossJoinLateral',
]);
const CTE_METHODS = new Set(['with', 'withRecursive', 'withMaterialized', 'withNotMaterialized']);
const RAW_CALLEES = new Set(['sql', 'query', 'raw']);
const RAW_TABLE = /\b(?:from|join|into|update|table)\s+(?:only\s+)?(?:"?public"?\.)?"?([a-z_][a-z0-9_]*)"?/gi;

/** `'calls as c'` → `calls`; `'public.calls'` → `calls`. */
function tableName(text) {
  return text
    .trim()
    .split(/\s+as\s+/i)[0]
    .trim()
    .replace(/^"?public"?\./, '')
    .replace(/"/g, '');
}

function calleeName(callee) {
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier') return callee.property.name;
  return null;
}

function fileOwner(where, filename) {
  if (where.area === 'modules') return where.module;
  if (where.area === 'platform') return /[\\/]platform[\\/]migrations[\\/]/.test(filename) ? null : 'platform';
  if (where.area === 'carriers') return 'carriers';
  return null;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'A file names only the tables its module (or platform/, carriers/) owns.' },
    schema: [],
    messages: {
      foreign:
        "Table '{{table}}' is owned by {{owner}}, not {{self}}: go through the owner's service or a read-only query it publishes (docs/architecture.md \"Table ownership\").",
      unknown: "Table '{{table}}' has no owner in TABLE_OWNERS (apps/server/src/modules/ownership.ts): add it.",
    },
  },
  create(context) {
    const filename = context.filename;
    if (isExemptFile(filename)) return {};
    const where = locate(filename);
    const self = where && fileOwner(where, filename);
    if (!self) return {};
    const { owners } = readModuleMap(where.srcRoot);
    if (!owners.size) return {};
    const ctes = new Set();
    const named = []; // { table, node | loc, strict }

    const fromKyselyArgument = (argument) => {
      if (!argument) return;
      if (argument.type === 'Literal' && typeof argument.value === 'string') named.push({ table: tableName(argument.value), node: argument, strict: true });
      else if (argument.type === 'ArrayExpression') argument.elements.forEach(fromKyselyArgument);
    };
    const fromRawText = (quasis) => {
      for (const q of quasis) {
        const raw = q.raw;
        for (const match of raw.matchAll(RAW_TABLE)) {
          const before = raw.slice(0, match.index + match[0].length - match[1].length);
          const lines = before.split('\n');
          const line = q.line + lines.length - 1;
          const column = lines.length > 1 ? lines.at(-1).length : q.column + before.length;
          named.push({ table: match[1].toLowerCase(), loc: { start: { line, column }, end: { line, column: column + match[1].length } }, strict: false });
        }
      }
    };
    const templateQuasis = (template) => template.quasis.map((q) => ({ raw: q.value.raw, line: q.loc.start.line, column: q.loc.start.column + 1 }));

    return {
      CallExpression(node) {
        const name = calleeName(node.callee);
        if (!name) return;
        const [first] = node.arguments;
        if (CTE_METHODS.has(name) && first?.type === 'Literal' && typeof first.value === 'string') ctes.add(first.value.split('(')[0].trim());
        else if (TABLE_METHODS.has(name)) fromKyselyArgument(first);
        else if (name === 'table' && node.callee.type === 'MemberExpression' && node.callee.object.type === 'Identifier' && node.callee.object.name === 'sql')
          fromKyselyArgument(first);
        else if (RAW_CALLEES.has(name) && first) {
          if (first.type === 'Literal' && typeof first.value === 'string')
            fromRawText([{ raw: first.raw.slice(1, -1), line: first.loc.start.line, column: first.loc.start.column + 1 }]);
          else if (first.type === 'TemplateLiteral') fromRawText(templateQuasis(first));
        }
      },
      TaggedTemplateExpression(node) {
        if (node.tag.type === 'Identifier' && node.tag.name === 'sql') fromRawText(templateQuasis(node.quasi));
      },
      'Program:exit'() {
        for (const { table, node, loc, strict } of named) {
          if (ctes.has(table)) continue;
          const owner = owners.get(table);
          const at = node ? { node } : { loc };
          if (owner === undefined) {
            if (strict) context.report({ ...at, messageId: 'unknown', data: { table } });
          } else if (owner !== self) {
            context.report({ ...at, messageId: 'foreign', data: { table, owner, self } });
          }
        }
      },
    };
  },
};
