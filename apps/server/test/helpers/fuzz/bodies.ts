import fc from 'fast-check';
import type { Cell } from '../workbooks';
import type { Operation } from './openapi';
import type { RefKind } from './refs';
import type { SchemaValues } from './values';

/**
 * Request bodies: from the operation's body schema (valid and mutated, as JSON and as a form where the
 * operation takes one), and bodies no schema describes (empty, broken, deeply nested, other content
 * types, random files). The import calls take a multipart upload, which the document does not describe
 * as a schema: they get random bytes as a file, workbooks with valid and random rows, JSON and broken bodies.
 */

export type BodyCase =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'form'; value: unknown }
  | { kind: 'raw'; contentType: string | undefined; payload: string }
  | { kind: 'multipart'; field: string; filename: string; bytes: Uint8Array | Cell[][] };

export const rawBody: fc.Arbitrary<BodyCase> = fc.oneof(
  fc.constantFrom<BodyCase>(
    { kind: 'raw', contentType: 'application/json', payload: '' },
    { kind: 'raw', contentType: 'application/json', payload: '   ' },
    { kind: 'raw', contentType: 'application/json', payload: '{' },
    { kind: 'raw', contentType: 'application/json', payload: '{"a":' },
    { kind: 'raw', contentType: 'application/json', payload: "{'a': 1}" },
    { kind: 'raw', contentType: 'application/json', payload: 'nul' },
    { kind: 'raw', contentType: 'application/json', payload: 'null' },
    { kind: 'raw', contentType: 'application/json', payload: '"just a string"' },
    { kind: 'raw', contentType: 'application/json', payload: '12345678901234567890123' },
    { kind: 'raw', contentType: 'application/json', payload: '{"__proto__": {"role": "admin"}, "a": 1}' },
    { kind: 'raw', contentType: 'application/json', payload: '{"constructor": {"prototype": {"role": "admin"}}}' },
    { kind: 'raw', contentType: 'application/json', payload: '{"a": 1, "a": 2}' },
    { kind: 'raw', contentType: 'application/json; charset=utf-16', payload: '{}' },
    { kind: 'raw', contentType: 'application/json; charset=latin1', payload: '{"full_name": "\u00e9"}' },
    { kind: 'raw', contentType: 'text/plain', payload: '{"full_name": "x"}' },
    { kind: 'raw', contentType: 'application/xml', payload: '<?xml version="1.0"?><a>1</a>' },
    { kind: 'raw', contentType: 'application/x-www-form-urlencoded', payload: 'a=1&b=2&a=3&%zz=1' },
    { kind: 'raw', contentType: 'multipart/form-data', payload: '--x\r\n' },
    { kind: 'raw', contentType: 'multipart/form-data; boundary=x', payload: '--x\r\nContent-Disposition: form-data' },
    { kind: 'raw', contentType: 'application/octet-stream', payload: '\u0000\u0001\u0002' },
    { kind: 'raw', contentType: undefined, payload: '{"a": 1}' },
    { kind: 'raw', contentType: '', payload: '{}' },
    { kind: 'raw', contentType: ';;;', payload: '{}' },
  ),
  fc.tuple(fc.integer({ min: 500, max: 50_000 }), fc.constantFrom('[', '{"a":')).map(([depth, open]): BodyCase => {
    const close = open === '[' ? ']' : '}';
    return {
      kind: 'raw',
      contentType: 'application/json',
      payload: `${open.repeat(depth)}${open === '[' ? '' : '1'}${close.repeat(depth)}`,
    };
  }),
  fc.constant<BodyCase>({
    kind: 'raw',
    contentType: 'application/json',
    payload: JSON.stringify({ full_name: 'x'.repeat(1024 * 1024 + 16) }),
  }),
  fc
    .string({ unit: 'binary', maxLength: 200 })
    .map((payload): BodyCase => ({ kind: 'raw', contentType: 'application/json', payload })),
);

const randomFile = fc.record({
  field: fc.constantFrom('file', 'file', 'file', 'upload', ''),
  filename: fc.constantFrom(
    'students.xlsx',
    'teachers.xls',
    'data.csv',
    'noext',
    '../../../etc/passwd.xlsx',
    '"quoted".xlsx',
    `${'a'.repeat(300)}.xlsx`,
    'ünïcødé.xlsx',
    '.xlsx',
  ),
  bytes: fc.oneof(
    fc.uint8Array({ maxLength: 2_000 }),
    fc.constant(new Uint8Array(Buffer.from('PK\u0003\u0004 not really a zip'))),
    fc.constant(new Uint8Array(0)),
  ),
});

const cell: fc.Arbitrary<Cell> = fc.oneof(
  fc.constantFrom<Cell>('Asha', 'Rao', '7', '10', 11, '+919876543210', 9876543210, 'a@b.test', null, true, ''),
  fc.string({ maxLength: 20 }),
  fc.integer(),
);
const phone = fc.integer({ min: 6_000_000_000, max: 9_999_999_999 }).map((n) => `+91${n}`);
const name = fc.constantFrom('Asha', 'Ravi', 'Meera', 'Arjun', "D'Souza");

/** Rows each import should take, or nearly: a value for each column, by its header. */
const VALID_ROWS: Record<'students' | 'teachers', Record<string, fc.Arbitrary<Cell>>> = {
  students: {
    first_name: name,
    last_name: name,
    class_name: fc.constantFrom<Cell>('7', '8', 9, '10'),
    parent_phone: phone,
    parent_name: fc.constantFrom<Cell>('Parent', null),
  },
  teachers: {
    first_name: name,
    last_name: name,
    email: fc.uint8Array({ minLength: 4, maxLength: 4 }).map((b) => `t${Buffer.from(b).toString('hex')}@example.test`),
    phone_number: phone,
    subjects: fc.constantFrom<Cell>('Mathematics', 'Science, English', null),
    classes_assigned: fc.constantFrom<Cell>('7', '8, 9', null),
    experience_years: fc.constantFrom<Cell>(0, 5, '12', null),
  },
};

/** The import calls take a multipart upload, which the document does not describe as a schema: handled here. */
function importBody(path: string): fc.Arbitrary<BodyCase> {
  const model = VALID_ROWS[path.includes('/students/') ? 'students' : 'teachers'];
  const header = Object.keys(model);
  const validRow = fc.tuple(...header.map((column) => model[column] as fc.Arbitrary<Cell>));
  return fc.oneof(
    {
      weight: 3,
      arbitrary: randomFile.map(
        ({ field, filename, bytes }): BodyCase => ({ kind: 'multipart', field, filename, bytes }),
      ),
    },
    {
      weight: 2,
      arbitrary: fc
        .array(validRow, { minLength: 1, maxLength: 4 })
        .map(
          (rows): BodyCase => ({ kind: 'multipart', field: 'file', filename: 'import.xlsx', bytes: [header, ...rows] }),
        ),
    },
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          fc.subarray(header, { minLength: 1 }),
          fc.array(fc.array(cell, { minLength: 0, maxLength: header.length + 1 }), { maxLength: 6 }),
        )
        .map(
          ([columns, rows]): BodyCase => ({
            kind: 'multipart',
            field: 'file',
            filename: 'import.xlsx',
            bytes: [columns, ...rows],
          }),
        ),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((value): BodyCase => ({ kind: 'json', value })) },
    { weight: 1, arbitrary: rawBody },
    { weight: 1, arbitrary: fc.constant<BodyCase>({ kind: 'none' }) },
  );
}

export function bodyArbitrary(operation: Operation, { valid, mutated }: SchemaValues): fc.Arbitrary<BodyCase> {
  if (/\/import\/\w+\/import$/.test(operation.path)) return importBody(operation.path);
  const content = operation.spec.requestBody?.content;
  const schema = content?.['application/json']?.schema ?? content?.['application/x-www-form-urlencoded']?.schema;
  if (!schema) {
    if (operation.method === 'GET') return fc.constant<BodyCase>({ kind: 'none' });
    return fc.oneof(
      { weight: 4, arbitrary: fc.constant<BodyCase>({ kind: 'none' }) },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((value): BodyCase => ({ kind: 'json', value })) },
      { weight: 1, arbitrary: rawBody },
    );
  }
  const rootKind: RefKind | undefined = operation.path.includes('/students/')
    ? 'student'
    : operation.path.includes('/teachers/')
      ? 'teacher'
      : undefined;
  const forms = content?.['application/x-www-form-urlencoded']
    ? [{ weight: 3, arbitrary: valid(schema, 'body', rootKind).map((value): BodyCase => ({ kind: 'form', value })) }]
    : [];
  return fc.oneof(
    { weight: 5, arbitrary: valid(schema, 'body', rootKind).map((value): BodyCase => ({ kind: 'json', value })) },
    { weight: 5, arbitrary: mutated(schema, 'body', rootKind).map((value): BodyCase => ({ kind: 'json', value })) },
    ...forms,
    { weight: 1, arbitrary: fc.constant<BodyCase>({ kind: 'none' }) },
    { weight: 2, arbitrary: rawBody },
    {
      weight: 1,
      arbitrary: randomFile.map(
        ({ field, filename, bytes }): BodyCase => ({ kind: 'multipart', field, filename, bytes }),
      ),
    },
  );
}
