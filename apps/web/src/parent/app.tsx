import type { ParentMessage, ParentProfile } from '@tuitiondesk/contract';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { ErrorBoundary } from '../lib/error-boundary';
import {
  clearSession,
  loadSession,
  type ParentSession,
  parentRequest,
  saveSession,
  setUnauthorizedHandler,
} from './api';
import { useCentreBrand } from './centre';
import { MyChildren } from './children';
import { FeesTab } from './fees-tab';
import { clearFragment, type Fragment, parseFragment } from './fragment';
import { englishText, keepLanguage, keptLanguage, languageFor, showLanguage, useParentTranslation } from './i18n';
import { Inbox, MessageView } from './inbox';
import { NotificationsBlockedNote } from './inbox-notes';
import { withMessageRead } from './inbox-state';
import { Leave } from './leave';
import { resubscribeQuietly, turnOffNotifications } from './push';
import { NotificationsPanel, Settings, usePushState } from './settings';
import { SignIn } from './sign-in';
import { useInbox } from './use-inbox';

export { POLL_MS } from './use-inbox';
export const API_CACHE = 'parent-api-v1';
const PROMPT_DISMISSED_KEY = 'parent_push_prompt_dismissed';

type View = 'inbox' | 'children' | 'leave' | 'fees' | 'settings';

/** A fragment that arrived while the app runs, read and then wiped from the address bar. */
function takeFragment(): Fragment {
  const fragment = parseFragment(window.location.hash);
  clearFragment();
  return fragment;
}

/** The failure page's texts in English (the spec's words; tests compare them). */
export const APP_FAILED = englishText('app.failed');
export const APP_FAILED_ADVICE = englishText('app.failedAdvice');

/** What a failure shows: a plain message in the language shown, and Retry. */
function Failed({ retry }: { retry: () => void }) {
  const { t } = useParentTranslation();
  return (
    <main className="signin">
      <div className="card" role="alert">
        <h1>{t('app.failed')}</h1>
        <p>{t('app.failedAdvice')}</p>
        <button type="button" className="primary" onClick={retry}>
          {t('app.retry')}
        </button>
      </div>
    </main>
  );
}

/**
 * Around the whole parent app: whatever fails while showing it, a parent sees a plain message with
 * Retry (which shows the app anew), never a blank screen.
 */
export function ParentBoundary({ children }: { children: ReactNode }) {
  return (
    <ErrorBoundary
      onError={(error) => console.error('The parent app failed while showing', error)}
      fallback={({ retry }) => <Failed retry={retry} />}
    >
      {children}
    </ErrorBoundary>
  );
}

export function ParentApp() {
  // Read at start (a pure read: StrictMode may run this twice), wiped from the address bar just after.
  const [initial] = useState(() => parseFragment(window.location.hash));
  const [session, setSession] = useState<ParentSession | null>(() => (initial.phone ? null : loadSession()));
  const { t } = useParentTranslation();
  // Why the parent is at sign-in again, said in the language shown.
  const [notice, setNotice] = useState<'sessionEnded' | 'signedOut'>();
  const [link, setLink] = useState(
    initial.phone && initial.code ? { phone: initial.phone, code: initial.code } : undefined,
  );
  const [openId, setOpenId] = useState(initial.messageId);

  useEffect(() => {
    clearFragment();
    setUnauthorizedHandler(() => {
      clearSession();
      void clearApiCache();
      setSession(null);
      setNotice('sessionEnded');
    });
    return () => setUnauthorizedHandler(undefined);
  }, []);

  // Later fragments: a notification tap (`#message=`) or a new sign-in link opened in this tab.
  useEffect(() => {
    const onHash = () => {
      const fragment = takeFragment();
      if (fragment.phone && fragment.code) {
        setLink({ phone: fragment.phone, code: fragment.code });
        setSession(null);
      }
      if (fragment.messageId) setOpenId(fragment.messageId);
    };
    const onWorkerMessage = (event: MessageEvent<{ type?: string; message_id?: number }>) => {
      if (event.data?.type === 'open-message' && event.data.message_id) setOpenId(event.data.message_id);
    };
    window.addEventListener('hashchange', onHash);
    navigator.serviceWorker?.addEventListener('message', onWorkerMessage);
    return () => {
      window.removeEventListener('hashchange', onHash);
      navigator.serviceWorker?.removeEventListener('message', onWorkerMessage);
    };
  }, []);

  // Signed in: the family's language (kept from the server's last answer, then asked again); signed
  // out: the browser's. Of the two quick calls, the later wins.
  const token = session?.token;
  useEffect(() => {
    if (!token) {
      keepLanguage(undefined);
      void showLanguage(languageFor(null));
      return;
    }
    let live = true;
    void showLanguage(languageFor(keptLanguage()));
    parentRequest<{ language: string }>('/parent/language')
      .then(({ language }) => {
        if (!live) return;
        const family = languageFor(language);
        keepLanguage(family);
        void showLanguage(family);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [token]);

  if (!session) {
    return (
      <SignIn
        key={link ? `${link.phone}|${link.code}` : 'form'}
        link={link}
        notice={notice && t(`app.${notice}`)}
        onSignedIn={(signedIn) => {
          setLink(undefined);
          setNotice(undefined);
          setSession(signedIn);
          void resubscribeQuietly();
        }}
      />
    );
  }
  return (
    <SignedIn
      session={session}
      openId={openId}
      onOpened={() => setOpenId(undefined)}
      onProfile={(profile) => {
        const next = { ...session, profile };
        saveSession(next);
        setSession(next);
      }}
      onSignedOut={() => {
        clearSession();
        void clearApiCache();
        setNotice('signedOut');
        setSession(null);
      }}
    />
  );
}

interface SignedInProps {
  session: ParentSession;
  openId: number | undefined;
  onOpened: () => void;
  onProfile: (profile: ParentProfile) => void;
  onSignedOut: () => void;
}

function SignedIn({ session, openId, onOpened, onProfile, onSignedOut }: SignedInProps) {
  const [view, setView] = useState<View>('inbox');
  const [open, setOpen] = useState<ParentMessage>();
  const [signingOut, setSigningOut] = useState(false);
  const { inbox, error, keptAt, online, refresh, setInbox } = useInbox();
  const push = usePushState();
  const centre = useCentreBrand();
  const [promptDismissed, setPromptDismissed] = useState(() => localStorage.getItem(PROMPT_DISMISSED_KEY) === '1');
  const main = useRef<HTMLElement>(null);
  const { t } = useParentTranslation();

  // The profile (children) as the server has it now, once per sign-in.
  const profileHandler = useRef(onProfile);
  profileHandler.current = onProfile;
  useEffect(() => {
    parentRequest<ParentProfile>('/parent/me')
      .then((profile) => profileHandler.current(profile))
      .catch(() => undefined);
  }, []);

  const openMessage = useCallback(
    (message: ParentMessage) => {
      setOpen(message);
      setView('inbox');
      window.scrollTo(0, 0);
      if (message.read_at === null) {
        parentRequest<ParentMessage>(`/parent/messages/${message.id}/read`, { method: 'POST' })
          .then((read) => {
            setOpen((current) => (current?.id === read.id ? read : current));
            setInbox((current) => (current ? withMessageRead(current, read) : current));
          })
          .catch(() => undefined);
      }
    },
    [setInbox],
  );

  // A notification tap asks for one message: open it once the inbox has it.
  useEffect(() => {
    if (openId === undefined || !inbox) return;
    const message = inbox.messages.find((candidate) => candidate.id === openId);
    if (message) {
      onOpened();
      openMessage(message);
    } else {
      void refresh().then((fresh) => {
        const found = fresh?.messages.find((candidate) => candidate.id === openId);
        onOpened();
        if (found) openMessage(found);
      });
    }
  }, [openId, inbox, onOpened, openMessage, refresh]);

  function go(next: View) {
    setView(next);
    setOpen(undefined);
    if (next === 'inbox') void refresh();
    main.current?.focus();
  }

  async function signOut() {
    setSigningOut(true);
    await turnOffNotifications().catch(() => undefined);
    onSignedOut();
  }

  const unread = inbox?.unread_count ?? 0;
  const showPrompt = view === 'inbox' && !open && push.state === 'off' && !promptDismissed;

  return (
    <div className="shell">
      <header className="topbar">
        <span className="brand">{centre?.name ?? t('app.brand')}</span>
        <span className="who">{session.profile.parent_name}</span>
      </header>
      <nav className="tabs" aria-label={t('app.sections')}>
        <TabButton
          current={view}
          view="inbox"
          onSelect={go}
          label={unread > 0 ? t('app.inboxUnread', { count: unread }) : undefined}
        >
          {t('app.inbox')}
          {unread > 0 && (
            <span className="badge" aria-hidden="true">
              {unread}
            </span>
          )}
        </TabButton>
        <TabButton current={view} view="children" onSelect={go}>
          {t('app.children')}
        </TabButton>
        <TabButton current={view} view="leave" onSelect={go}>
          {t('app.leave')}
        </TabButton>
        <TabButton current={view} view="fees" onSelect={go}>
          {t('app.fees')}
        </TabButton>
        <TabButton current={view} view="settings" onSelect={go}>
          {t('app.settings')}
        </TabButton>
      </nav>
      <main ref={main} tabIndex={-1}>
        {view === 'inbox' && open && (
          <MessageView
            message={open}
            onBack={() => setOpen(undefined)}
            onPay={() => go('fees')}
            onReplied={(answered) => {
              setOpen(answered);
              setInbox((current) => (current ? withMessageRead(current, answered) : current));
            }}
          />
        )}
        {view === 'inbox' && !open && (
          <Inbox
            inbox={inbox}
            error={error}
            keptAt={keptAt}
            online={online}
            onOpen={openMessage}
            onRefresh={() => void refresh()}
          >
            {push.state === 'blocked' && <NotificationsBlockedNote />}
            {showPrompt && (
              <div className="prompt">
                <NotificationsPanel push={push} />
                <button
                  type="button"
                  className="link"
                  onClick={() => {
                    localStorage.setItem(PROMPT_DISMISSED_KEY, '1');
                    setPromptDismissed(true);
                  }}
                >
                  {t('app.notNow')}
                </button>
              </div>
            )}
          </Inbox>
        )}
        {view === 'children' && <MyChildren list={session.profile.children} />}
        {view === 'leave' && <Leave list={session.profile.children} />}
        {view === 'fees' && <FeesTab />}
        {view === 'settings' && (
          <Settings
            parentName={session.profile.parent_name}
            phone={session.profile.phone}
            push={push}
            onSignOut={() => void signOut()}
            signingOut={signingOut}
          />
        )}
      </main>
    </div>
  );
}

function TabButton({
  current,
  view,
  onSelect,
  label,
  children,
}: {
  current: View;
  view: View;
  onSelect: (view: View) => void;
  label?: string | undefined;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className="tab"
      aria-label={label}
      aria-current={current === view ? 'page' : undefined}
      onClick={() => onSelect(view)}
    >
      {children}
    </button>
  );
}

/** The service worker keeps the last parent API answers for offline start; none survive a sign-out. */
async function clearApiCache(): Promise<void> {
  try {
    if ('caches' in window) await caches.delete(API_CACHE);
  } catch {
    // no cache storage
  }
}
