import fc from 'fast-check';
import { addDays, today } from '../../../src/lib/time';
import type { Deref, JsonSchema } from './openapi';
import { copy, isSymbolic, MISSING_ID, Nested, type RefKind, ref } from './refs';

/**
 * Values from the JSON schemas of the OpenAPI document: valid ones, shaped by what a field means (its
 * name), with ids of rows that exist; and mutations of them (wrong types, missing and extra fields,
 * nulls, huge strings, deep nesting, bad dates).
 */

export const BAD_DATES = [
  '2026-02-30',
  '2026-02-29',
  '2026-13-01',
  '2026-00-10',
  '2026-04-31',
  '0000-00-00',
  '0000-01-01',
  '9999-12-31',
  '1900-01-01',
  '2026-2-3',
  '20260203',
  '2026/02/03',
  '2026-02-03T00:00:00Z',
  '-2026-01-01',
  'null',
  'today',
  '',
];

export const validDate = fc.integer({ min: -90, max: 10 }).map((days) => addDays(today(), days));
const newPhone = fc.oneof(
  fc.integer({ min: 6_000_000_000, max: 9_999_999_999 }).map((n) => `+91${n}`),
  fc
    .integer({ min: 6_000_000_000, max: 9_999_999_999 })
    .map((n) => `+91 ${String(n).slice(0, 5)}-${String(n).slice(5)}`),
  fc.constantFrom('+1 (555) 010-9999', '0091 98765 43210', '98765', '+0123456789', '+', '++91987654321'),
);

const BAD_SCALARS: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  -0.0001,
  2_147_483_648,
  -2_147_483_649,
  Number.MAX_SAFE_INTEGER + 2,
  1e308,
  '',
  ' ',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '1',
  '-1',
  '0x10',
  '1e3',
  ...BAD_DATES.slice(0, 6),
  '\u0000',
  'a\u0000b',
  '\u202e\u200b',
  '\ud800',
  '😀👨‍👩‍👧‍👦',
  'Ωmega ≈ ç √ 漢字 العربية',
  '<script>alert(1)</script>',
  "'; DROP TABLE students; --",
  '%s%n%x',
  '../../../../etc/passwd',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the Log4Shell probe is meant literally
  '${jndi:ldap://x}',
  [],
  {},
  [null],
  { $ne: null },
  { $gt: '' },
];

const hugeString = fc
  .tuple(fc.constantFrom(5_000, 100_000, 700_000), fc.constantFrom('x', 'é', '😀', '9', ' ', '+9'))
  .map(([n, unit]) => unit.repeat(Math.ceil(n / unit.length)));

/** The deepest nesting a mutation puts into a body (the raw bodies in bodies.ts go deeper, as text). */
export const MAX_NESTING = 2_000;

/** Arrays (or objects) `depth` levels deep, in a case: a Nested, built only when sent (see refs.ts). */
export const nesting = (depth: number, arrays: boolean): unknown => new Nested(depth, arrays);

/** Arrays or objects 20 to MAX_NESTING levels deep. */
const deepNesting = fc
  .tuple(fc.integer({ min: 20, max: MAX_NESTING }), fc.boolean())
  .map(([depth, arrays]) => nesting(depth, arrays));

const badValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...BAD_SCALARS) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: hugeString },
  { weight: 1, arbitrary: deepNesting },
);

export const text = (min: number, max: number) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength: min, maxLength: max }) },
    {
      weight: 1,
      arbitrary: fc
        .string({ unit: 'grapheme', minLength: min, maxLength: Math.max(min, Math.floor(max / 4)) })
        .filter((s) => s.length <= max),
    },
    {
      weight: 1,
      arbitrary: fc.string({ unit: 'binary', minLength: min, maxLength: max }).filter((s) => s.length <= max),
    },
  );

const ID_HINTS: Record<string, RefKind> = {
  student_id: 'student',
  teacher_id: 'teacher',
  attendance_ids: 'attendance',
};

/** Every place inside a value where a mutation can go: [] is the value itself. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const found: (string | number)[][] = [prefix];
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) found.push(...paths(item, [...prefix, i]));
  } else if (value !== null && typeof value === 'object' && !isSymbolic(value)) {
    for (const [key, item] of Object.entries(value)) found.push(...paths(item, [...prefix, key]));
  }
  return found;
}

type MutationKind = 'replace' | 'delete' | 'null' | 'extra' | 'wrap-array' | 'root';

const MASS_ASSIGNMENT = {
  id: 1,
  unique_id: 'STU0001',
  role: 'admin',
  is_admin: true,
  user_id: 1,
  username: 'admin',
  password_hash: 'x',
  token_version: 99,
  must_change_password: false,
  approved_by: 'Mallory',
  approved_at: '2026-01-01T00:00:00Z',
  created_at: '2000-01-01T00:00:00Z',
};

const extraFields = fc.oneof(
  fc.constant(MASS_ASSIGNMENT),
  fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
);

export interface SchemaValues {
  /** A value the schema accepts (mostly), shaped by what the field means (`name`). */
  valid(schema: JsonSchema, name: string, idKind?: RefKind): fc.Arbitrary<unknown>;
  /** A valid value with one thing made wrong, somewhere inside it. */
  mutated(schema: JsonSchema, name: string, idKind?: RefKind): fc.Arbitrary<unknown>;
}

/** The generators for the schemas of one document (`deref` follows its $refs). */
export function schemaValues(deref: Deref): SchemaValues {
  /** A value the schema accepts (mostly), shaped by what the field means (`name`). */
  function valid(referenced: JsonSchema, name: string, idKind?: RefKind): fc.Arbitrary<unknown> {
    const schema = deref(referenced);
    const base = validInner(schema, name, idKind);
    return schema.nullable
      ? fc.oneof({ weight: 5, arbitrary: base }, { weight: 1, arbitrary: fc.constant(null) })
      : base;
  }

  function validInner(schema: JsonSchema, name: string, idKind?: RefKind): fc.Arbitrary<unknown> {
    if (schema.anyOf) return fc.oneof(...schema.anyOf.map((branch) => valid(branch, name, idKind)));
    if (schema.enum) return fc.constantFrom(...schema.enum);
    switch (schema.type) {
      case 'object': {
        const properties = schema.properties ?? {};
        const model: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [key, property] of Object.entries(properties)) model[key] = valid(property, key, idKind);
        return fc.record(model, { requiredKeys: schema.required ?? [] });
      }
      case 'array': {
        const items = schema.items ?? {};
        const kind = ID_HINTS[name] ?? idKind;
        return fc.array(valid(items, name, kind), {
          minLength: schema.minItems ?? 0,
          maxLength: Math.min(schema.maxItems ?? 6, Math.max(6, schema.minItems ?? 0)),
        });
      }
      case 'integer':
      case 'number': {
        const kind = ID_HINTS[name] ?? idKind;
        if (kind)
          return fc.oneof({ weight: 6, arbitrary: ref(kind) }, { weight: 1, arbitrary: fc.constant(MISSING_ID) });
        if (name === 'to') return newPhone.map((phone) => Number(phone.replace(/\D/g, '')) || 1);
        const min =
          schema.minimum === undefined
            ? -1_000_000
            : schema.exclusiveMinimum === true
              ? schema.minimum + 1
              : schema.minimum;
        const max = Math.min(schema.maximum ?? 1_000_000, 2 ** 31);
        if (schema.type === 'number') return fc.double({ min, max, noNaN: true });
        return fc.oneof(fc.integer({ min, max: Math.min(max, min + 100) }), fc.integer({ min, max }));
      }
      case 'boolean':
        return fc.boolean();
      case 'string':
        return validString(schema, name, idKind);
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  }

  function validString(schema: JsonSchema, name: string, idKind?: RefKind): fc.Arbitrary<unknown> {
    const min = schema.minLength ?? 0;
    const max = Math.min(schema.maxLength ?? 60, 60);
    switch (name) {
      case 'date':
        return fc.oneof({ weight: 3, arbitrary: validDate }, { weight: 1, arbitrary: ref('openTeacherDay') });
      case 'start_date':
      case 'end_date':
      case 'attendance_date':
        return validDate;
      case 'from_date':
      case 'to_date':
        // Leave is asked for days ahead: past and coming days both.
        return fc.oneof(
          validDate,
          fc.integer({ min: 0, max: 70 }).map((days) => addDays(today(), days)),
        );
      case 'phone':
        return fc.oneof({ weight: 4, arbitrary: ref('parentPhone') }, { weight: 1, arbitrary: ref('phone') }, newPhone);
      case 'parent_phone':
      case 'phone_number':
      case 'to':
        return fc.oneof(ref('phone'), newPhone, newPhone);
      case 'email':
        return fc.oneof(
          fc.emailAddress().filter((email) => email.length <= (schema.maxLength ?? 254)),
          ref('email'),
          fc.constant('not-an-email'),
        );
      case 'username':
        return fc.oneof({ weight: 3, arbitrary: ref('username') }, text(Math.max(1, min), max));
      case 'password':
      case 'current_password':
        return fc.oneof({ weight: 3, arbitrary: ref('password') }, text(Math.max(1, min), max));
      case 'otp':
        return fc.oneof(
          fc.integer({ min: 0, max: 999_999 }).map((n) => String(n).padStart(6, '0')),
          fc.constantFrom('000000', '12345', '1234567', 'ABCD-EFGH-1234', ''),
          text(0, 16),
        );
      case 'code':
        return fc.oneof({ weight: 3, arbitrary: ref('parentCode') }, text(Math.max(1, min), 12));
      case 'receipt':
        return fc.oneof({ weight: 3, arbitrary: ref('receipt') }, text(Math.max(1, min), max));
      case 'student_id':
        return ref('studentCode');
      case 'search':
        return fc.oneof(ref('studentName'), ref('studentCode'), text(0, max));
      case 'endpoint':
        return fc.oneof(
          {
            weight: 4,
            arbitrary: fc
              .uint8Array({ minLength: 4, maxLength: 8 })
              .map((b) => `https://fcm.googleapis.com/fcm/send/${Buffer.from(b).toString('hex')}`),
          },
          { weight: 1, arbitrary: fc.webUrl() },
          {
            weight: 1,
            arbitrary: fc.constantFrom('http://push.example.test/x', 'javascript:alert(1)', 'https://', 'not a url'),
          },
        );
      case 'p256dh':
        return fc.uint8Array({ minLength: 65, maxLength: 65 }).map((b) => Buffer.from(b).toString('base64url'));
      case 'auth':
        return fc.uint8Array({ minLength: 16, maxLength: 16 }).map((b) => Buffer.from(b).toString('base64url'));
      case 'full_name':
      case 'parent_name':
      case 'first_name':
      case 'last_name':
        return fc.oneof(
          { weight: 2, arbitrary: fc.constantFrom('Asha Rao', 'Ravi', 'Meera Das', "D'Souza", 'Ngũyễn Thị') },
          { weight: 1, arbitrary: text(Math.max(1, min), max) },
        );
    }
    if (schema.format === 'date') return validDate;
    if (schema.pattern) {
      const pattern = new RegExp(schema.pattern);
      return fc.stringMatching(pattern).filter((s) => s.length <= (schema.maxLength ?? Number.POSITIVE_INFINITY));
    }
    void idKind;
    return text(min, max);
  }

  /** A valid value with one thing made wrong, somewhere inside it. */
  function mutated(schema: JsonSchema, name: string, idKind?: RefKind): fc.Arbitrary<unknown> {
    return fc
      .record({
        value: valid(schema, name, idKind),
        kind: fc.constantFrom<MutationKind>('replace', 'replace', 'delete', 'null', 'extra', 'wrap-array', 'root'),
        at: fc.nat(),
        bad: badValue,
        extra: extraFields,
      })
      .map(({ value, kind, at, bad, extra }) => {
        const root = copy(value);
        const places = paths(root);
        const place = places[at % places.length] ?? [];
        if (kind === 'root') return bad;
        if (kind === 'wrap-array') return [root];
        if (place.length === 0) {
          if (kind === 'extra' && root !== null && typeof root === 'object' && !Array.isArray(root)) {
            return { ...(root as object), ...extra };
          }
          return kind === 'null' ? null : bad;
        }
        const parentPath = place.slice(0, -1);
        const key = place[place.length - 1] as string | number;
        let holder = root as Record<string | number, unknown>;
        for (const step of parentPath) holder = holder[step] as Record<string | number, unknown>;
        if (kind === 'delete') {
          if (Array.isArray(holder)) holder.splice(key as number, 1);
          else delete holder[key];
        } else if (kind === 'null') holder[key] = null;
        else if (kind === 'extra') {
          const target = holder[key];
          if (target !== null && typeof target === 'object' && !Array.isArray(target) && !isSymbolic(target)) {
            addFields(target, extra);
          } else holder[key] = bad;
        } else holder[key] = bad;
        return root;
      });
  }

  return { valid, mutated };
}

/**
 * `extra`'s fields added to `target` as own fields, `__proto__` too (Object.assign would set the
 * target's prototype instead, and the probe would never reach the server).
 */
export function addFields(target: object, extra: object): void {
  for (const [key, value] of Object.entries(extra)) {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  }
}
