import type { TextWords } from '@tuitiondesk/contract';
import { translatedError } from '../../i18n/error-texts';
import { formatDay } from '../../lib/dates';

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A sentence an attendance answer gives in English (why a register is read-only, why a queued mark
 * was not saved) in the language in use, from the words beside it (a code and params, ADR 036): the
 * code's text in that language, with a yyyy-MM-dd day written as the language writes a day. English,
 * an answer without words (an older server, a queue kept from before) or a code with no text in that
 * language shows the English as answered.
 */
export function answerText(english: string, words: Partial<TextWords> | null | undefined): string {
  if (!words?.code) return english;
  const params = Object.fromEntries(
    Object.entries(words.params ?? {}).map(([name, value]) => [
      name,
      typeof value === 'string' && ISO_DAY.test(value) ? formatDay(value) : value,
    ]),
  );
  return translatedError(words.code, params) ?? english;
}
