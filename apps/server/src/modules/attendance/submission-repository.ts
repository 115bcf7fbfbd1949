import type { QueuedMarksResult } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';

export interface KeptSubmission {
  request_hash: string;
  answer: QueuedMarksResult | null;
}

/**
 * Claims a device's submission id for this account, or answers what is kept under it. A second
 * transaction claiming the same id at the same moment waits on the first's row and then reads its
 * answer, so the marks are written once.
 */
export async function claimSubmission(
  tx: Queryable,
  userId: number,
  submissionId: string,
  requestHash: string,
): Promise<KeptSubmission | undefined> {
  const claimed = await tx.query(
    `INSERT INTO attendance_submissions (user_id, submission_id, request_hash)
     VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING submission_id`,
    [userId, submissionId, requestHash],
  );
  if (claimed.length > 0) return undefined;
  const [kept] = await tx.query<KeptSubmission>(
    'SELECT request_hash, answer FROM attendance_submissions WHERE user_id = $1 AND submission_id = $2',
    [userId, submissionId],
  );
  return kept;
}

export async function keepSubmissionAnswer(
  tx: Queryable,
  userId: number,
  submissionId: string,
  answer: QueuedMarksResult,
): Promise<void> {
  await tx.query('UPDATE attendance_submissions SET answer = $3 WHERE user_id = $1 AND submission_id = $2', [
    userId,
    submissionId,
    JSON.stringify(answer),
  ]);
}

/** Kept answers older than the days a device may wait to send are of no use: its marks would be refused anyway. */
export async function deleteOldSubmissions(db: Queryable, days = 30): Promise<void> {
  await db.query(`DELETE FROM attendance_submissions WHERE created_at < now() - make_interval(days => $1)`, [days]);
}

export interface MarkedRow {
  student_id: number;
  status: string;
  approved_by: string | null;
}

/** The records of these students on a day, for saying why one was not changed. */
export async function findRecordsOn(tx: Queryable, date: string, studentIds: number[]): Promise<MarkedRow[]> {
  return tx.query<MarkedRow>(
    'SELECT student_id, status, approved_by FROM attendance WHERE date = $1::date AND student_id = ANY($2::int[])',
    [date, studentIds],
  );
}
