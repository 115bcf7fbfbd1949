import type { ParentReply } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';

export interface AlertToAnswer {
  id: number;
  kind: 'absence_alert' | 'late_alert';
  reply: ParentReply | null;
  attendance_id: number | null;
  recipient_name: string | null;
  student_name: string | null;
  date: string | null;
}

/** The alert `messageId` sent to `phone`, locked; undefined when it is not an alert to that phone. */
export async function lockAlert(tx: Queryable, phone: string, messageId: number): Promise<AlertToAnswer | undefined> {
  const rows = await tx.query<AlertToAnswer>(
    `SELECT m.id, m.kind, m.reply, m.attendance_id, m.recipient_name, s.full_name AS student_name,
            to_char(a.date, 'YYYY-MM-DD') AS date
       FROM messages m
       LEFT JOIN students s ON s.id = m.student_id
       LEFT JOIN attendance a ON a.id = m.attendance_id
      WHERE m.id = $1 AND m.recipient = $2 AND m.kind IN ('absence_alert', 'late_alert')
      FOR UPDATE OF m`,
    [messageId, phone],
  );
  return rows[0];
}

/**
 * The reply on the alert, and the call list when the parent asked for a call. A reply in the app also
 * marks the alert opened there (`read_at`, the app's own read).
 */
export async function recordReply(tx: Queryable, messageId: number, reply: ParentReply, inApp: boolean): Promise<void> {
  await tx.query(
    `UPDATE messages SET reply = $2, replied_at = now(),
            call_requested_at = CASE WHEN $2 = 'call' THEN now() ELSE call_requested_at END,
            read_at = CASE WHEN $3 THEN COALESCE(read_at, now()) ELSE read_at END
      WHERE id = $1`,
    [messageId, reply, inApp],
  );
}

/** The parent's reason on the day's record. */
export async function writeParentReason(tx: Queryable, attendanceId: number, reason: string): Promise<void> {
  await tx.query('UPDATE attendance SET parent_reason = $2, parent_reason_at = now() WHERE id = $1', [
    attendanceId,
    reason,
  ]);
}
