import { readFileSync } from 'node:fs';
import { MIN_PASSWORD_LENGTH } from '@tuitiondesk/contract';
import { type FieldWords, fieldProblemText, fieldWords } from './errors';

/**
 * What a new password must not be, beyond the contract's length (6 to 1024 characters, checked by the
 * schema): ASVS 6.2.4, 6.2.11 and 6.2.12. No composition rules (ASVS 6.2.5): any characters, any mix.
 * The rules and their reasons: docs/decisions/020-passwords-and-slow-clients.md.
 */

const LIST_FILE = new URL('./common-passwords.txt', import.meta.url);

/** Words of the product itself; a password holding one is the first an attacker of this site tries. */
const CONTEXT_WORDS = ['tuitiondesk'];

/** Parts of a name shorter than this (Li, Al) turn up inside too many ordinary words to refuse. */
const MIN_NAME_PART = 3;

let commonPasswords: Set<string> | undefined;

/** The shipped list (30,000 entries, lower-case), read once, when the first password is checked. */
export function commonPasswordList(): ReadonlySet<string> {
  commonPasswords ??= new Set(
    readFileSync(LIST_FILE, 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
  return commonPasswords;
}

/** The account as its row holds it. */
export interface PasswordOwner {
  username: string;
  full_name: string;
  email?: string | null;
}

/**
 * Digits and symbols read as the letters they stand for (p@ssw0rd, dr4g0n). A 1 is tried both as i and
 * as l. Only the common look-alikes: each further one would refuse more good passwords than bad.
 */
const LOOK_ALIKES: Record<string, string> = { '0': 'o', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' };

function undoLookAlikes(text: string): string[] {
  const letters = text.replace(/[03457@$]/g, (character) => LOOK_ALIKES[character] ?? character);
  return [letters.replaceAll('1', 'i').replaceAll('!', 'i'), letters.replaceAll('1', 'l').replaceAll('!', 'i')];
}

/** A lower-cased password as it is, and with its look-alikes read as letters. */
function spellings(text: string): string[] {
  return [text, ...undoLookAlikes(text)];
}

/**
 * The ways people dress up a common password: as is, with digits and symbols added at the end
 * (password123!), or at both ends (!!password2024). Each then with its look-alikes undone.
 */
function commonCandidates(lower: string): Set<string> {
  const bases = [lower, lower.replace(/[^\p{L}]+$/u, ''), lower.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '')];
  return new Set(bases.filter((base) => base !== '').flatMap(spellings));
}

/** Each run of 3 or more letters in a name, as written (for the message) and lower-case (to compare). */
function nameParts(fullName: string): { written: string; lower: string }[] {
  return (fullName.normalize('NFKC').match(/\p{L}+/gu) ?? [])
    .filter((part) => [...part].length >= MIN_NAME_PART)
    .map((written) => ({ written, lower: written.toLowerCase() }));
}

/**
 * Why this new password is refused, as the end of a `new_password: …` sentence; undefined when it is
 * acceptable. The length is the schema's to check; this takes any string.
 */
export function checkNewPassword(password: string, owner: PasswordOwner): string | undefined {
  const problem = newPasswordProblem(password, owner);
  return problem && fieldProblemText(problem);
}

/** What is wrong with a chosen password, as the failure of its field (a code and params), or undefined. */
export function newPasswordProblem(password: string, owner: PasswordOwner): FieldWords | undefined {
  if (password.trim() === '') return fieldWords('validation.password_blank');
  // NFKC: full-width and other compatibility forms count as their plain letters. Only this check
  // ignores case and form; the hash takes the password exactly as typed (ASVS 6.2.8).
  const lower = password.normalize('NFKC').toLowerCase();
  const variants = spellings(lower);
  const contains = (word: string) => word.length >= MIN_NAME_PART && variants.some((v) => v.includes(word));

  const username = owner.username.normalize('NFKC').toLowerCase();
  if (contains(username)) return fieldWords('validation.password_has_username', { username: owner.username });
  const emailName = owner.email?.split('@')[0]?.normalize('NFKC').toLowerCase() ?? '';
  if (contains(emailName)) return fieldWords('validation.password_has_email', { email: emailName });
  const namePart = nameParts(owner.full_name).find((part) => contains(part.lower));
  if (namePart) return fieldWords('validation.password_has_name', { name: namePart.written });
  const contextWord = CONTEXT_WORDS.find(contains);
  if (contextWord) return fieldWords('validation.password_has_app_name', { word: contextWord });

  const list = commonPasswordList();
  if (list.has(lower)) return fieldWords('validation.password_common');
  if ([...commonCandidates(lower)].some((candidate) => list.has(candidate))) {
    return fieldWords('validation.password_common_variant');
  }
  return undefined;
}

/** The account the first start creates (bootstrap.ts), whose password ADMIN_PASSWORD sets. */
export const FIRST_ADMIN: PasswordOwner = { username: 'admin', full_name: 'Administrator' };

/**
 * ADMIN_PASSWORD, read at start by the server and by seed:demo: the minimum length and the rules for
 * a chosen password (a common one is an attacker's first guess at a fresh install). Answers what is
 * wrong, in the words of a start-up error, or undefined.
 */
export function adminPasswordProblem(password: string | undefined): string | undefined {
  if (password === undefined) return undefined;
  if (password.length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  return checkNewPassword(password, FIRST_ADMIN);
}
