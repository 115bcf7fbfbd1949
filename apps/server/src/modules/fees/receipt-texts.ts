/**
 * The words of a receipt, on paper and in the message a family gets, in the six languages families read
 * (ADR 057). They live with the other texts the server writes to families, in
 * `packages/contract/texts/receipts/<lang>.json` (ADR 041); a missing text falls back to English.
 */
import type { FeePaymentMode, ParentLanguage } from '@tuitiondesk/contract';
import { formatErrorText } from '@tuitiondesk/contract/error-codes';
import bn from '@tuitiondesk/contract/texts/receipts/bn.json';
import en from '@tuitiondesk/contract/texts/receipts/en.json';
import hi from '@tuitiondesk/contract/texts/receipts/hi.json';
import mr from '@tuitiondesk/contract/texts/receipts/mr.json';
import ta from '@tuitiondesk/contract/texts/receipts/ta.json';
import ur from '@tuitiondesk/contract/texts/receipts/ur.json';

export type ReceiptTextKey = keyof typeof en;

const TEXTS: Record<ParentLanguage, Readonly<Partial<Record<ReceiptTextKey, string>>>> = { en, hi, mr, ta, bn, ur };

/** A receipt text in `language`, its `{placeholders}` filled. */
export function receiptText(
  language: ParentLanguage,
  key: ReceiptTextKey,
  params: Record<string, string> = {},
): string {
  return formatErrorText(TEXTS[language][key] ?? en[key], params);
}

export function modeWord(language: ParentLanguage, mode: FeePaymentMode): string {
  return receiptText(language, `mode.${mode}` as ReceiptTextKey);
}

/** ₹1,250.00 as the language writes it, Western digits (as the clients show money). */
export function formatRupees(paise: number, language: ParentLanguage): string {
  return new Intl.NumberFormat(`${language}-IN`, { style: 'currency', currency: 'INR', numberingSystem: 'latn' })
    .format(paise / 100)
    .replace(/[\u200e\u200f\u061c]/g, '');
}

/** A rate in basis points as a percentage: 1800 → "18%", 900 → "9%", 625 → "6.25%". */
export function formatRate(basisPoints: number): string {
  const percent = basisPoints / 100;
  return `${Number.isInteger(percent) ? percent : percent.toFixed(2).replace(/0$/, '')}%`;
}

const ONES = [
  '',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

function belowHundred(value: number): string {
  if (value < 20) return ONES[value] as string;
  const ones = value % 10;
  return `${TENS[Math.floor(value / 10)]}${ones ? `-${ONES[ones]}` : ''}`;
}

function belowThousand(value: number): string {
  const hundreds = Math.floor(value / 100);
  const rest = value % 100;
  const parts = [hundreds ? `${ONES[hundreds]} hundred` : '', rest ? belowHundred(rest) : ''].filter(Boolean);
  return parts.join(' and ');
}

/** A whole number in words as India counts: crore, lakh, thousand (at most ₹1 crore is taken). */
function wholeInWords(value: number): string {
  if (value === 0) return 'zero';
  const crore = Math.floor(value / 10_000_000);
  const lakh = Math.floor((value % 10_000_000) / 100_000);
  const thousand = Math.floor((value % 100_000) / 1000);
  const rest = value % 1000;
  return [
    crore ? `${wholeInWords(crore)} crore` : '',
    lakh ? `${belowHundred(lakh)} lakh` : '',
    thousand ? `${belowHundred(thousand)} thousand` : '',
    rest ? belowThousand(rest) : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/** "Rupees one thousand two hundred and fifty and paise fifty only": English receipts print it. */
export function rupeesInWords(paise: number): string {
  const rupees = Math.floor(paise / 100);
  const rest = paise % 100;
  const words = `Rupees ${wholeInWords(rupees)}${rest ? ` and paise ${belowHundred(rest)}` : ''} only`;
  return words.replace(/\s+/g, ' ');
}
