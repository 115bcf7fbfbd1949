import { i18n } from '../i18n';

/** Every namespace's English, read at once: `locales/en/<namespace>.json`. */
const ENGLISH = import.meta.glob<Record<string, unknown>>('../i18n/locales/en/*.json', {
  eager: true,
  import: 'default',
});

/**
 * Gives i18next every namespace's English before a test renders, as the app has a screen's once its
 * `useTranslation` has loaded it: a component test neither waits for a namespace nor names one.
 */
export function preloadEnglish(): void {
  for (const [path, texts] of Object.entries(ENGLISH)) {
    const namespace = path.slice(path.lastIndexOf('/') + 1, -'.json'.length);
    if (!i18n.hasResourceBundle('en', namespace)) i18n.addResourceBundle('en', namespace, texts, true, true);
  }
}
