/** `npm run bench:<name>`: runs bench/<name>/run.ts with tsx on Node ≥ 22 (see scripts/node.mjs). */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runWithNode } from './node.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const name = process.argv[2];
if (!name) {
  console.error('usage: node scripts/bench.mjs <call-routing|campaign-dispatch|contacts-import>');
  process.exit(2);
}
process.chdir(path.join(root, 'bench'));
await runWithNode(['--import', 'tsx', path.join(root, 'bench', name, 'run.ts')]);
