import type { ParentLoginResponse } from '@tuitiondesk/contract';
import { type FormEvent, type InputHTMLAttributes, useEffect, useRef, useState } from 'react';
import { errorText, ParentApiError, type ParentSession, parentRequest, saveSession } from './api';

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

/** The server's words about the phone typed (it reads the number as the centre does), for its field. */
function phoneProblem(error: unknown): string | undefined {
  if (!(error instanceof ParentApiError) || error.status !== 422 || !error.detail?.startsWith(PHONE_FIELD))
    return undefined;
  return error.detail.slice(PHONE_FIELD.length);
}

export function SignIn({ link, notice, onSignedIn }: SignInProps) {
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
      setError('Enter your phone number and the access code from the centre.');
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
      else setError(errorText(caught, 'Sign-in failed. Please try again.'));
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
        <img src="/parent/icons/icon-192.png" alt="" width="64" height="64" />
        <h1>TuitionDesk for parents</h1>
        <p>Messages from the centre and your children's attendance, on your phone.</p>
      </div>
      <form className="card" onSubmit={onSubmit} noValidate>
        <h2>Sign in</h2>
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
          label="Phone number"
          help="The number the centre has for you, e.g. 98123 45670."
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
          label="Access code"
          help="8 letters and digits from the centre. Ask at the front desk if you do not have one."
          name="code"
          type="text"
          inputMode="text"
          autoComplete="one-time-code"
          autoCapitalize="characters"
          autoCorrect="off"
          spellCheck={false}
          placeholder="XXXX-XXXX"
          value={code}
          onChange={(event) => setCode(event.target.value)}
        />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
