import type { ParentInbox, ParentMessage } from '@tuitiondesk/contract';
import { lazy, type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import { errorText, parentRequest } from './api';
import { englishText, useParentTranslation } from './i18n';
import { OfflineNote } from './inbox-notes';
import { fullWhen, shortWhen, unreadLabel } from './inbox-state';
import { ReplyButtons } from './reply-buttons';

interface InboxProps {
  inbox: ParentInbox | undefined;
  error: string | undefined;
  /** When the server gave the messages shown, while they are what the phone kept (see useInbox). */
  keptAt?: string | undefined;
  online?: boolean;
  onOpen: (message: ParentMessage) => void;
  onRefresh: () => void;
  children?: ReactNode;
}

export function Inbox({ inbox, error, keptAt, online = true, onOpen, onRefresh, children }: InboxProps) {
  const { t } = useParentTranslation();
  return (
    <section aria-labelledby="inbox-title">
      <div className="section-head">
        <h1 id="inbox-title">
          {t('inbox.title')}
          {inbox && inbox.unread_count > 0 && <span className="count">{unreadLabel(inbox.unread_count)}</span>}
        </h1>
        <button type="button" className="link" onClick={onRefresh}>
          {t('inbox.refresh')}
        </button>
      </div>
      {inbox && keptAt && <OfflineNote keptAt={keptAt} online={online} />}
      {children}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {!inbox && !error && <p className="muted">{t('inbox.loading')}</p>}
      {inbox && inbox.messages.length === 0 && (
        <div className="empty">
          <p>{t('inbox.empty')}</p>
          <p className="muted">{t('inbox.emptyHelp')}</p>
        </div>
      )}
      {inbox && inbox.messages.length > 0 && (
        <ul className="messages">
          {inbox.messages.map((message) => {
            const unread = message.read_at === null;
            return (
              <li key={message.id}>
                <button type="button" className={unread ? 'message unread' : 'message'} onClick={() => onOpen(message)}>
                  <span className="dot" aria-hidden="true" />
                  <span className="message-text">
                    <span className="message-top">
                      <span className="subject">
                        {unread && <span className="visually-hidden">{t('inbox.unreadMark')}</span>}
                        {message.subject}
                      </span>
                      <time dateTime={message.sent_at}>{shortWhen(message.sent_at)}</time>
                    </span>
                    <span className="preview">{message.message}</span>
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/**
 * The one-tap replies to an alert, in English as the contract names them (PARENT_REPLY_LABELS); kept
 * in the parent catalogue so the parent app's bundle does not carry the contract's runtime (a test
 * checks they agree). Shown in the language in use.
 */
const REPLIES = ['sick', 'family', 'late', 'call'] as const;
type Reply = (typeof REPLIES)[number];
export const REPLY_LABELS = Object.fromEntries(
  REPLIES.map((reply) => [reply, englishText(`replies.${reply}`)]),
) as Record<Reply, string>;

/** The four replies under an absence or late alert; after one, what was answered. */
function Replies({ message, onReplied }: { message: ParentMessage; onReplied: (message: ParentMessage) => void }) {
  const { t } = useParentTranslation();
  const [sending, setSending] = useState<Reply>();
  const [error, setError] = useState<string>();
  if (message.reply) {
    return (
      <p className="notice" role="status">
        {t('replies.replied', { reply: t(`replies.${message.reply}`) })}
      </p>
    );
  }
  if (!message.can_reply) return null;
  const send = async (reply: Reply) => {
    setSending(reply);
    setError(undefined);
    try {
      onReplied(await parentRequest<ParentMessage>(`/parent/messages/${message.id}/reply`, { json: { reply } }));
    } catch (caught) {
      setError(errorText(caught, t('replies.failed')));
    } finally {
      setSending(undefined);
    }
  };
  return (
    <ReplyButtons
      id="replies-title"
      title={t('replies.title')}
      choices={REPLIES.map((reply) => ({ key: reply, label: t(`replies.${reply}`) }))}
      sending={sending}
      sendingLabel={t('replies.sending')}
      error={error}
      onChoose={(reply) => void send(reply)}
    />
  );
}

/**
 * A fee reminder's answers are fetched with the first fee reminder opened: the parent page has a size
 * budget for what a parent downloads to read the inbox (ADR 059), and most messages are no reminder.
 */
const FeeReply = lazy(() => import('./fee-reply').then((module) => ({ default: module.FeeReply })));

export function MessageView({
  message,
  onBack,
  onReplied,
  onPay,
}: {
  message: ParentMessage;
  onBack: () => void;
  onReplied: (message: ParentMessage) => void;
  /** To the Fees tab, from a fee reminder. */
  onPay: () => void;
}) {
  const { t } = useParentTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <article className="message-full" aria-labelledby="message-subject">
      <button type="button" className="back" onClick={onBack}>
        <span className="arrow" aria-hidden="true">
          ←
        </span>{' '}
        {t('inbox.back')}
      </button>
      <h1 id="message-subject" ref={heading} tabIndex={-1}>
        {message.subject}
      </h1>
      <p className="meta">
        <time dateTime={message.sent_at}>{fullWhen(message.sent_at)}</time>
        {message.sent_by && <> · {t('inbox.from', { name: message.sent_by })}</>}
      </p>
      <div className="body">{message.message}</div>
      <Replies message={message} onReplied={onReplied} />
      {message.kind === 'fee_reminder' && (
        <Suspense fallback={null}>
          <FeeReply message={message} onReplied={onReplied} onPay={onPay} />
        </Suspense>
      )}
    </article>
  );
}
