/**
 * The words of the accountant's exports in the staff member's language (ADR 066): column names, sheet
 * names and the product's own words in cells, kept with the server's other texts in
 * `packages/contract/texts/fee-exports/<lang>.json` (ADR 041); a missing text falls back to English.
 * English is exactly what the exports wrote before languages, so an English file is unchanged.
 */
import type { ParentLanguage } from '@tuitiondesk/contract';
import { formatErrorText } from '@tuitiondesk/contract/error-codes';
import bn from '@tuitiondesk/contract/texts/fee-exports/bn.json';
import en from '@tuitiondesk/contract/texts/fee-exports/en.json';
import hi from '@tuitiondesk/contract/texts/fee-exports/hi.json';
import mr from '@tuitiondesk/contract/texts/fee-exports/mr.json';
import ta from '@tuitiondesk/contract/texts/fee-exports/ta.json';
import ur from '@tuitiondesk/contract/texts/fee-exports/ur.json';
import type { LedgerKind } from './ledger';

export type ExportTextKey = keyof typeof en;

const TEXTS: Record<ParentLanguage, Readonly<Partial<Record<ExportTextKey, string>>>> = { en, hi, mr, ta, bn, ur };

/** An export text in `language`, its `{placeholders}` filled, counts by the language's plural rule. */
export function exportText(
  language: ParentLanguage,
  key: ExportTextKey,
  params: Record<string, string | number> = {},
): string {
  const rules = new Intl.PluralRules(language);
  return formatErrorText(TEXTS[language][key] ?? en[key], params, (count) => rules.select(count));
}

/** The words of one export's language: `t('column.date')`. */
export type ExportWords = (key: ExportTextKey, params?: Record<string, string | number>) => string;

export function exportWords(language: ParentLanguage): ExportWords {
  return (key, params) => exportText(language, key, params);
}

/**
 * The params of `text` when it has the shape of an English template (`{what}: late fee`), else
 * undefined. Each placeholder takes as much as it can, so a plan named "A, B" keeps its comma.
 */
function readEnglish(key: ExportTextKey, text: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = en[key]
    .split(/(\{[a-z_]+\})/)
    .map((part) => {
      const name = /^\{([a-z_]+)\}$/.exec(part)?.[1];
      if (!name) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(name);
      return '(.+)';
    })
    .join('');
  const found = new RegExp(`^${pattern}$`, 's').exec(text);
  if (!found) return undefined;
  return Object.fromEntries(names.map((name, i) => [name, found[i + 1] ?? '']));
}

/** The period a charge names ("2026-10", "once", "part 2"; a late fee writes "part-2"), said in the language. */
function periodIn(t: ExportWords, period: string): string {
  if (period === en['period.once']) return t('period.once');
  const numbered = /^(part|package)[ -](\d+)$/.exec(period);
  if (numbered?.[1] === 'part') return t('period.part', { n: numbered[2] ?? '' });
  if (numbered?.[1] === 'package') return t('period.package', { n: numbered[2] ?? '' });
  return period;
}

/** "Tuition, part 2": the plan's name as staff typed it, its period in the language. */
function chargeIn(t: ExportWords, what: string): string {
  const parts = readEnglish('entry.charge', what);
  if (!parts) return what;
  return t('entry.charge', { plan: parts.plan ?? '', period: periodIn(t, parts.period ?? '') });
}

const DESCRIBED: Partial<Record<LedgerKind, readonly ExportTextKey[]>> = {
  correction: ['entry.correction'],
  discount: ['entry.discount.sibling', 'entry.discount.staff_child'],
  late_fee: ['entry.late_fee'],
};

/**
 * A ledger entry's description in the language. The ledger keeps the English the charge run and the
 * counter wrote (a record, as the activity feed's descriptions are); the shapes they write are read
 * back by the entry's kind and said again in the language, with the plan's name as typed. A reversal's
 * reason, and anything of another shape, is staff's text and stays as written; English is the stored
 * text itself.
 */
export function descriptionIn(language: ParentLanguage, kind: LedgerKind, description: string): string {
  if (language === 'en') return description;
  const t = exportWords(language);
  if (kind === 'payment') return description === en['entry.payment'] ? t('entry.payment') : description;
  if (kind === 'charge') return chargeIn(t, description);
  for (const key of DESCRIBED[kind] ?? []) {
    const parts = readEnglish(key, description);
    if (parts) return t(key, { what: chargeIn(t, parts.what ?? '') });
  }
  return description;
}
