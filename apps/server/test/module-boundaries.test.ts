import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');
const MODULES = join(SRC, 'modules');
const BIOME_JSON = resolve(SRC, '../../../biome.json');

/**
 * `context.ts` names the types of the workers and the sender it holds from their own files: importing
 * them through `modules/delivery/index.ts` would close a type-import cycle through every route file
 * (routes → context → index → routes), which the lint forbids.
 */
const DEEP_TYPE_IMPORTS_ALLOWED = ['context.ts'];

interface Override {
  includes?: string[];
  linter?: { rules?: { style?: { noRestrictedImports?: { options?: { patterns?: { group: string[] }[] } } } } };
}

/** The modules biome forbids another module to reach into, read from the `../<module>/**` patterns of its override. */
function modulesInLintRule(): string[] {
  const config = JSON.parse(readFileSync(BIOME_JSON, 'utf8')) as { overrides?: Override[] };
  const override = config.overrides?.find((entry) => entry.includes?.includes('apps/server/src/modules/**'));
  const patterns = override?.linter?.rules?.style?.noRestrictedImports?.options?.patterns ?? [];
  return patterns
    .flatMap((pattern) => pattern.group)
    .map((group) => /^\.\.\/([^/*.]+)\/\*\*$/.exec(group)?.[1])
    .filter((name): name is string => name !== undefined)
    .sort();
}

function folders(path: string): string[] {
  return readdirSync(path, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

function sourceFiles(path: string): string[] {
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) => {
    const full = join(path, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Every relative import and re-export of a file, as a path under src split into its folders. */
function importedPaths(file: string): string[][] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']*)'/g)].map((match) => match[1] ?? '');
  return specifiers.map((specifier) => relative(SRC, resolve(dirname(file), specifier)).split(sep));
}

/** The module a path under src belongs to, if any. */
function moduleOf(path: string[]): string | undefined {
  return path[0] === 'modules' && path.length > 2 ? path[1] : undefined;
}

/** `from → to` for every module that imports another. */
function moduleGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(MODULES)) {
    const own = moduleOf(relative(SRC, file).split(sep)) as string;
    for (const path of importedPaths(file)) {
      const target = path[0] === 'modules' ? path[1] : undefined;
      if (target === undefined || target === own) continue;
      graph.set(own, (graph.get(own) ?? new Set()).add(target));
    }
  }
  return graph;
}

function mutualPairs(graph: Map<string, Set<string>>): string[] {
  return [...graph].flatMap(([from, targets]) =>
    [...targets].filter((to) => from < to && graph.get(to)?.has(from)).map((to) => `${from} ↔ ${to}`),
  );
}

/** The modules that lie on a cycle of the graph (Tarjan's strongly connected components of two or more). */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) as number, low.get(to) as number));
      } else if (stack.includes(to)) {
        low.set(node, Math.min(low.get(node) as number, index.get(to) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** Imports from outside a module (another module, the app, scripts, plugins) that reach past its index. */
function importsPastAnIndex(): string[] {
  return sourceFiles(SRC)
    .filter((file) => !DEEP_TYPE_IMPORTS_ALLOWED.includes(relative(SRC, file)))
    .flatMap((file) => {
      const own = moduleOf(relative(SRC, file).split(sep));
      return importedPaths(file)
        .filter((path) => path[0] === 'modules' && path[1] !== own && !(path.length === 2 || path[2] === 'index'))
        .map((path) => `${relative(SRC, file)} → ${path.join('/')}`);
    });
}

/** lib/, db/ and plugins/ importing any module at all. */
function sharedCodeReachingIntoModules(): string[] {
  return ['lib', 'db', 'plugins'].flatMap((shared) =>
    sourceFiles(join(SRC, shared)).flatMap((file) =>
      importedPaths(file)
        .filter(([top]) => top === 'modules')
        .map((path) => `${relative(SRC, file)} → ${path.join('/')}`),
    ),
  );
}

describe('the boundaries between the server modules', () => {
  it('the lint rule names every module folder, so a new module cannot slip past it', () => {
    expect(modulesInLintRule()).toEqual(folders(MODULES));
  });

  it('every module has an index.ts, its public surface', () => {
    expect(folders(MODULES).filter((name) => !existsSync(join(MODULES, name, 'index.ts')))).toEqual([]);
  });

  it('no two modules import each other', () => {
    expect(mutualPairs(moduleGraph())).toEqual([]);
  });

  it('the module graph has no cycle', () => {
    expect(cycles(moduleGraph())).toEqual([]);
  });

  it('a module is imported only through its index.ts, however deep the importing file sits', () => {
    expect(importsPastAnIndex()).toEqual([]);
  });

  it('lib/, db/ and plugins/ import no module', () => {
    expect(sharedCodeReachingIntoModules()).toEqual([]);
  });
});
