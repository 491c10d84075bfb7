/**
 * `npm start`: builds the web app when its build is missing or older than its sources (`npm install` already made
 * it: scripts/web-build.mjs), then starts the server (SPA, API, webhooks, realtime, workers) with Node ≥ 22.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runWithNode } from './node.mjs';
import { buildWebIfStale } from './web-build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
buildWebIfStale();
process.chdir(root);
await runWithNode(['--import', 'tsx', 'apps/server/src/main.ts']);
