/**
 * The pseudo-locale `en-XA` (see `pseudo.ts`) replaces English on this device while the local-storage
 * key below is `on`: a browser test sets it to find text that skipped the catalogue and layouts that
 * break on longer words. Nothing in the product sets it, and it changes nothing else.
 */
export const PSEUDO_LANGUAGE = 'en-XA';
export const PSEUDO_LOCALE_KEY = 'tuitiondesk.pseudo-locale';

export function pseudoLocaleOn(): boolean {
  try {
    return typeof localStorage !== 'undefined' && localStorage.getItem(PSEUDO_LOCALE_KEY) === 'on';
  } catch {
    return false;
  }
}
