import { useTranslation } from '../../i18n';
import { classNamer } from '../../i18n/class-names';
import { classInWords, useClassChoices } from '../../lib/centre-classes';
import { formatMoney } from '../../lib/money';

/** A family's balance in words: "Owes ₹500.00", "Advance ₹250.00" (a negative balance), "Nothing owed". */
export function BalanceText({ balance }: { balance: number }) {
  const { t } = useTranslation('fees');
  if (balance > 0) return <>{t('balance.owes', { amount: formatMoney(balance) })}</>;
  if (balance < 0) return <>{t('balance.advance', { amount: formatMoney(-balance) })}</>;
  return <>{t('balance.settled')}</>;
}

/** A child's class as the console names it: "Class 7" / "कक्षा 7", a class the centre labelled as written. */
export function useClassName(): (value: string) => string {
  const centre = useClassChoices();
  const { i18n } = useTranslation('fees');
  const word = classNamer(i18n.language);
  return (value) => classInWords(value, centre.labelOf(value), word);
}
