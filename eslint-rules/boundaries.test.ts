/**
 * The boundary rules of `eslint-rules/` on real files: each test seeds a small server tree in a
 * temporary folder (modules, platform/, carriers/, a `modules/ownership.ts`), lints it with ESLint
 * and the local plugin, and checks what is reported (docs/architecture.md "Boundary checks").
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

const OWNERSHIP = `
export const MODULE_LAYERS = [['a'], ['b', 'c'], ['d']] as const;
export const TABLE_OWNERS = { alpha: 'a', beta: 'b', receipts: 'platform' } as const;
`;

/** Writes `files` (path under apps/server/src → text) into a fresh folder; returns its root. */
function seed(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'boundaries-'));
  roots.push(root);
  for (const [file, text] of Object.entries({ 'modules/ownership.ts': OWNERSHIP, ...files })) {
    const full = path.join(root, 'apps/server/src', file);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, text);
  }
  return root;
}

/** Matchers for strings that start with each of `prefixes`. */
const startingWith = (prefixes: string[]) => prefixes.map((p) => expect.stringMatching(new RegExp(`^${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)));

type Found = { file: string; line: number; rule: string; message: string };

async function lint(root: string, rules: string[] = ['module-boundaries', 'module-layers', 'table-ownership']): Promise<Found[]> {
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser, parserOptions: { ecmaVersion: 2023, sourceType: 'module' } },
        plugins: { switchboard },
        rules: Object.fromEntries(rules.map((r) => [`switchboard/${r}`, 'error'])),
      },
    ],
  });
  const results = await eslint.lintFiles(['apps/**/*.ts']);
  return results
    .flatMap((r) =>
      r.messages.map((m) => ({ file: path.relative(path.join(root, 'apps/server/src'), r.filePath), line: m.line, rule: m.ruleId ?? '', message: m.message })),
    )
    .sort((x, y) => x.file.localeCompare(y.file) || x.line - y.line);
}

describe('switchboard/module-boundaries', () => {
  it('reports every import of a cycle a → b → c → a, with the path and one import per edge', async () => {
    const root = seed({
      'modules/a/a.service.ts': "import { b } from '../b/b.service.js';\nexport const a = () => b();\n",
      'modules/b/b.service.ts': "import type { C } from '../c/c.service.js';\nexport const b = (c?: C) => c;\n",
      'modules/c/c.service.ts': "\n\nimport { a } from '../a/a.service.js';\nexport type C = ReturnType<typeof a>;\n",
    });
    const found = await lint(root, ['module-boundaries']);
    expect(found.map((f) => `${f.file}:${f.line}`)).toEqual(['modules/a/a.service.ts:1', 'modules/b/b.service.ts:1', 'modules/c/c.service.ts:3']);
    expect(found[0]!.message).toContain('a → b → c → a: a → b (modules/a/a.service.ts:1); b → c (modules/b/b.service.ts:1); c → a (modules/c/c.service.ts:3)');
    expect(found[2]!.message).toContain('c → a → b → c');
  });

  it('reports platform/ and carriers/ importing a module, and a foreign repository or routes file', async () => {
    const root = seed({
      'modules/a/a.repository.ts': 'export const aRepository = {};\n',
      'modules/a/a.routes.ts': 'export const aRoutes = {};\n',
      'modules/a/a.service.ts': 'export const a = 1;\n',
      'modules/b/b.service.ts': "import { aRepository } from '../a/a.repository.js';\nexport const b = aRepository;\n",
      'modules/b/b.module.ts': "import { aRoutes } from '../a/a.routes.js';\nexport const m = aRoutes;\n",
      'platform/queue.ts': "import { a } from '../modules/a/a.service.js';\nexport const q = a;\n",
      'carriers/sandbox/sim.ts': "export const load = () => import('../../modules/a/a.service.js');\n",
    });
    const found = await lint(root, ['module-boundaries']);
    expect(found.map((f) => `${f.file}:${f.line} ${f.message}`)).toEqual(
      startingWith([
        'carriers/sandbox/sim.ts:1 carriers/ is below modules/: it must not',
        "modules/b/b.module.ts:1 Modules never import each other's routes ",
        'modules/b/b.service.ts:1 Use the other module through its service,',
        'platform/queue.ts:1 platform/ is below modules/: it must not i',
      ]),
    );
  });

  it('passes a clean tree (one-way imports, own repository, the composition root, tests)', async () => {
    const root = seed({
      'modules/a/a.repository.ts': 'export const aRepository = {};\n',
      'modules/a/a.service.ts': "import { aRepository } from './a.repository.js';\nexport const a = aRepository;\n",
      'modules/b/b.service.ts': "import { a } from '../a/a.service.js';\nexport const b = a;\n",
      'modules/c/c.service.ts': "import { a } from '../a/a.service.js';\nimport { b } from '../b/b.service.js';\nexport const c = [a, b];\n",
      'modules/a/a.test.ts': "import { c } from '../c/c.service.js';\nexport const t = c;\n",
      'modules/registry.ts': "import { c } from './c/c.service.js';\nimport { a } from './a/a.service.js';\nexport const all = [a, c];\n",
      'platform/db.ts': 'export const db = 1;\n',
    });
    expect(await lint(root)).toEqual([]);
  });
});

describe('switchboard/module-layers', () => {
  it('reports an import upwards and a module missing from the map; allows the same level and below', async () => {
    const root = seed({
      'modules/a/a.service.ts': "import { d } from '../d/d.service.js';\nexport const a = d;\n",
      'modules/b/b.service.ts': "import { c } from '../c/c.service.js';\nexport const b = c;\n",
      'modules/c/c.service.ts': 'export const c = 1;\n',
      'modules/d/d.service.ts': "import { b } from '../b/b.service.js';\nimport { x } from '../x/x.service.js';\nexport const d = [b, x];\n",
      'modules/x/x.service.ts': 'export const x = 1;\n',
    });
    const found = await lint(root, ['module-layers']);
    expect(found.map((f) => `${f.file}:${f.line} ${f.message}`)).toEqual(
      startingWith([
        'modules/a/a.service.ts:1 Module a (level 1) must not import d (level 3)',
        'modules/d/d.service.ts:2 Module x has no level in MODULE_LAYERS (apps/',
      ]),
    );
  });
});

describe('switchboard/table-ownership', () => {
  it("reports another owner's table in Kysely calls and raw SQL, and a table missing from the map", async () => {
    const root = seed({
      'modules/a/a.repository.ts': [
        "import { sql } from 'kysely';",
        'export const r = (db: any) => [',
        "  db.selectFrom('alpha').innerJoin('beta as b', 'b.id', 'alpha.b_id'),",
        "  db.insertInto('gamma'),",
        '  sql`select 1',
        '    from alpha join beta on true`,',
        "  db.with('recent', (q: any) => q).selectFrom('recent'),",
        "  db.deleteFrom(['alpha', 'receipts']),",
        '];',
      ].join('\n'),
      'platform/queue.ts': "export const q = (c: any) => c.query('select * from receipts r join alpha a on true');\n",
    });
    const found = await lint(root, ['table-ownership']);
    expect(found.map((f) => `${f.file}:${f.line} ${f.message}`)).toEqual(
      startingWith([
        "modules/a/a.repository.ts:3 Table 'beta' is owned by b, not a: go through the owner's service",
        "modules/a/a.repository.ts:4 Table 'gamma' has no owner in TABLE_OWNERS (apps/serv",
        "modules/a/a.repository.ts:6 Table 'beta' is owned by b, not a: go through the owner's service",
        "modules/a/a.repository.ts:8 Table 'receipts' is owned by platform, not a: go thr",
        "platform/queue.ts:1 Table 'alpha' is owned by a, not platform: go through the owner's service",
      ]),
    );
  });

  it('passes files that name only their own tables (CTEs, aliases, SQL words that are not tables)', async () => {
    const root = seed({
      'modules/a/a.repository.ts': [
        "import { sql } from 'kysely';",
        "export const r = (db: any) => [db.selectFrom('alpha as x').leftJoin('alpha as y', 'y.id', 'x.id'),",
        "  db.withRecursive('tree(id)', (q: any) => q).selectFrom('tree'),",
        '  sql`select extract(epoch from now()) from alpha where x is distinct from y on conflict do update set n = 1`];',
      ].join('\n'),
      'modules/a/a.test.ts': "export const t = (db: any) => db.selectFrom('beta');\n",
      'platform/receipts.repository.ts': "export const r = (db: any) => db.insertInto('receipts');\n",
      'platform/migrations/0001.ts': "export const m = (db: any) => db.schema.createTable('alpha').execute() && db.insertInto('beta');\n",
    });
    expect(await lint(root)).toEqual([]);
  });
});

describe('the repository wiring', () => {
  it('eslint.config.js runs the boundary rules on server code (not tests) and forbids bare catch in apps and packages', async () => {
    const eslint = new ESLint({ cwd: process.cwd() });
    const server = await eslint.calculateConfigForFile('apps/server/src/modules/calls/calls.service.ts');
    for (const rule of ['module-boundaries', 'module-layers', 'table-ownership']) expect(server.rules[`switchboard/${rule}`]?.[0]).toBe(2);
    const test = await eslint.calculateConfigForFile('apps/server/src/modules/calls/calls.test.ts');
    expect(test.rules['switchboard/module-boundaries']).toBeUndefined();
    for (const file of ['apps/web/src/lib/api.ts', 'packages/domain/src/index.ts', 'apps/server/src/platform/queue.ts']) {
      const config = await eslint.calculateConfigForFile(file);
      expect(JSON.stringify(config.rules['no-restricted-syntax'])).toContain('CatchClause[param=null]');
    }
  });
});
