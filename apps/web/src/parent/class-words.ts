import { i18n } from './i18n';

/**
 * A child's class as the parent app names it: the spec's classes ("7") with the class word in the
 * family's language ("Class 7", "कक्षा 7"); a class the centre named itself ("Morning batch", ADR 043)
 * as written, never "Class Morning batch".
 */
export function classWords(className: string): string {
  return /^\d+$/.test(className) ? i18n.t('children.class', { name: className }) : className;
}
