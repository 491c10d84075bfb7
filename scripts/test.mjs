/** `npm test`: the unit and integration suites (vitest) on Node ≥ 22. Extra args go to vitest. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runWithNode } from './node.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
await runWithNode([path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...process.argv.slice(2)]);
