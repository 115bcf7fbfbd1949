import type { ParentFees, ParentReceiptSummary } from '@tuitiondesk/contract';
import { DataSentence } from './data-sentence';
import { type ParentTextKey, shownLanguage } from './i18n';

/** Money, dates and the words of entries and modes in the parent app's fees screens (ADR 059). */
export type EntryKind = ParentFees['entries'][number]['kind'];
export type Mode = ParentReceiptSummary['mode'];

export function money(paise: number): string {
  return new Intl.NumberFormat(`${shownLanguage()}-IN-u-nu-latn`, { style: 'currency', currency: 'INR' }).format(
    paise / 100,
  );
}

/** A calendar date `2026-11-23` as `23 Nov 2026` in the language shown (no time zone shift). */
export function feeDate(date: string): string {
  const [year, month, day] = date.slice(0, 10).split('-').map(Number);
  if (!year || !month || !day) return date;
  // As Indian families write a date: the day first (English too), in the language's words.
  return new Intl.DateTimeFormat(`${shownLanguage()}-IN-u-nu-latn`, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(year, month - 1, day)));
}

export const kindKey = (kind: EntryKind) => `fees.kind.${kind}` as ParentTextKey;
export const modeKey = (mode: Mode) => `fees.mode.${mode}` as ParentTextKey;

/** Money shown as data, its sign with it: kept left to right inside a right-to-left page. */
export function Money({ paise, sign = '' }: { paise: number; sign?: '' | '−' }) {
  return (
    <bdi className="money">
      {sign}
      {money(paise)}
    </bdi>
  );
}

/**
 * A translated sentence with an amount in it ("Balance {amount}"), the amount isolated as data, so a
 * right-to-left sentence keeps the rupee sign and the figures together and in their order.
 */
export function MoneySentence({ text, paise }: { text: ParentTextKey; paise: number }) {
  return (
    <DataSentence text={text} param="amount">
      <Money paise={paise} />
    </DataSentence>
  );
}
