import { createHash } from 'node:crypto';
import {
  type ErrorWords,
  errorDetail,
  errorWords,
  type QueuedMarksRequest,
  type QueuedMarksResult,
  type RefusedMark,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { classesParams, recordActivity } from '../../lib/activity-log';
import { distinctIds } from '../../lib/distinct-ids';
import { ValidationError } from '../../lib/errors';
import { formatTimestamp, readableDate, today } from '../../lib/time';
import { classRefusal, dateRefusalSentence, loadScope, type Marker } from './marking-scope';
import { findLeftBefore, findStudentsForMarking, type MarkInput, upsertAttendance } from './repository';
import { claimSubmission, findRecordsOn, keepSubmissionAnswer } from './submission-repository';

/**
 * A refused mark with its reason as words (a code a client translates, ADR 036) and in English. The
 * English is the catalogue's text filled in, as a sentence: a reason that begins with a student's name
 * begins with a capital even when the name was typed without one.
 */
function refusal(student_id: number, student_name: string | null, words: ErrorWords): RefusedMark {
  const text = errorDetail(words);
  const reason = `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
  return { student_id, student_name, reason, code: words.code, params: words.params };
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
    const byDate = dateRefusalSentence(scope, date);
    const gone = new Map((await findLeftBefore(tx, ids, date)).map((student) => [student.id, student]));
    const allowed: MarkInput[] = [];
    for (const record of records) {
      const student = byId.get(record.student_id);
      if (!student) {
        refused.push(refusal(record.student_id, null, errorWords('attendance.mark_student_deleted')));
        continue;
      }
      const byClass =
        scope.refusal ??
        (classRefusal(scope, [student.class_name])
          ? errorWords('attendance.mark_class_not_yours', { class_name: student.class_name })
          : undefined);
      const left = gone.get(student.id);
      const words =
        byClass ??
        byDate ??
        (left
          ? errorWords('attendance.mark_student_left', {
              name: left.full_name,
              left_on: readableDate(left.left_on),
              date: readableDate(date),
            })
          : undefined);
      if (words) refused.push(refusal(student.id, student.full_name, words));
      else allowed.push(record);
    }

    const written = new Set(allowed.length > 0 ? await upsertAttendance(tx, date, allowed, actor) : []);
    const locked = allowed.filter((record) => !written.has(record.student_id)).map((record) => record.student_id);
    if (locked.length > 0) {
      const kept = new Map((await findRecordsOn(tx, date, locked)).map((row) => [row.student_id, row]));
      for (const studentId of locked) {
        const row = kept.get(studentId);
        // The status's word is the catalogue's (Present, Absent, Late, Leave), chosen by its value.
        const status = row?.status ?? 'unknown';
        const day = readableDate(date);
        const words = row?.approved_by
          ? errorWords('attendance.mark_already_approved_by', { name: row.approved_by, date: day, status })
          : errorWords('attendance.mark_already_approved', { date: day, status });
        refused.push(refusal(studentId, byId.get(studentId)?.full_name ?? null, words));
      }
    }

    const classes = [...new Set(students.map((s) => s.class_name))].sort((a, b) => Number(a) - Number(b));
    const marked = written.size;
    if (marked > 0) {
      await recordActivity(tx, actor, 'attendance.marked', 'attendance.marked_from_queue', {
        count: marked,
        ...classesParams(classes),
        date,
      });
    }
    const messageWords =
      refused.length === 0
        ? errorWords('attendance.queued_marked', { count: marked })
        : errorWords('attendance.queued_marked_refused', { count: marked, refused: refused.length });
    const answer: QueuedMarksResult = {
      submission_id: submissionId,
      class_name: classes.length === 1 ? (classes[0] as string) : null,
      date,
      saved_at: formatTimestamp(new Date()),
      marked_count: marked,
      message: errorDetail(messageWords),
      refused,
      message_words: messageWords,
    };
    await keepSubmissionAnswer(tx, actor.id, submissionId, answer);
    return answer;
  });
}
