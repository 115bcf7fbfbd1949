import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_INFO, type Language } from './languages';

/** A `t` of the `common` namespace, or one that reads its language names. */
type Translate = (key: `languageNames.${Language}`) => string;

/**
 * A family's language as staff read it in a list or a form: its own name in its own script (a
 * reader of it finds it at a glance) and, when that is not how the language in use writes it, the
 * name in the language in use: "தமிழ் (Tamil)" in English, "தமிழ் (तमिल)" in Hindi, "हिन्दी" in Hindi.
 * English is named in the language in use only ("English", "अंग्रेज़ी").
 */
export function languageLabel(t: Translate, language: Language): string {
  const inUse = t(`languageNames.${language}`);
  const own = LANGUAGE_INFO[language].name;
  return language === 'en' || own === inUse ? inUse : `${own} (${inUse})`;
}

/** `languageLabel` in the language in use, for components. */
export function useLanguageLabel(): (language: Language) => string {
  const { t } = useTranslation('common');
  return useCallback((language: Language) => languageLabel((key) => t(key), language), [t]);
}
