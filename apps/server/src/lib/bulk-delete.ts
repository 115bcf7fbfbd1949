import type { DeletedCount } from '@tuitiondesk/contract';
import type { Database, Queryable } from '../db/database';
import { type Actor, recordActivity } from './activity-log';
import { NotFoundError } from './errors';

/** A record that staff delete from its list, as the activity feed and the answers name it. */
export interface DeletedRecord {
  id: number;
  unique_id: string;
  full_name: string;
}

/** What a list (students, teachers) gives the shared delete: its names and two repository calls. */
export interface DeletableRecords {
  /** Singular and lower case, as the texts say it: `student`. */
  noun: 'student' | 'teacher';
  /** The activity a deletion records: `student.deleted`. */
  action: string;
  /** Locks the rows among `ids` that exist, until the transaction ends, and answers their ids. */
  lockExisting: (tx: Queryable, ids: number[]) => Promise<number[]>;
  /** Deletes the rows (with all that belongs to them) and answers those deleted. */
  deleteRows: (tx: Queryable, ids: number[]) => Promise<DeletedRecord[]>;
  /** The 404 for an id that names no record. */
  notFound: (id: number) => NotFoundError;
}

const MISSING_SHOWN = 20;

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Deletes one record and records who did it; 404 when there is none with that id. */
export async function deleteRecord(
  db: Database,
  actor: Actor,
  records: DeletableRecords,
  id: number,
): Promise<{ message: string }> {
  return db.transaction(async (tx) => {
    const [deleted] = await records.deleteRows(tx, [id]);
    if (!deleted) throw records.notFound(id);
    await recordActivity(
      tx,
      actor,
      records.action,
      records.noun === 'student' ? 'student.deleted' : 'teacher.deleted',
      { name: deleted.full_name, unique_id: deleted.unique_id },
    );
    return { message: `${capitalised(records.noun)} deleted successfully` };
  });
}

/**
 * Deletes the listed records, all or nothing: one unknown id refuses the whole request (404, naming
 * the first unknown ids), so a stale selection deletes nobody. An id listed twice counts once.
 */
export async function deleteAllOrNothing(
  db: Database,
  actor: Actor,
  records: DeletableRecords,
  ids: number[],
): Promise<DeletedCount> {
  const unique = [...new Set(ids)];
  return db.transaction(async (tx) => {
    const existing = new Set(await records.lockExisting(tx, unique));
    const missing = unique.filter((id) => !existing.has(id));
    if (missing.length > 0) {
      const shown = `${missing.slice(0, MISSING_SHOWN).join(', ')}${missing.length > MISSING_SHOWN ? ', …' : ''}`;
      const code = records.noun === 'student' ? 'student.bulk_not_found' : 'teacher.bulk_not_found';
      throw new NotFoundError(code, { count: missing.length, ids: shown });
    }
    const deleted = await records.deleteRows(tx, unique);
    await recordActivity(
      tx,
      actor,
      records.action,
      records.noun === 'student' ? 'student.deleted_many' : 'teacher.deleted_many',
      { count: deleted.length },
    );
    return { deleted_count: deleted.length, message: `Successfully deleted ${deleted.length} ${records.noun}(s)` };
  });
}
