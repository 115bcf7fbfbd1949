import { App } from './app/app';
import { languageFor, showLanguage } from './i18n';
import { USER_KEY } from './lib/api-client';
import { mount } from './lib/mount';
import { registerConsoleWorker } from './lib/offline/service-worker';

/** The language the signed-in account chose (kept with the session on this device), read before the first paint. */
function storedChoice(): string | null {
  try {
    return (
      (JSON.parse(localStorage.getItem(USER_KEY) ?? 'null') as { language?: string | null } | null)?.language ?? null
    );
  } catch {
    return null;
  }
}

// English is bundled and shows at once; another language is fetched first, so the page never flashes English.
void showLanguage(languageFor(storedChoice())).finally(() => mount(<App />));
registerConsoleWorker();
