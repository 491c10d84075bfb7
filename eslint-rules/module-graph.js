/**
 * The server's module import graph, read from the files on disk, for the boundary rules
 * (docs/architecture.md "Boundary checks").
 *
 * A module is a folder `apps/server/src/modules/<name>/`. Files directly in `modules/`
 * (`registry.ts`, the composition root, and `ownership.ts`, the map) belong to no module. Every
 * static import counts, `import type` and `export … from` included (a type import still couples
 * two modules: the importer breaks when the other changes), and so do `import()` expressions.
 * Test files (`*.test.ts`) are not part of the graph.
 *
 * Imports are parsed with the TypeScript compiler's `ts.preProcessFile` (no hand-written parser).
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Files the boundary rules ignore: tests and type declarations. */
export function isExemptFile(file) {
  return /\.test\.tsx?$/.test(file) || file.endsWith('.d.ts');
}

/**
 * Where a file sits in the server: `{ srcRoot, area, module }`, where `area` is `modules`,
 * `platform`, `carriers` or `other`, and `module` the module's folder name (or null: a file
 * directly in `modules/`, or outside it). Null when the file is not under `apps/server/src/`.
 */
export function locate(file) {
  const normal = path.resolve(file);
  const marker = `${path.sep}apps${path.sep}server${path.sep}src${path.sep}`;
  const at = normal.lastIndexOf(marker);
  if (at < 0) return null;
  const srcRoot = normal.slice(0, at + marker.length - 1);
  const parts = normal.slice(srcRoot.length + 1).split(path.sep);
  const area = ['modules', 'platform', 'carriers'].includes(parts[0]) ? parts[0] : 'other';
  const module = area === 'modules' && parts.length > 2 ? parts[1] : null;
  return { srcRoot, area, module };
}

/**
 * The module (folder name under `modules/`) an import specifier of `fromFile` resolves into,
 * with the target path; null for packages, other areas, or files directly in `modules/`.
 */
export function resolveModuleImport(srcRoot, fromFile, specifier) {
  if (!specifier.startsWith('.')) return null;
  const target = path.resolve(path.dirname(fromFile), specifier);
  const modulesDir = path.join(srcRoot, 'modules') + path.sep;
  if (!target.startsWith(modulesDir)) return null;
  const rest = target.slice(modulesDir.length).split(path.sep);
  if (rest.length < 2) return { module: null, target };
  return { module: rest[0], target };
}

function listFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(full));
    else if (/\.tsx?$/.test(entry.name) && !isExemptFile(entry.name)) out.push(full);
  }
  return out;
}

/** 1-based line of a character offset. */
function lineAt(text, pos) {
  let line = 1;
  for (let i = 0; i < pos && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * The graph: `edges: Map<module, Map<otherModule, { file, line }>>` (one import per edge, the
 * first found, paths relative to `srcRoot`).
 */
export function buildModuleGraph(srcRoot) {
  const modulesDir = path.join(srcRoot, 'modules');
  const edges = new Map();
  if (!fs.existsSync(modulesDir)) return { edges };
  for (const entry of fs.readdirSync(modulesDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const from = entry.name;
    for (const file of listFiles(path.join(modulesDir, from)).sort()) {
      const text = fs.readFileSync(file, 'utf8');
      const { importedFiles } = ts.preProcessFile(text, true, true);
      for (const imported of importedFiles) {
        const hit = resolveModuleImport(srcRoot, file, imported.fileName);
        if (!hit?.module || hit.module === from) continue;
        if (!edges.has(from)) edges.set(from, new Map());
        const out = edges.get(from);
        if (!out.has(hit.module)) out.set(hit.module, { file: path.relative(srcRoot, file), line: lineAt(text, imported.pos) });
      }
    }
  }
  return { edges };
}

const cache = new Map();
/** How long a graph read from disk is reused (ms): one lint run reads it a few times at most. */
const CACHE_MS = 5_000;

/** `buildModuleGraph`, reused for a few seconds per source root. */
export function moduleGraph(srcRoot) {
  const hit = cache.get(srcRoot);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.graph;
  const graph = buildModuleGraph(srcRoot);
  cache.set(srcRoot, { graph, at: Date.now() });
  return graph;
}

/** The shortest chain of modules from `start` to `goal` (both included), or null. */
export function shortestPath(edges, start, goal) {
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const at = queue.shift();
    if (at === goal) {
      const chain = [];
      for (let m = goal; m !== null; m = previous.get(m)) chain.unshift(m);
      return chain;
    }
    for (const next of [...(edges.get(at)?.keys() ?? [])].sort()) {
      if (!previous.has(next)) {
        previous.set(next, at);
        queue.push(next);
      }
    }
  }
  return null;
}

/** Every cycle's modules, as strongly connected components of more than one module (Tarjan). */
export function moduleCycles(edges) {
  let index = 0;
  const indices = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const nodes = new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])]);
  const visit = (v) => {
    indices.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), indices.get(w)));
    }
    if (low.get(v) === indices.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const v of [...nodes].sort()) if (!indices.has(v)) visit(v);
  return components;
}

/** Unwraps `x as const`, `x satisfies T` and parentheses. */
function unwrap(node) {
  while (node && (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node))) node = node.expression;
  return node;
}

function exportedInitializer(source, name) {
  let found = null;
  source.forEachChild((statement) => {
    if (!ts.isVariableStatement(statement)) return;
    for (const declaration of statement.declarationList.declarations) {
      if (ts.isIdentifier(declaration.name) && declaration.name.text === name) found = unwrap(declaration.initializer);
    }
  });
  return found;
}

const mapCache = new Map();

/**
 * The module map of `modules/ownership.ts` under `srcRoot`, read with the TypeScript parser:
 * `{ owners: Map<table, owner>, layers: string[][] }` (empty when the file is missing).
 */
export function readModuleMap(srcRoot) {
  const file = path.join(srcRoot, 'modules', 'ownership.ts');
  let stat;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    if (error.code === 'ENOENT') return { owners: new Map(), layers: [], file: null };
    throw error;
  }
  const cached = mapCache.get(file);
  if (cached && cached.mtimeMs === stat.mtimeMs) return cached.map;
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const owners = new Map();
  const table = exportedInitializer(source, 'TABLE_OWNERS');
  if (table && ts.isObjectLiteralExpression(table)) {
    for (const property of table.properties) {
      if (!ts.isPropertyAssignment(property)) continue;
      const key = ts.isIdentifier(property.name) || ts.isStringLiteral(property.name) ? property.name.text : null;
      const value = unwrap(property.initializer);
      if (key && value && ts.isStringLiteral(value)) owners.set(key, value.text);
    }
  }
  const layers = [];
  const layerList = exportedInitializer(source, 'MODULE_LAYERS');
  if (layerList && ts.isArrayLiteralExpression(layerList)) {
    for (const level of layerList.elements) {
      const inner = unwrap(level);
      if (inner && ts.isArrayLiteralExpression(inner)) layers.push(inner.elements.filter(ts.isStringLiteral).map((s) => s.text));
    }
  }
  const map = { owners, layers, file };
  mapCache.set(file, { mtimeMs: stat.mtimeMs, map });
  return map;
}
