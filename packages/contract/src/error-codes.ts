import { ENGLISH_ERRORS } from './texts.gen';
/**
 * The stable codes of the server's errors, each with its English text (written in
 * `packages/contract/texts/errors/en.json`, every other language beside it in `texts/errors/<lang>.json`;
 * `npm run texts` makes the typed copy this reads, ADR 041). An error body carries the
 * English `detail` (what API clients show as it is), its `code` from this catalogue and, when the text
 * has placeholders, the `params` that fill them; a client that speaks another language looks the code
 * up in its own catalogue and fills the same params (ADR 036).
 *
 * Codes are dotted and lower case, `<module>.<what>`; a field's validation failure is `validation.<rule>`
 * with `field` among its params and a text that starts `{field}: `. A code, once published, keeps its
 * meaning: a changed meaning is a new code.
 *
 * Texts are ICU-style: `{name}` is a param; `{count, plural, one {…} other {…}}` chooses by a number
 * (`#` in a branch is the number), `{status, select, pending {…} other {…}}` by a value. A branch holds
 * no other placeholder, which keeps the params' type readable from the text itself.
 */
export const ERROR_CODES = ENGLISH_ERRORS;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The names of a text's placeholders: `{a}` gives `a`; a plural `{n, plural, …}` gives `n`. */
type Placeholders<S extends string> = S extends `${string}{${infer P}}${infer Rest}`
  ? P extends `${infer Name},${string}`
    ? Name | (Rest extends `${string}}}${infer After}` ? Placeholders<After> : never)
    : P | Placeholders<Rest>
  : never;

export type ErrorParamValue = string | number;
export type ErrorParamName<C extends ErrorCode> = Placeholders<(typeof ERROR_CODES)[C]>;
export type ErrorParams<C extends ErrorCode> = { [K in ErrorParamName<C>]: ErrorParamValue };

/** What follows a code in a call: nothing when its text has no placeholder, else its params. */
export type ErrorParamsArg<C extends ErrorCode> = C extends ErrorCode
  ? [ErrorParamName<C>] extends [never]
    ? []
    : [params: ErrorParams<C>]
  : never;

/** A code with its params, as a value that can be passed along before it is thrown. */
export type ErrorWords = { [C in ErrorCode]: { code: C; params: ErrorParams<C> } }[ErrorCode];

export function errorWords<C extends ErrorCode>(code: C, ...params: ErrorParamsArg<C>): ErrorWords {
  return { code, params: (params[0] ?? {}) as ErrorParams<C> } as ErrorWords;
}

interface Piece {
  name: string;
  kind?: string;
  /** For a plural or a select: its branches by selector (`one`, `other`, `=0`; a select's values). */
  branches?: Record<string, string>;
  start: number;
  end: number;
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
  throw new Error(`Unbalanced braces in error text: ${text}`);
}

/** The top-level placeholders of a text, in order. */
function pieces(text: string): Piece[] {
  const found: Piece[] = [];
  for (let i = text.indexOf('{'); i !== -1; i = text.indexOf('{', i)) {
    const end = closing(text, i);
    const inner = text.slice(i + 1, end);
    const comma = inner.indexOf(',');
    if (comma === -1) found.push({ name: inner.trim(), start: i, end });
    else {
      const rest = inner.slice(comma + 1);
      const kind = rest.slice(0, rest.indexOf(',')).trim();
      if (kind !== 'plural' && kind !== 'select') throw new Error(`Only plural and select are supported: ${text}`);
      const body = rest.slice(rest.indexOf(',') + 1);
      const branches: Record<string, string> = {};
      for (let j = body.indexOf('{'), from = 0; j !== -1; j = body.indexOf('{', from)) {
        const close = closing(body, j);
        branches[body.slice(from, j).trim()] = body.slice(j + 1, close);
        from = close + 1;
      }
      found.push({ name: inner.slice(0, comma).trim(), kind, branches, start: i, end });
    }
    i = end + 1;
  }
  return found;
}

/** The names a text's placeholders need, for the catalogue's own checks. */
export function errorTextParams(text: string): string[] {
  return [...new Set(pieces(text).map((piece) => piece.name))];
}

/** The branches of a text's plurals, for the catalogue's own checks. */
export function errorTextBranches(text: string): string[] {
  return pieces(text).flatMap((piece) => Object.values(piece.branches ?? {}));
}

/** Fills a text (this catalogue's or a translation's) with params; English plural rules unless `plural` is given. */
export function formatErrorText(
  text: string,
  params: Readonly<Record<string, ErrorParamValue>>,
  plural: (count: number) => string = (count) => (count === 1 ? 'one' : 'other'),
): string {
  let out = '';
  let at = 0;
  for (const piece of pieces(text)) {
    out += text.slice(at, piece.start);
    const value = params[piece.name];
    if (value === undefined) throw new Error(`The error text "${text}" needs the param ${piece.name}`);
    if (piece.branches && piece.kind === 'select') {
      out += piece.branches[String(value)] ?? piece.branches.other ?? '';
    } else if (piece.branches) {
      const count = Number(value);
      const branch = piece.branches[`=${count}`] ?? piece.branches[plural(count)] ?? piece.branches.other ?? '';
      out += branch.replaceAll('#', String(value));
    } else out += String(value);
    at = piece.end + 1;
  }
  return out + text.slice(at);
}

/**
 * Where words carry it, the params as the English detail says them: a class by its label ("Morning
 * batch", "Class 7") where `params` keeps its value (ADR 054). A symbol, so it is never sent.
 */
export const ENGLISH_PARAMS: unique symbol = Symbol('english params');

/** The English detail of an error. */
export function errorDetail(words: {
  code: ErrorCode;
  params: Readonly<Record<string, ErrorParamValue>>;
  [ENGLISH_PARAMS]?: Readonly<Record<string, ErrorParamValue>>;
}): string {
  return formatErrorText(ERROR_CODES[words.code], words[ENGLISH_PARAMS] ?? words.params);
}

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CODES, code);
}
