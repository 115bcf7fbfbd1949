import type { AttendanceStatus, RosterEntry } from '@tuitiondesk/contract';
import type { QueuedMarks } from '../../lib/offline/mark-queue';
import { initialMarks, isLocked, type Mark } from './roster-marks';

/**
 * A register being marked is kept on the device as the teacher goes (a reload, a call, the browser
 * closed by the phone: nothing is lost), one draft per account, class and day, until it is submitted.
 */
const PREFIX = 'tuitiondesk.register-draft';

export interface RegisterKey {
  userId: number;
  className: string;
  date: string;
}

type StoredMarks = Record<string, { status: AttendanceStatus | null; remarks: string }>;

function storageKey({ userId, className, date }: RegisterKey): string {
  return `${PREFIX}.${userId}.${className}.${date}`;
}

export function readDraft(key: RegisterKey): StoredMarks | undefined {
  try {
    const value = JSON.parse(localStorage.getItem(storageKey(key)) ?? 'null') as { marks?: StoredMarks } | null;
    return value?.marks && typeof value.marks === 'object' ? value.marks : undefined;
  } catch {
    return undefined;
  }
}

export function saveDraft(key: RegisterKey, marks: ReadonlyMap<number, Mark>): void {
  const stored: StoredMarks = Object.fromEntries([...marks].map(([id, mark]) => [String(id), mark]));
  try {
    localStorage.setItem(storageKey(key), JSON.stringify({ saved_at: new Date().toISOString(), marks: stored }));
  } catch {
    // Storage full or refused (private mode): the register still works, without the draft.
  }
}

export function clearDraft(key: RegisterKey): void {
  try {
    localStorage.removeItem(storageKey(key));
  } catch {
    // Nothing kept, nothing to clear.
  }
}

const KEEP_DRAFT_MS = 3 * 24 * 60 * 60 * 1000;

/**
 * Drafts older than three days are dropped (every day a teacher may mark has passed by then). A
 * draft outlives a sign-out on purpose: a session that expires mid-register must not lose the marks,
 * and only the same account ever reads them back.
 */
export function pruneOldDrafts(now = Date.now()): void {
  try {
    for (const key of Object.keys(localStorage)) {
      if (!key.startsWith(`${PREFIX}.`)) continue;
      const savedAt = Date.parse(
        (JSON.parse(localStorage.getItem(key) ?? '{}') as { saved_at?: string }).saved_at ?? '',
      );
      if (!(now - savedAt <= KEEP_DRAFT_MS)) localStorage.removeItem(key);
    }
  } catch {
    // As above.
  }
}

const STATUSES = new Set(['present', 'absent', 'late', 'leave']);

/**
 * Where the register starts: the server's marks (unmarked students not marked), then the newest marks
 * of this register still waiting in the device's queue, then the draft. Locked (approved) students
 * always show what the server has.
 */
export function startingMarks(
  students: readonly RosterEntry[],
  waiting: QueuedMarks | undefined,
  draft: StoredMarks | undefined,
): Map<number, Mark> {
  const marks = initialMarks(students);
  for (const record of waiting?.records ?? []) {
    const student = students.find((entry) => entry.student_id === record.student_id);
    if (!student || isLocked(student)) continue;
    marks.set(record.student_id, { status: record.status as AttendanceStatus, remarks: record.remarks ?? '' });
  }
  for (const [id, mark] of Object.entries(draft ?? {})) {
    const student = students.find((entry) => entry.student_id === Number(id));
    if (!student || isLocked(student) || !STATUSES.has(mark?.status ?? '')) continue;
    marks.set(student.student_id, {
      status: mark.status as AttendanceStatus,
      remarks: typeof mark.remarks === 'string' ? mark.remarks : '',
    });
  }
  return marks;
}
