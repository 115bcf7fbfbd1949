/**
 * Every text rendered with fixed sample params, for the snapshot that proves no translation is lost
 * (`texts-before/*.json`, written once before the texts moved, ADR 041): for each key, the text as the
 * app shows it, filled with `‹name›` for each placeholder, every count of SAMPLE_COUNTS for a plural
 * and every branch of a select (plus a value none names, for `other`). The snapshot holds results, not
 * sources, so it stays valid whatever form or place the texts are kept in.
 */

export const SAMPLE_COUNTS = [0, 1, 2, 5, 21] as const;
export const SAMPLE_DAY = '2026-11-23';
/** A select's value that no branch names: it shows the `other` branch. */
export const UNNAMED_CHOICE = 'zz_unnamed';

export type Params = Record<string, string | number>;
export type Snapshot = Record<string, string | null>;

export function sample(name: string): string {
  return `‹${name}›`;
}

/** The id of one rendering: the key alone, or the key with its varying params (`key {count=2}`). */
export function renderingId(key: string, varying: Params): string {
  const names = Object.keys(varying).sort();
  return names.length === 0 ? key : `${key} {${names.map((name) => `${name}=${varying[name]}`).join(', ')}}`;
}

/** Every combination of the varying params' values (each one alone, the others at their first, when there are too many). */
export function combinations(choices: Record<string, readonly (string | number)[]>): Params[] {
  const names = Object.keys(choices).sort();
  const total = names.reduce((product, name) => product * (choices[name]?.length ?? 1), 1);
  if (total <= 200) {
    let all: Params[] = [{}];
    for (const name of names)
      all = all.flatMap((partial) => (choices[name] ?? []).map((value) => ({ ...partial, [name]: value })));
    return all;
  }
  const first = Object.fromEntries(names.map((name) => [name, choices[name]?.[0] ?? '']));
  return names.flatMap((name) => (choices[name] ?? []).map((value) => ({ ...first, [name]: value })));
}

// ---- i18next's v4 form (the console's namespaces, the parent app): `{{name}}`, `key_one` / `key_other`

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/**
 * The renderings of an i18next-form catalogue (flattened English keys), each through `t`, the app's
 * own translator in the language being rendered.
 */
export function i18nextRenderings(
  english: Readonly<Record<string, string>>,
  t: (key: string, params: Params) => string,
): Snapshot {
  const bases = new Map<string, Set<string>>();
  for (const [key, text] of Object.entries(english)) {
    const base = key.replace(PLURAL_SUFFIX, '');
    const names = bases.get(base) ?? new Set<string>();
    for (const match of text.matchAll(/\{\{\s*([^}\s,]+)[^}]*\}\}/g)) names.add(match[1] as string);
    bases.set(base, names);
  }
  const out: Snapshot = {};
  for (const [base, names] of [...bases].sort(([a], [b]) => a.localeCompare(b))) {
    const plural = `${base}_other` in english;
    const fixed: Params = Object.fromEntries([...names].filter((name) => name !== 'count').map((n) => [n, sample(n)]));
    if (plural || names.has('count')) {
      for (const count of SAMPLE_COUNTS) out[renderingId(base, { count })] = t(base, { ...fixed, count });
    } else out[renderingId(base, {})] = t(base, fixed);
  }
  return out;
}

// ---- ICU-like form (errors, activities): `{name}`, `{n, plural, …}`, `{v, select, …}`, `{day, date}`

interface Placeholder {
  name: string;
  kind: 'plain' | 'plural' | 'select' | 'date';
  /** A select's branch values, as written. */
  values: string[];
}

function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i += 1) {
    if (text[i] === '{') depth += 1;
    else if (text[i] === '}') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  throw new Error(`Unbalanced braces: ${text}`);
}

export function icuPlaceholders(text: string): Placeholder[] {
  const found = new Map<string, Placeholder>();
  for (let i = text.indexOf('{'); i !== -1; i = text.indexOf('{', i)) {
    const end = closing(text, i);
    const inner = text.slice(i + 1, end);
    const parts = inner.split(',').map((part) => part.trim());
    const name = parts[0] as string;
    const kind = parts[1];
    const place = found.get(name) ?? { name, kind: 'plain', values: [] };
    if (kind === 'date') place.kind = 'date';
    else if (kind === 'plural') place.kind = 'plural';
    else if (kind === 'select') {
      place.kind = 'select';
      const body = inner.slice(inner.indexOf(',', inner.indexOf(',') + 1) + 1);
      for (let j = body.indexOf('{'), from = 0; j !== -1; j = body.indexOf('{', from)) {
        const close = closing(body, j);
        const value = body.slice(from, j).trim();
        if (value !== 'other' && !place.values.includes(value)) place.values.push(value);
        from = close + 1;
      }
    }
    found.set(name, place);
    i = end + 1;
  }
  return [...found.values()];
}

/**
 * The renderings of coded ICU-form texts: the params (and their varying values) are read from the
 * English text of each code; `render` fills the language's text (undefined: the language has none,
 * recorded as null).
 */
export function icuRenderings(
  english: Readonly<Record<string, string>>,
  render: (code: string, params: Params) => string | undefined,
): Snapshot {
  const out: Snapshot = {};
  for (const code of Object.keys(english).sort()) {
    const fixed: Params = {};
    const varying: Record<string, (string | number)[]> = {};
    for (const place of icuPlaceholders(english[code] as string)) {
      if (place.kind === 'plural') varying[place.name] = [...SAMPLE_COUNTS];
      else if (place.kind === 'select') varying[place.name] = [...place.values, UNNAMED_CHOICE];
      else if (place.kind === 'date') fixed[place.name] = SAMPLE_DAY;
      else fixed[place.name] = sample(place.name);
    }
    for (const choice of combinations(varying)) {
      let text: string | null;
      try {
        text = render(code, { ...fixed, ...choice }) ?? null;
      } catch (error) {
        text = `!error: ${(error as Error).message}`;
      }
      out[renderingId(code, choice)] = text;
    }
  }
  return out;
}

/** `{ a: { b: 'x' } }` → `{ 'a.b': 'x' }` */
export function flattenTexts(tree: object, prefix = ''): Record<string, string> {
  return Object.fromEntries(
    Object.entries(tree).flatMap(([key, value]) =>
      typeof value === 'string' ? [[prefix + key, value]] : Object.entries(flattenTexts(value, `${prefix}${key}.`)),
    ),
  );
}

/**
 * What a snapshot taken now lost or changed against the one from before: every rendering from before
 * must be there, the same. (A text added since is no loss.)
 */
export function lostOrChanged(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  for (const [id, text] of Object.entries(before)) {
    if (!(id in after)) out.push(`lost: ${id}`);
    else if (after[id] !== text) out.push(`changed: ${id}: ${JSON.stringify(text)} → ${JSON.stringify(after[id])}`);
  }
  return out;
}
