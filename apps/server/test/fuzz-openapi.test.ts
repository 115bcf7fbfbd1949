import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { addDays, today } from '../src/lib/time';
import { hashAccessCode } from '../src/modules/parents/access-codes';
import { checkIntegrity } from './helpers/integrity';
import { type Access, accessOf } from './helpers/roles';
import { auth, createStudent, createTeacher, createTestApp, login, uniquePhone } from './helpers/test-app';
import { type Cell, multipartBody, workbook } from './helpers/workbooks';

/**
 * Property-based fuzzing of every operation of the OpenAPI document (issue 6, "Nothing lost, nobody
 * let in"). For each operation fast-check generates path values, query strings and bodies, from the
 * operation's own schemas (valid values, with ids of rows that exist) and mutations of them (wrong
 * types, missing and extra fields, nulls, huge strings, deep nesting, bad dates, other content types,
 * empty and broken bodies); each case is sent as the admin, as a teacher, with no token and as a
 * parent. Properties, for every answer:
 *
 * - never a 5xx;
 * - every 4xx is JSON with a string `detail`;
 * - no token on a call that is not public: 401; a parent token on a staff call, or a staff token on
 *   a parent call: 403; a teacher on an admin-only call: 403 (roles from helpers/roles.ts);
 * - every /api/ answer carries `Cache-Control: no-store`.
 *
 * After each operation, and at the end, helpers/integrity.ts looks for half-written data.
 *
 * Environment: FUZZ_SEED (fixed by default, so CI runs the same cases), FUZZ_RUNS (cases per
 * operation), FUZZ_TIME_LIMIT_MS (the whole walk; each operation gets its share of what is left, and
 * fast-check's interruptAfterTimeLimit stops it there). A longer run:
 * `FUZZ_RUNS=300 FUZZ_TIME_LIMIT_MS=900000 npx vitest run --project server test/fuzz-openapi.test.ts`.
 *
 * State: the cases change the database as they go (clear-all empties tables, deletes remove the
 * teacher whose token is in use, a new access code ends the parent's token). Before each case the
 * data is topped up through the API and the identities are checked: a deleted teacher is replaced by
 * a new one, a parent token whose code was re-issued is signed again. Passwords: a change-password
 * case may send the caller's real current password (that path must be fuzzed too); when it succeeds
 * the new token and password from the answer replace the old ones, so later cases keep going deep.
 * The admin's session ending any other way fails the run: nothing else may end it. Sign-in cases
 * (staff and parent) clear the sign-in throttle first in half of the cases, so the right password is
 * reached as well as the 429.
 *
 * Handled explicitly rather than from a schema: the import calls (multipart, not described as a body
 * schema) get random bytes as a file, workbooks with valid and random rows, JSON and broken bodies.
 * WhatsApp is configured with a stand-in that accepts every message, so send-whatsapp goes past its
 * "not configured" 503. Two calls cannot reach their success path: two-factor confirm and disable
 * need a current code from an authenticator, which no generated value is (they are fuzzed all the
 * same, and their refusals checked). Path values never include "." or "..": clients resolve those
 * as dot segments before sending.
 */

const SEED = envInt('FUZZ_SEED', 62_026);
const RUNS = envInt('FUZZ_RUNS', 10);
const TIME_LIMIT_MS = envInt('FUZZ_TIME_LIMIT_MS', 35_000);
/** FUZZ_ONLY=<regex>: fuzz only the matching operations ("POST /api/v1/students/"); the rest show as skipped. */
const ONLY = process.env.FUZZ_ONLY ? new RegExp(process.env.FUZZ_ONLY) : undefined;
/** An answer slower than this is a failure of its own (a hung request would stall every later one). */
const REQUEST_TIMEOUT_MS = 15_000;
/** Fastify's default maxParamLength: a longer path segment matches no route (414 before any auth). */
const MAX_PARAM_LENGTH = 100;

function envInt(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value.trim() === '') return fallback;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 0) throw new Error(`${name} must be a whole number, got ${value}`);
  return parsed;
}

// ---------------------------------------------------------------------------------------------
// The app, its identities and its data
// ---------------------------------------------------------------------------------------------

/** WhatsApp is configured with a stand-in that accepts everything, so send-whatsapp is fuzzed past its 503. */
const whatsappSent: { to: string; body: string }[] = [];
const backupDir = mkdtempSync(path.join(os.tmpdir(), 'tuitiondesk-fuzz-backups-'));
const t = await createTestApp({
  // Clear-all takes a backup first, and POST /backups writes one: into a folder of this run's own.
  config: { backupDir },
  prepare: (ctx) => ({
    ...ctx,
    whatsapp: {
      send: async (to: string, body: string) => {
        whatsappSent.push({ to, body });
        return { providerMessageId: `wamid.fuzz${whatsappSent.length}` };
      },
    },
  }),
});
afterAll(async () => {
  await t?.close();
  rmSync(backupDir, { recursive: true, force: true });
});

interface JsonSchema {
  $ref?: string;
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
}

interface OpenApiParameter {
  in: 'path' | 'query' | 'header';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}

interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  consumes?: string[];
  description?: string;
}

interface Operation {
  method: string;
  path: string;
  access: Access;
  spec: OpenApiOperation;
}

const documentResponse = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
const openapi = documentResponse.json() as {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
};

/** `{$ref: '#/components/schemas/X'}` → the schema it names. */
function deref(schema: JsonSchema): JsonSchema {
  const name = schema.$ref?.replace('#/components/schemas/', '');
  const target = name === undefined ? undefined : openapi.components?.schemas?.[name];
  if (name !== undefined && !target) throw new Error(`the OpenAPI document has no schema ${schema.$ref}`);
  return target ? deref(target) : schema;
}
const OPERATIONS: Operation[] = Object.entries(openapi.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, spec]) => {
    const access = accessOf(method, path);
    if (!access) throw new Error(`${method.toUpperCase()} ${path} is not in helpers/roles.ts: say who may call it`);
    return { method: method.toUpperCase(), path, access, spec };
  }),
);

type Who = 'admin' | 'teacher' | 'none' | 'parent';

interface StaffIdentity {
  userId: number;
  username: string;
  password: string;
  token: string;
}

const KNOWN_CODE = 'K7M2-Q9XR';
const knownCodeHash = await hashAccessCode('K7M2Q9XR');

const adminToken = await t.adminToken();
const admin: StaffIdentity = {
  userId: (await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: auth(adminToken) })).json().id,
  username: 'admin',
  password: 'admin-test-password',
  token: adminToken,
};
let teacher: StaffIdentity = await newTeacher();
const parent = { phone: uniquePhone(), token: '', version: -1 };

async function newTeacher(): Promise<StaffIdentity> {
  const created = await createTeacher(t.app, admin.token, {
    first_name: 'Fuzz',
    last_name: 'Teacher',
    email: `fuzz.teacher.${randomBytes(4).toString('hex')}@example.test`,
  });
  const token = await login(t.app, created.username, created.initial_password);
  const me = (await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: auth(token) })).json();
  return { userId: me.id, username: created.username, password: created.initial_password, token };
}

async function tokenVersion(userId: number): Promise<number | undefined> {
  const rows = await t.db.query<{ token_version: number }>('SELECT token_version FROM users WHERE id = $1', [userId]);
  return rows[0]?.token_version;
}

/** Before each case: every identity holds a token the server accepts. */
async function refreshIdentities(): Promise<void> {
  const adminClaims = await t.ctx.tokens.verify(admin.token);
  if (adminClaims?.tokenVersion !== (await tokenVersion(admin.userId))) {
    throw new Error("The admin's session ended, though no case changed the admin's password");
  }
  const teacherClaims = await t.ctx.tokens.verify(teacher.token);
  if (teacherClaims?.tokenVersion !== (await tokenVersion(teacher.userId))) {
    // Deleted by a delete or clear-all case: a new teacher takes over.
    teacher = await newTeacher();
    setup.teachersReplaced += 1;
  }
  const access = await t.db.query<{ token_version: number }>(
    'SELECT token_version FROM parent_access WHERE phone = $1',
    [parent.phone],
  );
  let version = access[0]?.token_version;
  if (version === undefined) {
    await t.db.query("INSERT INTO parent_access (phone, code_hash, issued_by) VALUES ($1, $2, 'Fuzz')", [
      parent.phone,
      knownCodeHash,
    ]);
    version = 0;
  }
  if (version !== parent.version) {
    // A case issued a new code for the parent's phone: the parent "got" it, and still signs in with the known one.
    await t.db.query('UPDATE parent_access SET code_hash = $2 WHERE phone = $1', [parent.phone, knownCodeHash]);
    parent.token = await t.ctx.tokens.signParent({ phone: parent.phone, tokenVersion: version });
    parent.version = version;
  }
}

const setup = { requests: 0, teachersReplaced: 0, topUps: 0 };

async function setupCall(method: 'POST' | 'PUT', url: string, payload: unknown, token = admin.token) {
  setup.requests += 1;
  const response = await t.app.inject({ method, url, headers: auth(token), payload: payload as never });
  if (response.statusCode >= 300)
    throw new Error(`setup ${method} ${url} failed: ${response.statusCode} ${response.body}`);
  return response;
}

let markDayOffset = 0;
let teacherDayOffset = 0;

/**
 * Before each case: enough rows that ids exist and handlers go deep (students of every class and of
 * the parent's phone, teachers, pending and approved attendance, teacher attendance, messages, a push
 * subscription). Destructive cases empty tables; this puts rows back, through the API.
 */
async function ensureData(): Promise<void> {
  const [counts] = await t.db.query<Record<string, number>>(
    `SELECT (SELECT count(*) FROM students)::int AS students,
            (SELECT count(*) FROM students WHERE parent_phone = $1)::int AS children,
            (SELECT count(*) FROM teachers)::int AS teachers,
            (SELECT count(*) FROM attendance WHERE approved_at IS NULL)::int AS pending,
            (SELECT count(*) FROM attendance WHERE approved_at IS NOT NULL)::int AS approved,
            (SELECT count(*) FROM teacher_attendance ta
              WHERE NOT EXISTS (SELECT 1 FROM teacher_attendance_locks l WHERE l.date = ta.date))::int AS teacher_marks,
            (SELECT count(*) FROM messages WHERE recipient = $1)::int AS parent_messages,
            (SELECT count(*) FROM push_subscriptions WHERE phone = $1)::int AS devices`,
    [parent.phone],
  );
  const c = counts as Record<string, number>;
  let toppedUp = false;
  if ((c.children ?? 0) < 2) {
    toppedUp = true;
    for (const className of ['7', '9']) {
      await createStudent(t.app, admin.token, {
        full_name: `Child ${className} Fuzz`,
        class_name: className,
        parent_phone: parent.phone,
        parent_name: 'Parent Fuzz',
      });
      setup.requests += 1;
    }
  }
  if ((c.students ?? 0) < 8) {
    toppedUp = true;
    for (const className of ['7', '8', '9', '10', '7', '8']) {
      await createStudent(t.app, admin.token, { full_name: `Student ${className} Fuzz`, class_name: className });
      setup.requests += 1;
    }
  }
  if ((c.teachers ?? 0) < 3) {
    toppedUp = true;
    for (let i = 0; i < 2; i += 1) {
      await createTeacher(t.app, admin.token, { email: `seed.${randomBytes(4).toString('hex')}@example.test` });
      setup.requests += 1;
    }
  }
  if ((c.pending ?? 0) < 3 || (c.approved ?? 0) < 3) {
    toppedUp = true;
    // A day that has no record yet for most students: marking never meets an approved record.
    markDayOffset = (markDayOffset % 40) + 1;
    const date = addDays(today(), -markDayOffset);
    const students = await t.db.query<{ id: number }>(
      'SELECT id FROM students s WHERE NOT EXISTS (SELECT 1 FROM attendance a WHERE a.student_id = s.id AND a.date = $1) LIMIT 12',
      [date],
    );
    if (students.length > 0) {
      const statuses = ['present', 'absent', 'late', 'leave'];
      await setupCall('POST', '/api/v1/attendance/mark', {
        date,
        records: students.map((s, i) => ({ student_id: s.id, status: statuses[i % 4], remarks: i % 3 ? null : 'ok' })),
      });
      const marked = await t.db.query<{ id: number }>(
        'SELECT id FROM attendance WHERE date = $1 AND approved_at IS NULL ORDER BY id',
        [date],
      );
      const half = marked.slice(0, Math.ceil(marked.length / 2)).map((row) => row.id);
      if (half.length > 0) await setupCall('POST', '/api/v1/attendance/approve', { attendance_ids: half });
    }
  }
  if ((c.teacher_marks ?? 0) < 2) {
    toppedUp = true;
    const teachers = await t.db.query<{ id: number }>('SELECT id FROM teachers ORDER BY id LIMIT 4');
    teacherDayOffset += 1;
    const date = addDays(today(), -(teacherDayOffset % 80) - 1);
    const locked = await t.db.query('SELECT 1 FROM teacher_attendance_locks WHERE date = $1', [date]);
    if (teachers.length > 0 && locked.length === 0) {
      await setupCall('POST', '/api/v1/teacher-attendance/mark', {
        date,
        teacher_records: teachers.map((row, i) => ({
          teacher_id: row.id,
          status: ['present', 'absent', 'half_day', 'on_leave'][i % 4],
          check_in_time: '09:00',
          check_out_time: '17:30:00',
        })),
      });
    }
  }
  if ((c.devices ?? 0) < 1) {
    toppedUp = true;
    await refreshIdentities();
    await setupCall(
      'POST',
      '/api/v1/parent/push/subscriptions',
      {
        endpoint: `https://fcm.googleapis.com/fcm/send/${randomBytes(8).toString('hex')}`,
        keys: { p256dh: randomBytes(65).toString('base64url'), auth: randomBytes(16).toString('base64url') },
      },
      parent.token,
    );
  }
  if ((c.parent_messages ?? 0) < 2) {
    toppedUp = true;
    await setupCall('POST', '/api/v1/messages/send-to-parents', {
      subject: 'Fuzz notice',
      message: 'The centre is open on Saturday.',
      recipients: 'all_parents',
    });
  }
  if (toppedUp) {
    setup.topUps += 1;
    pools = undefined;
  }
}

interface Pools {
  students: { id: number; unique_id: string; full_name: string; parent_phone: string }[];
  teachers: { id: number; email: string | null; username: string | null; phone_number: string }[];
  users: { id: number }[];
  /** Days with teacher attendance marked and not yet locked: lock and remarks go through on them. */
  openTeacherDays: { date: string }[];
  attendance: { id: number }[];
  messages: { id: number; recipient: string }[];
}
let pools: Pools | undefined;

async function currentPools(): Promise<Pools> {
  pools ??= {
    students: await t.db.query('SELECT id, unique_id, full_name, parent_phone FROM students ORDER BY id'),
    teachers: await t.db.query(
      'SELECT t.id, t.email, u.username, t.phone_number FROM teachers t LEFT JOIN users u ON u.id = t.user_id ORDER BY t.id',
    ),
    users: await t.db.query('SELECT id FROM users ORDER BY id'),
    openTeacherDays: await t.db.query(
      `SELECT DISTINCT date FROM teacher_attendance ta
        WHERE NOT EXISTS (SELECT 1 FROM teacher_attendance_locks l WHERE l.date = ta.date) ORDER BY date`,
    ),
    attendance: await t.db.query('SELECT id FROM attendance ORDER BY approved_at IS NULL DESC, id'),
    messages: await t.db.query('SELECT id, recipient FROM messages ORDER BY id DESC LIMIT 200'),
  };
  return pools;
}

// ---------------------------------------------------------------------------------------------
// Symbolic values: generated as references, turned into real ids (of rows that exist now) at send time
// ---------------------------------------------------------------------------------------------

type RefKind =
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
  | 'phone'
  | 'parentPhone'
  | 'email'
  | 'username'
  | 'password'
  | 'parentCode'
  | 'receipt';

class Ref {
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

const ref = (kind: RefKind) => fc.nat({ max: 10_000 }).map((pick) => new Ref(kind, pick));
const MISSING_ID = 2_000_000_000;

function pickFrom<T>(list: T[], pick: number): T | undefined {
  return list.length === 0 ? undefined : list[pick % list.length];
}

async function resolveRef(value: Ref, who: Who): Promise<unknown> {
  const p = await currentPools();
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
          ['admin', 'ADMIN', teacher.username, ...p.teachers.flatMap((x) => [x.username ?? '', x.email ?? ''])],
          value.pick,
        ) || 'admin'
      );
    case 'password':
      // The caller's own current password: change-password goes past "incorrect".
      if (who === 'admin') return admin.password;
      if (who === 'teacher') return teacher.password;
      return 'not-a-password';
    case 'parentCode':
      return value.pick % 4 === 0 ? KNOWN_CODE.toLowerCase().replace('-', ' ') : KNOWN_CODE;
    case 'receipt': {
      const id = pickFrom(p.messages, value.pick)?.id ?? MISSING_ID;
      return t.ctx.tokens.signReceipt(value.pick % 5 === 0 ? MISSING_ID : id);
    }
  }
}

async function resolve(value: unknown, who: Who): Promise<unknown> {
  if (value instanceof Ref) return resolveRef(value, who);
  if (Array.isArray(value)) return Promise.all(value.map((item) => resolve(item, who)));
  if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = await resolve(item, who);
    return out;
  }
  return value;
}

/** A copy that keeps Ref instances (structuredClone would turn them into plain objects). */
function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (value !== null && typeof value === 'object' && !(value instanceof Ref)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copy(v)]));
  }
  return value;
}

// ---------------------------------------------------------------------------------------------
// Arbitraries from JSON schemas
// ---------------------------------------------------------------------------------------------

const BAD_DATES = [
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

const validDate = fc.integer({ min: -90, max: 10 }).map((days) => addDays(today(), days));
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

const deepNesting = fc.tuple(fc.integer({ min: 20, max: 2_000 }), fc.boolean()).map(([depth, arrays]) => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i += 1) value = arrays ? [value] : { a: value };
  return value;
});

const badValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...BAD_SCALARS) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: hugeString },
  { weight: 1, arbitrary: deepNesting },
);

const text = (min: number, max: number) =>
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

/** A value the schema accepts (mostly), shaped by what the field means (`name`). */
function valid(referenced: JsonSchema, name: string, idKind?: RefKind): fc.Arbitrary<unknown> {
  const schema = deref(referenced);
  const base = validInner(schema, name, idKind);
  return schema.nullable ? fc.oneof({ weight: 5, arbitrary: base }, { weight: 1, arbitrary: fc.constant(null) }) : base;
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
      if (kind) return fc.oneof({ weight: 6, arbitrary: ref(kind) }, { weight: 1, arbitrary: fc.constant(MISSING_ID) });
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

/** Every place inside a value where a mutation can go: [] is the value itself. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const found: (string | number)[][] = [prefix];
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) found.push(...paths(item, [...prefix, i]));
  } else if (value !== null && typeof value === 'object' && !(value instanceof Ref)) {
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
        if (target !== null && typeof target === 'object' && !Array.isArray(target) && !(target instanceof Ref)) {
          Object.assign(target, extra);
        } else holder[key] = bad;
      } else holder[key] = bad;
      return root;
    });
}

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

type BodyCase =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'form'; value: unknown }
  | { kind: 'raw'; contentType: string | undefined; payload: string }
  | { kind: 'multipart'; field: string; filename: string; bytes: Uint8Array | Cell[][] };

interface Case {
  /** Sign-in calls only: forget the sign-in throttle first, so the right password can still get in. */
  resetThrottle: boolean;
  path: Record<string, unknown>;
  query: [string, unknown][];
  body: BodyCase;
  order: Who[];
  ip: number;
}

const rawBody: fc.Arbitrary<BodyCase> = fc.oneof(
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
const STUDENT_HEADER = ['first_name', 'last_name', 'class_name', 'parent_phone', 'parent_name'];
const TEACHER_HEADER = [
  'first_name',
  'last_name',
  'email',
  'phone_number',
  'subjects',
  'classes_assigned',
  'experience_years',
];

/** A row the import should take (in the header's column order), or nearly. */
function validImportRow(path: string): fc.Arbitrary<Cell[]> {
  const phone = fc.integer({ min: 6_000_000_000, max: 9_999_999_999 }).map((n) => `+91${n}`);
  const name = fc.constantFrom('Asha', 'Ravi', 'Meera', 'Arjun', "D'Souza");
  if (path.includes('/students/')) {
    return fc.tuple(name, name, fc.constantFrom<Cell>('7', '8', 9, '10'), phone, fc.constantFrom<Cell>('Parent', null));
  }
  return fc.tuple(
    name,
    name,
    fc.uint8Array({ minLength: 4, maxLength: 4 }).map((b) => `t${Buffer.from(b).toString('hex')}@example.test`),
    phone,
    fc.constantFrom<Cell>('Mathematics', 'Science, English', null),
    fc.constantFrom<Cell>('7', '8, 9', null),
    fc.constantFrom<Cell>(0, 5, '12', null),
  );
}

/** The import calls take a multipart upload, which the document does not describe as a schema: handled here. */
function importBody(path: string): fc.Arbitrary<BodyCase> {
  const header = path.includes('/students/') ? STUDENT_HEADER : TEACHER_HEADER;
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
        .array(validImportRow(path), { minLength: 1, maxLength: 4 })
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

function bodyArbitrary(operation: Operation): fc.Arbitrary<BodyCase> {
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

function pathArbitrary(operation: Operation, parameter: OpenApiParameter): fc.Arbitrary<unknown> {
  if (parameter.schema.format === 'date' || parameter.name === 'date') {
    return fc.oneof(
      { weight: 3, arbitrary: validDate },
      { weight: 3, arbitrary: ref('openTeacherDay') },
      { weight: 2, arbitrary: fc.constantFrom(...BAD_DATES.filter((d) => d !== '')) },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }) },
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
          : 'student';
  const other: RefKind = kind === 'parentMessage' ? 'message' : kind === 'child' ? 'student' : kind;
  return fc.oneof(
    { weight: 5, arbitrary: ref(kind) },
    { weight: 1, arbitrary: ref(other) },
    { weight: 3, arbitrary: fc.constantFrom(...BAD_IDS) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }) },
    { weight: 1, arbitrary: fc.integer({ min: 101, max: 4_000 }).map((n) => '9'.repeat(n)) },
    { weight: 1, arbitrary: fc.nat() },
  );
}

/** One query parameter: its pairs (none, one, or the key repeated), valid or not. */
function queryPairsArbitrary(parameter: OpenApiParameter): fc.Arbitrary<[string, unknown][]> {
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

function queryArbitrary(operation: Operation): fc.Arbitrary<[string, unknown][]> {
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
    .tuple(fc.tuple(...parameters.map(queryPairsArbitrary)), extra)
    .map(([lists, more]) => [...lists.flat(), ...more]);
}

function caseArbitrary(operation: Operation): fc.Arbitrary<Case> {
  const pathParameters = (operation.spec.parameters ?? []).filter((p) => p.in === 'path');
  const pathModel: Record<string, fc.Arbitrary<unknown>> = {};
  for (const parameter of pathParameters) pathModel[parameter.name] = pathArbitrary(operation, parameter);
  return fc.record({
    path: fc.record(pathModel),
    query: queryArbitrary(operation),
    body: bodyArbitrary(operation),
    order: fc.shuffledSubarray<Who>(['admin', 'teacher', 'none', 'parent'], { minLength: 4, maxLength: 4 }),
    ip: fc.nat({ max: 7 }),
    resetThrottle: fc.boolean(),
  });
}

interface Sent {
  who: Who;
  method: string;
  url: string;
  contentType: string | undefined;
  body: string;
  /** The JSON or form body as sent, refs resolved. */
  resolvedBody: unknown;
  longPathValue: boolean;
}

function encodePathValue(value: unknown): string {
  return encodeURIComponent(String(value)).replace(/\./g, '%2E');
}

async function send(
  operation: Operation,
  c: Case,
  who: Who,
): Promise<{ sent: Sent; response: LightMyRequestResponse }> {
  let url = operation.path;
  let longPathValue = false;
  for (const [name, raw] of Object.entries(c.path)) {
    const value = String(await resolve(raw, who));
    // The router measures the decoded value.
    if (value.length > MAX_PARAM_LENGTH) longPathValue = true;
    const encoded = encodePathValue(value);
    url = url.replace(`{${name}}`, encoded);
  }
  const queryParts: string[] = [];
  for (const [key, raw] of c.query) {
    const value = await resolve(raw, who);
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    queryParts.push(`${encodeURIComponent(key)}=${encodeURIComponent(text ?? '')}`);
  }
  if (queryParts.length > 0) url += `?${queryParts.join('&')}`;

  const headers: Record<string, string> = {};
  if (who === 'admin') headers.authorization = `Bearer ${admin.token}`;
  if (who === 'teacher') headers.authorization = `Bearer ${teacher.token}`;
  if (who === 'parent') headers.authorization = `Bearer ${parent.token}`;

  let payload: string | Buffer | undefined;
  let resolvedBody: unknown;
  const body = c.body;
  if (body.kind === 'json') {
    resolvedBody = await resolve(body.value, who);
    payload = JSON.stringify(resolvedBody) ?? 'null';
    headers['content-type'] = 'application/json';
  } else if (body.kind === 'form') {
    const value = await resolve(body.value, who);
    resolvedBody = value;
    const form = new URLSearchParams();
    if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value))
        form.append(key, typeof item === 'string' ? item : JSON.stringify(item));
    }
    payload = form.toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (body.kind === 'raw') {
    payload = body.payload;
    if (body.contentType !== undefined) headers['content-type'] = body.contentType;
  } else if (body.kind === 'multipart') {
    const content = Array.isArray(body.bytes) ? workbook(body.bytes) : Buffer.from(body.bytes);
    const multipart = multipartBody([{ field: body.field, filename: body.filename, content }]);
    payload = multipart.payload;
    Object.assign(headers, multipart.headers);
  }

  let timer: NodeJS.Timeout | undefined;
  const response = await Promise.race([
    t.app.inject({
      method: operation.method as 'GET',
      url,
      headers,
      payload,
      remoteAddress: `198.51.100.${10 + c.ip}`,
    }),
    new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(`${operation.method} ${url.slice(0, 200)} as ${who}: no answer within ${REQUEST_TIMEOUT_MS} ms`),
          ),
        REQUEST_TIMEOUT_MS,
      );
    }),
  ]).finally(() => clearTimeout(timer));
  const shown = payload === undefined ? '' : Buffer.isBuffer(payload) ? `<${payload.length} bytes>` : payload;
  return {
    sent: {
      who,
      method: operation.method,
      url: url.length > 300 ? `${url.slice(0, 300)}…(${url.length} chars)` : url,
      contentType: headers['content-type'],
      body: shown.length > 600 ? `${shown.slice(0, 600)}…(${shown.length} chars)` : shown,
      resolvedBody,
      longPathValue,
    },
    response,
  };
}

// ---------------------------------------------------------------------------------------------
// Properties and figures
// ---------------------------------------------------------------------------------------------

const figures = {
  requests: 0,
  byClass: { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 } as Record<string, number>,
  byStatus: new Map<number, number>(),
  fiveHundreds: [] as string[],
  casesByOperation: new Map<string, number>(),
  successByOperation: new Map<string, number>(),
};

function record(operation: Operation, response: LightMyRequestResponse): void {
  figures.requests += 1;
  const statusClass = `${Math.floor(response.statusCode / 100)}xx`;
  figures.byClass[statusClass] = (figures.byClass[statusClass] ?? 0) + 1;
  figures.byStatus.set(response.statusCode, (figures.byStatus.get(response.statusCode) ?? 0) + 1);
  if (response.statusCode < 300) {
    const key = `${operation.method} ${operation.path}`;
    figures.successByOperation.set(key, (figures.successByOperation.get(key) ?? 0) + 1);
  }
}

/** What is wrong with this answer, or undefined. */
function problemWith(operation: Operation, sent: Sent, response: LightMyRequestResponse): string | undefined {
  const status = response.statusCode;
  if (status >= 500) return `answered ${status}`;
  if (response.headers['cache-control'] !== 'no-store') {
    return `Cache-Control is ${String(response.headers['cache-control'])}, not no-store`;
  }
  if (status >= 400) {
    let detail: unknown;
    try {
      detail = (JSON.parse(response.body) as { detail?: unknown }).detail;
    } catch {
      return `${status} without a JSON body`;
    }
    if (typeof detail !== 'string' || detail.trim() === '') return `${status} without a string detail`;
    if (!String(response.headers['content-type']).startsWith('application/json')) {
      return `${status} with content type ${String(response.headers['content-type'])}`;
    }
  }
  // A path segment longer than Fastify's maxParamLength is refused by the router, before any route: 414.
  if (sent.longPathValue)
    return status === 414 ? undefined : `a path value over ${MAX_PARAM_LENGTH} characters, but ${status}`;
  const { access } = operation;
  if (sent.who === 'none' && access !== 'public' && status !== 401) return `no token, but ${status} (expected 401)`;
  if (sent.who === 'parent' && (access === 'staff' || access === 'admin') && status !== 403) {
    return `a parent token on a staff call, but ${status} (expected 403)`;
  }
  if ((sent.who === 'admin' || sent.who === 'teacher') && access === 'parent' && status !== 403) {
    return `a staff token on a parent call, but ${status} (expected 403)`;
  }
  if (sent.who === 'teacher' && access === 'admin' && status !== 403)
    return `a teacher on an admin call, but ${status}`;
  return undefined;
}

/** Keeps the identities' passwords and tokens in step with what the cases did. */
function afterAnswer(operation: Operation, sent: Sent, response: LightMyRequestResponse): void {
  if (operation.method !== 'GET' && response.statusCode < 300) pools = undefined;
  if (operation.path === '/api/v1/auth/change-password' && response.statusCode === 200) {
    const identity = sent.who === 'admin' ? admin : sent.who === 'teacher' ? teacher : undefined;
    if (!identity) throw new Error(`change-password answered 200 to ${sent.who}`);
    const sentBody = sent.resolvedBody as { new_password?: unknown } | undefined;
    if (typeof sentBody?.new_password !== 'string') throw new Error(`change-password answered 200 to ${sent.body}`);
    identity.password = sentBody.new_password;
    identity.token = response.json().access_token;
  }
}

function describeFailure(operation: Operation, sent: Sent, response: LightMyRequestResponse, problem: string): string {
  return [
    `${operation.method} ${operation.path}: ${problem}`,
    `  as ${sent.who}: ${sent.method} ${sent.url}`,
    `  content-type: ${sent.contentType ?? '(none)'}`,
    `  body: ${sent.body || '(none)'}`,
    `  answer: ${response.statusCode} ${response.body.slice(0, 500)}`,
  ].join('\n');
}

const started = Date.now();

describe.sequential('fuzzing every operation of the OpenAPI document', () => {
  it('the document lists the operations to walk', () => {
    expect(documentResponse.statusCode).toBe(200);
    expect(OPERATIONS.length).toBeGreaterThan(40);
  });

  const walk = OPERATIONS.map((operation, index) => ({
    operation,
    index,
    name: `${operation.method} ${operation.path}`,
  }));
  it.skip.each(walk.filter(({ name }) => ONLY && !ONLY.test(name)))('$name (not in FUZZ_ONLY)', () => {});

  const selected = walk.filter(({ name }) => !ONLY || ONLY.test(name));
  it.each(selected.map((entry, position) => ({ ...entry, position })))(
    '$name',
    async ({ operation, index, position }) => {
      const key = `${operation.method} ${operation.path}`;
      // Each operation gets its share of the time left, so a slow one cannot starve the rest.
      const left = TIME_LIMIT_MS - (Date.now() - started);
      const share = Math.max(750, Math.floor(left / (selected.length - position)));
      let cases = 0;
      const signIn = /\/login$/.test(operation.path);
      const runCase = async (c: Case) => {
        await ensureData();
        // Wrong guesses soon block every sign-in (429); half the cases start afresh so success is reached too.
        if (signIn && c.resetThrottle) await t.db.query('DELETE FROM login_throttle');
        for (const who of c.order) {
          // An earlier request of this case may have deleted the teacher or re-issued the parent's code.
          await refreshIdentities();
          const { sent, response } = await send(operation, c, who);
          record(operation, response);
          const problem = problemWith(operation, sent, response);
          if (problem) {
            if (response.statusCode >= 500) figures.fiveHundreds.push(`${key} ${response.statusCode}`);
            throw new Error(describeFailure(operation, sent, response, problem));
          }
          afterAnswer(operation, sent, response);
        }
        cases += 1;
      };
      // fast-check stops waiting for a case at the time limit, but the case runs on: it is awaited
      // here (so it cannot race the next operation's) and its failure, if any, still counts.
      let inFlight: Promise<unknown> = Promise.resolve();
      const details = await fc.check(
        fc.asyncProperty(caseArbitrary(operation), (c) => {
          const run = runCase(c);
          inFlight = run;
          return run;
        }),
        { seed: SEED + index, numRuns: RUNS, plugins: [fc.interruptAfterTimeLimit(share)] },
      );
      // A property interrupted before its first case ended is "failed" without a counterexample: the
      // case is still running, and is judged below like the others.
      if (details.failed && details.counterexample !== null) {
        throw new Error(`${await fc.asyncDefaultReportMessage(details)}`, { cause: details.errorInstance });
      }
      await inFlight;
      figures.casesByOperation.set(key, cases);
      // Nothing is skipped silently: every operation ran at least one whole case.
      expect(cases, `${key}: no case finished within ${share} ms`).toBeGreaterThan(0);
      expect(await checkIntegrity(t.db), `integrity after ${key}`).toEqual([]);
    },
  );

  it('the integrity check itself catches half-written data (broken rows written in a transaction, rolled back)', async () => {
    class Rollback extends Error {}
    let problems: string[] = [];
    await t.db
      .transaction(async (tx) => {
        // Foreign keys off for this transaction only, so a dangling reference can be written at all.
        await tx.query('SET LOCAL session_replication_role = replica');
        await tx.query(
          `INSERT INTO teachers (first_name, last_name, full_name, phone_number) VALUES ('No', 'Account', 'No Account', '+919800000001')`,
        );
        await tx.query(
          `INSERT INTO users (username, full_name, role, password_hash) VALUES ('orphan-teacher', 'Orphan', 'teacher', 'x')`,
        );
        await tx.query(
          `INSERT INTO attendance (student_id, date, class_name, status, marked_by, approved_at)
           VALUES (2000000000, '2026-01-05', '7', 'present', 'Someone', now())`,
        );
        await tx.query(
          `INSERT INTO messages (subject, message, recipient, delivery_status) VALUES ('s', 'm', '+919800000002', 'delivered')`,
        );
        await tx.query("UPDATE settings SET value = 'maybe' WHERE key = 'absence_alerts'");
        problems = await checkIntegrity(tx);
        throw new Rollback();
      })
      .catch((error) => {
        if (!(error instanceof Rollback)) throw error;
      });
    const found = problems.join('\n');
    for (const rule of [
      'a teacher without a sign-in account',
      'a teacher account without a teacher',
      'attendance half-approved',
      'foreign key',
      'delivery status disagrees',
      'a missing or malformed setting',
    ]) {
      expect(found, rule).toContain(rule);
    }
    expect(await checkIntegrity(t.db)).toEqual([]);
  });

  it('left the database whole, and reports its figures', async () => {
    expect(await checkIntegrity(t.db)).toEqual([]);
    // What the API answers agrees with the tables (no stale read cache after thousands of writes).
    await refreshIdentities();
    const [counts] = await t.db.query<Record<string, number>>(
      `SELECT (SELECT count(*) FROM students)::int AS total_students, (SELECT count(*) FROM teachers)::int AS total_teachers,
              (SELECT count(*) FROM attendance WHERE approved_at IS NULL)::int AS pending_approval`,
    );
    const dashboard = await t.app.inject({
      method: 'GET',
      url: '/api/v1/dashboard/summary',
      headers: auth(admin.token),
    });
    expect(dashboard.json()).toMatchObject(counts as Record<string, number>);
    const students = await t.app.inject({ method: 'GET', url: '/api/v1/students/', headers: auth(admin.token) });
    expect(students.json()).toHaveLength(counts?.total_students ?? -1);
    const teachers = await t.app.inject({ method: 'GET', url: '/api/v1/teachers/', headers: auth(admin.token) });
    expect(teachers.json()).toHaveLength(counts?.total_teachers ?? -1);
    const pending = await t.app.inject({
      method: 'GET',
      url: '/api/v1/attendance/pending-approval',
      headers: auth(admin.token),
    });
    expect(pending.json()).toHaveLength(counts?.pending_approval ?? -1);

    const missed = OPERATIONS.filter((op) => {
      const name = `${op.method} ${op.path}`;
      return (!ONLY || ONLY.test(name)) && !figures.casesByOperation.get(name);
    });
    expect(missed.map((op) => `${op.method} ${op.path}`)).toEqual([]);
    const neverSucceeded = OPERATIONS.filter((op) => figures.casesByOperation.has(`${op.method} ${op.path}`))
      .filter((op) => !figures.successByOperation.get(`${op.method} ${op.path}`))
      .map((op) => `${op.method} ${op.path}`);
    const statuses = [...figures.byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}:${count}`)
      .join(' ');
    const totalCases = [...figures.casesByOperation.values()].reduce((sum, n) => sum + n, 0);
    console.log(
      `fuzz-openapi: seed=${SEED} runs=${RUNS} operations=${OPERATIONS.length} cases=${totalCases} requests=${figures.requests} ` +
        `2xx=${figures.byClass['2xx'] ?? 0} 3xx=${figures.byClass['3xx'] ?? 0} 4xx=${figures.byClass['4xx'] ?? 0} ` +
        `5xx=${figures.byClass['5xx'] ?? 0} statuses={${statuses}} setup_requests=${setup.requests} ` +
        `teachers_replaced=${setup.teachersReplaced} never_2xx=[${neverSucceeded.join(', ')}] ` +
        `seconds=${((Date.now() - started) / 1000).toFixed(1)}`,
    );
    expect(figures.byClass['5xx'] ?? 0).toBe(0);
  });
});
