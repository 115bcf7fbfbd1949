// After adding or changing a text (docs/i18n/README.md, ADR 041):
//   npm run texts            writes the typed English module, lists what each language lacks or has
//                            extra, then runs the catalogue tests (rules, pseudo-locale, no literal text)
//   npm run texts -- --list  only writes and lists (no tests)
//
// The texts live in two trees: the console's screens in apps/web/src/i18n/locales/<lang>/<namespace>.json
// (i18next's form), and everything the server or the parent app says in
// packages/contract/texts/<area>/<lang>.json (the contract's ICU form). English is each tree's `en`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const CONSOLE = path.join(ROOT, 'apps/web/src/i18n/locales');
const TEXTS = path.join(ROOT, 'packages/contract/texts');
const GENERATED = path.join(ROOT, 'packages/contract/src/texts.gen.ts');
const CONSOLE_GENERATED = path.join(ROOT, 'apps/web/src/i18n/namespaces.gen.ts');
const LANGUAGES = ['en', 'hi', 'mr', 'ta', 'bn', 'ur'] as const;

/** The areas whose English the contract exports typed (`as const`), so a code's params are typed. */
const TYPED_AREAS: Record<string, string> = {
  errors: 'ENGLISH_ERRORS',
  activities: 'ENGLISH_ACTIVITIES',
};

type Tree = { [key: string]: string | Tree };
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

function readJson(file: string): Tree {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Tree) : {};
}

function flatten(tree: Tree, prefix = ''): Record<string, string> {
  return Object.fromEntries(
    Object.entries(tree).flatMap(([key, value]) =>
      typeof value === 'string' ? [[prefix + key, value]] : Object.entries(flatten(value, `${prefix}${key}.`)),
    ),
  );
}

function jsonNames(dir: string): string[] {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.endsWith('.json'))
        .map((name) => name.slice(0, -'.json'.length))
        .sort()
    : [];
}

/** The English of the typed areas as one TypeScript module (biome leaves `*.gen.*` alone). */
export function englishModule(): string {
  const parts = Object.entries(TYPED_AREAS)
    .filter(([area]) => existsSync(path.join(TEXTS, area, 'en.json')))
    .map(([area, name]) => {
      const texts = flatten(readJson(path.join(TEXTS, area, 'en.json')));
      const body = Object.entries(texts)
        .map(([key, text]) => `  ${JSON.stringify(key)}: ${JSON.stringify(text)},`)
        .join('\n');
      return `/** packages/contract/texts/${area}/en.json */\nexport const ${name} = {\n${body}\n} as const satisfies Record<string, string>;\n`;
    });
  return `// Written by \`npm run texts\` from packages/contract/texts/*/en.json: edit those, not this.\n\n${parts.join('\n')}`;
}

/**
 * The console's namespaces, one per English file, with the English each holds as a type: i18next's
 * typed keys are declared from it (`i18n/index.ts`), so a namespace is added by adding its file.
 */
export function consoleNamespacesModule(): string {
  const namespaces = jsonNames(path.join(CONSOLE, 'en'));
  const identifier = (namespace: string) => `en_${namespace.replace(/\W/g, '_')}`;
  return [
    '// Written by `npm run texts` from apps/web/src/i18n/locales/en/*.json: add or edit those, not this.',
    '',
    ...namespaces.map((namespace) => `import type ${identifier(namespace)} from './locales/en/${namespace}.json';`),
    '',
    "/** The console's namespaces: a file each in `locales/<lang>/`. */",
    `export const CONSOLE_NAMESPACES = [${namespaces.map((namespace) => `'${namespace}'`).join(', ')}] as const;`,
    '',
    "/** Each namespace's English, for i18next's typed keys. */",
    'export interface EnglishResources {',
    ...namespaces.map((namespace) => `  ${namespace}: typeof ${identifier(namespace)};`),
    '}',
    '',
  ].join('\n');
}

/** What a language lacks and has extra against English, as `area: key` lines. */
function gaps(
  language: string,
  areas: { area: string; english: Record<string, string>; texts: Record<string, string>; plurals: boolean }[],
) {
  const missing: string[] = [];
  const extra: string[] = [];
  const forms = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  for (const { area, english, texts, plurals } of areas) {
    const base = (key: string) => (plurals ? key.replace(PLURAL_SUFFIX, '') : key);
    const englishKeys = new Set(Object.keys(english).map(base));
    const own = new Set(Object.keys(texts).map(base));
    for (const key of englishKeys) {
      if (!own.has(key)) missing.push(`${area}: ${key}`);
      else if (plurals && `${key}_other` in english) {
        for (const form of forms) if (!(`${key}_${form}` in texts)) missing.push(`${area}: ${key}_${form}`);
      }
    }
    for (const key of own) if (!englishKeys.has(key)) extra.push(`${area}: ${key}`);
    for (const [key, text] of Object.entries(texts)) if (text.trim() === '') missing.push(`${area}: ${key} (empty)`);
  }
  return { missing, extra };
}

function writeIfChanged(file: string, text: string, what: string): void {
  const before = existsSync(file) ? readFileSync(file, 'utf8') : '';
  if (text === before) return;
  writeFileSync(file, text);
  console.log(`Wrote ${path.relative(ROOT, file)} (${what}).`);
}

function main(): number {
  writeIfChanged(GENERATED, englishModule(), 'the typed English');
  writeIfChanged(CONSOLE_GENERATED, consoleNamespacesModule(), "the console's namespaces, typed");

  const namespaces = jsonNames(path.join(CONSOLE, 'en'));
  const areas = readdirSync(TEXTS)
    .filter((area) => existsSync(path.join(TEXTS, area, 'en.json')))
    .sort();
  let lacking = 0;
  for (const language of LANGUAGES.filter((language) => language !== 'en')) {
    const { missing, extra } = gaps(language, [
      ...namespaces.map((namespace) => ({
        area: `console/${namespace}`,
        english: flatten(readJson(path.join(CONSOLE, 'en', `${namespace}.json`))),
        texts: flatten(readJson(path.join(CONSOLE, language, `${namespace}.json`))),
        plurals: true,
      })),
      ...areas.map((area) => ({
        area,
        english: flatten(readJson(path.join(TEXTS, area, 'en.json'))),
        texts: flatten(readJson(path.join(TEXTS, area, `${language}.json`))),
        plurals: false,
      })),
    ]);
    lacking += missing.length + extra.length;
    if (missing.length === 0 && extra.length === 0) {
      console.log(`${language}: complete`);
      continue;
    }
    console.log(`${language}: lacks ${missing.length}, has ${extra.length} English does not`);
    for (const line of missing) console.log(`  missing  ${line}`);
    for (const line of extra) console.log(`  extra    ${line}`);
  }
  if (process.argv.includes('--list')) return lacking > 0 ? 1 : 0;

  // The rules each catalogue keeps (placeholders, plural forms), the pseudo-locale's and the check
  // that converted screens hold no literal text, as `npm test` runs them.
  console.log('\nThe catalogue tests:');
  const tests = spawnSync(
    'npx',
    [
      'vitest',
      'run',
      '--project',
      'web',
      '--project',
      'contract',
      'apps/web/src/i18n',
      'apps/web/src/parent/catalogues.test.ts',
      'packages/contract/src',
    ],
    { stdio: 'inherit', cwd: ROOT },
  );
  return lacking > 0 ? 1 : (tests.status ?? 1);
}

if (process.argv[1] === import.meta.filename) process.exit(main());
