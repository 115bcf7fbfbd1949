import { ALERT_STATUSES, type ParentLanguage } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import type { Actor } from '../../lib/activity-log';
import { readClassLabels } from '../classes';
import {
  type FamilyMessage,
  type PlaceholderValues,
  queueFamilyMessages,
  readMessagingSettings,
  renderForFamily,
} from '../delivery';
import { familyDate, familyTexts, findAlertSubjects, statusWord } from '../families';
import { findTemplateForSending } from '../templates';
import { findApprovedLeaveDays } from './repository';

/**
 * An alert's subject: the one the centre wrote, as written; while the centre keeps the default
 * ("Absence alert", "Late arrival"), that default in the language the family gets the text in.
 */
function alertSubject(
  centreSubject: string | undefined,
  purpose: 'absence_alert' | 'late_alert',
  language: ParentLanguage,
): string {
  const english = familyTexts('en').alertSubjects[purpose];
  if (centreSubject !== undefined && centreSubject !== english) return centreSubject;
  return familyTexts(language).alertSubjects[purpose];
}

/**
 * One alert per approved absent or late record among `attendanceIds` (none for a day the student has
 * approved leave for), to the student's family, in its language, through the centre's absence and
 * late templates (with the one-tap replies on WhatsApp), and any remarks after the text (as written,
 * after the word for remarks in the text's language). In the approver's transaction; answers how many
 * were queued, and to how many families (a family with two children absent gets two alerts and counts
 * once).
 */
export async function queueAbsenceAlerts(
  ctx: AppContext,
  tx: Queryable,
  attendanceIds: readonly number[],
  sender: Actor,
): Promise<{ messages: number; families: number; reach: { in_app: number; whatsapp: number; no_channel: number } }> {
  const marked = await findAlertSubjects(tx, attendanceIds, ALERT_STATUSES);
  // The family told the centre in advance and an admin agreed: no alert about a day they know of.
  const onLeave = await findApprovedLeaveDays(tx, marked);
  const subjects = marked.filter((subject) => !onLeave.has(`${subject.student_id}|${subject.date}`));
  if (subjects.length === 0) return { messages: 0, families: 0, reach: { in_app: 0, whatsapp: 0, no_channel: 0 } };
  const settings = await readMessagingSettings(tx);
  const absence = await findTemplateForSending(tx, { purpose: 'absence_alert' });
  const late = await findTemplateForSending(tx, { purpose: 'late_alert' });
  const labelOf = await readClassLabels(tx);
  const messages: FamilyMessage[] = subjects.map((subject) => {
    const isLate = subject.status === 'late';
    const purpose = isLate ? 'late_alert' : 'absence_alert';
    const template = isLate ? late : absence;
    // The placeholders in the language of the text they fill (the glossary's words; names as written).
    const valuesIn: PlaceholderValues = (language) => ({
      student_name: subject.student_name,
      class: familyTexts(language).className(subject.class_name, labelOf(subject.class_name)),
      date: familyDate(subject.date, language),
      status: statusWord(subject.status, language),
      centre_name: settings.centre_name,
    });
    const rendered = template
      ? renderForFamily(template, subject.language, valuesIn, true)
      : {
          language: 'en' as const,
          body: familyTexts('en').alertBody({
            student_name: subject.student_name,
            status: subject.status,
            date: familyDate(subject.date, 'en'),
          }),
          whatsapp: null,
        };
    const texts = familyTexts(rendered.language);
    const remarks = subject.remarks?.trim() ? texts.remarks(subject.remarks.trim()) : '';
    return {
      family: subject,
      kind: purpose,
      subject: alertSubject(template?.subject, purpose, rendered.language),
      body: `${rendered.body}${remarks}`,
      language: rendered.language,
      studentId: subject.student_id,
      attendanceId: subject.attendance_id,
      whatsapp: rendered.whatsapp,
    };
  });
  const queued = await queueFamilyMessages(
    ctx,
    tx,
    { kind: 'absence_alert', subject: 'Absence and late alerts', recipients: 'approval', templateId: null, sender },
    messages,
    settings.whatsapp_fallback_minutes,
  );
  return {
    messages: messages.length,
    families: new Set(subjects.map((subject) => subject.phone)).size,
    // Each family once, on the best channel of its alerts (ADR 044).
    reach: { in_app: queued.inApp, whatsapp: queued.whatsapp, no_channel: queued.unreachable },
  };
}
