import { createHash } from 'node:crypto';
import { errorDetail, type QueuedMarksRequest, type QueuedMarksResult, type RefusedMark } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { classesText, plural, recordActivity } from '../../lib/activity-log';
import { distinctIds } from '../../lib/distinct-ids';
import { fieldProblemText, ValidationError } from '../../lib/errors';
import { formatTimestamp, readableDate, today } from '../../lib/time';
import { classRefusal, dateRefusal, loadScope, type Marker } from './marking-scope';
import { findLeftBefore, findStudentsForMarking, type MarkInput, upsertAttendance } from './repository';
import { leftRefusal } from './service';
import { claimSubmission, findRecordsOn, keepSubmissionAnswer } from './submission-repository';

const STATUS_WORDS: Record<string, string> = { present: 'Present', absent: 'Absent', late: 'Late', leave: 'Leave' };

function sentence(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${text.endsWith('.') ? '' : '.'}`;
}

/**
 * Marks made on a device, maybe offline and maybe hours ago, sent with the id the device gave them.
 * The rules are those of marking now (the teacher's classes and window as they are when the marks
 * arrive, which the device cannot know): what they allow is saved, and each student they do not is
 * answered with the reason, so a queue never loses a mark silently. The same id sent again answers
 * the first answer without writing anything; the same id with other marks is refused.
 */
export async function saveQueuedMarks(
  ctx: AppContext,
  actor: Marker,
  request: QueuedMarksRequest & { records: MarkInput[] },
): Promise<QueuedMarksResult> {
  const { date, submission_id: submissionId, records } = request;
  if (date > today()) throw new ValidationError('date', 'validation.not_in_future');
  const ids = distinctIds(
    records.map((record) => record.student_id),
    (index) => `records[${index}].student_id`,
    'student',
  );
  const requestHash = createHash('sha256').update(JSON.stringify({ date, records })).digest('hex');

  return ctx.db.transaction(async (tx) => {
    const kept = await claimSubmission(tx, actor.id, submissionId, requestHash);
    if (kept) {
      if (kept.request_hash !== requestHash || !kept.answer) {
        throw new ValidationError('submission_id', 'validation.submission_reused');
      }
      return kept.answer;
    }

    const scope = await loadScope(tx, actor, true);
    const students = await findStudentsForMarking(tx, ids);
    const byId = new Map(students.map((student) => [student.id, student]));
    const refused: RefusedMark[] = [];
    const byDate = dateRefusal(scope, date);
    const gone = new Map((await findLeftBefore(tx, ids, date)).map((student) => [student.id, student]));
    const allowed: MarkInput[] = [];
    for (const record of records) {
      const student = byId.get(record.student_id);
      if (!student) {
        refused.push({
          student_id: record.student_id,
          student_name: null,
          reason: 'This student is no longer on the register (the record was deleted).',
        });
        continue;
      }
      const byClass = scope.refusal
        ? errorDetail(scope.refusal)
        : classRefusal(scope, [student.class_name]) && `You may no longer mark class ${student.class_name}.`;
      const left = gone.get(student.id);
      const reason =
        byClass ??
        (byDate
          ? sentence(fieldProblemText(byDate))
          : left
            ? sentence(errorDetail(leftRefusal(left, date)))
            : undefined);
      if (reason) refused.push({ student_id: student.id, student_name: student.full_name, reason });
      else allowed.push(record);
    }

    const written = new Set(allowed.length > 0 ? await upsertAttendance(tx, date, allowed, actor) : []);
    const locked = allowed.filter((record) => !written.has(record.student_id)).map((record) => record.student_id);
    if (locked.length > 0) {
      const kept = new Map((await findRecordsOn(tx, date, locked)).map((row) => [row.student_id, row]));
      for (const studentId of locked) {
        const row = kept.get(studentId);
        const by = row?.approved_by ? ` by ${row.approved_by}` : '';
        refused.push({
          student_id: studentId,
          student_name: byId.get(studentId)?.full_name ?? null,
          reason: `Already approved${by} for ${readableDate(date)}, as ${STATUS_WORDS[row?.status ?? ''] ?? row?.status}: it was not changed.`,
        });
      }
    }

    const classes = [...new Set(students.map((s) => s.class_name))].sort((a, b) => Number(a) - Number(b));
    const marked = written.size;
    if (marked > 0) {
      await recordActivity(
        tx,
        actor,
        'attendance.marked',
        `${actor.full_name} marked attendance for ${plural(marked, 'student')} of ${classesText(classes)} on ${readableDate(date)} (sent from a device's queue)`,
      );
    }
    const answer: QueuedMarksResult = {
      submission_id: submissionId,
      class_name: classes.length === 1 ? (classes[0] as string) : null,
      date,
      saved_at: formatTimestamp(new Date()),
      marked_count: marked,
      message:
        refused.length === 0
          ? `Attendance marked for ${marked} student(s)`
          : `Attendance marked for ${marked} student(s); ${plural(refused.length, 'mark')} could not be saved`,
      refused,
    };
    await keepSubmissionAnswer(tx, actor.id, submissionId, answer);
    return answer;
  });
}
