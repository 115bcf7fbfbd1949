import type { Queryable } from '../db/database';

/** A staff account that did something. */
export interface Actor {
  id: number;
  full_name: string;
}

/** Who did it: a staff account, or (id null) someone without one, e.g. a parent replying on WhatsApp. */
export interface ActivityActor {
  id: number | null;
  full_name: string;
}

/**
 * Every change staff make leaves one row in the activity feed. Call it with the same transaction as
 * the change, so the feed never shows a change that was rolled back, nor misses one that was not.
 */
export async function recordActivity(
  tx: Queryable,
  actor: ActivityActor,
  action: string,
  description: string,
): Promise<void> {
  await tx.query('INSERT INTO activities (user_id, actor, action, description) VALUES ($1, $2, $3, $4)', [
    actor.id,
    actor.full_name,
    action,
    description,
  ]);
}

/** `Class 9`, `Classes 8, 9`: class names as the console writes them (capital C), in number order. */
export function classesText(classNames: readonly string[]): string {
  const sorted = [...new Set(classNames)].sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
  return `${sorted.length === 1 ? 'Class' : 'Classes'} ${sorted.join(', ')}`;
}

/** `1 student`, `3 students`. */
export function plural(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : pluralNoun}`;
}
