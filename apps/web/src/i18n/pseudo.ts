/**
 * The pseudo-locale `en-XA`, made from the English catalogues: every letter accented and every text
 * lengthened by about a third inside ⟦ ⟧, placeholders kept as they are. A screen shown in it reveals
 * any text that skipped the catalogue (plain English) and any layout that breaks on longer words.
 */
export { PSEUDO_LANGUAGE } from './pseudo-switch';

const ACCENTED: Record<string, string> = {
  a: 'á',
  b: 'ƀ',
  c: 'ç',
  d: 'ð',
  e: 'é',
  f: 'ƒ',
  g: 'ĝ',
  h: 'ĥ',
  i: 'í',
  j: 'ĵ',
  k: 'ķ',
  l: 'ĺ',
  m: 'ɱ',
  n: 'ñ',
  o: 'ö',
  p: 'þ',
  q: 'ǫ',
  r: 'ŕ',
  s: 'š',
  t: 'ţ',
  u: 'ú',
  v: 'ṽ',
  w: 'ŵ',
  x: 'ẋ',
  y: 'ý',
  z: 'ž',
  A: 'Á',
  B: 'Ɓ',
  C: 'Ç',
  D: 'Ð',
  E: 'É',
  F: 'Ƒ',
  G: 'Ĝ',
  H: 'Ĥ',
  I: 'Í',
  J: 'Ĵ',
  K: 'Ķ',
  L: 'Ĺ',
  M: 'Ṁ',
  N: 'Ñ',
  O: 'Ö',
  P: 'Þ',
  Q: 'Ǫ',
  R: 'Ŕ',
  S: 'Š',
  T: 'Ţ',
  U: 'Ú',
  V: 'Ṽ',
  W: 'Ŵ',
  X: 'Ẋ',
  Y: 'Ý',
  Z: 'Ž',
};

const PLACEHOLDER = /(\{\{[^}]+\}\})/;

/** One text in the pseudo-locale: `Sign In` → `⟦Šíĝñ Íñ·····⟧`. */
export function pseudoText(text: string): string {
  const accented = text
    .split(PLACEHOLDER)
    .map((part) => (PLACEHOLDER.test(part) ? part : part.replace(/[A-Za-z]/g, (letter) => ACCENTED[letter] ?? letter)))
    .join('');
  const letters = text.replace(/\{\{[^}]+\}\}/g, '').length;
  return `⟦${accented}${'·'.repeat(Math.ceil(letters / 3))}⟧`;
}

type Catalogue = { [key: string]: string | Catalogue };

/** A whole catalogue in the pseudo-locale, key for key. */
export function pseudoCatalogue(catalogue: Catalogue): Catalogue {
  return Object.fromEntries(
    Object.entries(catalogue).map(([key, value]) => [
      key,
      typeof value === 'string' ? pseudoText(value) : pseudoCatalogue(value),
    ]),
  );
}
