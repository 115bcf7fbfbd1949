import { errorTextBranches, errorTextParams, formatErrorText } from './error-codes';
import { ENGLISH_ACTIVITIES } from './texts.gen';

/**
 * The texts of the activity feed, each under a stable code, in English (ADR 038), written in
 * `packages/contract/texts/activities/en.json` (every other language beside it, `texts/activities/<lang>.json`;
 * `npm run texts` makes the typed copy this reads, ADR 041). The server writes an
 * activity's English `description` from its code's text and params, and stores the code and the params
 * beside it; a client in another language fills its own translation of the code with the same params,
 * and shows the stored `description` for a row that has none (older rows) or a code it does not know.
 *
 * The syntax is the error catalogue's (ADR 036): `{name}`, `{n, plural, one {…} other {…}}` with `#`
 * the number, `{v, select, a {…} other {…}}`; a branch holds no placeholder but `#`. One kind more:
 * `{name, date}` is a yyyy-MM-dd day, which each side writes in its own form (the server's English
 * "23 Nov 2026", a client's for its language). `{actor}` is the one who did it, filled by the server (a parent's
 * name alone: the text says `(parent)` after it).
 * Names, subjects, reasons, phones and file names in params are shown as written.
 *
 * A code names one sentence shape, so one action (the row's `action`, e.g. `settings.updated`) may have
 * several codes. A code, once published, keeps its meaning: a changed meaning is a new code.
 */
export const ACTIVITY_TEXTS = ENGLISH_ACTIVITIES;

export type ActivityTextCode = keyof typeof ACTIVITY_TEXTS;
export type ActivityParamValue = string | number;

/** A text's placeholder names, as error-codes.ts reads them, plus `{name, date}`. */
type Placeholders<S extends string> = S extends `${string}{${infer P}}${infer Rest}`
  ? P extends `${infer Name}, date`
    ? Name | Placeholders<Rest>
    : P extends `${infer Name},${string}`
      ? Name | (Rest extends `${string}}}${infer After}` ? Placeholders<After> : never)
      : P | Placeholders<Rest>
  : never;

/** The params a code's text needs; `actor` is the server's to fill from who did it. */
export type ActivityParams<C extends ActivityTextCode> = {
  [K in Exclude<Placeholders<(typeof ACTIVITY_TEXTS)[C]>, 'actor'>]: ActivityParamValue;
};

/** An activity's text as code and params, before the server writes its English. */
export type ActivityWords = { [C in ActivityTextCode]: { code: C; params: ActivityParams<C> } }[ActivityTextCode];

export function activityWords<C extends ActivityTextCode>(code: C, params: ActivityParams<C>): ActivityWords {
  return { code, params } as ActivityWords;
}

const DATE = /\{(\w+), date\}/g;

/** The params a text needs (a `{day, date}` counts as `day`), for the catalogues' own checks. */
export function activityTextParams(text: string): string[] {
  return errorTextParams(text.replace(DATE, '{$1}'));
}

/** The branches of a text's plurals and selects, for the catalogues' own checks. */
export function activityTextBranches(text: string): string[] {
  return errorTextBranches(text.replace(DATE, '{$1}'));
}

/**
 * Fills an activity text (this catalogue's or a translation's) with params: `day` writes a
 * `{name, date}` param (a yyyy-MM-dd day) in the caller's form, `plural` is the language's plural rule
 * (English by default).
 */
export function formatActivityText(
  text: string,
  params: Readonly<Record<string, ActivityParamValue>>,
  options: { day: (isoDay: string) => string; plural?: (count: number) => string },
): string {
  const filled: Record<string, ActivityParamValue> = { ...params };
  for (const [, name] of text.matchAll(DATE)) {
    const value = params[name as string];
    if (value !== undefined) filled[name as string] = options.day(String(value));
  }
  return formatErrorText(text.replace(DATE, '{$1}'), filled, options.plural);
}

export function isActivityTextCode(code: string): code is ActivityTextCode {
  return Object.hasOwn(ACTIVITY_TEXTS, code);
}
