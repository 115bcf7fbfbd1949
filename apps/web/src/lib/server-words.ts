import { DEFAULT_LANGUAGE, i18n } from '../i18n';

/**
 * A success answer's `message` is English (the spec's words). In English the console shows it
 * exactly as the server wrote it; in any other language (the pseudo-locale too) the console words
 * the notice itself, from the answer's structured fields, with `own`.
 */
export function serverMessage(english: string, own: () => string): string {
  return i18n.language === DEFAULT_LANGUAGE ? english : own();
}
