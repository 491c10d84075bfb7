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

/** A markdown table row with its cells trimmed: `| a | b |` whatever the padding (Prettier aligns columns). */
const normalizeRow = (line) =>
  `| ${line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim())
    .join(' | ')} |`;

/** Where the table sits in the document: from its header row to its last row (offsets in `text`). */
function tableSpan(text) {
  const from = text.indexOf('<!-- ownership:start -->');
  const to = text.indexOf('<!-- ownership:end -->');
  if (from < 0 || to < 0) throw new Error('docs/architecture.md: no ownership markers');
  const header = /^\|\s*Owner\s*\|\s*Tables\s*\|\s*$/m.exec(text.slice(from, to));
  if (!header) throw new Error('docs/architecture.md: no ownership table between its markers');
  const start = from + header.index;
  const lines = text.slice(start, to).split('\n');
  let length = 0;
  let count = 0;
  for (const line of lines) {
    if (!line.trim().startsWith('|')) break;
    length += line.length + 1;
    count++;
  }
  return { start, end: start + length - 1, rows: lines.slice(2, count) };
}

/** The rows as the document has them now (cells trimmed), one per line. */
export function documentedRows(text = fs.readFileSync(DOC, 'utf8')) {
  return tableSpan(text).rows.map(normalizeRow).join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = ownershipRows();
  if (process.argv.includes('--write')) {
    const text = fs.readFileSync(DOC, 'utf8');
    const { start, end } = tableSpan(text);
    const prettier = await import('prettier');
    const options = (await prettier.resolveConfig(DOC)) ?? {};
    fs.writeFileSync(DOC, await prettier.format(text.slice(0, start) + HEADER + rows + text.slice(end), { ...options, filepath: DOC }));
  } else {
    process.stdout.write(`${HEADER}${rows}\n`);
  }
}
