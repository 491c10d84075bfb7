/** `npm run test:e2e`: builds the web app when its build is older than its sources, then runs the Playwright browser tests in Debian's Chromium. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runWithNode } from './node.mjs';
import { buildWebIfStale } from './web-build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
buildWebIfStale();
process.chdir(path.join(root, 'e2e'));
await runWithNode([path.join(root, 'node_modules/@playwright/test/cli.js'), 'test', ...process.argv.slice(2)]);
