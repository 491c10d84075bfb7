/**
 * The web app's production build (apps/web/dist), made when it is missing or older than its sources (apps/web,
 * packages). `npm install` makes it (the root package's `postinstall`), so the first `npm start` on a fresh clone
 * has nothing to build (docs/operations.md "Start time"); `npm start` and `npm run test:e2e` call it again, which
 * builds only after a source changed. Run directly: `node scripts/web-build.mjs`. Plain JS so it runs on any Node
 * (the build itself runs with Node ≥ 22.12, fetched when needed).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNode } from './node.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Newest modification time (ms) of the files under `dir`, node_modules and dist left out. */
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

/** Builds the web app when its build (WEB_DIST or apps/web/dist) is missing or older than its sources. @returns whether it built. */
export function buildWebIfStale() {
  const built = path.join(process.env.WEB_DIST ? path.resolve(process.env.WEB_DIST) : path.join(root, 'apps/web/dist'), 'index.html');
  const sourcesAt = Math.max(newest(path.join(root, 'apps/web')), newest(path.join(root, 'packages')));
  if (fs.existsSync(built) && fs.statSync(built).mtimeMs >= sourcesAt) return false;
  console.log('Building the web app…');
  const node = ensureNode();
  execFileSync(node, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: path.join(root, 'apps/web'), stdio: 'inherit' });
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) buildWebIfStale();
