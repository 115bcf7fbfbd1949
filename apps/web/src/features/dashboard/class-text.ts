import { useTranslation } from '../../i18n';
import { classInWords, useClassChoices } from '../../lib/centre-classes';

/**
 * A class as the dashboard names it: the spec's "Class 7" in the language in use, a class the centre
 * labelled itself ("Morning batch", ADR 043) as written, never "Class Morning batch".
 */
export function useClassText(): (value: string) => string {
  const { t } = useTranslation('dashboard');
  const { labelOf } = useClassChoices();
  return (value) => classInWords(value, labelOf(value), (name) => t('myClasses.className', { name }));
}
