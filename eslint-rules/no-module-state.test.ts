/**
 * `switchboard/no-module-state` on real files: each test seeds a small server tree in a temporary folder, lints it
 * with ESLint and the local plugin, and checks what is reported (docs/architecture.md "Hooks").
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterEach, describe, expect, it } from 'vitest';
import switchboard from './index.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

/** Writes `files` (path under apps/server/src → text) into a fresh folder; returns its root. */
function seed(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'module-state-'));
  roots.push(root);
  for (const [file, text] of Object.entries(files)) {
    const full = path.join(root, 'apps/server/src', file);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, text);
  }
  return root;
}

type Allow = { file: string; name: string; why: string };

async function lint(root: string, allow: Allow[] = []): Promise<Array<{ file: string; line: number; message: string }>> {
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser, parserOptions: { ecmaVersion: 2023, sourceType: 'module' } },
        plugins: { switchboard },
        rules: { 'switchboard/no-module-state': ['error', { allow }] },
      },
    ],
  });
  const results = await eslint.lintFiles(['apps/**/*.ts']);
  return results
    .flatMap((r) => r.messages.map((m) => ({ file: path.relative(path.join(root, 'apps/server/src'), r.filePath), line: m.line, message: m.message })))
    .sort((x, y) => x.file.localeCompare(y.file) || x.line - y.line);
}

describe('switchboard/no-module-state', () => {
  it('reports a top-level let, and containers the file mutates, in module files', async () => {
    const root = seed({
      'modules/a/hooks.ts': [
        'let handler: (() => void) | undefined;', // 1: let
        'const listeners = new Set<() => void>();', // 2: mutated below
        'export const byCtx = new WeakMap<object, number>();', // 3: mutated below
        'const list: number[] = [];', // 4: pushed
        'const state = { n: 0 };', // 5: property assigned
        'const counts = new Map<string, number>();', // 6: mutated through optional call
        'export function on(fn: () => void) { handler = fn; listeners.add(fn); }',
        'export function keep(ctx: object) { byCtx.set(ctx, 1); list.push(1); state.n++; counts?.delete("x"); }',
      ].join('\n'),
    });
    expect(await lint(root)).toEqual([
      { file: 'modules/a/hooks.ts', line: 1, message: expect.stringContaining('`let handler`') },
      { file: 'modules/a/hooks.ts', line: 2, message: expect.stringContaining('`listeners` is mutated') },
      { file: 'modules/a/hooks.ts', line: 3, message: expect.stringContaining('`byCtx` is mutated') },
      { file: 'modules/a/hooks.ts', line: 4, message: expect.stringContaining('`list` is mutated') },
      { file: 'modules/a/hooks.ts', line: 5, message: expect.stringContaining('`state` is mutated') },
      { file: 'modules/a/hooks.ts', line: 6, message: expect.stringContaining('`counts` is mutated') },
    ]);
  });

  it('leaves read-only constants, local state, platform/ and tests alone', async () => {
    const root = seed({
      'modules/a/rules.ts': [
        "const ACTIVE = new Set(['pending', 'approved']);",
        "const LABELS: Record<string, string> = { a: 'A' };",
        'export const tuning = { timeoutMs: 10 };',
        'export function f(x: string) { const seen = new Set<string>(); seen.add(x); let n = 0; n++; return ACTIVE.has(x) && LABELS[x] && seen.size + n + tuning.timeoutMs; }',
      ].join('\n'),
      'modules/a/a.test.ts': 'let x = 0;\nexport const y = () => x++;',
      'platform/thing.ts': 'let shared = 0;\nexport const bump = () => shared++;',
      'modules/registry.ts': 'export const modules: string[] = [];\nmodules.push("a");',
    });
    expect(await lint(root)).toEqual([]);
  });

  it('allows listed names with a reason, and reports a listed name the file no longer declares', async () => {
    const root = seed({
      'modules/b/cache.ts':
        'const caches = new WeakMap<object, number>();\nexport const put = (k: object) => caches.set(k, 1);\nlet other = 0;\nexport const o = () => other++;',
    });
    const found = await lint(root, [
      { file: 'b/cache.ts', name: 'caches', why: 'per-context cache' },
      { file: 'b/cache.ts', name: 'gone', why: 'was removed' },
    ]);
    expect(found).toEqual([
      { file: 'modules/b/cache.ts', line: 1, message: expect.stringContaining('allowlist names `gone`') },
      { file: 'modules/b/cache.ts', line: 3, message: expect.stringContaining('`let other`') },
    ]);
  });
});
