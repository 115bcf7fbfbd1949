/**
 * How the activity feed's English names money and families (the feed's params; each client
 * translates the sentence around them, ADR 038).
 */
import type { Queryable } from '../../db/database';
import { familyDetails } from './fee-families';

/** ₹1,25,000.00: rupees as India writes them, for the activity feed's English. */
export function rupees(paise: number): string {
  const sign = paise < 0 ? '-' : '';
  const whole = Math.floor(Math.abs(paise) / 100);
  const rest = String(Math.abs(paise) % 100).padStart(2, '0');
  return `${sign}₹${whole.toLocaleString('en-IN')}.${rest}`;
}

/**
 * How the activity feed names a family: its parent (or "Parent of" its children) and its phone, under
 * the params the erasure of a family no longer on record looks for (`family`, `phone`).
 */
export async function familyWords(tx: Queryable, familyId: number): Promise<{ family: string; phone: string }> {
  const family = await familyDetails(tx, familyId);
  const children = family.students.map((student) => student.full_name).join(', ');
  const name = family.parent_name || (children ? `Parent of ${children}` : `Family ${familyId}`);
  return { family: name, phone: family.parent_phone };
}
