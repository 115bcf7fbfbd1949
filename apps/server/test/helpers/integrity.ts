import type { Queryable } from '../../src/db/database';

/**
 * Checks that would catch half-written data: the rules the code relies on beyond what the schema's
 * constraints enforce (read from migrations/*.sql and the services), and every foreign key (which
 * PostgreSQL enforces; checked anyway so a later migration that drops one is noticed).
 *
 * Answers one line per problem, naming the rule and a few offending rows; empty means all is well.
 * Read-only, plain SQL valid on PostgreSQL 15 and PGlite.
 */
export async function checkIntegrity(db: Queryable): Promise<string[]> {
  const problems: string[] = [];

  for (const rule of RULES) {
    const rows = await db.query<Record<string, unknown>>(`${rule.sql} LIMIT 5`);
    if (rows.length > 0) problems.push(`${rule.name}: ${JSON.stringify(rows)}`);
  }

  problems.push(...(await checkForeignKeys(db)));
  problems.push(...(await checkSequences(db)));
  return problems;
}

interface Rule {
  name: string;
  /** Selects the rows that break the rule (none when it holds). */
  sql: string;
}

const CLASSES = `('7', '8', '9', '10')`;

const RULES: Rule[] = [
  // ---- Accounts ----
  {
    name: 'there is no admin account (the first-start admin is never deleted)',
    sql: `SELECT 'none' AS admins WHERE NOT EXISTS (SELECT 1 FROM users WHERE role = 'admin')`,
  },
  {
    name: 'a teacher without a sign-in account (creating a teacher creates one, in the same transaction)',
    sql: 'SELECT id, unique_id FROM teachers WHERE user_id IS NULL',
  },
  {
    name: 'a teacher account without a teacher (deleting a teacher deletes the account with it)',
    sql: `SELECT u.id, u.username FROM users u
           WHERE u.role = 'teacher' AND NOT EXISTS (SELECT 1 FROM teachers t WHERE t.user_id = u.id)`,
  },
  {
    name: "a teacher linked to an account that is not a teacher's (deleting the teacher would delete it)",
    sql: `SELECT t.id, t.unique_id, u.id AS user_id, u.role FROM teachers t JOIN users u ON u.id = t.user_id
           WHERE u.role <> 'teacher'`,
  },
  {
    name: "a teacher account's username is not the teacher's code",
    sql: `SELECT t.unique_id, u.username FROM teachers t JOIN users u ON u.id = t.user_id
           WHERE lower(u.username) <> lower(t.unique_id)`,
  },
  {
    name: "a teacher account's name differs from the teacher's (an edit changes both)",
    sql: `SELECT t.unique_id, t.full_name, u.full_name AS account_name FROM teachers t JOIN users u ON u.id = t.user_id
           WHERE u.full_name <> t.full_name`,
  },
  {
    name: 'a teacher whose full_name is not first_name + " " + last_name',
    sql: `SELECT id, first_name, last_name, full_name FROM teachers WHERE full_name <> first_name || ' ' || last_name`,
  },
  {
    name: 'a token version or throttle count below zero',
    sql: `SELECT 'users' AS t, id::text AS id FROM users WHERE token_version < 0
          UNION ALL SELECT 'parent_access', phone FROM parent_access WHERE token_version < 0
          UNION ALL SELECT 'login_throttle', key FROM login_throttle WHERE failures < 0`,
  },
  {
    name: 'a sign-in block longer than the 15-minute cap (ASVS 6.3.1: no lockout for good)',
    sql: `SELECT key, blocked_until FROM login_throttle WHERE blocked_until > now() + interval '16 minutes'`,
  },

  // ---- Students and teachers ----
  {
    name: 'a student name or parent name that is not trimmed, or an empty student name',
    sql: `SELECT id, full_name, parent_name FROM students
           WHERE full_name <> btrim(full_name) OR parent_name <> btrim(parent_name) OR btrim(full_name) = ''`,
  },
  {
    name: 'a teacher name that is empty once trimmed',
    sql: `SELECT id, first_name, last_name FROM teachers WHERE btrim(first_name) = '' OR btrim(last_name) = ''`,
  },
  {
    name: 'a teacher with an unknown or repeated class or a repeated subject',
    sql: `SELECT id, subjects, classes_assigned FROM teachers
           WHERE EXISTS (SELECT 1 FROM unnest(classes_assigned) AS c(v) WHERE c.v NOT IN ${CLASSES})
              OR cardinality(classes_assigned) <> (SELECT count(DISTINCT v) FROM unnest(classes_assigned) AS c(v))
              OR cardinality(subjects) <> (SELECT count(DISTINCT v) FROM unnest(subjects) AS s(v))`,
  },
  {
    name: 'a code (STU…/TCH…) not in the server format',
    sql: `SELECT 'student' AS kind, unique_id FROM students WHERE unique_id !~ '^STU[0-9]{4,}$'
          UNION ALL SELECT 'teacher', unique_id FROM teachers WHERE unique_id !~ '^TCH[0-9]{4,}$'`,
  },

  // ---- Student attendance ----
  {
    name: 'attendance half-approved (approved_at, approved_by and approved_by_user_id are set together)',
    sql: `SELECT id, approved_at, approved_by, approved_by_user_id FROM attendance
           WHERE (approved_at IS NULL) <> (approved_by IS NULL)
              OR (approved_at IS NULL AND approved_by_user_id IS NOT NULL)`,
  },
  {
    name: 'attendance approved before it was marked (an approved record cannot be re-marked)',
    sql: 'SELECT id, marked_at, approved_at FROM attendance WHERE approved_at < marked_at',
  },
  {
    name: 'attendance with an unknown class or no marker',
    sql: `SELECT id, class_name, marked_by FROM attendance WHERE class_name NOT IN ${CLASSES} OR btrim(marked_by) = ''`,
  },

  // ---- Teacher attendance ----
  {
    name: 'teacher attendance with a check-in or check-out time not in HH:MM[:SS]',
    sql: `SELECT id, check_in_time, check_out_time FROM teacher_attendance
           WHERE check_in_time !~ '^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?$'
              OR check_out_time !~ '^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?$'`,
  },

  // ---- Messages and push ----
  {
    name: 'a message whose delivery status disagrees with its timestamps or reason',
    sql: `SELECT id, delivery_status, delivered_at, read_at, failure_reason FROM messages
           WHERE (delivery_status IN ('delivered', 'read')) <> (delivered_at IS NOT NULL)
              OR (read_at IS NOT NULL AND delivery_status <> 'read')
              OR (delivery_status = 'failed') <> (failure_reason IS NOT NULL)`,
  },
  {
    name: 'a message to a parent or WhatsApp recipient that is not a phone number',
    sql: `SELECT id, message_type, recipient FROM messages WHERE recipient !~ '^\\+[1-9][0-9]{7,14}$'`,
  },
  {
    name: 'a message below the best of its attempts (a status moved backwards or was lost)',
    sql: `SELECT m.id, m.delivery_status, a.channel, a.status FROM messages m JOIN message_attempts a ON a.message_id = m.id
           WHERE (a.status = 'read' AND m.delivery_status <> 'read')
              OR (a.status = 'delivered' AND m.delivery_status NOT IN ('delivered', 'read'))
              OR (a.status = 'sent' AND m.delivery_status IN ('queued', 'failed'))`,
  },
  {
    name: 'a message failed while one of its attempts is still queued',
    sql: `SELECT m.id FROM messages m
           WHERE m.delivery_status = 'failed'
             AND EXISTS (SELECT 1 FROM message_attempts a WHERE a.message_id = m.id AND a.status = 'queued')`,
  },
  {
    name: 'an attempt whose status disagrees with its times, reason or WhatsApp id',
    sql: `SELECT id, channel, status FROM message_attempts
           WHERE (status = 'failed') <> (failure_reason IS NOT NULL)
              OR (status IN ('delivered', 'read') AND delivered_at IS NULL)
              OR (status = 'read' AND read_at IS NULL)
              OR (channel = 'whatsapp' AND status IN ('delivered', 'read') AND provider_message_id IS NULL)
              OR (channel = 'whatsapp' AND status = 'queued' AND next_attempt_at IS NULL)
              OR (channel = 'whatsapp' AND whatsapp_template IS NULL AND whatsapp_text IS NULL)`,
  },
  {
    name: 'a family whose records disagree on WhatsApp consent or language',
    sql: `SELECT parent_phone FROM students GROUP BY parent_phone
          HAVING count(DISTINCT parent_whatsapp_opt_in) > 1 OR count(DISTINCT parent_language) > 1`,
  },
  {
    name: "a push queued for a device of another phone than the message's recipient",
    sql: `SELECT o.id, m.recipient, s.phone FROM push_outbox o
            JOIN messages m ON m.id = o.message_id JOIN push_subscriptions s ON s.id = o.subscription_id
           WHERE m.recipient <> s.phone`,
  },
  {
    name: 'a push still queued for a message the parent has read',
    sql: `SELECT o.id, o.message_id FROM push_outbox o JOIN messages m ON m.id = o.message_id
           WHERE m.read_at IS NOT NULL`,
  },

  // ---- Settings ----
  {
    name: 'a missing or malformed setting',
    sql: `SELECT 'absence_alerts' AS key WHERE NOT EXISTS
            (SELECT 1 FROM settings WHERE key = 'absence_alerts' AND value IN ('true', 'false'))
          UNION ALL SELECT 'server_key_id' WHERE NOT EXISTS
            (SELECT 1 FROM settings WHERE key = 'server_key_id' AND value ~ '^[0-9a-f]{16}$')`,
  },
  {
    // ADR 017: the keys live in the key file; a backup of the database must not carry any.
    name: 'a key kept in the database',
    sql: `SELECT key FROM settings WHERE key IN ('jwt_secret', 'vapid_keys')`,
  },

  // ---- Two-factor ----
  {
    name: 'a two-factor secret not sealed under the key file (v2)',
    sql: `SELECT user_id FROM user_two_factor WHERE secret_encrypted !~ '^v2\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$'`,
  },
  {
    name: 'a recovery code stored without the key (not v2 HMAC)',
    sql: `SELECT id, user_id FROM two_factor_recovery_codes WHERE code_hash !~ '^v2\\.[0-9a-f]{64}$'`,
  },
];

/** Every foreign key of the public schema, read from the catalogue: no child row points at nothing. */
async function checkForeignKeys(db: Queryable): Promise<string[]> {
  const keys = await db.query<{ name: string; child: string; parent: string; child_cols: string; parent_cols: string }>(
    `SELECT c.conname AS name, c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent,
            (SELECT string_agg(quote_ident(a.attname), ',' ORDER BY k.ord)
               FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, ord)
               JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum) AS child_cols,
            (SELECT string_agg(quote_ident(a.attname), ',' ORDER BY k.ord)
               FROM unnest(c.confkey) WITH ORDINALITY AS k(attnum, ord)
               JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum) AS parent_cols
       FROM pg_constraint c
      WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace
      ORDER BY c.conname`,
  );
  const problems: string[] = [];
  for (const key of keys) {
    const childCols = key.child_cols.split(',');
    const parentCols = key.parent_cols.split(',');
    const notNull = childCols.map((col) => `c.${col} IS NOT NULL`).join(' AND ');
    const matches = childCols.map((col, i) => `p.${parentCols[i]} = c.${col}`).join(' AND ');
    const rows = await db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM ${key.child} c
        WHERE ${notNull} AND NOT EXISTS (SELECT 1 FROM ${key.parent} p WHERE ${matches})`,
    );
    const count = rows[0]?.count ?? 0;
    if (count > 0) problems.push(`foreign key ${key.name}: ${count} row(s) of ${key.child} point at no ${key.parent}`);
  }
  if (keys.length === 0) problems.push('no foreign keys found in the catalogue: the check itself is broken');
  return problems;
}

/** Codes are never reused: each sequence is at or past the highest code it gave out. */
async function checkSequences(db: Queryable): Promise<string[]> {
  const problems: string[] = [];
  for (const [table, sequence, prefix] of [
    ['students', 'student_number_seq', 'STU'],
    ['teachers', 'teacher_number_seq', 'TCH'],
  ] as const) {
    const rows = await db.query<{ last: number; highest: number | null }>(
      `SELECT (SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM ${sequence})::int AS last,
              (SELECT max(substr(unique_id, ${prefix.length + 1})::bigint) FROM ${table}
                WHERE unique_id ~ '^${prefix}[0-9]+$')::int AS highest`,
    );
    const row = rows[0];
    if (row && row.highest !== null && row.highest > row.last) {
      problems.push(`${sequence} is at ${row.last} but ${table} holds ${prefix}${row.highest}: a code could be reused`);
    }
  }
  return problems;
}
