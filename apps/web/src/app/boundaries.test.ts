import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BIOME_JSON = resolve(SRC, '../../../biome.json');

interface Override {
  includes?: string[];
  linter?: { rules?: { style?: { noRestrictedImports?: { options?: { patterns?: { group: string[] }[] } } } } };
}

/** The features biome forbids a feature to import, read from the `../<feature>/*` patterns of its override. */
function featuresInLintRule(): string[] {
  const config = JSON.parse(readFileSync(BIOME_JSON, 'utf8')) as { overrides?: Override[] };
  const override = config.overrides?.find((entry) => entry.includes?.includes('apps/web/src/features/**'));
  const patterns = override?.linter?.rules?.style?.noRestrictedImports?.options?.patterns ?? [];
  return patterns
    .flatMap((pattern) => pattern.group)
    .map((group) => /^\.\.\/([^/*]+)\/\*$/.exec(group)?.[1])
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
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Where each relative import of a file lands, as a path under src split into its folders. */
function importedFolders(file: string): string[][] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']*)'/g)].map((match) => match[1] ?? '');
  return specifiers.map((specifier) => relative(SRC, resolve(dirname(file), specifier)).split(sep));
}

/** `feature → feature` for every import from one feature's folder into another's. */
function crossFeatureImports(): string[] {
  return sourceFiles(join(SRC, 'features')).flatMap((file) => {
    const own = relative(join(SRC, 'features'), file).split(sep)[0];
    return importedFolders(file)
      .filter(([top, feature]) => top === 'features' && feature !== own)
      .map(([, feature]) => `${relative(SRC, file)} → features/${feature}`);
  });
}

/** Shared code (lib, components, testing) importing a feature or the app. */
function sharedCodeReachingOut(): string[] {
  return ['lib', 'components', 'testing'].flatMap((shared) =>
    sourceFiles(join(SRC, shared)).flatMap((file) =>
      importedFolders(file)
        .filter(([top]) => top === 'features' || top === 'app')
        .map((target) => `${relative(SRC, file)} → ${target.join('/')}`),
    ),
  );
}

describe('the boundaries between the parts of the console', () => {
  it('the lint rule names every feature folder, so a new feature cannot slip past it', () => {
    expect(featuresInLintRule()).toEqual(folders(join(SRC, 'features')));
  });

  it('no feature imports another, however deep the file sits', () => {
    expect(crossFeatureImports()).toEqual([]);
  });

  it('shared code imports neither a feature nor the app', () => {
    expect(sharedCodeReachingOut()).toEqual([]);
  });
});
