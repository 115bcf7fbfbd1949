import fc from 'fast-check';
import { type BodyCase, bodyArbitrary } from './bodies';
import type { OpenApiParameter, Operation } from './openapi';
import { type RefKind, ref } from './refs';
import { BAD_DATES, type SchemaValues, validDate } from './values';
import type { Who } from './world';

/**
 * One case of an operation: its path values (ids of rows that exist, and ids no row has or no id can
 * be), its query (each parameter left out, valid, wrong or repeated, and unknown keys), its body, and
 * the order the four callers send it in. Path values never include "." or "..": clients resolve those
 * as dot segments before sending.
 */

export interface Case {
  /** Sign-in calls only: forget the sign-in throttle first, so the right password can still get in. */
  resetThrottle: boolean;
  path: Record<string, unknown>;
  query: [string, unknown][];
  body: BodyCase;
  order: Who[];
  ip: number;
}

const BAD_IDS = [
  '0',
  '-1',
  '2147483647',
  '2147483648',
  '99999999999999999999',
  '1.5',
  '1e3',
  '0x1F',
  '00001',
  '-0',
  ' 7',
  'abc',
  'null',
  'NaN',
  'Infinity',
  'é',
  '😀',
  '%',
  // Not '.' or '..': a client (WHATWG URL, light-my-request too) resolves them as dot segments, even %2E.
  '.x',
  '..x',
  'a/b',
  '?x=1',
  '#',
  '\u0000',
];

/**
 * A random path value, never a whole "." or ".." (about one string in 20,000 is one: a client sends
 * `/lock/.` as `/lock/`, which is no route, so the 404 broke the role invariants; seed 4242 found it).
 */
const pathText = (maxLength: number) =>
  fc.string({ unit: 'grapheme', minLength: 1, maxLength }).filter((value) => value !== '.' && value !== '..');

/** A path parameter's value: ids (or days) of rows that exist, and ids no row has or no id can be. */
export function pathArbitrary(operation: Operation, parameter: OpenApiParameter): fc.Arbitrary<unknown> {
  if (parameter.schema.format === 'date' || parameter.name === 'date') {
    return fc.oneof(
      { weight: 3, arbitrary: validDate },
      { weight: 3, arbitrary: ref('openTeacherDay') },
      { weight: 2, arbitrary: fc.constantFrom(...BAD_DATES.filter((d) => d !== '')) },
      { weight: 1, arbitrary: pathText(12) },
    );
  }
  const kind: RefKind = operation.path.startsWith('/api/v1/teachers/')
    ? 'teacher'
    : operation.path.includes('/users/')
      ? 'user'
      : operation.path.startsWith('/api/v1/parent/messages/')
        ? 'parentMessage'
        : operation.path.startsWith('/api/v1/parent/children/')
          ? 'child'
          : operation.path.startsWith('/api/v1/parent/leave-requests/')
            ? 'familyLeave'
            : operation.path.startsWith('/api/v1/leave-requests/')
              ? 'leaveRequest'
              : 'student';
  const other: RefKind =
    kind === 'parentMessage'
      ? 'message'
      : kind === 'child'
        ? 'student'
        : kind === 'familyLeave'
          ? 'leaveRequest'
          : kind;
  return fc.oneof(
    { weight: 5, arbitrary: ref(kind) },
    { weight: 1, arbitrary: ref(other) },
    { weight: 3, arbitrary: fc.constantFrom(...BAD_IDS) },
    { weight: 1, arbitrary: pathText(30) },
    { weight: 1, arbitrary: fc.integer({ min: 101, max: 4_000 }).map((n) => '9'.repeat(n)) },
    { weight: 1, arbitrary: fc.nat() },
  );
}

/** One query parameter: its pairs (none, one, or the key repeated), valid or not. */
function queryPairsArbitrary(parameter: OpenApiParameter, { valid }: SchemaValues): fc.Arbitrary<[string, unknown][]> {
  const schema = parameter.schema;
  const one = (arbitrary: fc.Arbitrary<unknown>) =>
    arbitrary.map((value): [string, unknown][] => [[parameter.name, value]]);
  const wrong = fc.oneof(
    fc.constantFrom(
      '',
      'null',
      'undefined',
      '-1',
      '0',
      '1.5',
      'abc',
      '99999999999999999999',
      ' 7 ',
      'true',
      '[]',
      '{}',
    ),
    fc.constantFrom(...BAD_DATES),
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.integer({ min: 101, max: 5_000 }).map((n) => 'q'.repeat(n)),
  );
  return fc.oneof(
    // Leaving a required one out is one of the invalid cases.
    { weight: parameter.required ? 1 : 3, arbitrary: fc.constant<[string, unknown][]>([]) },
    { weight: 6, arbitrary: one(valid(schema, parameter.name)) },
    { weight: 3, arbitrary: one(wrong) },
    // A repeated key (?limit=1&limit=2) arrives as an array.
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid(schema, parameter.name), valid(schema, parameter.name))
        .map(([a, b]): [string, unknown][] => [
          [parameter.name, a],
          [parameter.name, b],
        ]),
    },
  );
}

function queryArbitrary(operation: Operation, values: SchemaValues): fc.Arbitrary<[string, unknown][]> {
  const parameters = (operation.spec.parameters ?? []).filter((p) => p.in === 'query');
  const extra = fc.array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom('__proto__', 'constructor', 'limit[]', 'class_name[0]', 'role', 'dry_run'),
        fc.string({ maxLength: 8 }),
      ),
      fc.oneof(fc.constantFrom('1', 'admin', 'null', ''), fc.string({ maxLength: 8 })),
    ),
    { maxLength: 2 },
  );
  return fc
    .tuple(fc.tuple(...parameters.map((parameter) => queryPairsArbitrary(parameter, values))), extra)
    .map(([lists, more]) => [...lists.flat(), ...more]);
}

export function caseArbitrary(operation: Operation, values: SchemaValues): fc.Arbitrary<Case> {
  const pathParameters = (operation.spec.parameters ?? []).filter((p) => p.in === 'path');
  const pathModel: Record<string, fc.Arbitrary<unknown>> = {};
  for (const parameter of pathParameters) pathModel[parameter.name] = pathArbitrary(operation, parameter);
  return fc.record({
    path: fc.record(pathModel),
    query: queryArbitrary(operation, values),
    body: bodyArbitrary(operation, values),
    order: fc.shuffledSubarray<Who>(['admin', 'teacher', 'none', 'parent'], { minLength: 4, maxLength: 4 }),
    ip: fc.nat({ max: 7 }),
    resetThrottle: fc.boolean(),
  });
}
