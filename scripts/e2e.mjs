/** `npm run test:e2e`: builds the web app, then runs the Playwright browser tests in Debian's Chromium. */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNode, runWithNode } from './node.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const node = ensureNode();
execFileSync(node, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: path.join(root, 'apps/web'), stdio: 'inherit' });
process.chdir(path.join(root, 'e2e'));
await runWithNode([path.join(root, 'node_modules/@playwright/test/cli.js'), 'test', ...process.argv.slice(2)]);
