import { ALERT_STATUSES, type TemplatePlaceholder } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import type { Actor } from '../../lib/activity-log';
import { readableDate } from '../../lib/time';
import { findApprovedLeaveDays } from '../leave/repository';
import { readMessagingSettings } from '../settings/repository';
import { findTemplateForSending } from '../templates/repository';
import { type FamilyMessage, queueFamilyMessages, renderForFamily } from './outgoing';
import { findAlertSubjects } from './outgoing-repository';

/**
 * One alert per approved absent or late record among `attendanceIds` (none for a day the student has
 * approved leave for), to the student's family, in its language, through the centre's absence and
 * late templates (with the one-tap replies on WhatsApp), and any remarks after the text. In the
 * approver's transaction; answers how many were queued, and to how many families (a family with two
 * children absent gets two alerts and counts once).
 */
export async function queueAbsenceAlerts(
  ctx: AppContext,
  tx: Queryable,
  attendanceIds: readonly number[],
  sender: Actor,
): Promise<{ messages: number; families: number }> {
  const marked = await findAlertSubjects(tx, attendanceIds, ALERT_STATUSES);
  // The family told the centre in advance and an admin agreed: no alert about a day they know of.
  const onLeave = await findApprovedLeaveDays(tx, marked);
  const subjects = marked.filter((subject) => !onLeave.has(`${subject.student_id}|${subject.date}`));
  if (subjects.length === 0) return { messages: 0, families: 0 };
  const settings = await readMessagingSettings(tx);
  const absence = await findTemplateForSending(tx, { purpose: 'absence_alert' });
  const late = await findTemplateForSending(tx, { purpose: 'late_alert' });
  const messages: FamilyMessage[] = subjects.map((subject) => {
    const isLate = subject.status === 'late';
    const template = isLate ? late : absence;
    const values: Partial<Record<TemplatePlaceholder, string>> = {
      student_name: subject.student_name,
      class: `Class ${subject.class_name}`,
      date: readableDate(subject.date),
      status: subject.status,
      centre_name: settings.centre_name,
    };
    const remarks = subject.remarks?.trim() ? ` Remarks: ${subject.remarks.trim()}` : '';
    const rendered = template
      ? renderForFamily(template, subject.language, values, true)
      : {
          language: 'en' as const,
          body: `${values.student_name} was marked ${values.status} on ${values.date}.`,
          whatsapp: null,
        };
    return {
      family: subject,
      kind: isLate ? 'late_alert' : 'absence_alert',
      subject: template?.subject ?? (isLate ? 'Late arrival' : 'Absence alert'),
      body: `${rendered.body}${remarks}`,
      language: rendered.language,
      studentId: subject.student_id,
      attendanceId: subject.attendance_id,
      whatsapp: rendered.whatsapp,
    };
  });
  await queueFamilyMessages(
    ctx,
    tx,
    { kind: 'absence_alert', subject: 'Absence and late alerts', recipients: 'approval', templateId: null, sender },
    messages,
    settings.whatsapp_fallback_minutes,
  );
  return { messages: messages.length, families: new Set(subjects.map((subject) => subject.phone)).size };
}
