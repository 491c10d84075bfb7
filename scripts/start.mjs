/**
 * `npm start`: builds the web app when its build is missing or older than its sources, then
 * starts the server (SPA, API, webhooks, realtime, workers) with Node ≥ 22.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNode, runWithNode } from './node.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function newest(dir) {
  let t = 0;
  if (!fs.existsSync(dir)) return t;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist') continue;
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

const built = path.join(process.env.WEB_DIST ? path.resolve(process.env.WEB_DIST) : path.join(root, 'apps/web/dist'), 'index.html');
const sourcesAt = Math.max(newest(path.join(root, 'apps/web')), newest(path.join(root, 'packages')));
if (!fs.existsSync(built) || fs.statSync(built).mtimeMs < sourcesAt) {
  console.log('Building the web app…');
  const node = ensureNode();
  execFileSync(node, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: path.join(root, 'apps/web'), stdio: 'inherit' });
}
process.chdir(root);
await runWithNode(['--import', 'tsx', 'apps/server/src/main.ts']);
