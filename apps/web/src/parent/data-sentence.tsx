import type { ReactNode } from 'react';
import { type ParentTextKey, useParentTranslation } from './i18n';

/** Where the data goes in a translated sentence: a character no text holds. */
const DATA_MARK = '\u0000';

/**
 * A translated sentence with one piece of data in it ("Balance {amount}", "paid (ref {reference})"):
 * `children` stands where `{param}` is, as its own element, so a right-to-left sentence keeps an
 * amount, a reference or a name whole and in its order (the caller isolates it, `<bdi>`).
 */
export function DataSentence({
  text,
  param,
  values,
  children,
}: {
  text: ParentTextKey;
  param: string;
  values?: Readonly<Record<string, unknown>>;
  children: ReactNode;
}) {
  const { t } = useParentTranslation();
  const [before = '', after = ''] = t(text, { ...values, [param]: DATA_MARK }).split(DATA_MARK);
  return (
    <>
      {before}
      {children}
      {after}
    </>
  );
}
