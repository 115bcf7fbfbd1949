import { FEES_MAX_PAISE } from '@tuitiondesk/contract';
import { currentLanguage } from '../i18n/current';

/**
 * Money in the console: integer paise on the wire, rupees as a person writes and reads them. Typing is
 * parsed as text, never through a float (`12.10` is 1210 paise, not 1209.9999), and shown through
 * Intl in the language in use with Western digits: `₹1,250.00`. One piece for every fee screen and
 * the dashboard's cards.
 */
export type RupeesProblem = 'empty' | 'format' | 'decimals' | 'negative' | 'zero' | 'tooBig';
export type ParsedRupees = { paise: number; problem?: undefined } | { paise?: undefined; problem: RupeesProblem };

/**
 * `"1250"` → 125000, `"1,250.50"` → 125050, `"₹ 1,25,000"` and `"Rs. 12.1"` alike. Refused, with the
 * reason: empty, a minus sign (negative), anything else not a number, more than two decimals
 * (`12.345`), zero (unless `allowZero`, as for a late fee of none), and more than ₹1 crore.
 */
export function parseRupees(text: string, options: { allowZero?: boolean } = {}): ParsedRupees {
  const plain = text
    .trim()
    .replace(/^(₹|rs\.?|inr)\s*/i, '')
    // Grouping commas are dropped wherever they are (1,250 and the Indian 1,00,000 alike).
    .replace(/[\s,]/g, '');
  if (plain === '') return { problem: 'empty' };
  if (plain.startsWith('-')) return { problem: 'negative' };
  if (/^\d*\.\d{3,}$/.test(plain)) return { problem: 'decimals' };
  const match = /^(\d*)(?:\.(\d{0,2}))?$/.exec(plain);
  if (!match || (match[1] === '' && (match[2] ?? '') === '')) return { problem: 'format' };
  const whole = (match[1] ?? '').replace(/^0+(?=\d)/, '');
  // ₹1 crore has 8 digits of rupees: anything longer is too big without forming the number.
  if (whole.length > 8) return { problem: 'tooBig' };
  const paise = Number(whole || '0') * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (paise > FEES_MAX_PAISE) return { problem: 'tooBig' };
  if (paise === 0 && !options.allowZero) return { problem: 'zero' };
  return { paise };
}

/** Paise as the decimal text of rupees, exactly: 125050 → `1250.50`, -25000 → `-250.00`. */
export function rupeesText(paise: number): string {
  const sign = paise < 0 ? '-' : '';
  const abs = Math.abs(paise);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Paise as a field shows them for editing: 125050 → "1250.50", 150000 → "1500". */
export function paiseToInput(paise: number): string {
  const rupees = Math.trunc(paise / 100);
  const rest = paise % 100;
  return rest === 0 ? String(rupees) : `${rupees}.${String(rest).padStart(2, '0')}`;
}

const formats = new Map<string, Intl.NumberFormat>();

/** `₹1,250.00` in the language in use (Indian grouping: ₹1,00,000.00), Western digits. */
export function formatMoney(paise: number, language = currentLanguage()): string {
  let format = formats.get(language);
  if (!format) {
    format = new Intl.NumberFormat(`${language}-IN-u-nu-latn`, {
      style: 'currency',
      currency: 'INR',
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    formats.set(language, format);
  }
  // A decimal string, which Intl formats exactly (no float in between).
  return format.format(rupeesText(paise) as unknown as number);
}
