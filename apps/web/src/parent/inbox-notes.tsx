import { useState } from 'react';
import { englishText, useParentTranslation } from './i18n';
import { keptWhen } from './inbox-state';
import { type BrowserFamily, currentBrowserFamily } from './push';

const BLOCKED_NOTE_HIDDEN_KEY = 'parent_blocked_note_hidden';

const FAMILIES: readonly BrowserFamily[] = [
  'ios',
  'samsung',
  'firefox',
  'android-app',
  'android-chrome',
  'chrome',
  'safari',
  'other',
];

/**
 * How to allow notifications again, in the words of each browser's own menus (catalogue `allow.*`);
 * here in English, as tests compare them.
 */
export const ALLOW_STEPS = Object.fromEntries(
  FAMILIES.map((family) => [family, englishText(`allow.${family}`)]),
) as Record<BrowserFamily, string>;

/** The steps for the browser the parent is in (the user agent's, unless a test names one). */
export function NotificationsAllowSteps({ family = currentBrowserFamily() }: { family?: BrowserFamily }) {
  const { t } = useParentTranslation();
  return <p className="muted">{t('blocked.steps', { steps: t(`allow.${family}`) })}</p>;
}

/**
 * In the inbox, where parents look: this browser refuses notifications, so new messages show only
 * when the app is opened. Hidden for good by the parent's own choice; Settings still says it.
 */
export function NotificationsBlockedNote({ family }: { family?: BrowserFamily }) {
  const { t } = useParentTranslation();
  const [hidden, setHidden] = useState(() => readHidden());
  if (hidden) return null;
  return (
    <section className="notice blocked-note" aria-labelledby="blocked-note-title">
      <h2 id="blocked-note-title">{t('blocked.title')}</h2>
      <p>{t('blocked.body')}</p>
      <NotificationsAllowSteps family={family} />
      <button
        type="button"
        className="link"
        onClick={() => {
          rememberHidden();
          setHidden(true);
        }}
      >
        {t('blocked.hide')}
      </button>
    </section>
  );
}

/**
 * The messages shown are the ones the phone kept, not the centre's answer now: offline, or the centre
 * out of reach while the phone is online.
 */
export function OfflineNote({ keptAt, online }: { keptAt: string; online: boolean }) {
  const { t } = useParentTranslation();
  const when = keptWhen(keptAt);
  return (
    <p className="notice offline-note" role="status">
      {online ? t('inbox.unreachable', { when }) : t('inbox.offline', { when })}
    </p>
  );
}

function readHidden(): boolean {
  try {
    return localStorage.getItem(BLOCKED_NOTE_HIDDEN_KEY) === '1';
  } catch {
    return false;
  }
}

function rememberHidden(): void {
  try {
    localStorage.setItem(BLOCKED_NOTE_HIDDEN_KEY, '1');
  } catch {
    // Private mode without storage: hidden for this visit only.
  }
}
