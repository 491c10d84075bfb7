/**
 * The table-ownership table of docs/architecture.md ("Table ownership"), generated from
 * `TABLE_OWNERS` in apps/server/src/modules/ownership.ts: one row per owner (modules in the order
 * of the module map, then `platform`, `carriers`), its tables in the map's order.
 *
 *   node scripts/boundaries/ownership-table.mjs          prints the rows
 *   node scripts/boundaries/ownership-table.mjs --write  rewrites them in docs/architecture.md
 *
 * `eslint-rules/docs.test.ts` fails when the document and the map disagree.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readModuleMap } from '../../eslint-rules/module-graph.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DOC = path.join(root, 'docs/architecture.md');
const HEADER = '| Owner | Tables |\n|---|---|\n';

/** The markdown rows (owner → tables) for the map under `srcRoot`. */
export function ownershipRows(srcRoot = path.join(root, 'apps/server/src')) {
  const { owners, layers } = readModuleMap(srcRoot);
  const order = [...layers.flat(), 'platform', 'carriers'];
  const byOwner = new Map();
  for (const [table, owner] of owners) {
    if (!byOwner.has(owner)) byOwner.set(owner, []);
    byOwner.get(owner).push(table);
  }
  const rank = (o) => (order.includes(o) ? order.indexOf(o) : order.length);
  return [...byOwner.keys()]
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .map(
      (owner) =>
        `| \`${owner}\` | ${byOwner
          .get(owner)
          .map((t) => `\`${t}\``)
          .join(', ')} |`,
    )
    .join('\n');
}

/** The rows as the document has them now (between its header and the `ownership:end` marker). */
export function documentedRows(text = fs.readFileSync(DOC, 'utf8')) {
  const start = text.indexOf(HEADER, text.indexOf('<!-- ownership:start -->'));
  const end = text.indexOf('<!-- ownership:end -->');
  if (start < 0 || end < 0) throw new Error('docs/architecture.md: no ownership table between its markers');
  return text.slice(start + HEADER.length, end).trim();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = ownershipRows();
  if (process.argv.includes('--write')) {
    const text = fs.readFileSync(DOC, 'utf8');
    const current = documentedRows(text);
    fs.writeFileSync(DOC, text.replace(current, rows));
  } else {
    process.stdout.write(`${HEADER}${rows}\n`);
  }
}
