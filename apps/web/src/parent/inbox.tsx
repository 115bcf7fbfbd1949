import type { ParentInbox, ParentMessage } from '@tuitiondesk/contract';
import { type ReactNode, useEffect, useRef } from 'react';
import { fullWhen, shortWhen, unreadLabel } from './inbox-state';

interface InboxProps {
  inbox: ParentInbox | undefined;
  error: string | undefined;
  onOpen: (message: ParentMessage) => void;
  onRefresh: () => void;
  children?: ReactNode;
}

export function Inbox({ inbox, error, onOpen, onRefresh, children }: InboxProps) {
  return (
    <section aria-labelledby="inbox-title">
      <div className="section-head">
        <h1 id="inbox-title">
          Inbox
          {inbox && inbox.unread_count > 0 && <span className="count">{unreadLabel(inbox.unread_count)}</span>}
        </h1>
        <button type="button" className="link" onClick={onRefresh}>
          Refresh
        </button>
      </div>
      {children}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {!inbox && !error && <p className="muted">Loading messages…</p>}
      {inbox && inbox.messages.length === 0 && (
        <div className="empty">
          <p>No messages yet.</p>
          <p className="muted">Messages from the centre will appear here.</p>
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
                        {unread && <span className="visually-hidden">Unread: </span>}
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

export function MessageView({ message, onBack }: { message: ParentMessage; onBack: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <article className="message-full" aria-labelledby="message-subject">
      <button type="button" className="back" onClick={onBack}>
        <span aria-hidden="true">←</span> Back to inbox
      </button>
      <h1 id="message-subject" ref={heading} tabIndex={-1}>
        {message.subject}
      </h1>
      <p className="meta">
        <time dateTime={message.sent_at}>{fullWhen(message.sent_at)}</time>
        {message.sent_by && <> · from {message.sent_by}</>}
      </p>
      <div className="body">{message.message}</div>
    </article>
  );
}
