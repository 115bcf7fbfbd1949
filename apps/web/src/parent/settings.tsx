import type { ParentLanguage } from '@tuitiondesk/contract';
import { useEffect, useState } from 'react';
import { LANGUAGE_INFO, LANGUAGES } from '../i18n/languages';
import { errorText, parentRequest } from './api';
import { NotificationsAllowSteps } from './inbox-notes';
import { needsHomeScreen, type PushState, pushState, turnOffNotifications, turnOnNotifications } from './push';

const STATE_TEXT: Record<PushState, string> = {
  on: 'Notifications are on for this device.',
  off: 'Notifications are off. Turn them on to hear about new messages even when the app is closed.',
  blocked:
    'Notifications are blocked by the browser. To get them, allow notifications for this site in your browser settings.',
  unsupported: 'Notifications are not supported on this device or browser. New messages still appear in the inbox.',
};

/** The Notifications switch as a hook, for the settings screen and the inbox's prompt. */
export function usePushState() {
  const [state, setState] = useState<PushState>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

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
    setBusy(true);
    setError(undefined);
    try {
      setState(await turnOnNotifications());
    } catch (caught) {
      // A DOMException is the browser's own push service failing to register this device.
      const fallback =
        caught instanceof DOMException
          ? 'The browser could not set up notifications. Check your connection and try again.'
          : 'Could not turn on notifications. Please try again.';
      setError(errorText(caught, fallback));
    } finally {
      setBusy(false);
    }
  }

  async function turnOff() {
    setBusy(true);
    setError(undefined);
    try {
      await turnOffNotifications();
      setState(await pushState());
    } catch (caught) {
      setError(errorText(caught, 'Could not turn off notifications. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  return { state, busy, error, turnOn, turnOff };
}

export function NotificationsPanel({ push }: { push: ReturnType<typeof usePushState> }) {
  const { state, busy, error, turnOn, turnOff } = push;
  return (
    <section className="card" aria-labelledby="notifications-title">
      <h2 id="notifications-title">Notifications</h2>
      <p role="status" className={state === 'on' ? 'state on' : 'state'}>
        {state ? STATE_TEXT[state] : 'Checking…'}
      </p>
      {state === 'blocked' && <NotificationsAllowSteps />}
      {state === 'unsupported' && needsHomeScreen() && (
        <p className="muted">
          On an iPhone or iPad: tap Share, then Add to Home Screen, and open TuitionDesk from the Home Screen to turn
          notifications on.
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {state === 'off' && (
        <button type="button" className="primary" onClick={turnOn} disabled={busy}>
          {busy ? 'Turning on…' : 'Turn on notifications'}
        </button>
      )}
      {state === 'on' && (
        <button type="button" className="secondary" onClick={turnOff} disabled={busy}>
          {busy ? 'Turning off…' : 'Turn off notifications'}
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
  const [choice, setChoice] = useState<WhatsappChoice>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  useEffect(() => {
    let live = true;
    parentRequest<WhatsappChoice>('/parent/whatsapp')
      .then((value) => live && setChoice(value))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  if (!choice?.available) return null;

  const change = async (optedIn: boolean) => {
    setBusy(true);
    setError(undefined);
    try {
      setChoice(
        await parentRequest<WhatsappChoice>('/parent/whatsapp', { method: 'PUT', json: { opted_in: optedIn } }),
      );
    } catch (caught) {
      setError(errorText(caught, 'Could not change this. Please try again.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card" aria-labelledby="whatsapp-title">
      <h2 id="whatsapp-title">WhatsApp messages from the centre</h2>
      <p role="status" className={choice.opted_in ? 'state on' : 'state'}>
        {choice.opted_in
          ? 'On: when this app cannot reach you, the centre sends its messages on WhatsApp too.'
          : 'Off: the centre writes to you only in this app.'}
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
        {choice.opted_in ? 'Turn off WhatsApp messages' : 'Turn on WhatsApp messages'}
      </button>
    </section>
  );
}

/**
 * The family's language: the centre's messages (absence alerts, notices from templates) come in it.
 * Kept on the server for the family (every child's record), so staff see it and every phone of the
 * family gets the same. Each language is named in itself, so a parent finds their own.
 */
export function LanguagePanel() {
  const [language, setLanguage] = useState<ParentLanguage>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    let live = true;
    parentRequest<{ language: ParentLanguage }>('/parent/language')
      .then((value) => live && setLanguage(value.language))
      .catch(() => live && setError('Could not load your language. Please try again later.'));
    return () => {
      live = false;
    };
  }, []);

  const change = async (next: ParentLanguage) => {
    const before = language;
    setLanguage(next);
    setBusy(true);
    setError(undefined);
    setSaved(false);
    try {
      setLanguage(
        (
          await parentRequest<{ language: ParentLanguage }>('/parent/language', {
            method: 'PUT',
            json: { language: next },
          })
        ).language,
      );
      setSaved(true);
    } catch (caught) {
      setLanguage(before);
      setError(errorText(caught, 'Could not change the language. Please try again.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card language-card" aria-labelledby="language-title">
      <h2 id="language-title">Language of messages</h2>
      <label htmlFor="family-language">The centre writes to your family in</label>
      <select
        id="family-language"
        value={language ?? ''}
        disabled={busy || language === undefined}
        onChange={(event) => void change(event.target.value as ParentLanguage)}
      >
        {language === undefined && <option value="">Loading…</option>}
        {LANGUAGES.map((code) => (
          <option key={code} value={code} lang={code}>
            {LANGUAGE_INFO[code].name}
          </option>
        ))}
      </select>
      <p role="status" className="muted">
        {saved ? 'Saved. New messages from the centre come in this language.' : ''}
      </p>
      {error && (
        <p className="error" role="alert">
          {error}
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
  return (
    <section aria-labelledby="settings-title">
      <div className="section-head">
        <h1 id="settings-title">Settings</h1>
      </div>
      <NotificationsPanel push={push} />
      <WhatsappPanel />
      <LanguagePanel />
      <div className="card">
        <h2>Signed in</h2>
        <p>
          {parentName}
          <br />
          <span className="muted">{phone}</span>
        </p>
        <p className="muted">Signing out also stops notifications on this device.</p>
        <button type="button" className="secondary" onClick={onSignOut} disabled={signingOut}>
          {signingOut ? 'Signing out…' : 'Sign out'}
        </button>
      </div>
    </section>
  );
}
