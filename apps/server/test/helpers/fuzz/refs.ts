import fc from 'fast-check';
import { today } from '../../../src/lib/time';
import { type FuzzWorld, KNOWN_CODE, type Who } from './world';

/**
 * Symbolic values: generated as references ("the 37th student"), turned into real values of rows that
 * exist at send time, so a shrunk or replayed case still names rows the database holds.
 */
export type RefKind =
  | 'student'
  | 'child'
  | 'studentCode'
  | 'studentName'
  | 'teacher'
  | 'user'
  | 'attendance'
  | 'openTeacherDay'
  | 'message'
  | 'parentMessage'
  | 'leaveRequest'
  | 'familyLeave'
  | 'phone'
  | 'parentPhone'
  | 'email'
  | 'username'
  | 'password'
  | 'parentCode'
  | 'receipt';

export class Ref {
  constructor(
    readonly kind: RefKind,
    readonly pick: number,
  ) {}
  toString(): string {
    return `Ref(${this.kind}#${this.pick})`;
  }
  [fc.toStringMethod](): string {
    return this.toString();
  }
}

export const ref = (kind: RefKind) => fc.nat({ max: 10_000 }).map((pick) => new Ref(kind, pick));

/** An id no row has. */
export const MISSING_ID = 2_000_000_000;

function pickFrom<T>(list: T[], pick: number): T | undefined {
  return list.length === 0 ? undefined : list[pick % list.length];
}

async function resolveRef(world: FuzzWorld, value: Ref, who: Who): Promise<unknown> {
  const p = await world.currentPools();
  const { parent } = world;
  const children = p.students.filter((s) => s.parent_phone === parent.phone);
  const parentMessages = p.messages.filter((m) => m.recipient === parent.phone);
  switch (value.kind) {
    case 'student':
      return pickFrom(p.students, value.pick)?.id ?? MISSING_ID;
    case 'child':
      return pickFrom(children, value.pick)?.id ?? MISSING_ID;
    case 'studentCode':
      return pickFrom(p.students, value.pick)?.unique_id ?? 'STU9999';
    case 'studentName':
      return pickFrom(p.students, value.pick)?.full_name ?? 'Nobody';
    case 'teacher':
      return pickFrom(p.teachers, value.pick)?.id ?? MISSING_ID;
    case 'user':
      return pickFrom(p.users, value.pick)?.id ?? MISSING_ID;
    case 'openTeacherDay':
      return pickFrom(p.openTeacherDays, value.pick)?.date ?? today();
    case 'attendance':
      return pickFrom(p.attendance, value.pick)?.id ?? MISSING_ID;
    case 'message':
      return pickFrom(p.messages, value.pick)?.id ?? MISSING_ID;
    case 'parentMessage':
      return pickFrom(parentMessages, value.pick)?.id ?? MISSING_ID;
    case 'leaveRequest':
      return pickFrom(p.leaveRequests, value.pick)?.id ?? MISSING_ID;
    case 'familyLeave':
      return (
        pickFrom(
          p.leaveRequests.filter((r) => r.parent_phone === parent.phone),
          value.pick,
        )?.id ?? MISSING_ID
      );
    case 'phone':
      return (
        pickFrom([...p.students.map((s) => s.parent_phone), ...p.teachers.map((x) => x.phone_number)], value.pick) ??
        parent.phone
      );
    case 'parentPhone':
      return parent.phone;
    case 'email':
      return (
        pickFrom(
          p.teachers.flatMap((x) => (x.email ? [x.email] : [])),
          value.pick,
        ) ?? 'nobody@example.test'
      );
    case 'username':
      return (
        pickFrom(
          ['admin', 'ADMIN', world.teacher.username, ...p.teachers.flatMap((x) => [x.username ?? '', x.email ?? ''])],
          value.pick,
        ) || 'admin'
      );
    case 'password':
      // The caller's own current password: change-password goes past "incorrect".
      if (who === 'admin') return world.admin.password;
      if (who === 'teacher') return world.teacher.password;
      return 'not-a-password';
    case 'parentCode':
      return value.pick % 4 === 0 ? KNOWN_CODE.toLowerCase().replace('-', ' ') : KNOWN_CODE;
    case 'receipt': {
      const id = pickFrom(p.messages, value.pick)?.id ?? MISSING_ID;
      return world.t.ctx.tokens.signReceipt(value.pick % 5 === 0 ? MISSING_ID : id);
    }
  }
}

/** `value` with every Ref inside it replaced by what it names now, for `who`. */
export async function resolve(world: FuzzWorld, value: unknown, who: Who): Promise<unknown> {
  if (value instanceof Ref) return resolveRef(world, value, who);
  if (Array.isArray(value)) return Promise.all(value.map((item) => resolve(world, item, who)));
  if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = await resolve(world, item, who);
    return out;
  }
  return value;
}

/** A copy that keeps Ref instances (structuredClone would turn them into plain objects). */
export function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (value !== null && typeof value === 'object' && !(value instanceof Ref)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copy(v)]));
  }
  return value;
}
