import type { ParentInbox, ParentMessage } from '@tuitiondesk/contract';
import { centreDayOf, centreTimeZone } from './centre-clock';
import { i18n, shownLanguage } from './i18n';

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
  return count > 0 ? i18n.t('inbox.unread', { count }) : '';
}

type Kind = 'time' | 'day' | 'dayYear' | 'full' | 'schoolDay';

/**
 * English keeps the app's own forms (`en-GB`: `23 Nov`, `14:05`); another language has its own words
 * and order from Intl with the month's full name (the glossary's rule: parents read it more easily
 * than an abbreviation), the 24-hour clock, and always Western digits (`-u-nu-latn`). An instant is
 * shown on the centre's clock (`zone`), whatever the phone's zone; a calendar day is a day.
 */
function options(kind: Kind, english: boolean, zone: string | undefined): Intl.DateTimeFormatOptions {
  const month = english ? 'short' : 'long';
  const timeZone = zone ? { timeZone: zone } : {};
  const clock: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', ...timeZone };
  switch (kind) {
    case 'time':
      return clock;
    case 'day':
      return { day: 'numeric', month, ...timeZone };
    case 'dayYear':
      return { day: 'numeric', month, year: 'numeric', ...timeZone };
    case 'full':
      return { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', ...clock };
    case 'schoolDay':
      return { weekday: 'short', day: 'numeric', month, timeZone: 'UTC' };
  }
}

const formats = new Map<string, Intl.DateTimeFormat>();

function format(kind: Kind, date: Date): string {
  const language = shownLanguage();
  const zone = centreTimeZone();
  const key = `${language}|${kind}|${zone ?? ''}`;
  let formatter = formats.get(key);
  if (!formatter) {
    const english = language === 'en';
    formatter = new Intl.DateTimeFormat(english ? 'en-GB' : `${language}-u-nu-latn`, options(kind, english, zone));
    formats.set(key, formatter);
  }
  return formatter.format(date);
}

/** Today, this year or another, on the centre's calendar. */
function whenOf(date: Date, now: Date): 'today' | 'thisYear' | 'otherYear' {
  const day = centreDayOf(date);
  const today = centreDayOf(now);
  if (day === today) return 'today';
  return day.slice(0, 4) === today.slice(0, 4) ? 'thisYear' : 'otherYear';
}

/** In the list: the time today, the day this year, else the day and year (the centre's days). */
export function shortWhen(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const when = whenOf(date, now);
  if (when === 'today') return format('time', date);
  return format(when === 'thisYear' ? 'day' : 'dayYear', date);
}

/** When the inbox shown was the centre's: `14:05` today, `14:05 on 23 Nov` another day. */
export function keptWhen(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const when = whenOf(date, now);
  if (when === 'today') return format('time', date);
  const day = format(when === 'thisYear' ? 'day' : 'dayYear', date);
  return i18n.t('inbox.keptAt', { time: format('time', date), day });
}

/** In the full message: `Monday 23 November 2026 at 14:05`. */
export function fullWhen(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : format('full', date);
}

/** A calendar date `2026-11-23` as `Mon 23 Nov` (no time zone shift). */
export function schoolDay(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  if (!year || !month || !day) return date;
  return format('schoolDay', new Date(Date.UTC(year, month - 1, day)));
}

/** A day without its year, for a decision's date: `24 Nov`. */
export function shortDay(iso: string): string {
  return format('day', new Date(iso));
}
