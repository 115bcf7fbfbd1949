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

/**
 * A value nested `depth` levels deep (`[[[…1…]]]` or `{"a":{"a":…1…}}`), built only when the case is
 * sent. Until then it is one leaf: copying a case, the mutations' walk over its places and fast-check's
 * printing of a case (a counterexample, a report) never recurse once per level. A case held as the
 * nested value itself overflowed the stack in `resolve` and in fast-check's stringify at 2,000 levels.
 */
export class Nested {
  constructor(
    readonly depth: number,
    readonly arrays: boolean,
  ) {}
  /** The value itself, built without recursion. */
  build(): unknown {
    let value: unknown = 1;
    for (let i = 0; i < this.depth; i += 1) value = this.arrays ? [value] : { a: value };
    return value;
  }
  toString(): string {
    return `Nested(${this.arrays ? '[…]' : '{a:…}'}×${this.depth})`;
  }
  [fc.toStringMethod](): string {
    return this.toString();
  }
}

/** A value the case holds symbolically (resolved or built at send time): a leaf for every walker of a case. */
export const isSymbolic = (value: unknown): value is Ref | Nested => value instanceof Ref || value instanceof Nested;

/**
 * How many objects and arrays a generated value may hold within each other outside a Nested (the
 * schemas, fc.jsonValue and the mutations stay far below): deeper means a generator builds deep values
 * itself, and should make a Nested instead.
 */
export const MAX_PLAIN_DEPTH = 64;

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

/**
 * `value` with every Ref inside it replaced by what it names now, for `who`, and every Nested built.
 * Object keys are kept as own properties whatever they are (`__proto__` too: `out[key] = …` would set
 * the copy's prototype instead, and the probe would never reach the server). A value nested deeper than
 * MAX_PLAIN_DEPTH, or holding itself, is a generator's mistake and said so, not a stack overflow.
 */
export async function resolve(world: FuzzWorld, value: unknown, who: Who, ancestors: object[] = []): Promise<unknown> {
  if (value instanceof Ref) return resolveRef(world, value, who);
  if (value instanceof Nested) return value.build();
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  if (ancestors.includes(value))
    throw new Error('a generated value holds itself: a generator reused an object it had changed');
  if (ancestors.length >= MAX_PLAIN_DEPTH) {
    throw new Error(`a generated value nested over ${MAX_PLAIN_DEPTH} levels deep: deep values are a Nested (refs.ts)`);
  }
  const inside = [...ancestors, value];
  if (Array.isArray(value)) return Promise.all(value.map((item) => resolve(world, item, who, inside)));
  const entries: [string, unknown][] = [];
  for (const [key, item] of Object.entries(value)) entries.push([key, await resolve(world, item, who, inside)]);
  return Object.fromEntries(entries);
}

/** A copy that keeps Ref and Nested instances (structuredClone would turn them into plain objects). */
export function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (value !== null && typeof value === 'object' && !isSymbolic(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copy(v)]));
  }
  return value;
}
