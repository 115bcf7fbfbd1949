import type { ParentInbox, ParentMessage } from '@tuitiondesk/contract';
import { describe, expect, it } from 'vitest';
import { schoolDay, shortWhen, unreadLabel, withMessageRead } from './inbox-state';

const message = (id: number, read_at: string | null): ParentMessage => ({
  id,
  message_type: 'IN_APP',
  kind: 'notice',
  reply: null,
  can_reply: false,
  fee_answer: null,
  can_fee_reply: false,
  subject: `Subject ${id}`,
  message: 'Body',
  sent_at: '2026-11-20T10:00:00.000Z',
  sent_by: 'Administrator',
  student_id: null,
  read_at,
});

describe('the inbox after reading a message', () => {
  const inbox: ParentInbox = { messages: [message(2, null), message(1, '2026-11-21T08:00:00Z')], unread_count: 1 };

  it('replaces the message and counts one unread fewer', () => {
    const after = withMessageRead(inbox, message(2, '2026-11-22T09:00:00Z'));
    expect(after.unread_count).toBe(0);
    expect(after.messages[0]?.read_at).toBe('2026-11-22T09:00:00Z');
    expect(after.messages).toHaveLength(2);
  });

  it('does not count an already read message twice', () => {
    expect(withMessageRead(inbox, message(1, '2026-11-22T09:00:00Z')).unread_count).toBe(1);
    expect(withMessageRead({ ...inbox, unread_count: 0 }, message(2, 'x')).unread_count).toBe(0);
  });

  it('labels the unread count, or nothing', () => {
    expect(unreadLabel(3)).toBe('3 unread');
    expect(unreadLabel(0)).toBe('');
  });
});

describe('dates', () => {
  it('shows a school day without shifting it by the time zone', () => {
    expect(schoolDay('2026-11-23')).toBe('Mon 23 Nov');
    expect(schoolDay('not a date')).toBe('not a date');
  });

  it('shows the time for today and the day otherwise', () => {
    const now = new Date(2026, 10, 23, 18, 0);
    expect(shortWhen(new Date(2026, 10, 23, 9, 5).toISOString(), now)).toBe('09:05');
    expect(shortWhen(new Date(2026, 10, 2, 9, 5).toISOString(), now)).toBe('2 Nov');
    expect(shortWhen(new Date(2025, 0, 2, 9, 5).toISOString(), now)).toBe('2 Jan 2025');
  });
});
