/**
 * The words of a fee reminder, in the six languages families read (ADR 061), kept with the other texts
 * the server writes to families in `packages/contract/texts/fee-reminders/<lang>.json` (ADR 041); a
 * missing text falls back to English.
 */
import type { ParentLanguage } from '@tuitiondesk/contract';
import { formatErrorText } from '@tuitiondesk/contract/error-codes';
import bn from '@tuitiondesk/contract/texts/fee-reminders/bn.json';
import en from '@tuitiondesk/contract/texts/fee-reminders/en.json';
import hi from '@tuitiondesk/contract/texts/fee-reminders/hi.json';
import mr from '@tuitiondesk/contract/texts/fee-reminders/mr.json';
import ta from '@tuitiondesk/contract/texts/fee-reminders/ta.json';
import ur from '@tuitiondesk/contract/texts/fee-reminders/ur.json';

export type ReminderTextKey = keyof typeof en;

const TEXTS: Record<ParentLanguage, Readonly<Partial<Record<ReminderTextKey, string>>>> = { en, hi, mr, ta, bn, ur };

/** A reminder text in `language`, its `{placeholders}` filled. */
export function reminderText(
  language: ParentLanguage,
  key: ReminderTextKey,
  params: Record<string, string> = {},
): string {
  return formatErrorText(TEXTS[language][key] ?? en[key], params);
}
