/**
 * docs/architecture.md says what the boundary checks enforce: its "Table ownership" rows and its
 * "Module map" levels are those of apps/server/src/modules/ownership.ts, and that map gives every
 * table of the schema an owner (the type checker checks this too; this test runs without it).
 * Regenerate the ownership rows with `node scripts/boundaries/ownership-table.mjs --write`.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { documentedRows, ownershipRows } from '../scripts/boundaries/ownership-table.mjs';
import { readModuleMap } from './module-graph.js';

const srcRoot = path.resolve('apps/server/src');
const doc = fs.readFileSync('docs/architecture.md', 'utf8');

describe('docs/architecture.md and the module map', () => {
  it('lists the same table owners as TABLE_OWNERS', () => {
    expect(documentedRows(doc)).toBe(ownershipRows(srcRoot));
  });

  it('shows the levels of MODULE_LAYERS', () => {
    const section = doc.slice(doc.indexOf('<!-- module-map:start -->'), doc.indexOf('<!-- module-map:end -->'));
    const rows = [...section.matchAll(/^\|\s*(\d+)\s*\|(.+)\|\s*$/gm)].map((m) => [...m[2]!.matchAll(/`([^`]+)`/g)].map((n) => n[1]));
    expect(rows).toEqual(readModuleMap(srcRoot).layers);
  });

  it('gives every table of the DB schema an owner', () => {
    // `DB` (schema.ts) lists tables itself and extends one interface per area file (schema-*.ts).
    const dir = path.join(srcRoot, 'platform/db');
    const interfaces = new Map<string, ts.InterfaceDeclaration>();
    for (const name of fs.readdirSync(dir).filter((f) => /^schema.*\.ts$/.test(f))) {
      const file = path.join(dir, name);
      const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      for (const st of source.statements) if (ts.isInterfaceDeclaration(st)) interfaces.set(st.name.text, st);
    }
    const db = interfaces.get('DB')!;
    const parts = [db, ...(db.heritageClauses ?? []).flatMap((h) => h.types.map((t) => interfaces.get(t.expression.getText())!))];
    const tables = parts.flatMap((i) => i.members.map((m) => (m.name && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name)) ? m.name.text : '?')));
    expect(tables.length).toBeGreaterThan(30);
    const { owners } = readModuleMap(srcRoot);
    expect(tables.filter((t) => !owners.has(t))).toEqual([]);
    expect([...owners.keys()].filter((t) => !tables.includes(t))).toEqual([]);
  });
});
