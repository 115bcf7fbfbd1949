/**
 * The parent bundle stays light: from its entry, no module reaches the console's i18n entry
 * (`i18n/index.ts`, with the console's bundled catalogues and its right-to-left style cache), MUI or
 * emotion, i18next or react-i18next (its own small translator does), or the contract's runtime (its schemas); only the small
 * i18n modules it needs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '..');

/** Every module the entry imports at run time (type-only imports left out), and the packages it names. */
function reach(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const code = readFileSync(file, 'utf8');
    for (const match of code.matchAll(
      /^\s*(?:import|export)\s+(?!type\b)[^'"]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/gm,
    )) {
      const specifier = (match[1] ?? match[2]) as string;
      if (!specifier.startsWith('.')) {
        packages.add(specifier);
        continue;
      }
      const base = resolve(dirname(file), specifier);
      const found = [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find(
        (candidate) => existsSync(candidate) && /\.tsx?$/.test(candidate),
      );
      if (found) visit(found);
    }
  };
  visit(entry);
  return { files, packages };
}

describe('the parent bundle', () => {
  it('does not load the console’s i18n entry, MUI, emotion, i18next or the contract’s schemas', () => {
    const { files, packages } = reach(resolve(SRC, 'parent/main.tsx'));
    expect(files.has(resolve(SRC, 'i18n/index.ts'))).toBe(false);
    expect(files.has(resolve(SRC, 'parent/i18n.ts'))).toBe(true);
    expect(
      [...packages].filter((name) =>
        /^@mui\/|^@emotion\/|^@tuitiondesk\/contract$|^react-i18next$|^i18next$/.test(name),
      ),
    ).toEqual([]);
  });
});
