import type { ParentInbox, ParentMessage } from '@tuitiondesk/contract';

/** The inbox after one message came back from `POST /parent/messages/{id}/read`. */
export function withMessageRead(inbox: ParentInbox, read: ParentMessage): ParentInbox {
  const before = inbox.messages.find((message) => message.id === read.id);
  const wasUnread = before !== undefined && before.read_at === null;
  return {
    messages: inbox.messages.map((message) => (message.id === read.id ? read : message)),
    unread_count: wasUnread ? Math.max(0, inbox.unread_count - 1) : inbox.unread_count,
  };
}

/** "3 unread", or nothing when all are read. */
export function unreadLabel(count: number): string {
  return count > 0 ? `${count} unread` : '';
}

const TIME = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });
const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short' });
const DAY_YEAR = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
const FULL = new Intl.DateTimeFormat('en-GB', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** In the list: the time today, the day this year, else the day and year. */
export function shortWhen(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  if (date.toDateString() === now.toDateString()) return TIME.format(date);
  return date.getFullYear() === now.getFullYear() ? DAY.format(date) : DAY_YEAR.format(date);
}

/** When the inbox shown was the centre's: `14:05` today, `14:05 on 23 Nov` another day. */
export function keptWhen(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  if (date.toDateString() === now.toDateString()) return TIME.format(date);
  const day = date.getFullYear() === now.getFullYear() ? DAY.format(date) : DAY_YEAR.format(date);
  return `${TIME.format(date)} on ${day}`;
}

/** In the full message: `Monday 23 November 2026 at 14:05`. */
export function fullWhen(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : FULL.format(date);
}

const SCHOOL_DAY = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
});

/** A calendar date `2026-11-23` as `Mon 23 Nov` (no time zone shift). */
export function schoolDay(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  if (!year || !month || !day) return date;
  return SCHOOL_DAY.format(new Date(Date.UTC(year, month - 1, day)));
}
