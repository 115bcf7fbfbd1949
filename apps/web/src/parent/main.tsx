import { mount } from '../lib/mount';
import { loadSession } from './api';
import { ParentApp, ParentBoundary } from './app';
import { keptLanguage, languageFor, showLanguage } from './i18n';
import { SW_SCOPE, SW_URL } from './push';
// The parent app's styles, in cascade order: the base, then each screen, then the wide-screen layout.
import './styles/base.css';
import './styles/sign-in.css';
import './styles/signed-in.css';
import './styles/inbox.css';
import './styles/children.css';
import './styles/leave.css';
import './styles/settings-and-wide-screens.css';

// The first paint is already in the family's language (as this device last heard it) when signed in,
// else the browser's: no English flashes first. A language that cannot be fetched leaves English.
void showLanguage(languageFor(loadSession() ? keptLanguage() : null)).finally(() =>
  mount(
    <ParentBoundary>
      <ParentApp />
    </ParentBoundary>,
  ),
);

// Offline start and push: the worker lives at /parent/sw.js and controls /parent/ only.
if ('serviceWorker' in navigator && window.isSecureContext) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register(SW_URL, { scope: SW_SCOPE }).catch(() => undefined);
  });
}
