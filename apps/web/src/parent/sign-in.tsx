import type { ParentLoginResponse } from '@tuitiondesk/contract';
import { type FormEvent, type InputHTMLAttributes, useEffect, useRef, useState } from 'react';
import { errorText, ParentApiError, type ParentSession, parentRequest, saveSession } from './api';
import { useCentreBrand } from './centre';
import { useParentTranslation } from './i18n';

interface SignInProps {
  /** Phone and code from a sign-in link: filled in and submitted at once. */
  link?: { phone: string; code: string } | undefined;
  /** Why the parent is here again (the session ended). */
  notice?: string | undefined;
  onSignedIn: (session: ParentSession) => void;
}

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  id: string;
  label: string;
  /** Said under the field, and read with it by screen readers. */
  help: string;
  /** What to fix in this field, said under it (and read with it) instead of above the form. */
  problem?: string | undefined;
}

/** A required field with its label above and its help (or what to fix in it) under it. */
function Field({ id, label, help, problem, ...input }: FieldProps) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        {...input}
        aria-describedby={problem ? `${id}-problem ${id}-help` : `${id}-help`}
        aria-invalid={problem ? true : undefined}
        required
      />
      {problem && (
        <p id={`${id}-problem`} className="error field-problem" role="alert">
          {problem}
        </p>
      )}
      <p id={`${id}-help`} className="help">
        {help}
      </p>
    </>
  );
}

const PHONE_FIELD = 'phone: ';

/**
 * The server's words about the phone typed (it reads the number as the centre does), for its field:
 * in the language shown where its code has a text there, else its English words without the field name.
 */
function phoneProblem(error: unknown): string | undefined {
  if (!(error instanceof ParentApiError) || error.status !== 422 || !error.detail?.startsWith(PHONE_FIELD))
    return undefined;
  const english = error.detail.slice(PHONE_FIELD.length);
  const translated = errorText(error, english);
  return translated.startsWith(PHONE_FIELD) ? translated.slice(PHONE_FIELD.length) : translated;
}

export function SignIn({ link, notice, onSignedIn }: SignInProps) {
  const { t } = useParentTranslation();
  const centre = useCentreBrand();
  const [phone, setPhone] = useState(link?.phone ?? '');
  const [code, setCode] = useState(link?.code ?? '');
  const [error, setError] = useState<string>();
  const [phoneError, setPhoneError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submitted = useRef(false);

  async function signIn(phoneValue: string, codeValue: string) {
    setError(undefined);
    setPhoneError(undefined);
    if (!phoneValue.trim() || !codeValue.trim()) {
      setError(t('signIn.bothFields'));
      return;
    }
    setBusy(true);
    try {
      const response = await parentRequest<ParentLoginResponse>('/parent/login', {
        token: null,
        json: { phone: phoneValue.trim(), code: codeValue.trim() },
      });
      const session = { token: response.access_token, profile: response.parent };
      saveSession(session, response.expires_in);
      onSignedIn(session);
    } catch (caught) {
      const problem = phoneProblem(caught);
      if (problem) setPhoneError(problem);
      else setError(errorText(caught, t('signIn.failed')));
      setBusy(false);
    }
  }

  // A sign-in link submits itself once.
  useEffect(() => {
    if (link && !submitted.current) {
      submitted.current = true;
      void signIn(link.phone, link.code);
    }
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void signIn(phone, code);
  }

  return (
    <main className="signin">
      <div className="signin-brand">
        <img src={centre?.logo_url ?? '/parent/icons/icon-192.png'} alt="" width="64" height="64" />
        <h1>{centre?.name ?? t('signIn.title')}</h1>
        <p>{t('signIn.tagline')}</p>
      </div>
      <form className="card" onSubmit={onSubmit} noValidate>
        <h2>{t('signIn.heading')}</h2>
        {notice && !error && (
          <p className="notice" role="status">
            {notice}
          </p>
        )}
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <Field
          id="parent-phone"
          label={t('signIn.phone')}
          help={t('signIn.phoneHelp')}
          problem={phoneError}
          name="phone"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          placeholder="+91 98765 43210"
          value={phone}
          onChange={(event) => {
            setPhone(event.target.value);
            setPhoneError(undefined);
          }}
        />
        <Field
          id="parent-code"
          label={t('signIn.code')}
          help={t('signIn.codeHelp')}
          name="code"
          type="text"
          inputMode="text"
          autoComplete="one-time-code"
          autoCapitalize="characters"
          autoCorrect="off"
          spellCheck={false}
          placeholder={t('signIn.codeExample')}
          value={code}
          onChange={(event) => setCode(event.target.value)}
        />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t('signIn.submitting') : t('signIn.submit')}
        </button>
      </form>
    </main>
  );
}
