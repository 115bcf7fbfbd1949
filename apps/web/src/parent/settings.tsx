import type { ParentLanguage } from '@tuitiondesk/contract';
import { useEffect, useState } from 'react';
import { LANGUAGE_INFO, LANGUAGES } from '../i18n/languages';
import { errorText, parentRequest } from './api';
import { keepLanguage, showLanguage, useParentTranslation } from './i18n';
import { NotificationsAllowSteps } from './inbox-notes';
import { needsHomeScreen, type PushState, pushState, turnOffNotifications, turnOnNotifications } from './push';
import { useAction, useReadOnce } from './use-action';

/** Each state's text in the catalogue. */
const STATE_TEXT = {
  on: 'settings.stateOn',
  off: 'settings.stateOff',
  blocked: 'settings.stateBlocked',
  unsupported: 'settings.stateUnsupported',
} as const satisfies Record<PushState, string>;

/** The Notifications switch as a hook, for the settings screen and the inbox's prompt. */
export function usePushState() {
  const { t } = useParentTranslation();
  const [state, setState] = useState<PushState>();
  const { busy, error, run } = useAction();

  useEffect(() => {
    let live = true;
    const check = () => {
      pushState()
        .then((value) => live && setState(value))
        .catch(() => live && setState('unsupported'));
    };
    check();
    // Notifications allowed (or blocked) in the browser's or the phone's settings: seen on return here.
    const onVisible = () => {
      if (document.visibilityState === 'visible') check();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      live = false;
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, []);

  async function turnOn() {
    await run(
      async () => setState(await turnOnNotifications()),
      // A DOMException is the browser's own push service failing to register this device.
      (caught) => (caught instanceof DOMException ? t('settings.browserFailed') : t('settings.turnOnFailed')),
    );
  }

  async function turnOff() {
    await run(
      async () => {
        await turnOffNotifications();
        setState(await pushState());
      },
      () => t('settings.turnOffFailed'),
    );
  }

  return { state, busy, error, turnOn, turnOff };
}

export function NotificationsPanel({ push }: { push: ReturnType<typeof usePushState> }) {
  const { state, busy, error, turnOn, turnOff } = push;
  const { t } = useParentTranslation();
  return (
    <section className="card" aria-labelledby="notifications-title">
      <h2 id="notifications-title">{t('settings.notifications')}</h2>
      <p role="status" className={state === 'on' ? 'state on' : 'state'}>
        {state ? t(STATE_TEXT[state]) : t('settings.checking')}
      </p>
      {state === 'blocked' && <NotificationsAllowSteps />}
      {state === 'unsupported' && needsHomeScreen() && <p className="muted">{t('settings.homeScreen')}</p>}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {state === 'off' && (
        <button type="button" className="primary" onClick={turnOn} disabled={busy}>
          {busy ? t('settings.turningOn') : t('settings.turnOn')}
        </button>
      )}
      {state === 'on' && (
        <button type="button" className="secondary" onClick={turnOff} disabled={busy}>
          {busy ? t('settings.turningOff') : t('settings.turnOff')}
        </button>
      )}
    </section>
  );
}

interface WhatsappChoice {
  opted_in: boolean;
  available: boolean;
}

/**
 * The family's WhatsApp consent, the parent's own to give or withdraw. Hidden while the centre does
 * not use WhatsApp.
 */
export function WhatsappPanel() {
  const { t } = useParentTranslation();
  const [choice, setChoice] = useState<WhatsappChoice>();
  const { busy, error, run } = useAction();
  useReadOnce<WhatsappChoice>('/parent/whatsapp', setChoice);
  if (!choice?.available) return null;

  const change = (optedIn: boolean) =>
    run(
      async () =>
        setChoice(
          await parentRequest<WhatsappChoice>('/parent/whatsapp', { method: 'PUT', json: { opted_in: optedIn } }),
        ),
      () => t('settings.whatsappFailed'),
    );
  return (
    <section className="card" aria-labelledby="whatsapp-title">
      <h2 id="whatsapp-title">{t('settings.whatsappTitle')}</h2>
      <p role="status" className={choice.opted_in ? 'state on' : 'state'}>
        {choice.opted_in ? t('settings.whatsappOn') : t('settings.whatsappOff')}
      </p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <button
        type="button"
        className={choice.opted_in ? 'secondary' : 'primary'}
        onClick={() => void change(!choice.opted_in)}
        disabled={busy}
      >
        {choice.opted_in ? t('settings.whatsappTurnOff') : t('settings.whatsappTurnOn')}
      </button>
    </section>
  );
}

/**
 * The family's language: the centre's messages (absence alerts, notices from templates) come in it, and
 * so does this app. Kept on the server for the family (every child's record), so staff see it and every
 * phone of the family gets the same. Each language is named in itself, so a parent finds their own.
 */
export function LanguagePanel() {
  const { t } = useParentTranslation();
  const [language, setLanguage] = useState<ParentLanguage>();
  const [busy, setBusy] = useState(false);
  // Which failure, or the failure itself: its text follows the language shown.
  const [error, setError] = useState<{ kind: 'load' } | { kind: 'change'; caught: unknown }>();
  const [saved, setSaved] = useState(false);
  useReadOnce<{ language: ParentLanguage }>(
    '/parent/language',
    (value) => setLanguage(value.language),
    () => setError({ kind: 'load' }),
  );

  const change = async (next: ParentLanguage) => {
    const before = language;
    setLanguage(next);
    setBusy(true);
    setError(undefined);
    setSaved(false);
    try {
      const chosen = (
        await parentRequest<{ language: ParentLanguage }>('/parent/language', {
          method: 'PUT',
          json: { language: next },
        })
      ).language;
      setLanguage(chosen);
      setSaved(true);
      // The app itself now speaks the family's language too.
      keepLanguage(chosen);
      await showLanguage(chosen);
    } catch (caught) {
      setLanguage(before);
      setError({ kind: 'change', caught });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card language-card" aria-labelledby="language-title">
      <h2 id="language-title">{t('settings.languageTitle')}</h2>
      <label htmlFor="family-language">{t('settings.languageLabel')}</label>
      <select
        id="family-language"
        value={language ?? ''}
        disabled={busy || language === undefined}
        onChange={(event) => void change(event.target.value as ParentLanguage)}
      >
        {language === undefined && <option value="">{t('settings.languageLoading')}</option>}
        {LANGUAGES.map((code) => (
          <option key={code} value={code} lang={code}>
            {LANGUAGE_INFO[code].name}
          </option>
        ))}
      </select>
      <p role="status" className="muted">
        {saved ? t('settings.languageSaved') : ''}
      </p>
      {error && (
        <p className="error" role="alert">
          {error.kind === 'load'
            ? t('settings.languageLoadFailed')
            : errorText(error.caught, t('settings.languageFailed'))}
        </p>
      )}
    </section>
  );
}

interface SettingsProps {
  parentName: string;
  phone: string;
  push: ReturnType<typeof usePushState>;
  onSignOut: () => void;
  signingOut: boolean;
}

export function Settings({ parentName, phone, push, onSignOut, signingOut }: SettingsProps) {
  const { t } = useParentTranslation();
  return (
    <section aria-labelledby="settings-title">
      <div className="section-head">
        <h1 id="settings-title">{t('settings.title')}</h1>
      </div>
      <NotificationsPanel push={push} />
      <WhatsappPanel />
      <LanguagePanel />
      <div className="card">
        <h2>{t('settings.signedIn')}</h2>
        <p>
          {parentName}
          <br />
          {/* A phone reads left to right inside Urdu too (isolated, ADR 048). */}
          <bdi dir="ltr" className="muted">
            {phone}
          </bdi>
        </p>
        <p className="muted">{t('settings.signOutNote')}</p>
        <button type="button" className="secondary" onClick={onSignOut} disabled={signingOut}>
          {signingOut ? t('settings.signingOut') : t('settings.signOut')}
        </button>
      </div>
    </section>
  );
}
