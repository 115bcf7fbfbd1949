import {
  PARENT_LANGUAGE_LABELS,
  PARENT_LANGUAGES,
  type ParentLanguage,
  SUBJECTS,
  type Subject,
} from '@tuitiondesk/contract';

/**
 * What one cell of an imported sheet says, as people write it: lists, subjects, years of experience,
 * yes or no for consent, a language by code or by name. Pure functions; the row parsers
 * (parse-rows.ts) apply them.
 */

export const SUBJECT_BY_KEY = new Map<string, Subject>([
  ...SUBJECTS.map((subject) => [subjectKey(subject), subject] as [string, Subject]),
  ['maths', 'Mathematics'],
  ['math', 'Mathematics'],
  ['computers', 'Computer Science'],
  ['computer', 'Computer Science'],
  ['cs', 'Computer Science'],
  ['pe', 'Physical Education'],
  ['socialscience', 'Social Studies'],
  ['sst', 'Social Studies'],
]);

export function subjectKey(text: string): string {
  return text.toLowerCase().replace(/[^a-z]/g, '');
}

export function splitList(text: string): string[] {
  return text
    .split(/[,;\n]/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** Runs of white space as one space, none at the ends. */
export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** `5`, `5 years`, `5 yrs`, `5.0` are five years; anything else goes to the schema as written. */
export function experienceText(text: string): string | undefined {
  if (text === '') return undefined;
  const match = /^(\d+)(?:\.0+)?\s*(?:years?|yrs?)?\.?$/i.exec(text);
  return match ? match[1] : text;
}

/** Consent as people write it in a sheet: the key drops case, spaces, dashes, underscores and end marks. */
const YES = new Set([
  'yes',
  'y',
  'true',
  '1',
  'agreed',
  'agree',
  'consent',
  'consented',
  'consentgiven',
  'optedin',
  'optin',
  'haan',
  'हाँ',
  'हां',
  '✓',
  '✔',
]);
const NO = new Set([
  'no',
  'n',
  'false',
  '0',
  'notagreed',
  'disagreed',
  'noconsent',
  'declined',
  'refused',
  'withdrawn',
  'optedout',
  'optout',
  'nahi',
  'नहीं',
]);

/** A consent cell: empty leaves the family's consent as it is; yes or no in the words people use. */
export function readConsent(text: string): { value?: boolean; problem?: string } {
  const key = text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[\s_.!-]/g, '');
  if (key === '') return {};
  if (YES.has(key)) return { value: true };
  if (NO.has(key)) return { value: false };
  return { problem: `"${text}" is not yes or no; write yes when the parent agreed to WhatsApp messages, else no` };
}

/** The language's name in English, from its picker label: "हिन्दी (Hindi)" is Hindi. */
function englishName(code: ParentLanguage): string {
  const label = PARENT_LANGUAGE_LABELS[code];
  return /\(([^)]+)\)/.exec(label)?.[1] ?? label;
}

const LANGUAGE_NAMES: Record<string, ParentLanguage> = Object.fromEntries([
  ...PARENT_LANGUAGES.flatMap((code) => {
    const own = PARENT_LANGUAGE_LABELS[code].split(' (')[0] as string;
    return [code, own, englishName(code)].map((name) => [name.normalize('NFC').toLowerCase(), code] as const);
  }),
  // Other spellings people use: हिंदी as often as हिन्दी, Bangla for Bengali.
  ['हिंदी', 'hi'],
  ['bangla', 'bn'],
]);

const LANGUAGE_CHOICES =
  `use ${PARENT_LANGUAGES.slice(0, -1).join(', ')} or ${PARENT_LANGUAGES.at(-1)}, or the language's name: ` +
  `${PARENT_LANGUAGES.slice(0, -1).map(englishName).join(', ')} or ${englishName(PARENT_LANGUAGES.at(-1) as ParentLanguage)}`;

/** A language cell: a code (hi) or the language's name in English or in itself (Hindi, हिन्दी). */
export function readLanguage(text: string): { value?: ParentLanguage; problem?: string } {
  const key = collapse(text).normalize('NFC').toLowerCase();
  if (key === '') return {};
  const value = LANGUAGE_NAMES[key];
  if (value) return { value };
  return { problem: `"${text}" is not a language the centre writes in; ${LANGUAGE_CHOICES}` };
}
